#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""spirv-conv lint against spirv-lint (SPIRV-Tools 2023.1) on a shader corpus.

  python3 test/corpus/lint_vs_spirv_lint.py --spirv-conv PATH --corpus DIR --work-dir DIR
                                            [--cache-dir DIR] [--jobs N] [--markdown FILE]

Every shader of the corpus is compiled as test/corpus/corpus_test.py does
(glslangValidator -V, the first Vulkan env whose output spirv-val accepts;
the same cache). Every valid module, whatever its stage, is linted by
`spirv-conv lint --format json`, which must not fail (exit 0 or 1). The
fragment shaders (an OpEntryPoint Fragment) are also given to `spirv-lint`
(stopped after --cap seconds), and the two are compared instruction by
instruction: spirv-lint warns once per derivative instruction (its 17
opcodes: implicit-LOD sampling, OpDPdx/OpDPdy/OpFwidth and their Fine and
Coarse forms) in a block it finds divergent, naming only the block, so its
k-th warning for block %B is the k-th such instruction of %B.

Each instruction spirv-lint flags must be a derivative-divergent-cf finding
of spirv-conv, or be explained as a spirv-lint false positive. The
explanation is derived from the two tools' own reasons: the value spirv-lint
names as the root of its divergence chain (a load of a Function or Private
variable, which it always calls divergent because it does not follow stores;
a function parameter, which it always calls divergent because it looks at
one function at a time; a phi of a join it calls divergent) and what
`spirv-conv uniformity --format json` says about that value and the block.
A difference for which neither holds is "unexplained" and fails the run.

Prints the counts and one line per difference; with --markdown also writes
them as tables (docs/lint-vs-spirv-lint.md is written from it). Exits 1 on
an unexplained difference, a failing spirv-conv run, or an empty corpus.
"""

import argparse
import collections
import concurrent.futures
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_test as ct  # noqa: E402  (compiling and caching the corpus)

# spirv-lint 2023.1's InstructionHasDerivative (source/lint/lint_divergent_derivatives.cpp).
SPIRV_LINT_DERIVATIVES = frozenset(
    ["OpImageSample%sImplicitLod" % k for k in ("", "Dref", "Proj", "ProjDref")] +
    ["OpImageSparseSample%sImplicitLod" % k for k in ("", "Dref", "Proj", "ProjDref")] +
    ["Op%s%s" % (d, v) for d in ("DPdx", "DPdy", "Fwidth") for v in ("", "Fine", "Coarse")])
RULE = "derivative-divergent-cf"
LEVELS = ("uniform", "subgroup", "quad", "divergent")
CAP = 60  # seconds for one spirv-lint run
LINE = re.compile(r"^\s*(?:%(\S+) = )?(Op\w+)(.*)$")
FRIENDLY = re.compile(r"%([^\s\[]+)(?:\[(\d+)\])?")  # spirv-lint: %name[id] or %id


@dataclasses.dataclass
class Inst:
    result: Optional[str]  # raw id, as a string
    opcode: str
    operands: List[str]    # raw tokens after the opcode
    block: Optional[str]
    function: Optional[str]


class Module:
    """The module as `spirv-dis --raw-id` shows it, with the friendly names
    `spirv-dis` gives the same ids (the lint's JSON prints friendly names)."""

    def __init__(self, spv):
        raw = dis(spv, True)
        friendly = dis(spv, False)
        self.insts: Dict[str, Inst] = {}
        self.by_friendly: Dict[str, str] = {}
        self.blocks: Dict[str, List[Inst]] = collections.OrderedDict()
        self.calls = collections.defaultdict(set)  # function -> callees
        self.entry_fragment = set()
        self.names = {}  # OpName -> id
        self.decorations = collections.defaultdict(set)  # id -> decoration names
        self.stores = collections.defaultdict(list)  # pointer id -> stored value ids
        block = function = None
        for line, fline in zip(raw, friendly):
            m, fm = LINE.match(line), LINE.match(fline)
            if not m:
                continue
            result, opcode, rest = m.group(1), m.group(2), m.group(3).split()
            if result and fm and fm.group(1):
                self.by_friendly[fm.group(1)] = result
            if opcode == "OpFunction":
                function = result
            elif opcode == "OpLabel":
                block = result
                self.blocks[block] = []
            elif opcode == "OpFunctionEnd":
                block = function = None
            elif opcode == "OpEntryPoint" and rest[0] == "Fragment":
                self.entry_fragment.add(rest[1].lstrip("%"))
            elif opcode == "OpFunctionCall":
                self.calls[function].add(rest[1].lstrip("%"))
            elif opcode == "OpName":
                self.names[" ".join(rest[1:]).strip('"')] = rest[0].lstrip("%")
            elif opcode == "OpDecorate":
                self.decorations[rest[0].lstrip("%")].add(rest[1])
            elif opcode == "OpStore":
                self.stores[rest[0].lstrip("%")].append(rest[1].lstrip("%"))
            inst = Inst(result, opcode, rest, block, function)
            if result:
                self.insts[result] = inst
            if block and opcode != "OpLabel":
                self.blocks[block].append(inst)

    def reached_from_fragment(self):
        seen, work = set(self.entry_fragment), list(self.entry_fragment)
        while work:
            for callee in self.calls[work.pop()]:
                if callee not in seen:
                    seen.add(callee)
                    work.append(callee)
        return seen

    def derivatives(self, block):
        return [i for i in self.blocks.get(block, []) if i.opcode in SPIRV_LINT_DERIVATIVES]

    def stored_values(self, variable):
        """The values stored to |variable| (directly or through access chains)
        and whether that is all: False when a pointer into it is passed on
        (to a call, OpCopyMemory, ...), where stores are not seen here."""
        values, complete = [], True
        for pointer, stored in self.stores.items():
            root = self.root_variable("%" + pointer)
            if root is not None and root.result == variable:
                values += stored
        for inst in self.insts.values():
            if inst.opcode in ("OpFunctionCall", "OpCopyMemory", "OpCopyMemorySized") or \
                    inst.opcode.startswith("OpAtomic"):
                for token in inst.operands:
                    root = self.root_variable(token) if token.startswith("%") else None
                    complete &= root is None or root.result != variable
        for block in self.blocks.values():
            for inst in block:
                if inst.result is None and inst.opcode in ("OpCopyMemory", "OpCopyMemorySized"):
                    for token in inst.operands:
                        root = self.root_variable(token) if token.startswith("%") else None
                        complete &= root is None or root.result != variable
        return values, complete

    def root_variable(self, pointer):
        """The OpVariable a pointer points into, through access chains, or None."""
        for _ in range(32):
            inst = self.insts.get(pointer.lstrip("%"))
            if inst is None:
                return None
            if inst.opcode == "OpVariable":
                return inst
            if inst.opcode not in ("OpAccessChain", "OpInBoundsAccessChain", "OpCopyObject",
                                   "OpPtrAccessChain"):
                return None
            pointer = inst.operands[1]
        return None


def dis(spv, raw):
    args = ["spirv-dis", "--no-header", "--no-indent", spv]
    if raw:
        args.insert(1, "--raw-id")
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def friendly_id(token):
    m = FRIENDLY.match(token)
    if not m:
        return None
    return m.group(2) or m.group(1)


def run_spirv_lint(spv, cap):
    """spirv-lint's findings: [(block id, chain, chain kind, text)], chain being
    the value ids of its explanation from the branch condition to its root
    ("definition": the root has a divergent definition; "phi": it is set
    conditionally), or a string saying why there are none."""
    try:
        proc = subprocess.run(["spirv-lint", spv], capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return "stopped after %d s" % cap
    text = proc.stdout + proc.stderr
    if re.search(r"^error", text, re.M):
        return "cannot read it: " + next(l for l in text.splitlines() if l.startswith("error"))
    findings = []
    for chunk in re.split(r"(?=^warning: line 0: derivative with divergent control flow)",
                          text, flags=re.M):
        m = re.match(r"warning: line 0: derivative with divergent control flow located in "
                     r"block (\S+)", chunk)
        if not m:
            continue
        chain, kind = [], "?"
        for line in chunk.splitlines():
            v = re.search(r"value (\S+) is divergent", line)
            u = re.search(r"because \S+ uses value (%[^\s\[]+(?:\[\d+\])?)in its definition",
                          line)
            if v and not chain:
                chain.append(friendly_id(v.group(1)))
            elif u:
                chain.append(friendly_id(u.group(1)))
            elif "because it has a divergent definition" in line:
                kind = "definition"
            elif "because it is conditionally set in block" in line:
                kind = "phi"
                break
        findings.append((friendly_id(m.group(1)), chain, kind, chunk.strip()))
    return findings


def run_json(args):
    proc = subprocess.run(args, capture_output=True, text=True, timeout=ct.TIMEOUT)
    if proc.returncode not in (0, 1):
        return None, "exit %d: %s" % (proc.returncode, ct.first_line(proc.stderr))
    return json.loads(proc.stdout), None


@dataclasses.dataclass
class Difference:
    shader: str
    instruction: str   # raw disassembly of the derivative
    block: str
    kind: str          # "spirv-lint only" or "spirv-conv only"
    klass: str         # classification
    reason: str


@dataclasses.dataclass
class Outcome:
    path: str
    env: Optional[str] = None
    how: Optional[str] = None  # the glslangValidator flags that compiled it
    skipped: Optional[str] = None  # why it is left out (--optimize)
    fragment: bool = False
    failure: Optional[str] = None
    spirv_lint_problem: Optional[str] = None
    spirv_lint: int = 0
    spirv_conv: int = 0
    both: int = 0
    differences: List[Difference] = dataclasses.field(default_factory=list)


def compile_auto_mapped(tools, source, glslang_env, spv, extra_args=()):
    """corpus_test.compile_shader with --auto-map-bindings and
    --auto-map-locations (OpenGL-style shaders without layout qualifiers)."""
    return ct.compile_shader(tools, source, os.path.dirname(source), glslang_env, spv,
                             ("--amb", "--aml", *extra_args))


def compile_valid(tools, corpus, rel, work_dir, auto_map, extra_args=(), every_stage=False):
    """The module of the first env spirv-val accepts, as corpus_test.py chooses
    it; with |auto_map|, .frag files (every stage with |every_stage|) that do
    not compile so are tried again for Vulkan 1.0 with glslang's automatic
    bindings and locations. |extra_args| go to every glslangValidator run
    (lint_findings.py: -g). Returns (module, env, how)."""
    source = os.path.join(corpus, rel)
    stem = os.path.join(work_dir, ct.mangle(rel))
    modes = [("-V", ct.ENVS, lambda env, spv: ct.compile_shader(
        tools, source, os.path.dirname(source), env, spv, extra_args))]
    # The comparison needs fragment shaders only.
    if auto_map and (every_stage or rel.endswith(".frag")):
        modes.append(("-V --amb --aml", ct.ENVS[:1],
                      lambda env, spv: compile_auto_mapped(tools, source, env, spv,
                                                           extra_args)))
    for how, envs, compile_one in modes:
        for glslang_env, val_env in envs:
            spv = "%s.%s.spv" % (stem, val_env)
            if compile_one(glslang_env, spv):
                code, _ = ct.run([tools.spirv_val, "--target-env", val_env, spv])
                if code == 0:
                    return spv, val_env, how
    return None, None, None


def compare(tools, corpus, rel, work_dir, args):
    out = Outcome(rel)
    spv, out.env, out.how = compile_valid(tools, corpus, rel, work_dir, args.auto_map)
    if spv is None:
        return None
    if args.optimize:
        # spirv-opt -O (mem2reg among others), for the env glslang's output
        # was valid for; a module it cannot optimize is left out.
        optimized = spv[:-len(".spv")] + ".O.spv"
        code, _ = ct.run(["spirv-opt", "-O", "--target-env=" + out.env, spv, "-o", optimized])
        if code == 0:
            code, _ = ct.run([tools.spirv_val, "--target-env", out.env, optimized])
        if code != 0:  # e.g. spirv-opt 2023.1 drops AliasedPointer from Function variables
            out.skipped = "spirv-opt -O fails or its output is invalid"
            return out
        spv = optimized
        out.how += " | spirv-opt -O"
    lint, error = run_json([tools.spirv_conv, "lint", "--format", "json", "--no-group",
                            "--target-env", out.env, spv])
    if error:
        out.failure = "spirv-conv lint: " + error
        return out
    module = Module(spv)
    out.fragment = bool(module.entry_fragment)
    if not out.fragment:
        return out
    theirs = run_spirv_lint(spv, args.cap)
    if isinstance(theirs, str):
        out.spirv_lint_problem = theirs
        return out

    ours = {}  # raw result id -> finding
    for f in lint["files"][0]["findings"]:
        if f["rule"] != RULE:
            continue
        m = LINE.match(f["location"]["instruction"])
        ours[module.by_friendly.get(m.group(1), m.group(1))] = f
    flagged = collections.OrderedDict()  # raw result id -> (block, chain, kind, text)
    per_block = collections.defaultdict(list)
    for finding in theirs:
        per_block[finding[0]].append(finding)
    for block, findings in per_block.items():
        insts = module.derivatives(block)
        if len(insts) != len(findings):
            out.failure = ("spirv-lint warns %d times in block %%%s, which has %d derivatives"
                           % (len(findings), block, len(insts)))
            return out
        for inst, finding in zip(insts, findings):
            flagged[inst.result] = finding
    out.spirv_lint, out.spirv_conv = len(flagged), len(ours)
    out.both = len(set(flagged) & set(ours))

    uniformity = None
    if any(r not in ours for r in flagged):
        uniformity, error = run_json([tools.spirv_conv, "uniformity", "--format", "json",
                                      "--target-env", out.env, spv])
        if error:
            out.failure = "spirv-conv uniformity: " + error
            return out
    for result, (block, chain, kind, _) in flagged.items():
        if result in ours:
            continue
        klass, reason = explain_spirv_lint_only(module, uniformity, block, chain, kind)
        out.differences.append(Difference(rel, text_of(module, result), block, "spirv-lint only",
                                          klass, reason))
    for result, finding in ours.items():
        if result in flagged:
            continue
        klass = classify_spirv_conv_only(module, module.insts[result], finding)
        out.differences.append(Difference(rel, text_of(module, result),
                                          module.insts[result].block, "spirv-conv only", klass,
                                          finding["notes"][0]["message"] if finding["notes"]
                                          else finding["message"]))
    return out


def text_of(module, result):
    inst = module.insts[result]
    return "%%%s = %s %s" % (result, inst.opcode, " ".join(inst.operands))


def levels(uniformity):
    values, blocks = {}, {}
    for function in uniformity["functions"]:
        for v in function["values"]:
            values[str(v["id"])] = v["level"]
        for b in function["blocks"]:
            blocks[str(b["id"])] = b["control_flow_level"]
    return values, blocks


def explain_spirv_lint_only(module, uniformity, block, chain, kind):
    """(class, reason) for an instruction spirv-lint flags and spirv-conv does
    not, from where the two disagree on spirv-lint's chain of values: the
    first value spirv-conv does not call divergent whose successor in the
    chain (the operand spirv-lint blames) it does call divergent, or the
    root. Class "unexplained" when that does not show a spirv-lint false
    positive."""
    values, blocks = levels(uniformity)
    first = module.blocks[block][0] if module.blocks.get(block) else None
    if first is not None and first.function not in module.reached_from_fragment():
        return ("not in a fragment shader",
                "the function is not called from the fragment entry point; spirv-lint lints "
                "every function, spirv-conv only those a fragment (or derivative-group) entry "
                "point reaches")
    ours = blocks.get(block, "?")
    if ours == "divergent" or not chain:
        return "unexplained", "spirv-conv: block %%%s %s; spirv-lint's chain: %s" % (
            block, ours, " <- ".join("%" + v for v in chain) or "none")
    level = [values.get(v, "?") for v in chain]
    pivot = next((k for k in range(len(chain)) if level[k] not in ("divergent", "?") and
                  (k + 1 == len(chain) or level[k + 1] == "divergent")), None)
    if pivot is None:
        return "unexplained", "spirv-conv calls every value of spirv-lint's chain (%s) divergent" \
            " but block %%%s %s" % (", ".join("%" + v for v in chain), block, ours)
    value = chain[pivot]
    inst = module.insts.get(value)
    opcode = inst.opcode if inst else "?"
    where = ("spirv-lint's chain %s; spirv-conv: %%%s = %s is %s, block %%%s %s"
             % (" <- ".join("%%%s" % v for v in chain), value, opcode, level[pivot], block, ours))
    if pivot + 1 < len(chain):  # spirv-lint passes an operand's divergence on; spirv-conv not
        if opcode.startswith(("OpGroup", "OpSubgroup")):
            return ("group operation",
                    where + "; spirv-lint gives %s the level of its operands (it has no rule for "
                    "group operations, §1.8); the result is the same within the scope" % opcode)
        return "unexplained", where
    if kind == "phi":
        return ("phi of a non-divergent join",
                where + "; spirv-lint calls a phi divergent when an incoming block is divergent "
                "(its operands include the incoming labels, §1.3), spirv-conv looks at whether "
                "the paths into the join split the quad")
    if opcode == "OpFunctionParameter":
        return ("function parameter",
                where + "; spirv-lint calls every OpFunctionParameter divergent (it looks at one "
                "function at a time, §1.5); spirv-conv analyses the function per calling "
                "context, and no call passes a divergent value")
    if opcode.startswith("OpImage"):
        return ("image read",
                where + "; spirv-lint treats %s as a load whose base is not an OpVariable and "
                "calls it divergent (§1.3); spirv-conv reads the image and coordinate operands"
                % opcode)
    if opcode == "OpLoad":
        return load_reason(module, values, inst, where)
    return "unexplained", where


def load_reason(module, values, load, where):
    """spirv-lint judges a load by the storage class of its variable (§1.3)."""
    variable = module.root_variable(load.operands[1])
    storage = variable.operands[1] if variable else "?"
    if storage not in ("Function", "Private"):
        return ("load of %s memory" % storage,
                where + "; spirv-lint decides loads by storage class alone (§1.3)")
    stored, complete = module.stored_values(variable.result)
    # Module-level ids (constants) are uniform; the JSON lists function values.
    level = {v: values.get(v, "uniform" if module.insts[v].function is None else "divergent")
             for v in stored}
    widest = max((LEVELS.index(lv) for lv in level.values()), default=0)
    if complete and widest < LEVELS.index("divergent"):
        what = ("spirv-conv follows the stores: every value stored to %%%s is %s (%s)"
                % (variable.result, "uniform" if widest == 0 else "at most " + LEVELS[widest],
                   ", ".join("%%%s %s" % kv for kv in level.items())))
    else:
        what = "spirv-conv's memory analysis follows what reaches the load"
    return ("load of a %s variable" % storage,
            where + "; spirv-lint calls every load of a %s variable divergent (it does not look "
            "at the stores, §1.6); %s" % (storage, what))


def classify_spirv_conv_only(module, inst, finding):
    """Why spirv-lint misses an instruction spirv-conv flags, from the opcode
    and spirv-conv's first note."""
    if inst.opcode not in SPIRV_LINT_DERIVATIVES:
        return "opcode spirv-lint does not check (%s)" % inst.opcode
    notes = " ".join(n["message"] for n in finding["notes"])
    for name in re.findall(r"'([^']+)' is a shader input", notes):
        if "Flat" in module.decorations.get(module.names.get(name), ()):
            return ("flat input: spirv-conv calls every input divergent (docs/uniformity.md); "
                    "it is the same within a quad")
    for needle, klass in (("is called from", "call in non-uniform control flow"),
                          ("is called in non-uniform", "call in non-uniform control flow"),
                          ("invocations may end", "after a divergent OpKill/OpTerminateInvocation"),
                          ("loop", "loop with a divergent exit"),
                          ("merges different values", "value merged at a divergent join"),
                          ("returns", "value returned by a call"),
                          ("may write concurrently",
                           "load of a writable buffer (spirv-lint calls every load of Uniform "
                           "storage uniform, BufferBlock or not; spirv-conv assumes other "
                           "invocations may write it unless --assume-no-concurrent-writes)")):
        if needle in notes:
            return klass
    return "other (%s)" % (finding["notes"][0]["message"] if finding["notes"] else "no note")


def markdown(outcomes, counts):
    rows = ["| shader | instruction | block | class | reasoning |", "|---|---|---|---|---|"]
    for o in outcomes:
        for d in o.differences:
            if d.kind == "spirv-lint only":
                rows.append("| `%s` | `%s` | %%%s | %s | %s |" % (
                    d.shader, d.instruction, d.block, d.klass, d.reason.replace("|", "\\|")))
    extra = collections.Counter(d.klass for o in outcomes for d in o.differences
                                if d.kind == "spirv-conv only")
    extra_rows = ["| why spirv-lint misses it | instructions |", "|---|---:|"]
    extra_rows += ["| %s | %d |" % kv for kv in sorted(extra.items(), key=lambda kv: -kv[1])]
    extra_rows += ["", "| shader | instruction | block | class | spirv-conv's first note |",
                   "|---|---|---|---|---|"]
    extra_rows += ["| `%s` | `%s` | %%%s | %s | %s |" % (d.shader, d.instruction, d.block, d.klass,
                                                         d.reason)
                   for o in outcomes for d in o.differences if d.kind == "spirv-conv only"]
    return "\n".join(["Counts: " + counts, "", "### spirv-lint only", ""] + rows +
                     ["", "### spirv-conv only", ""] + extra_rows) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spirv-conv", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--cache-dir", help="glslangValidator verdicts, as corpus_test.py keeps them")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--cap", type=int, default=CAP, help="spirv-lint time cap per file (s)")
    ap.add_argument("--markdown", help="also write the differences as Markdown tables here")
    ap.add_argument("--auto-map", action="store_true",
                    help="also compile the .frag files -V rejects with --amb --aml (automatic "
                         "bindings and locations: the OpenGL-style ones), for Vulkan 1.0")
    ap.add_argument("--optimize", action="store_true",
                    help="compare on the modules after spirv-opt -O (no Function variables "
                         "left for spirv-lint to call divergent)")
    args = ap.parse_args(argv)

    tools = argparse.Namespace(spirv_conv=ct.find_tool("spirv-conv", args.spirv_conv),
                               glslang=ct.find_tool("glslangValidator", None),
                               spirv_val=ct.find_tool("spirv-val", None))
    for name in ("spirv_conv", "glslang", "spirv_val"):
        if getattr(tools, name) is None:
            print("lint-vs-spirv-lint: error: %s not found" % name, file=sys.stderr)
            return 1
    if ct.find_tool("spirv-lint", None) is None or ct.find_tool("spirv-dis", None) is None:
        print("lint-vs-spirv-lint: error: spirv-lint or spirv-dis not found", file=sys.stderr)
        return 1
    tools.cache_dir = os.path.abspath(args.cache_dir) if args.cache_dir else None
    if tools.cache_dir:
        os.makedirs(tools.cache_dir, exist_ok=True)
        tools.glslang_version = subprocess.run([tools.glslang, "--version"],
                                               stdout=subprocess.PIPE, check=False).stdout
    corpus = os.path.abspath(args.corpus)
    shaders = ct.find_shaders(corpus) if os.path.isdir(corpus) else []
    if not shaders:
        print("lint-vs-spirv-lint: error: no shader in '%s'" % corpus, file=sys.stderr)
        return 1
    work_dir = os.path.abspath(args.work_dir)
    os.makedirs(work_dir, exist_ok=True)

    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(compare, tools, corpus, rel, work_dir, args) for rel in shaders]
        results = [o for o in (f.result() for f in futures) if o is not None]
    outcomes = [o for o in results if not o.skipped]
    for o in results:
        if o.skipped:
            print("skipped %s [%s]: %s" % (o.path, o.env, o.skipped))
    elapsed = time.monotonic() - start

    fragments = [o for o in outcomes if o.fragment]
    compared = [o for o in fragments if not o.spirv_lint_problem and not o.failure]
    failures = [o for o in outcomes if o.failure]
    theirs_only = [d for o in compared for d in o.differences if d.kind == "spirv-lint only"]
    ours_only = [d for o in compared for d in o.differences if d.kind == "spirv-conv only"]
    unexplained = [d for d in theirs_only if d.klass == "unexplained"]
    for o in failures:
        print("FAIL %s [%s]: %s" % (o.path, o.env, o.failure))
    for o in fragments:
        if o.spirv_lint_problem:
            print("spirv-lint: %s [%s]: %s" % (o.path, o.env, o.spirv_lint_problem))
    for d in theirs_only:
        print("%s %s: %s in block %%%s: %s: %s" % (
            "UNEXPLAINED" if d.klass == "unexplained" else "spirv-lint only",
            d.shader, d.instruction, d.block, d.klass, d.reason))
    by_class = collections.Counter(d.klass for d in theirs_only)
    counts = ("%d shaders in %s; %d valid Vulkan modules (%d of them with --amb --aml) linted "
              "by spirv-conv%s (%d failures); "
              "%d fragment shaders, %d compared (%d not read by spirv-lint); derivatives "
              "flagged: spirv-lint %d, spirv-conv %d, both %d; spirv-lint only %d (%s); "
              "spirv-conv only %d; %.0f s with %d jobs" % (
                  len(shaders), args.corpus, len(outcomes),
                  sum(1 for o in outcomes if "--amb" in o.how),
                  " after spirv-opt -O" if args.optimize else "", len(failures),
                  len(fragments), len(compared), len(fragments) - len(compared) - sum(
                      1 for o in fragments if o.failure),
                  sum(o.spirv_lint for o in compared), sum(o.spirv_conv for o in compared),
                  sum(o.both for o in compared), len(theirs_only),
                  ", ".join("%s: %d" % kv for kv in sorted(by_class.items())) or "none",
                  len(ours_only), elapsed, args.jobs))
    print("lint-vs-spirv-lint: " + counts)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(compared, counts))
    ok = not failures and not unexplained
    print("lint-vs-spirv-lint: %s" % ("passed" if ok else "FAILED (%d failures, %d unexplained)"
                                       % (len(failures), len(unexplained))))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
