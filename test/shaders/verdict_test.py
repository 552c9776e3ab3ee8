#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Expected uniformity verdicts of the bundled shaders, at -O0 and after spirv-opt -O.

  python3 test/shaders/verdict_test.py --spirv-conv PATH --shaders DIR --work-dir DIR
                                       [--glslang P] [--spirv-opt P] [--spirv-val P] [-v]

Every shader (by stage extension) in DIR is compiled twice:
  -O0: glslangValidator -V -g -Od --target-env vulkan1.2 (-g: OpLine debug lines;
       glslang's -O0 code keeps locals and loop counters in Function variables),
  -O:  spirv-opt -O --target-env=vulkan1.2 on that module (OpLines survive),
both are checked by spirv-val, and `spirv-conv uniformity --format json` reports
on both. From a report the test takes, per source line, the branch levels of
the blocks that end in OpBranchConditional or OpSwitch on that line, and the
control-flow levels of the convergent instructions (derivatives, implicit-LOD
sampling, barriers, group operations: json.md "convergent_ops") on that line.

Markers (docs/shader-verdicts.md) sit in a // comment on the line they are about:
  // EXPECT: branch divergent                 every conditional branch on the line
  // EXPECT: cf quad                          every convergent op on the line
  // EXPECT: branch subgroup, cf uniform      several clauses
  // EXPECT: branch uniform (gone after -O: <why>)
  // EXPECT-KNOWN-WRONG: cf uniform           the right verdict, which the analysis
                                              is known to miss at -O0 or after -O
Levels: uniform, subgroup, quad, divergent.

Checks:
  (a) every EXPECT clause holds at -O0: the line has such a construct and every
      one of them has the level;
  (b) the same after -O wherever the construct still exists. A construct that
      spirv-opt removed (folded, if-converted) fails the test unless the clause
      says `(gone after -O: <why>)`; a clause that says so while the construct
      is still there fails too, so the explanations stay true;
  (c) for every line with a conditional branch in both builds, the sets of branch
      levels on it are equal, and for every (line, opcode) with convergent ops in
      both builds, the sets of their control-flow levels are equal: the verdicts
      do not depend on the optimisation level.
An EXPECT-KNOWN-WRONG clause names the right verdict for a construct the analysis
gets wrong in at least one of the two builds: listed as known, not a failure. It
fails when its construct is missing at -O0, or when it holds in both builds (the
mark is stale: make it an EXPECT). A (c) difference on its line and kind is
listed as known too.

Prints one line per failure and per known-wrong clause, then a summary, and
exits 1 on any failure, or when no shader has a marker.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

STAGE_EXTENSIONS = ("vert", "tesc", "tese", "geom", "frag", "comp", "mesh", "task",
                    "rgen", "rint", "rahit", "rchit", "rmiss", "rcall")
LEVELS = ("uniform", "subgroup", "quad", "divergent")
CONDITIONAL = ("OpBranchConditional", "OpSwitch")
TARGET_ENV = "vulkan1.2"
TIMEOUT = 120  # seconds for any one tool run

MARKER_RE = re.compile(r"\bEXPECT([-A-Z]*):")
CLAUSE_RE = re.compile(r"\s*(branch|cf)\s+([a-z]+)"
                       r"(?:\s*\(gone after -O:\s*([^)]*?)\s*\))?\s*(,|$)")


class Clause:
    def __init__(self, path, line, kind, level, known_wrong, gone_reason):
        self.path = path
        self.line = line
        self.kind = kind                # "branch" or "cf"
        self.level = level
        self.known_wrong = known_wrong
        self.gone_reason = gone_reason  # None, or why spirv-opt removes the construct

    def where(self):
        return "%s:%d" % (os.path.basename(self.path), self.line)

    def text(self):
        return "%s %s" % (self.kind, self.level)


def parse_markers(path):
    """The clauses of every marker in |path|; raises ValueError on a malformed one."""
    clauses = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for number, line in enumerate(lines, 1):
        if "//" not in line:
            continue
        code, comment = line.split("//", 1)
        markers = list(MARKER_RE.finditer(comment))
        if not markers:
            continue
        if not code.strip():
            raise ValueError("%s:%d: a marker must share its line with the code it is about"
                             % (path, number))
        for i, marker in enumerate(markers):
            tag = marker.group(1)
            if tag not in ("", "-KNOWN-WRONG"):
                raise ValueError("%s:%d: unknown marker 'EXPECT%s:'" % (path, number, tag))
            end = markers[i + 1].start() if i + 1 < len(markers) else len(comment)
            body = comment[marker.end():end]
            pos, found = 0, 0
            while pos < len(body) and body[pos:].strip():
                m = CLAUSE_RE.match(body, pos)
                if not m or m.group(2) not in LEVELS:
                    raise ValueError("%s:%d: cannot parse marker clause '%s' (expected "
                                     "'branch|cf uniform|subgroup|quad|divergent')"
                                     % (path, number, body[pos:].strip()))
                clauses.append(Clause(path, number, m.group(1), m.group(2),
                                      tag == "-KNOWN-WRONG", m.group(3)))
                found += 1
                pos = m.end()
                if m.group(4) == "":
                    break
            if body[pos:].strip() or found == 0:
                raise ValueError("%s:%d: cannot parse marker '%s'"
                                 % (path, number, comment[marker.start():end].strip()))
    return clauses


def run(args):
    """Runs |args|; returns (ok, message)."""
    try:
        proc = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, "%s: timed out after %d s" % (os.path.basename(args[0]), TIMEOUT)
    if proc.returncode != 0:
        text = (proc.stderr or proc.stdout).decode("utf-8", "replace").strip()
        return False, "%s exited %d: %s" % (os.path.basename(args[0]), proc.returncode,
                                            text.splitlines()[0] if text else "(no message)")
    return True, ""


class Facts:
    """Per source line: branch levels and convergent-op levels of one build."""

    def __init__(self, report):
        self.branches = collections.defaultdict(list)  # line -> [level]
        self.ops = collections.defaultdict(list)       # line -> [(opcode, level)]
        for function in report["functions"]:
            for block in function["blocks"]:
                if block["terminator"] in CONDITIONAL and block["line"] is not None:
                    self.branches[block["line"]].append(block["branch_level"])
            for op in function["convergent_ops"]:
                if op["line"] is not None:
                    self.ops[op["line"]].append((op["opcode"], op["control_flow_level"]))

    def levels(self, kind, line):
        if kind == "branch":
            return list(self.branches.get(line, []))
        return [level for _, level in self.ops.get(line, [])]

    def op_groups(self):
        """(line, opcode) -> set of control-flow levels."""
        groups = collections.defaultdict(set)
        for line, ops in self.ops.items():
            for opcode, level in ops:
                groups[(line, opcode)].add(level)
        return groups


def build(tools, source, work_dir):
    """Compiles |source| at -O0 and -O; returns ({"O0": Facts, "O": Facts}, error)."""
    stem = os.path.join(work_dir, os.path.basename(source))
    spv = {"O0": stem + ".O0.spv", "O": stem + ".O.spv"}
    for path in spv.values():
        if os.path.exists(path):
            os.remove(path)
    steps = [
        [tools.glslang, "-V", "-g", "-Od", "--target-env", TARGET_ENV, source, "-o", spv["O0"]],
        [tools.spirv_val, "--target-env", TARGET_ENV, spv["O0"]],
        [tools.spirv_opt, "-O", "--target-env=" + TARGET_ENV, spv["O0"], "-o", spv["O"]],
        [tools.spirv_val, "--target-env", TARGET_ENV, spv["O"]],
    ]
    for step in steps:
        ok, message = run(step)
        if not ok:
            return None, message
    facts = {}
    for name, path in spv.items():
        ok, message = run([tools.spirv_conv, "uniformity", "--format", "json", path,
                           "-o", path + ".json"])
        if not ok:
            return None, "%s: %s" % (name, message)
        with open(path + ".json", encoding="utf-8") as f:
            facts[name] = Facts(json.load(f))
    return facts, None


def check_shader(tools, source, work_dir, stats, verbose):
    """Checks one shader; returns (failures, known) as lists of message lines."""
    failures, known = [], []
    name = os.path.basename(source)
    try:
        clauses = parse_markers(source)
    except ValueError as e:
        return [str(e)], known
    facts, error = build(tools, source, work_dir)
    if error:
        return ["%s: %s" % (name, error)], known
    o0, opt = facts["O0"], facts["O"]
    if clauses:
        stats["shaders with markers"] += 1
    excused = set()  # (kind, line) of known-wrong clauses: their (c) differences are known

    for c in clauses:
        got0, got_opt = o0.levels(c.kind, c.line), opt.levels(c.kind, c.line)
        what = "conditional branch" if c.kind == "branch" else "convergent op"
        if c.known_wrong:
            # The clause names the right verdict; the analysis misses it in
            # at least one build (where the construct exists).
            excused.add((c.kind, c.line))
            stats["known wrong"] += 1
            builds = [("-O0", got0), ("-O", got_opt)]
            wrong = [b for b, got in builds if got and any(level != c.level for level in got)]
            if not got0:
                failures.append("%s: EXPECT-KNOWN-WRONG '%s': no %s on this line at -O0"
                                % (c.where(), c.text(), what))
            elif not wrong:
                failures.append("%s: EXPECT-KNOWN-WRONG '%s' holds in every build now: make "
                                "it an EXPECT" % (c.where(), c.text()))
            else:
                known.append("%s: %s is right; wrong %s (got %s at -O0, %s after -O)" % (
                    c.where(), c.text(), " and ".join(wrong), "/".join(sorted(set(got0))),
                    "/".join(sorted(set(got_opt))) or "nothing"))
            continue
        # (a) at -O0.
        stats["clauses"] += 1
        if not got0:
            failures.append("%s: EXPECT '%s': no %s on this line at -O0" % (c.where(), c.text(),
                                                                            what))
            continue
        if any(level != c.level for level in got0):
            failures.append("%s: EXPECT '%s' fails at -O0: got %s" % (c.where(), c.text(),
                                                                      sorted(got0)))
        else:
            stats["hold at -O0"] += 1
        # (b) after -O.
        if not got_opt:
            if c.gone_reason:
                stats["gone after -O (explained)"] += 1
            else:
                failures.append("%s: EXPECT '%s': no %s on this line after -O; say why with "
                                "'(gone after -O: ...)'" % (c.where(), c.text(), what))
            continue
        if c.gone_reason:
            failures.append("%s: EXPECT '%s' says '(gone after -O: %s)', but the %s is still "
                            "there after -O" % (c.where(), c.text(), c.gone_reason, what))
        stats["checked at -O"] += 1
        if any(level != c.level for level in got_opt):
            failures.append("%s: EXPECT '%s' fails after -O: got %s" % (c.where(), c.text(),
                                                                         sorted(got_opt)))
        else:
            stats["hold at -O"] += 1

    # (c) -O0 and -O agree line by line.
    for line in sorted(set(o0.branches) & set(opt.branches)):
        stats["branch lines compared"] += 1
        a, b = set(o0.branches[line]), set(opt.branches[line])
        if a != b:
            message = "%s:%d: branch levels differ: %s at -O0, %s after -O" % (
                name, line, sorted(a), sorted(b))
            (known if ("branch", line) in excused else failures).append(message)
    groups0, groups_opt = o0.op_groups(), opt.op_groups()
    for key in sorted(set(groups0) & set(groups_opt)):
        stats["convergent-op lines compared"] += 1
        a, b = groups0[key], groups_opt[key]
        if a != b:
            message = "%s:%d: %s control-flow levels differ: %s at -O0, %s after -O" % (
                name, key[0], key[1], sorted(a), sorted(b))
            (known if ("cf", key[0]) in excused else failures).append(message)
    if verbose:
        print("%s: %d clauses; -O0: %d branch lines, %d op lines; -O: %d branch lines, "
              "%d op lines" % (name, len(clauses), len(o0.branches), len(o0.ops),
                               len(opt.branches), len(opt.ops)))
    return failures, known


def find_tool(name, given):
    path = given or shutil.which(name)
    if not path or not os.access(path, os.X_OK):
        return None
    return os.path.abspath(path)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spirv-conv", required=True, help="the spirv-conv binary")
    parser.add_argument("--shaders", required=True, help="folder of GLSL shaders")
    parser.add_argument("--work-dir", required=True, help="folder for compiled modules")
    parser.add_argument("--glslang", help="glslangValidator (default: from PATH)")
    parser.add_argument("--spirv-opt", help="spirv-opt (default: from PATH)")
    parser.add_argument("--spirv-val", help="spirv-val (default: from PATH)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)

    tools = argparse.Namespace(spirv_conv=find_tool("spirv-conv", args.spirv_conv),
                               glslang=find_tool("glslangValidator", args.glslang),
                               spirv_opt=find_tool("spirv-opt", args.spirv_opt),
                               spirv_val=find_tool("spirv-val", args.spirv_val))
    for name, path in vars(tools).items():
        if path is None:
            print("verdict: error: %s not found or not executable" % name, file=sys.stderr)
            return 1
    if not os.path.isdir(args.shaders):
        print("verdict: error: '%s' is not a folder" % args.shaders, file=sys.stderr)
        return 1
    shaders = sorted(os.path.join(os.path.abspath(args.shaders), n)
                     for n in os.listdir(args.shaders)
                     if "." in n and n.rsplit(".", 1)[1] in STAGE_EXTENSIONS)
    work_dir = os.path.abspath(args.work_dir)
    os.makedirs(work_dir, exist_ok=True)

    stats = collections.Counter()
    failures, known = [], []
    for source in shaders:
        f, k = check_shader(tools, source, work_dir, stats, args.verbose)
        failures += f
        known += k
    for line in known:
        print("KNOWN WRONG " + line)
    for line in failures:
        print("FAIL " + line)
    print("verdict: %d shaders, %d with markers; %d EXPECT clauses: %d hold at -O0; "
          "%d checked after -O (%d hold), %d gone after -O (explained); %d known wrong"
          % (len(shaders), stats["shaders with markers"], stats["clauses"],
             stats["hold at -O0"], stats["checked at -O"], stats["hold at -O"],
             stats["gone after -O (explained)"], stats["known wrong"]))
    print("verdict: -O0 vs -O compared on %d branch lines and %d (line, convergent opcode) "
          "pairs" % (stats["branch lines compared"], stats["convergent-op lines compared"]))
    print("verdict: %d failures" % len(failures))
    if stats["shaders with markers"] == 0:
        print("verdict: error: no shader has an EXPECT marker", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
