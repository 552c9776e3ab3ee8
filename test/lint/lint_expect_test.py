#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Expected findings of `spirv-conv lint` on the shaders/lint corpus, at -O0 and after spirv-opt -O.

  python3 test/lint/lint_expect_test.py --spirv-conv PATH --shaders DIR --work-dir DIR
                                        [--glslang P] [--spirv-opt P] [--spirv-val P]
                                        [--allow-unexpected] [-v]
  python3 test/lint/lint_expect_test.py --list --shaders DIR
  python3 test/lint/lint_expect_test.py --build-only --shaders DIR --work-dir DIR [tools]

Every shader (by stage extension, or NAME.<stage>.hlsl) in DIR is compiled twice:
  -O0: glslangValidator -V -g -Od --target-env vulkan1.2 (-g: OpLine debug lines);
       HLSL: spirv-conv opt -g (glslang's HLSL front end with its legalization,
       the stage from the name: a.ps.hlsl, a.cs.hlsl; docs/hlsl.md),
  -O:  spirv-opt -O --target-env=vulkan1.2 on that module (the OpLines survive),
both are checked by spirv-val, and `spirv-conv lint --format json` reports on
both (exit 0 or 1; the JSON on stdout, docs/json.md).

Annotations (docs/lint-corpus.md) sit in a // comment on the source line the
finding belongs to (the line of the offending call or instruction):
  // EXPECT: derivative-divergent-cf          the lint reports this rule on this line
  // EXPECT: derivative-divergent-cf warning  ... with this severity
  // EXPECT-NOT: nonuniform-missing-decoration   it must not report this rule here
  // EXPECT: rule-a, rule-b EXPECT-NOT: rule-c    several clauses and markers
  // EXPECT-O0: rule-a warning EXPECT-O: rule-b note
                                            one build only: for verdicts that
                                            depend on what spirv-opt -O does
                                            (a helper it inlines)
A file whose header comment (the comment lines before the first line of code)
contains the word CLEAN must produce no finding at all; it may not carry EXPECT
markers. Every other file needs at least one EXPECT or EXPECT-NOT.

Checks, per build:
  (a) every EXPECT is reported: a finding with that rule (and severity, when
      the marker names one) whose location has that line;
  (b) no EXPECT-NOT is reported;
  (c) every finding is expected: a finding whose (rule, line) no EXPECT names
      is a failure (--allow-unexpected lists these instead), so a CLEAN file
      has none;
  (d) -O0 and -O report the same (rule, line, severity) set, except on lines
      with an EXPECT-O0 or EXPECT-O marker (those markers say what each build
      reports there);
  (e) every explanation ends at a source of non-uniformity, in words: the
      last note of each finding names what varies ("..., which varies per
      invocation", "... is only uniform within a quad", "'x' is computed by
      OpAtomicIAdd: ...", "'b' is read from 'buf': memory other invocations may
      write ..."), never an intermediate step ("control flow depends on ...").
      nonuniform-redundant-decoration ends at the uniform index by design, and
      subgroup-op-helper-invocations at the derivative or the demote (it is
      about helper invocations, not about a non-uniform value).
After -O, a marker whose line has no construct of the rule's kind left
(no OpLine for the line, or the derivative / implicit-LOD sample / barrier /
subgroup op / descriptor-array access chain was folded away) is skipped and
counted, and so are -O0 findings on such lines in (d).
Independently of the lint, every marker must sit on a line whose -O0 module
(for EXPECT-O: the -O module) has such a construct (so a marker on the wrong line fails even before the lint
exists: --build-only checks only this and the compile/validate steps).

Prints one line per failure, a table per shader and per rule, then a summary,
and exits 1 on any failure, a malformed marker, a tool error, or an empty
corpus. --list prints the expectations of every shader and needs no tools.
"""

import argparse
import collections
import json
import os
import re
import shutil
import struct
import subprocess
import sys

STAGE_EXTENSIONS = ("vert", "tesc", "tese", "geom", "frag", "comp", "mesh", "task",
                    "rgen", "rint", "rahit", "rchit", "rmiss", "rcall")
RULES = ("derivative-divergent-cf", "derivative-after-discard", "barrier-divergent-cf",
         "nonuniform-missing-decoration", "nonuniform-redundant-decoration",
         "subgroup-op-divergent-cf", "subgroup-op-after-rejoin", "subgroup-op-divergent-call",
         "subgroup-op-inactive-invocation", "quad-op-divergent-cf",
         "subgroup-op-helper-invocations", "subgroup-op-nonuniform-operand",
         "group-op-divergent-cf")
SEVERITIES = ("error", "warning", "note")
TARGET_ENV = "vulkan1.2"
TIMEOUT = 120  # seconds for any one tool run

MARKER_RE = re.compile(r"\bEXPECT([-A-Z0-9]*):")
# The builds each marker tag applies to; "-NOT" is the negative one.
TAG_BUILDS = {"": ("O0", "O"), "-NOT": ("O0", "O"), "-O0": ("O0",), "-O": ("O",)}
ITEM_RE = re.compile(r"\s*([a-z][a-z0-9-]*)(?:\s+(error|warning|note))?\s*(,|$)")


# --------------------------------------------------------------------------- annotations

class Marker:
    def __init__(self, path, line, rule, tag, severity, code):
        self.path = path
        self.line = line
        self.rule = rule
        self.tag = tag                     # "", "-NOT", "-O0" or "-O"
        self.negative = tag == "-NOT"      # EXPECT-NOT
        self.builds = TAG_BUILDS[tag]      # the builds it is checked in
        self.severity = severity           # None: any severity
        self.code = code                   # the source line, for --list

    def where(self):
        return "%s:%d" % (os.path.basename(self.path), self.line)

    def text(self):
        return "EXPECT%s: %s%s" % (self.tag, self.rule, " " + self.severity if self.severity else "")


class Annotations:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        self.clean = False
        self.markers = []

    def expects(self):
        return [m for m in self.markers if not m.negative]

    def expect_nots(self):
        return [m for m in self.markers if m.negative]


def parse_annotations(path):
    """The annotations of |path|; raises ValueError on a malformed one."""
    result = Annotations(path)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    header = []
    for line in lines:
        stripped = line.strip()
        if stripped and not stripped.startswith("//"):
            break
        header.append(stripped)
    result.clean = re.search(r"\bCLEAN\b", "\n".join(header)) is not None
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
            if tag not in TAG_BUILDS:
                raise ValueError("%s:%d: unknown marker 'EXPECT%s:' (EXPECT:, EXPECT-NOT:, "
                                 "EXPECT-O0: or EXPECT-O:)" % (path, number, tag))
            end = markers[i + 1].start() if i + 1 < len(markers) else len(comment)
            body = comment[marker.end():end]
            pos, found = 0, 0
            while pos < len(body) and body[pos:].strip():
                m = ITEM_RE.match(body, pos)
                if not m or m.group(1) not in RULES:
                    raise ValueError("%s:%d: cannot parse '%s': expected a rule id (%s)"
                                     % (path, number, body[pos:].strip(), ", ".join(RULES)))
                if m.group(2) and tag == "-NOT":
                    raise ValueError("%s:%d: EXPECT-NOT takes no severity" % (path, number))
                result.markers.append(Marker(path, number, m.group(1), tag, m.group(2),
                                             code.strip()))
                found += 1
                pos = m.end()
                if m.group(3) == "":
                    break
            if body[pos:].strip() or found == 0:
                raise ValueError("%s:%d: cannot parse marker '%s'"
                                 % (path, number, comment[marker.start():end].strip()))
    keys = collections.Counter((m.line, m.rule, build) for m in result.markers
                               for build in m.builds)
    for (line, rule, build), count in keys.items():
        if count > 1:
            raise ValueError("%s:%d: %s named by more than one marker for the %s build"
                             % (path, line, rule, build))
    if result.clean and result.expects():
        raise ValueError("%s: a CLEAN shader cannot have EXPECT markers" % path)
    if not result.clean and not result.markers:
        raise ValueError("%s: no EXPECT/EXPECT-NOT marker and no CLEAN in the header comment"
                         % path)
    return result


# --------------------------------------------------------------------------- SPIR-V constructs

OP_STRING, OP_LINE, OP_NO_LINE = 7, 8, 317
OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY, OP_TYPE_POINTER = 28, 29, 32
OP_ENTRY_POINT = 15
OP_FUNCTION, OP_FUNCTION_END, OP_VARIABLE = 54, 56, 59
OP_ACCESS_CHAIN, OP_IN_BOUNDS_ACCESS_CHAIN = 65, 66
OP_LABEL = 248
TERMINATORS = {249, 250, 251, 252, 253, 254, 255, 4416}  # branch … unreachable, terminate
DERIVATIVES = set(range(207, 216))                        # OpDPdx … OpFwidthCoarse
IMPLICIT_LOD = {87, 89, 91, 93, 105, 305, 307, 309, 311}  # Sample*ImplicitLod (+ Sparse), QueryLod
OP_CONTROL_BARRIER = 224
DESCRIPTOR_CLASSES = {0, 2, 12}                           # UniformConstant, Uniform, StorageBuffer
# Broadcast, Shuffle, ShuffleXor/Up/Down, QuadBroadcast, QuadSwap, RotateKHR, ReadInvocationKHR.
READS_OTHER_INVOCATION = {337, 345, 346, 347, 348, 365, 366, 4431, 4432}
CLASSIC_GROUP_OPS = set(range(261, 272))                  # OpGroupAll ... OpGroupSMax
# QuadBroadcast, QuadSwap, QuadAllKHR, QuadAnyKHR.
QUAD_OPS = {365, 366, 5110, 5111}
# Broadcast (Id), QuadBroadcast (Index), RotateKHR (Delta), ReadInvocationKHR (Index).
UNIFORM_OPERAND = {337, 365, 4431, 4432}

# The kind of construct each rule is about, as a predicate on an instruction.
RULE_KIND = {
    "derivative-divergent-cf": "derivative or implicit-LOD instruction",
    "derivative-after-discard": "derivative, implicit-LOD instruction or quad operation",
    "quad-op-divergent-cf": "quad operation",
    "subgroup-op-helper-invocations": "subgroup operation",
    "subgroup-op-nonuniform-operand": "subgroup operation with a uniform operand",
    "barrier-divergent-cf": "OpControlBarrier",
    "subgroup-op-divergent-cf": "subgroup operation",
    "subgroup-op-after-rejoin": "subgroup operation",
    "subgroup-op-divergent-call": "subgroup operation in a function other than an entry point",
    "subgroup-op-inactive-invocation": "subgroup operation that reads another invocation",
    "group-op-divergent-cf": "OpGroup* operation without NonUniform",
    "nonuniform-missing-decoration": "access chain into a descriptor array",
    "nonuniform-redundant-decoration": "access chain into a descriptor array",
}


def is_subgroup_op(opcode):
    # OpGroupNonUniform* (333-366), OpSubgroup*KHR (4421-4432), OpGroupNonUniformRotateKHR,
    # the AMD/NV group ops are not used by the corpus.
    return 333 <= opcode <= 366 or 4421 <= opcode <= 4432 or opcode in (5110, 5111)


class Module:
    """Per source line of one file: which rule constructs the module has there."""

    def __init__(self, path, source_name):
        with open(path, "rb") as f:
            data = f.read()
        if len(data) < 20 or len(data) % 4:
            raise ValueError("%s: not a SPIR-V binary" % path)
        magic = struct.unpack("<I", data[:4])[0]
        order = "<" if magic == 0x07230203 else ">"
        words = struct.unpack(order + "%dI" % (len(data) // 4), data)
        strings, pointers, types, variables = {}, {}, {}, {}
        self.entry_points = set()                 # function ids
        self.function = None                      # the function being read
        self.lines = set()                        # lines with an OpLine (this file)
        self.kinds = collections.defaultdict(set)  # line -> set of rules with a construct
        line = None
        i = 5
        while i < len(words):
            count, opcode = words[i] >> 16, words[i] & 0xFFFF
            if count == 0:
                raise ValueError("%s: malformed instruction at word %d" % (path, i))
            ops = words[i + 1:i + count]
            i += count
            if opcode == OP_STRING:
                text = struct.pack("<%dI" % (len(ops) - 1), *ops[1:]).split(b"\0", 1)[0]
                strings[ops[0]] = text.decode("utf-8", "replace")
            elif opcode == OP_LINE:
                name = strings.get(ops[0], "")
                line = ops[1] if os.path.basename(name) == source_name else None
                if line is not None:
                    self.lines.add(line)
                continue
            elif opcode == OP_NO_LINE:
                line = None
                continue
            elif opcode == OP_TYPE_POINTER:
                pointers[ops[0]] = (ops[1], ops[2])
            elif opcode in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY):
                types[ops[0]] = "array"
            elif opcode == OP_VARIABLE:
                variables[ops[1]] = ops[0]
            elif opcode == OP_ENTRY_POINT:
                self.entry_points.add(ops[1])
            elif opcode == OP_FUNCTION:
                self.function = ops[1]
            if line is not None:
                self._classify(opcode, ops, pointers, types, variables, line)
            if opcode in TERMINATORS or opcode in (OP_FUNCTION, OP_FUNCTION_END, OP_LABEL):
                line = None

    def _classify(self, opcode, ops, pointers, types, variables, line):
        if opcode in DERIVATIVES or opcode in IMPLICIT_LOD:
            self.kinds[line].update(("derivative-divergent-cf", "derivative-after-discard"))
        elif opcode == OP_CONTROL_BARRIER:
            self.kinds[line].add("barrier-divergent-cf")
        elif is_subgroup_op(opcode):
            self.kinds[line].update(("subgroup-op-divergent-cf", "subgroup-op-after-rejoin"))
            self.kinds[line].add("subgroup-op-helper-invocations")
            if opcode in READS_OTHER_INVOCATION:
                self.kinds[line].add("subgroup-op-inactive-invocation")
            if opcode in UNIFORM_OPERAND:
                self.kinds[line].add("subgroup-op-nonuniform-operand")
            if opcode in QUAD_OPS:
                self.kinds[line].update(("derivative-after-discard", "quad-op-divergent-cf"))
            if self.function not in self.entry_points:
                self.kinds[line].add("subgroup-op-divergent-call")
        elif opcode in CLASSIC_GROUP_OPS:
            self.kinds[line].add("group-op-divergent-cf")
        elif opcode in (OP_ACCESS_CHAIN, OP_IN_BOUNDS_ACCESS_CHAIN) and len(ops) > 3:
            pointer_type = variables.get(ops[2])
            if pointer_type in pointers:
                storage, pointee = pointers[pointer_type]
                if storage in DESCRIPTOR_CLASSES and types.get(pointee) == "array":
                    self.kinds[line].add("nonuniform-missing-decoration")
                    self.kinds[line].add("nonuniform-redundant-decoration")

    def has(self, rule, line):
        return rule in self.kinds.get(line, ())


# --------------------------------------------------------------------------- tools

def run(args):
    """Runs |args|; returns (exit code or None on a timeout, stdout bytes, message)."""
    try:
        proc = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, b"", "%s: timed out after %d s" % (os.path.basename(args[0]), TIMEOUT)
    text = (proc.stderr or proc.stdout).decode("utf-8", "replace").strip()
    message = "%s exited %d: %s" % (os.path.basename(args[0]), proc.returncode,
                                    text.splitlines()[0] if text else "(no message)")
    return proc.returncode, proc.stdout, message


def build(tools, source, work_dir):
    """Compiles |source| at -O0 and -O; returns ({"O0": path, "O": path}, error)."""
    stem = os.path.join(work_dir, os.path.basename(source))
    spv = {"O0": stem + ".O0.spv", "O": stem + ".O.spv"}
    for path in spv.values():
        if os.path.exists(path):
            os.remove(path)
    if source.endswith(".hlsl"):
        if tools.spirv_conv is None:
            return None, "HLSL needs --spirv-conv to compile"
        compile_step = [tools.spirv_conv, "opt", "-g", "--target-env", TARGET_ENV, source,
                        "-o", spv["O0"]]
    else:
        compile_step = [tools.glslang, "-V", "-g", "-Od", "--target-env", TARGET_ENV, source,
                        "-o", spv["O0"]]
    steps = [
        compile_step,
        [tools.spirv_val, "--target-env", TARGET_ENV, spv["O0"]],
        [tools.spirv_opt, "-O", "--target-env=" + TARGET_ENV, spv["O0"], "-o", spv["O"]],
        [tools.spirv_val, "--target-env", TARGET_ENV, spv["O"]],
    ]
    for step in steps:
        code, _, message = run(step)
        if code != 0:
            return None, message
    return spv, None


# The last note of an explanation: a source says what varies and why
# (explainer.cpp, Source()).
SOURCE_NOTE = re.compile(r", which (varies per invocation|is only uniform within a \w+)$|\S: \S")


class Finding:
    def __init__(self, rule, severity, line, message):
        self.rule, self.severity, self.line, self.message = rule, severity, line, message

    def key(self):
        return (self.rule, self.line, self.severity)

    def text(self):
        return "%s %s at line %s (%s)" % (self.severity, self.rule, self.line, self.message)


def lint(tools, spv, source_name):
    """Runs the lint on |spv|; returns ([Finding], error)."""
    code, out, message = run([tools.spirv_conv, "lint", "--format", "json", spv])
    if code not in (0, 1):
        return None, "lint: " + message
    try:
        report = json.loads(out.decode("utf-8"))
    except ValueError as e:
        return None, "lint: output is not JSON: %s" % e
    problems = []
    if report.get("tool") != "spirv-conv":
        problems.append("'tool' is %r, not 'spirv-conv'" % report.get("tool"))
    if not isinstance(report.get("version"), str):
        problems.append("no 'version' string")
    files = report.get("files")
    if not isinstance(files, list) or len(files) != 1:
        problems.append("'files' must hold exactly one entry for one input")
        return None, "lint: JSON contract: " + "; ".join(problems)
    # A finding's further sites with the same cause ("more_sites") are
    # findings of the same rule and severity at their own lines.
    entries = []
    for n, f in enumerate(files[0].get("findings") or []):
        entries.append(("findings[%d]" % n, f))
        sites = f.get("more_sites", []) if isinstance(f, dict) else []
        if not isinstance(sites, list):
            problems.append("findings[%d]: 'more_sites' is not a list" % n)
            continue
        for k, site in enumerate(sites):
            site = dict(site) if isinstance(site, dict) else {}
            site.update(rule=f.get("rule"), severity=f.get("severity"), notes=f.get("notes"))
            entries.append(("findings[%d].more_sites[%d]" % (n, k), site))
    findings = []
    for where, f in entries:
        location = f.get("location") if isinstance(f, dict) else None
        if not isinstance(location, dict):
            problems.append("%s has no 'location' object" % where)
            continue
        if f.get("rule") not in RULES:
            problems.append("%s: unknown rule %r" % (where, f.get("rule")))
        if f.get("severity") not in SEVERITIES:
            problems.append("%s: severity %r" % (where, f.get("severity")))
        if not isinstance(f.get("message"), str):
            problems.append("%s: no 'message' string" % where)
        if not isinstance(f.get("notes", []), list):
            problems.append("%s: 'notes' is not a list" % where)
        line = location.get("line")
        if line is not None and (not isinstance(line, int) or isinstance(line, bool)):
            problems.append("%s: location.line %r is not an integer or null" % (where, line))
            line = None
        file_name = location.get("file")
        if file_name is not None and os.path.basename(str(file_name)) != source_name:
            problems.append("%s: location.file %r is not the shader" % (where, file_name))
        notes = f.get("notes") or []
        if f.get("rule") not in ("nonuniform-redundant-decoration",
                                 "subgroup-op-helper-invocations") and not (
                notes and isinstance(notes[-1], dict) and
                SOURCE_NOTE.search(str(notes[-1].get("message", "")))):
            problems.append("%s (line %s): the explanation does not end at a source of "
                            "non-uniformity: %r" % (where, line,
                                                    notes[-1].get("message") if notes else None))
        findings.append(Finding(f.get("rule"), f.get("severity"), line, f.get("message")))
    if problems:
        return None, "lint: JSON contract: " + "; ".join(problems)
    return findings, None


def find_tool(name, given):
    path = given or shutil.which(name)
    if not path or not os.access(path, os.X_OK):
        return None
    return os.path.abspath(path)


# --------------------------------------------------------------------------- checks

class Row:
    """One shader's line of the summary table."""

    def __init__(self, ann):
        self.name = ann.name
        self.clean = ann.clean
        self.expects = len(ann.expects())
        self.nots = len(ann.expect_nots())
        self.found = {"O0": 0, "O": 0}        # EXPECTs reported
        self.held = {"O0": 0, "O": 0}         # EXPECT-NOTs respected
        self.checked = {"O0": 0, "O": 0}      # EXPECTs checked (O: not skipped)
        self.checked_not = {"O0": 0, "O": 0}
        self.skipped = 0                      # markers skipped after -O
        self.skip_lines = []
        self.findings = {"O0": 0, "O": 0}
        self.unexpected = {"O0": 0, "O": 0}
        self.failures = 0
        self.status = "ok"


def check_build(ann, name, findings, row, per_rule, failures, unexpected_out, skip):
    """Checks (a)-(c) for one build. |skip| tells whether a marker is skipped in it."""
    by_line = collections.defaultdict(list)
    for f in findings:
        by_line[(f.rule, f.line)].append(f)
    for m in ann.markers:
        if name not in m.builds or skip(m):
            continue
        hits = by_line.get((m.rule, m.line), [])
        if m.negative:
            row.checked_not[name] += 1
            per_rule[m.rule]["not checked"] += 1
            if hits:
                failures.append("%s [%s]: %s, but the lint reports: %s"
                                % (m.where(), name, m.text(), hits[0].text()))
            else:
                row.held[name] += 1
                per_rule[m.rule]["not held"] += 1
            continue
        row.checked[name] += 1
        per_rule[m.rule]["checked"] += 1
        if not hits:
            failures.append("%s [%s]: %s not reported%s"
                            % (m.where(), name, m.text(), nearby(findings, m)))
        elif m.severity and all(h.severity != m.severity for h in hits):
            failures.append("%s [%s]: %s reported as %s"
                            % (m.where(), name, m.text(),
                               "/".join(sorted(set(h.severity for h in hits)))))
        else:
            row.found[name] += 1
            per_rule[m.rule]["found"] += 1
    # Findings an EXPECT names are expected; those an EXPECT-NOT names have
    # failed above already.
    named = set((m.rule, m.line) for m in ann.markers if name in m.builds)
    row.findings[name] = len(findings)
    for f in findings:
        if (f.rule, f.line) in named:
            continue
        row.unexpected[name] += 1
        what = "CLEAN shader" if ann.clean else "no EXPECT on this line"
        unexpected_out.append("%s:%s [%s]: unexpected finding (%s): %s"
                              % (ann.name, f.line, name, what, f.text()))


def nearby(findings, marker):
    same = sorted(set(f.line for f in findings if f.rule == marker.rule and f.line is not None))
    if not same:
        return ""
    return " (%s reported on line%s %s)" % (marker.rule, "s" if len(same) > 1 else "",
                                           ", ".join(str(n) for n in same))


def check_shader(tools, ann, work_dir, per_rule, args):
    """Checks one shader; returns (Row, failures, unexpected)."""
    row, failures, unexpected = Row(ann), [], []
    spv, error = build(tools, ann.path, work_dir)
    if error:
        row.status = "BUILD"
        return row, ["%s: %s" % (ann.name, error)], unexpected
    modules = {name: Module(path, ann.name) for name, path in spv.items()}
    o0, opt = modules["O0"], modules["O"]

    # Markers must sit on a line with their construct at -O0, whatever the lint does.
    # (An EXPECT-NOT may sit on a line without the construct: textureLod() under
    # a divergent branch, an index inside one buffer, a memoryBarrier().)
    for m in ann.markers:
        name, module = ("O0", o0) if "O0" in m.builds else ("O", opt)
        if m.line not in module.lines:
            failures.append("%s: %s: no OpLine for this line at -%s"
                            % (m.where(), m.text(), name))
        elif not m.negative and not module.has(m.rule, m.line):
            failures.append("%s: %s: no %s on this line at -%s"
                            % (m.where(), m.text(), RULE_KIND[m.rule], name))

    def gone_after_opt(m):
        if m.builds != ("O0", "O"):
            return False  # a one-build marker is checked in its build, never skipped
        if m.negative:
            return m.line not in opt.lines
        return not opt.has(m.rule, m.line)

    row.skipped = sum(1 for m in ann.markers if gone_after_opt(m))
    row.skip_lines = ["%s [O]: %s skipped: %s" % (
        m.where(), m.text(), "no OpLine left for the line" if m.line not in opt.lines
        else "no %s left on the line" % RULE_KIND[m.rule])
        for m in ann.markers if gone_after_opt(m)]
    if args.build_only:
        row.failures = len(failures)
        row.status = "FAIL" if failures else "built"
        return row, failures, unexpected

    findings = {}
    for name, path in spv.items():
        result, error = lint(tools, path, ann.name)
        if error:
            row.status = "LINT"
            return row, failures + ["%s [%s]: %s" % (ann.name, name, error)], unexpected
        findings[name] = result
        if args.verbose:
            for f in sorted(result, key=lambda f: (f.line or 0, f.rule)):
                print("  %s [%s]: %s" % (ann.name, name, f.text()))
    check_build(ann, "O0", findings["O0"], row, per_rule, failures, unexpected,
                lambda m: False)
    check_build(ann, "O", findings["O"], row, per_rule, failures, unexpected, gone_after_opt)
    per_rule_skips = collections.Counter(m.rule for m in ann.markers if gone_after_opt(m))
    for rule, count in per_rule_skips.items():
        per_rule[rule]["skipped"] += count

    # (d) -O0 and -O agree, modulo lines whose construct -O removed and lines
    # whose markers say what each build reports.
    per_build_lines = set(m.line for m in ann.markers if len(m.builds) == 1)
    keys0 = collections.Counter(f.key() for f in findings["O0"])
    keys_opt = collections.Counter(f.key() for f in findings["O"])
    for key in sorted(set(keys0) | set(keys_opt), key=str):
        rule, line, severity = key
        if (keys0[key] and keys_opt[key]) or line in per_build_lines:
            continue
        if keys0[key] and line is not None and not opt.has(rule, line):
            continue  # the optimizer dropped the construct: skipped
        failures.append("%s:%s: %s %s reported %s" % (
            ann.name, line, severity, rule,
            "at -O0 but not after -O" if keys0[key] else "after -O but not at -O0"))
    if not args.allow_unexpected:
        failures += unexpected
    row.failures = len(failures)
    if failures:
        row.status = "FAIL"
    return row, failures, unexpected


# --------------------------------------------------------------------------- output

def print_list(annotations):
    totals = collections.Counter()
    for ann in annotations:
        print("%s%s: %d EXPECT, %d EXPECT-NOT" % (ann.name, " (CLEAN)" if ann.clean else "",
                                                   len(ann.expects()), len(ann.expect_nots())))
        for m in sorted(ann.markers, key=lambda m: (m.line, m.negative, m.rule)):
            code = m.code if len(m.code) <= 70 else m.code[:67] + "..."
            print("  %4d  %-52s %s" % (m.line, m.text(), code))
            totals[(m.rule, m.negative)] += 1
    print()
    print("%-34s %7s %11s" % ("rule", "EXPECT", "EXPECT-NOT"))
    for rule in RULES:
        print("%-34s %7d %11d" % (rule, totals[(rule, False)], totals[(rule, True)]))
    print("lint-expect: %d shaders (%d CLEAN); %d EXPECT, %d EXPECT-NOT"
          % (len(annotations), sum(a.clean for a in annotations),
             sum(len(a.expects()) for a in annotations),
             sum(len(a.expect_nots()) for a in annotations)))


def print_table(rows, per_rule, build_only):
    print()
    if build_only:
        print("%-36s %6s %6s %7s  %s" % ("shader", "EXPECT", "NOT", "-O skip", "status"))
        for r in rows:
            print("%-36s %6s %6d %7d  %s" % (r.name, "CLEAN" if r.clean else r.expects, r.nots,
                                             r.skipped, r.status))
        return
    print("%-36s %6s %5s %9s %9s %9s %9s %5s %6s  %s" % (
        "shader", "EXPECT", "NOT", "-O0 found", "-O0 not", "-O found", "-O not", "skip",
        "unexp", "status"))
    for r in rows:
        print("%-36s %6s %5d %9s %9s %9s %9s %5d %6s  %s" % (
            r.name, "CLEAN" if r.clean else r.expects, r.nots,
            "%d/%d" % (r.found["O0"], r.checked["O0"]),
            "%d/%d" % (r.held["O0"], r.checked_not["O0"]),
            "%d/%d" % (r.found["O"], r.checked["O"]),
            "%d/%d" % (r.held["O"], r.checked_not["O"]),
            r.skipped, "%d/%d" % (r.unexpected["O0"], r.unexpected["O"]), r.status))
    print()
    print("%-34s %14s %16s %8s" % ("rule", "EXPECT found", "EXPECT-NOT held", "skipped"))
    for rule in RULES:
        c = per_rule[rule]
        print("%-34s %14s %16s %8d" % (rule, "%d/%d" % (c["found"], c["checked"]),
                                        "%d/%d" % (c["not held"], c["not checked"]),
                                        c["skipped"]))
    print("(EXPECT found / checked, both builds together; skipped: markers whose construct "
          "-O removed)")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spirv-conv", help="the spirv-conv binary (not needed with --list "
                        "or --build-only)")
    parser.add_argument("--shaders", required=True, help="folder of GLSL shaders (shaders/lint)")
    parser.add_argument("--work-dir", help="folder for compiled modules (not needed with --list)")
    parser.add_argument("--glslang", help="glslangValidator (default: from PATH)")
    parser.add_argument("--spirv-opt", help="spirv-opt (default: from PATH)")
    parser.add_argument("--spirv-val", help="spirv-val (default: from PATH)")
    parser.add_argument("--list", action="store_true",
                        help="print every shader's expectations and exit (no tools needed)")
    parser.add_argument("--build-only", action="store_true",
                        help="compile, validate and check that every marker sits on a line "
                        "with its construct; do not run the lint")
    parser.add_argument("--allow-unexpected", action="store_true",
                        help="list findings no EXPECT names instead of failing on them")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print every finding of every build")
    args = parser.parse_args(argv)

    if not os.path.isdir(args.shaders):
        print("lint-expect: error: '%s' is not a folder" % args.shaders, file=sys.stderr)
        return 1
    shaders = sorted(os.path.join(os.path.abspath(args.shaders), n)
                     for n in os.listdir(args.shaders)
                     if "." in n and (n.rsplit(".", 1)[1] in STAGE_EXTENSIONS or
                                      n.endswith(".hlsl")))
    if not shaders:
        print("lint-expect: error: no shader in '%s'" % args.shaders, file=sys.stderr)
        return 1
    annotations, malformed = [], []
    for source in shaders:
        try:
            annotations.append(parse_annotations(source))
        except ValueError as e:
            malformed.append(str(e))
    for line in malformed:
        print("FAIL " + line)
    if args.list:
        print_list(annotations)
        return 1 if malformed else 0

    tools = argparse.Namespace(glslang=find_tool("glslangValidator", args.glslang),
                               spirv_opt=find_tool("spirv-opt", args.spirv_opt),
                               spirv_val=find_tool("spirv-val", args.spirv_val),
                               spirv_conv=None)
    if not args.build_only or args.spirv_conv:
        tools.spirv_conv = find_tool("spirv-conv", args.spirv_conv)
        if tools.spirv_conv is None:
            print("lint-expect: error: spirv_conv not found or not executable", file=sys.stderr)
            return 1
    for name, path in vars(tools).items():
        if path is None and name != "spirv_conv":
            print("lint-expect: error: %s not found or not executable" % name, file=sys.stderr)
            return 1
    if not args.work_dir:
        print("lint-expect: error: --work-dir is required", file=sys.stderr)
        return 1
    work_dir = os.path.abspath(args.work_dir)
    os.makedirs(work_dir, exist_ok=True)

    per_rule = collections.defaultdict(collections.Counter)
    rows, failures, unexpected = [], list(malformed), []
    for ann in annotations:
        row, f, u = check_shader(tools, ann, work_dir, per_rule, args)
        rows.append(row)
        for line in row.skip_lines:
            print("SKIP " + line)
        for line in f:
            print("FAIL " + line)
        failures += f
        if args.allow_unexpected:
            for line in u:
                print("UNEXPECTED " + line)
            unexpected += u
        if args.verbose and not args.build_only and row.status not in ("BUILD", "LINT"):
            print("%s: %d findings at -O0, %d after -O" % (row.name, row.findings["O0"],
                                                            row.findings["O"]))
    print_table(rows, per_rule, args.build_only)
    n_expect = sum(r.expects for r in rows)
    n_not = sum(r.nots for r in rows)
    n_clean = sum(r.clean for r in rows)
    print("lint-expect: %d shaders (%d CLEAN, %d malformed); %d EXPECT, %d EXPECT-NOT; "
          "%d markers skipped after -O (construct removed by spirv-opt)"
          % (len(shaders), n_clean, len(malformed), n_expect, n_not,
             sum(r.skipped for r in rows)))
    if args.allow_unexpected:
        print("lint-expect: %d unexpected findings (allowed)" % len(unexpected))
    print("lint-expect: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
