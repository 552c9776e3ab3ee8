#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Runs every spirv-conv command on each module and checks that it behaves
(docs/fuzzing.md).

  command_driver.py --spirv-conv BIN [--spirv-opt BIN] [--spirv-val BIN]
                    --work-dir DIR [--jobs N] [--timeout SECONDS]
                    [--report FILE.json] [--generate COUNT --first-seed S]
                    [--keep] [--digest FILE.json] [--compare-digest BASE.json]
                    [INPUT...]    (a folder INPUT: its files)

Inputs are GLSL sources, .spv or .spvasm files; with --generate, also COUNT
programs of glsl_gen.py from seed S on. Each input becomes up to three
modules (variants):
  O0  `spirv-conv opt INPUT -o O0.spv`: the input as spirv-conv compiles it
  g   `spirv-conv opt -g INPUT -o g.spv` (GLSL inputs only): with OpLine
  O   `spirv-opt -O --target-env=ENV O0.spv -o O.spv` (the Debian spirv-opt)
A variant that spirv-conv cannot compile (exit 2), or that the real spirv-val
or spirv-opt rejects, is skipped ("not compiled/invalid"), not a failure.

On each variant: `validate`; `uniformity` (text, --format json); `lint`
(text, json, sarif); `cfg`; `opt` with each of -O, --structurize,
--reconverge, --fix-nonuniform, --strip-nonuniform, --waterfall,
--fast-forward-loops --fast-forward-loops-everywhere; and for
GLCompute modules `run`. Once per input: `check-motion --format json O0 O`.

A failure is: an exit code outside the command's documented set on a valid
module (ALLOWED_EXITS; any signal, a timeout, exit 3 and 4 always are); a
sanitizer report on stderr (ASan and UBSan exit 1, which `lint` would
otherwise pass as findings); JSON or SARIF output that does not parse; DOT
output that is no digraph; an `opt` output the real spirv-val rejects; and,
on GLCompute and Fragment modules, a transform whose output computes other
storage-buffer words (fragment shaders: other attachments) than its input in
the simulator (same job, maximal reconvergence; `opt -O`'s floats within
CONTRACTION_TOLERANCE, since spirv-opt fuses multiply-adds). A fragment run whose input
has undefined derivatives or subgroup operations over helpers is not compared
(its values may legitimately differ).

The simulator's job binds every storage and uniform buffer the module
declares (descriptor arrays included) and the push constants, filled with
words below glsl_gen.BUFFER_WORD_LIMIT (the generator's programs depend on
that to stay uniform where they hold barriers); images take the simulator's
default textures. A fragment shader's job is a render job of FRAME pixels.

Python API (test/corpus/spirv_cross_corpus.py uses it):
  run_inputs(inputs, spirv_conv, work_dir, jobs=2, timeout=60, spirv_opt=None,
             spirv_val=None, keep=False, progress=False) -> Summary
      inputs: paths, or ('seed', N) for glsl_gen's program N; keep: leave the
      files of passing inputs in WORK_DIR/modules/<_folder_name>/; progress:
      a line on stderr every 30 s
  print_summary(summary)        ends with the line `N passed, N failed` (inputs)
Summary: .inputs, .modules (variants checked), .commands (tool runs checked),
.failures (dicts: input, variant, command, exit -- a code, 'timeout' or
'signal N' --, problem, stderr: its last lines), .skipped (dicts: input,
variant, reason), .exit_counts ({command: {exit: count}}), .passed, .failed
(inputs), .seconds.

--digest writes a SHA-256 of every spirv-conv run (exit code, stdout,
stderr, and the file it wrote with -o; work-folder paths replaced by a
placeholder) keyed by input, variant and command line; --compare-digest
compares those of this run with a saved file and counts every difference as a
failure. A refactoring that must not change behaviour is checked by a
digest before it and a comparison after (docs/fuzzing.md).

Exit: 0 no failure, 1 failures, 2 usage or tool error.
"""

import argparse
import array
import collections
import concurrent.futures
import dataclasses
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import sys
import time
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "test", "reconvergence"))
import glsl_gen  # noqa: E402
import sim_tools  # noqa: E402

GLSL_EXTENSIONS = ("vert", "tesc", "tese", "geom", "frag", "comp", "mesh", "task", "rgen",
                   "rint", "rahit", "rchit", "rmiss", "rcall")

# Documented exit codes on a *valid* module (docs/cli.md).
ALLOWED_EXITS = {
    "validate": {0},
    "uniformity": {0},
    "lint": {0, 1},          # 1: error-level findings
    "cfg": {0},
    "opt": {0},
    "check-motion": {0, 1},  # 1: violations
    "run": {0, 1},           # 1: a fault of the shader (out of bounds, divergent barrier, ...)
}
# Documented refusals of a valid module, exit 2 with the message matched here:
# the NonUniform passes' "<pass>: cannot rewrite <the access>: <why>"
# (docs/passes.md, "Not supported"), and the structurizer's value it can neither
# store nor recompute (docs/structurize.md; --reconverge structurizes too).
_NONUNIFORM_REFUSAL = re.compile(r": cannot rewrite ")
_STRUCTURIZE_REFUSAL = re.compile(r"is a pointer or opaque value used outside its block")
REFUSALS = {
    "--fix-nonuniform": _NONUNIFORM_REFUSAL,
    "--strip-nonuniform": _NONUNIFORM_REFUSAL,
    "--waterfall": _NONUNIFORM_REFUSAL,
    "--structurize": _STRUCTURIZE_REFUSAL,
    "--reconverge": _STRUCTURIZE_REFUSAL,
    "--fast-forward-loops --fast-forward-loops-everywhere": _STRUCTURIZE_REFUSAL,
}
# `run` exits 2 for what the simulator does not support, naming it (docs/simulator.md).
UNSUPPORTED = re.compile(r"not supported|unsupported", re.IGNORECASE)
SANITIZER = re.compile(r"==\d+==ERROR: \w+Sanitizer|: runtime error: |==\d+==WARNING: \w+Sanitizer")

# Each one `opt` run; blanks separate the flags of one run.
TRANSFORMS = ("-O", "--structurize", "--reconverge", "--fix-nonuniform", "--strip-nonuniform",
              "--waterfall", "--fast-forward-loops --fast-forward-loops-everywhere")



def step_name(transform):
    """A TRANSFORMS entry's name in output files and minimize.py's --step: its
    first flag without dashes."""
    return transform.split()[0].lstrip("-")


# The simulator's job: buffers big enough for any index the generator's
# programs use (2 workgroups x 64 invocations x OUT_SLOTS words of output),
# small enough that the result JSON stays cheap to parse.
BUFFER_BYTES = 16384
FILLED_WORDS = 256            # the rest of each buffer is zero
PUSH_CONSTANT_WORDS = 32      # 128 bytes, Vulkan's guaranteed minimum
RUNTIME_DESCRIPTOR_COUNT = 4  # elements given to a runtime array of descriptors
WORKGROUPS = 2
FRAME = (8, 8)                # fragment shaders: the render job's pixels
SUBGROUP_SIZES = (4, 8, 16, 32)
MAX_INSTRUCTIONS = 50000000   # ends a runaway loop of a corpus shader with exit 1, not a timeout
STDERR_LINES = 20


# ---------------------------------------------------------------------------
# Reading SPIR-V binaries

SPIRV_MAGIC = 0x07230203
OP_CAPABILITY, OP_ENTRY_POINT, OP_DECORATE = 17, 15, 71
OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY, OP_TYPE_POINTER, OP_CONSTANT, OP_VARIABLE = 28, 29, 32, 43, 59
CAP_SHADER, CAP_KERNEL = 1, 6
DEC_BUFFER_BLOCK, DEC_BINDING, DEC_DESCRIPTOR_SET = 3, 33, 34
SC_UNIFORM, SC_PUSH_CONSTANT, SC_STORAGE_BUFFER = 2, 9, 12
EXEC_FRAGMENT, EXEC_GL_COMPUTE = 4, 5


@dataclasses.dataclass
class ModuleInfo:
    """What the driver needs from a module: its target env, its GLCompute
    entry point, and the buffers a simulator job must bind."""
    target_env: str
    compute_entry: str = None
    fragment_entry: str = None   # when there is no GLCompute entry point
    buffers: list = dataclasses.field(default_factory=list)   # (set, binding, type, count)
    push_constants: bool = False


def _literal_string(words):
    raw = array.array("I", words).tobytes()
    return raw.split(b"\0", 1)[0].decode(errors="replace")


def read_module(path):
    """ModuleInfo of a SPIR-V binary (either byte order)."""
    words = array.array("I")
    with open(path, "rb") as f:
        words.frombytes(f.read())
    if words[0] != SPIRV_MAGIC:
        words.byteswap()
    minor = (words[1] >> 8) & 0xFF
    caps, entries, decorations = set(), [], collections.defaultdict(dict)
    pointers, arrays, constants, variables = {}, {}, {}, []
    i = 5
    while i < len(words):
        op, count = words[i] & 0xFFFF, words[i] >> 16
        ops = words[i + 1:i + count]
        if op == OP_CAPABILITY:
            caps.add(ops[0])
        elif op == OP_ENTRY_POINT:
            entries.append((ops[0], _literal_string(ops[2:])))
        elif op == OP_DECORATE and len(ops) >= 2:
            decorations[ops[0]][ops[1]] = ops[2] if len(ops) > 2 else True
        elif op == OP_TYPE_ARRAY:
            arrays[ops[0]] = (ops[1], ops[2])
        elif op == OP_TYPE_RUNTIME_ARRAY:
            arrays[ops[0]] = (ops[1], None)
        elif op == OP_TYPE_POINTER:
            pointers[ops[0]] = ops[2]
        elif op == OP_CONSTANT:
            constants[ops[1]] = ops[2]
        elif op == OP_VARIABLE:
            variables.append((ops[1], ops[0], ops[2]))   # id, pointer type, storage class
        i += max(count, 1)
    # Shader modules: the lowest Vulkan for the version (docs/cli.md); Kernel: universal.
    if CAP_KERNEL in caps and CAP_SHADER not in caps:
        env = "spv1.%d" % minor
    else:
        env = {0: "vulkan1.0", 4: "vulkan1.1spv1.4", 5: "vulkan1.2", 6: "vulkan1.3"}.get(
            minor, "vulkan1.1")
    info = ModuleInfo(env)
    info.compute_entry = next((name for model, name in entries if model == EXEC_GL_COMPUTE), None)
    if info.compute_entry is None:
        info.fragment_entry = next((name for model, name in entries if model == EXEC_FRAGMENT),
                                   None)
    for var, ptr, storage in variables:
        if storage == SC_PUSH_CONSTANT:
            info.push_constants = True
        if storage not in (SC_UNIFORM, SC_STORAGE_BUFFER) or DEC_BINDING not in decorations[var]:
            continue
        block, count = pointers.get(ptr), 1
        while block in arrays:      # an array (of arrays) of descriptors
            block, length = arrays[block]
            count *= RUNTIME_DESCRIPTOR_COUNT if length is None else constants.get(length, 1)
        kind = ("storage_buffer" if storage == SC_STORAGE_BUFFER
                or DEC_BUFFER_BLOCK in decorations[block] else "uniform_buffer")
        info.buffers.append((decorations[var].get(DEC_DESCRIPTOR_SET, 0),
                             decorations[var][DEC_BINDING], kind, count))
    return info


def make_job(info, spv):
    """The simulator's vk_runner job for a GLCompute module (see the docstring)."""
    def words(salt):
        return [(k * 37 + salt * 11) % glsl_gen.BUFFER_WORD_LIMIT for k in range(FILLED_WORDS)]
    bindings = []
    for set_, binding, kind, count in info.buffers:
        elements = [{"u32": words(set_ * 64 + binding * 8 + e), "size": BUFFER_BYTES}
                    for e in range(count)]
        bindings.append({"set": set_, "binding": binding, "type": kind, "elements": elements})
    if info.compute_entry is not None:
        job = {"mode": "compute", "spv": os.path.abspath(spv), "entry": info.compute_entry,
               "groups": [WORKGROUPS, 1, 1], "bindings": bindings}
    else:
        job = {"mode": "render", "spv": os.path.abspath(spv), "entry": info.fragment_entry,
               "width": FRAME[0], "height": FRAME[1], "bindings": bindings}
    if info.push_constants:
        job["push_constants"] = {"u32": words(999)[:PUSH_CONSTANT_WORDS]}
    return job


# ---------------------------------------------------------------------------
# Results

@dataclasses.dataclass
class InputResult:
    input: str
    modules: int = 0
    commands: int = 0
    failures: List[dict] = dataclasses.field(default_factory=list)
    skipped: List[dict] = dataclasses.field(default_factory=list)
    exits: List[tuple] = dataclasses.field(default_factory=list)   # (command, exit)
    digests: Dict[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Summary:
    inputs: int = 0
    modules: int = 0
    commands: int = 0
    passed: int = 0
    failed: int = 0
    failures: List[dict] = dataclasses.field(default_factory=list)
    skipped: List[dict] = dataclasses.field(default_factory=list)
    exit_counts: Dict[str, Dict[str, int]] = dataclasses.field(default_factory=dict)
    seconds: float = 0.0
    digests: Dict[str, str] = dataclasses.field(default_factory=dict)

    def add(self, result):
        self.inputs += 1
        self.digests.update(result.digests)
        self.modules += result.modules
        self.commands += result.commands
        self.failures += result.failures
        self.skipped += result.skipped
        for command, code in result.exits:
            counts = self.exit_counts.setdefault(command, {})
            counts[code] = counts.get(code, 0) + 1
        if result.failures:
            self.failed += 1
        elif result.modules:
            self.passed += 1

    def to_json(self):
        return dataclasses.asdict(self)


def exit_text(code):
    """An exit code as the summary shows it: N, 'signal N' or 'timeout' (a
    string is already one)."""
    if isinstance(code, str):
        return code
    if code is None:
        return "timeout"
    if code < 0:
        return "signal %d" % -code
    return str(code)


def quote(args):
    return " ".join(shlex.quote(a) for a in args)


def tail(text):
    return "\n".join(text.strip().splitlines()[-STDERR_LINES:])


def first_line(text):
    lines = text.strip().splitlines()
    return lines[0] if lines else ""


# Vulkan lets an implementation contract a*b+c into a fused multiply-add
# unless the result is decorated NoContraction, and spirv-opt does (`x*0.01 -
# x*0.01` becomes Fma(x, 0.01, -(x*0.01)), the product's rounding error, not
# 0). So `opt -O`'s floats may differ from its input's by a few rounding errors,
# propagated; buffer words must be exact, except a pair that both read as
# normal floats or zero (integers below 2^23, such as the generator's, read as
# denormals and so stay exact).
CONTRACTION_TOLERANCE = 1e-5
FLT_MIN = 2.0 ** -126


def _close_floats(x, y):
    return (math.isfinite(x) and math.isfinite(y)
            and abs(x - y) <= CONTRACTION_TOLERANCE * max(1.0, abs(x), abs(y)))


def _close_float_words(want, have):
    if want is None or have is None:
        return False
    x, y = sim_tools.bits_f32(want), sim_tools.bits_f32(have)
    if any(v != 0.0 and abs(v) < FLT_MIN for v in (x, y)):
        return False
    return _close_floats(x, y)


def buffer_differences(expected, actual, limit=8, contraction=False):
    """Where two simulator results differ: 'buffer S:B[E] word I: X (input) vs
    Y (output)'. |contraction|: floats that differ within
    CONTRACTION_TOLERANCE are equal."""
    diffs = []
    for buf in expected.get("buffers", []):
        key = (buf.get("set"), buf.get("binding"), buf.get("element", 0))
        got = sim_tools.result_buffer(actual, *key) or []
        for index, want, have in sim_tools.word_differences(buf.get("u32", []), got):
            if contraction and _close_float_words(want, have):
                continue
            diffs.append("buffer %d:%d[%d] word %d: %s (input) vs %s (output)"
                         % (key + (index, want, have)))
            if len(diffs) >= limit:
                break
    for want in expected.get("attachments", []):
        have = next((a for a in actual.get("attachments", [])
                     if a.get("location") == want.get("location")), {})
        for key in ("f32", "i32", "u32", "written"):
            if key not in want:
                continue
            got = have.get(key, [])
            for index, (x, y) in enumerate(zip(want[key], got)):
                if x == y or (x != x and y != y):  # NaN equals NaN here
                    continue
                if contraction and key == "f32" and _close_floats(float(x), float(y)):
                    continue
                diffs.append("attachment %s %s[%d]: %s (input) vs %s (output)"
                             % (want.get("location"), key, index, x, y))
                break
            if len(got) != len(want[key]):
                diffs.append("attachment %s %s: %d values (input) vs %d (output)"
                             % (want.get("location"), key, len(want[key]), len(got)))
    return diffs[:limit]


def comparable(result):
    """A fragment run whose outputs are defined: no undefined derivative."""
    stats = result.get("stats") or {}
    return not stats.get("undefined_derivatives")


Ran = collections.namedtuple("Ran", "code out err args")


def run_tool(args, timeout):
    return sim_tools.run_command_waiting(args, timeout=timeout)


# ---------------------------------------------------------------------------
# One input

class Tools:
    def __init__(self, spirv_conv, spirv_opt, spirv_val, timeout):
        self.spirv_conv = os.path.abspath(spirv_conv)
        self.spirv_opt = spirv_opt
        self.spirv_val = spirv_val
        self.timeout = timeout


class InputCheck:
    """Everything about one input, in its own folder."""

    def __init__(self, tools, path, folder):
        self.tools = tools
        self.path = path
        self.dir = folder
        self.result = InputResult(path)
        self.variant = None

    def file(self, name):
        return os.path.join(self.dir, name)

    def fail(self, args, code, problem, stderr=""):
        self.result.failures.append({
            "input": self.path, "variant": self.variant, "command": quote(args),
            "exit": exit_text(code), "problem": problem, "stderr": tail(stderr)})

    def skip(self, reason):
        self.result.skipped.append({"input": self.path, "variant": self.variant,
                                    "reason": reason})

    def run(self, label, args, allowed):
        """Runs a command and records its exit under |label|. A failure (and
        None) when the exit is not in |allowed| or a sanitizer spoke; else a Ran."""
        code, out, err = run_tool(args, self.tools.timeout)
        if args and args[0] == self.tools.spirv_conv:
            self.record_digest(args, code, out, err)
        self.result.commands += 1
        self.result.exits.append((label, exit_text(code)))
        if SANITIZER.search(err):
            self.fail(args, code, "sanitizer report", err)
            return None
        if code not in allowed:
            self.fail(args, code, "exit %s, expected one of %s"
                      % (exit_text(code), sorted(allowed)), err)
            return None
        return Ran(code, out, err, args)

    def record_digest(self, args, code, out, err):
        """The run's SHA-256 under its input, variant and command line, with
        this input's folder and path replaced so that runs compare."""
        def normal(text):
            return text.replace(self.dir, "<dir>").replace(self.path, "<input>")
        sha = hashlib.sha256()
        for part in (str(code), normal(out), normal(err)):
            sha.update(part.encode("utf-8", "replace") + b"\0")
        if "-o" in args and args.index("-o") + 1 < len(args):
            written = args[args.index("-o") + 1]
            if os.path.isfile(written):
                with open(written, "rb") as f:
                    sha.update(f.read().replace(self.dir.encode(), b"<dir>")
                               .replace(self.path.encode(), b"<input>"))
        key = "%s|%s|%s" % (os.path.basename(self.path), self.variant,
                            normal(quote(args[1:])))
        self.result.digests[key] = sha.hexdigest()

    def conv(self, command, args, options=(), allowed=None):
        """`spirv-conv COMMAND ARGS OPTIONS`, checked against ALLOWED_EXITS;
        counted under `COMMAND OPTIONS`."""
        return self.run(" ".join((command,) + tuple(options)),
                        [self.tools.spirv_conv, command] + list(args) + list(options),
                        allowed or ALLOWED_EXITS[command])

    def parses(self, ran):
        """The JSON (or SARIF) |ran| printed, or None and a failure."""
        try:
            return json.loads(ran.out)
        except ValueError as e:
            self.fail(ran.args, ran.code, "output does not parse as JSON: %s" % e)
            return None

    def real_spirv_val(self, spv, env):
        """None when the Debian spirv-val accepts |spv| for |env|, else its message."""
        args = [self.tools.spirv_val, "--target-env", env, spv]
        code, out, err = run_tool(args, self.tools.timeout)
        return None if code == 0 else (err + out).strip() or "exit %s" % exit_text(code)

    # -- variants -------------------------------------------------------------

    def compile_variant(self, name, extra):
        """`spirv-conv opt [extra] INPUT -o NAME.spv`; its ModuleInfo, or None
        (skipped or failed)."""
        self.variant = name
        out = self.file(name + ".spv")
        args = [self.tools.spirv_conv, "opt"] + extra + [self.path, "-o", out]
        ran = self.run("opt (compile)", args, {0, 2})
        if ran is None:
            return None
        if ran.code == 2:
            self.skip("not compiled/invalid: " + first_line(ran.err))
            return None
        return self.accept_variant(out)

    def accept_variant(self, spv):
        info = read_module(spv)
        problem = self.real_spirv_val(spv, info.target_env)
        if problem:
            self.skip("not compiled/invalid: spirv-val: " + first_line(problem))
            return None
        return info

    def optimized_variant(self, o0, info):
        """`spirv-opt -O` of the O0 module (skipped when spirv-opt fails)."""
        self.variant = "O"
        out = self.file("O.spv")
        args = [self.tools.spirv_opt, "-O", "--target-env=" + info.target_env, o0, "-o", out]
        code, _, err = run_tool(args, self.tools.timeout)
        if code != 0:
            self.skip("not compiled/invalid: spirv-opt -O exits %s: %s"
                      % (exit_text(code), first_line(err)))
            return None
        return self.accept_variant(out)

    # -- the commands on one module ----------------------------------------------

    def analyses(self, spv):
        self.conv("validate", [spv])
        self.conv("uniformity", [spv])
        self.conv("lint", [spv])
        for command, fmt in (("uniformity", "json"), ("lint", "json"), ("lint", "sarif")):
            ran = self.conv(command, [spv], ["--format", fmt])
            if ran:
                self.parses(ran)
        ran = self.conv("cfg", [spv])
        if ran and not ran.out.lstrip().startswith("digraph"):
            self.fail(ran.args, ran.code, "the output is not a DOT digraph")

    def simulate(self, spv, job_path, subgroup_size):
        """Runs |spv| in the simulator: (exit code, result JSON or None, Ran or
        None); code None when the run failed (recorded)."""
        args = sim_tools.Simulator(self.tools.spirv_conv).command(spv, job_path, subgroup_size)
        args += ["--max-instructions", str(MAX_INSTRUCTIONS), "--stats", "json"]
        ran = self.run("run", args, ALLOWED_EXITS["run"] | {2})
        if ran is None:
            return None, None, None
        if ran.code == 2 and not UNSUPPORTED.search(ran.err):
            self.fail(args, ran.code, "exit 2 on a valid module, not for an unsupported feature",
                      ran.err)
            return None, None, ran
        if ran.code != 0:
            return ran.code, None, ran
        return ran.code, self.parses(ran), ran

    def transform(self, spv, info, flag, reference):
        """`spirv-conv opt SPV -o OUT FLAG`: a documented exit, valid output,
        and (|reference|: the input's run in the simulator) the same buffers."""
        out = self.file("%s.%s.spv" % (self.variant, step_name(flag)))
        allowed = {0, 2} if flag in REFUSALS else {0}
        ran = self.conv("opt", [spv, "-o", out], flag.split(), allowed=allowed)
        if ran is None:
            return
        if ran.code == 2:
            if not REFUSALS[flag].search(ran.err):
                self.fail(ran.args, 2, "exit 2 on a valid module, not a pass's refusal", ran.err)
            return
        problem = self.real_spirv_val(out, info.target_env)
        if problem:
            self.fail(ran.args, 0, "spirv-val rejects the output: " + first_line(problem), problem)
            return
        if reference is None:
            return
        job_path, subgroup_size, expected = reference
        code, result, run = self.simulate(out, job_path, subgroup_size)
        if code is not None and code != 0:
            self.fail(run.args, code, "the output of `opt %s` faults in the simulator, its input "
                      "does not" % flag, run.err)
        elif result is not None:
            diffs = buffer_differences(expected, result, contraction=flag == "-O")
            if diffs:
                self.fail(run.args, 0, "the output of `opt %s` computes other words than its "
                          "input: %s" % (flag, "; ".join(diffs)))

    def reference_run(self, name, spv, info):
        """GLCompute modules: the run of |spv| that the transforms' outputs must
        reproduce, as (job path, subgroup size, result JSON); else None."""
        if info.compute_entry is None and info.fragment_entry is None:
            return None
        job_path = self.file(name + ".job.json")
        with open(job_path, "w") as f:
            json.dump(make_job(info, spv), f)
        # Varies between inputs, fixed for one (by its file name, so that a
        # reproducer keeps it).
        digest = hashlib.sha1(os.path.basename(self.path).encode()).digest()
        subgroup_size = SUBGROUP_SIZES[digest[0] % len(SUBGROUP_SIZES)]
        code, result, _ = self.simulate(spv, job_path, subgroup_size)
        if info.fragment_entry is not None and result is not None and not comparable(result):
            return None
        return (job_path, subgroup_size, result) if code == 0 and result is not None else None

    def module(self, name, spv, info):
        """Every command on one variant."""
        self.variant = name
        self.result.modules += 1
        self.analyses(spv)
        reference = self.reference_run(name, spv, info)
        for flag in TRANSFORMS:
            self.transform(spv, info, flag, reference)

    def motion(self, before, after):
        self.variant = "O0 vs O"
        ran = self.conv("check-motion", [before, after], ["--format", "json"])
        if ran:
            self.parses(ran)

    def variants(self, wanted=("O0", "g", "O")):
        """[(name, spv, ModuleInfo)] of the |wanted| variants (O0, g for GLSL
        inputs, O) that compile and validate; O needs O0, which is made anyway."""
        os.makedirs(self.dir, exist_ok=True)
        o0 = self.compile_variant("O0", [])
        if o0 is None:
            return []
        found = [("O0", self.file("O0.spv"), o0)]
        if "g" in wanted and self.path.rsplit(".", 1)[-1] in GLSL_EXTENSIONS:
            g = self.compile_variant("g", ["-g"])
            if g is not None:
                found.append(("g", self.file("g.spv"), g))
        if "O" in wanted:
            optimized = self.optimized_variant(self.file("O0.spv"), o0)
            if optimized is not None:
                found.append(("O", self.file("O.spv"), optimized))
        return found

    def check(self):
        variants = self.variants()
        for name, spv, info in variants:
            self.module(name, spv, info)
        if any(name == "O" for name, _, _ in variants):
            self.motion(self.file("O0.spv"), self.file("O.spv"))
        return self.result


# ---------------------------------------------------------------------------
# Many inputs

def _folder_name(index, path):
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.basename(path))
    return "%06d-%s" % (index, stem)


def _check_one(tools, work_dir, index, item, keep):
    """Worker: |item| is a path, or ('seed', N) for a generated program."""
    if isinstance(item, tuple):
        name, text = glsl_gen.generate(item[1])
        path = os.path.join(work_dir, "gen", name)
        with open(path, "w") as f:
            f.write(text)
    else:
        path = item
    folder = os.path.join(work_dir, "modules", _folder_name(index, path))
    check = InputCheck(tools, path, folder)
    try:
        result = check.check()
    except (OSError, ValueError, IndexError) as e:
        # A module the driver cannot read (a truncated output file, a SPIR-V
        # construct the reader does not expect) must not end a long campaign.
        check.fail([], "none", "driver error: %s: %s" % (type(e).__name__, e))
        result = check.result
    if not keep and not result.failures:
        shutil.rmtree(folder, ignore_errors=True)
        if isinstance(item, tuple):
            os.unlink(path)
    return result


def run_inputs(inputs, spirv_conv, work_dir, jobs=2, timeout=60, spirv_opt=None, spirv_val=None,
               keep=False, progress=False):
    """Checks every input (a path, or ('seed', N) for glsl_gen's program N);
    returns the Summary. Files of inputs that pass are removed unless |keep|."""
    tools = Tools(spirv_conv, spirv_opt or shutil.which("spirv-opt") or "spirv-opt",
                  spirv_val or shutil.which("spirv-val") or "spirv-val", timeout)
    work_dir = os.path.abspath(work_dir)
    os.makedirs(os.path.join(work_dir, "gen"), exist_ok=True)
    os.makedirs(os.path.join(work_dir, "modules"), exist_ok=True)
    summary = Summary()
    start = last_report = time.monotonic()
    inputs = list(inputs)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        # A bounded window of pending inputs: a campaign of 200,000 programs
        # should not hold 200,000 futures.
        pending = set()
        for index, item in enumerate(inputs):
            pending.add(pool.submit(_check_one, tools, work_dir, index, item, keep))
            if len(pending) >= 4 * max(1, jobs):
                done, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    summary.add(future.result())
            if progress and time.monotonic() - last_report > 30:
                last_report = time.monotonic()
                print("[%d/%d] %d failed, %.0f s" % (summary.inputs, len(inputs), summary.failed,
                                                     last_report - start),
                      file=sys.stderr, flush=True)
        for future in concurrent.futures.as_completed(pending):
            summary.add(future.result())
    summary.seconds = time.monotonic() - start
    summary.failures.sort(key=lambda f: (f["input"], f["variant"] or "", f["command"]))
    return summary


def print_summary(summary, out=sys.stdout):
    for f in summary.failures:
        print("FAIL %s [%s]: %s\n  exit %s: %s" % (f["input"], f["variant"], f["problem"],
                                                   f["exit"], f["command"]), file=out)
        if f["stderr"]:
            print("  " + f["stderr"].replace("\n", "\n  "), file=out)
    for s in summary.skipped:
        print("skipped %s [%s]: %s" % (s["input"], s["variant"], s["reason"]), file=out)
    print("exit codes:", file=out)
    for command in sorted(summary.exit_counts):
        counts = summary.exit_counts[command]
        exits = ", ".join("%s: %d" % (k, counts[k]) for k in sorted(counts))
        print("  %-28s %s" % (command, exits), file=out)
    per_input = summary.seconds / summary.inputs if summary.inputs else 0.0
    print("%d inputs, %d modules, %d commands, %d skipped, %d failures in %.1f s (%.2f s per input)"
          % (summary.inputs, summary.modules, summary.commands, len(summary.skipped),
             len(summary.failures), summary.seconds, per_input), file=out)
    print("%d passed, %d failed" % (summary.passed, summary.failed), file=out)


def compare_digests(summary, base_path):
    """Adds a failure for every run of |summary| whose digest differs from,
    or is missing in, the digests saved at |base_path|, and for every saved
    run this one did not make."""
    with open(base_path) as f:
        base = json.load(f)
    for key in sorted(set(base) | set(summary.digests)):
        if base.get(key) != summary.digests.get(key):
            problem = ("output differs from " + base_path if key in base and key in summary.digests
                       else "run only in " + (base_path if key in base else "this run"))
            name, variant, command = key.split("|", 2)
            summary.failures.append({"input": name, "variant": variant, "command": command,
                                     "exit": "-", "problem": problem, "stderr": ""})


def expand_folders(paths):
    """|paths| with each folder replaced by its files in name order (a
    regression corpus such as test/fuzz/regressions/)."""
    expanded = []
    for path in paths:
        if os.path.isdir(path):
            expanded += [os.path.join(path, name) for name in sorted(os.listdir(path))
                         if os.path.isfile(os.path.join(path, name))]
        else:
            expanded.append(path)
    return expanded


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="*", metavar="INPUT")
    ap.add_argument("--spirv-conv", required=True)
    ap.add_argument("--spirv-opt", default=shutil.which("spirv-opt"))
    ap.add_argument("--spirv-val", default=shutil.which("spirv-val"))
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--jobs", "-j", type=int, default=2, help="inputs checked in parallel")
    ap.add_argument("--timeout", type=float, default=60,
                    help="seconds per command (ASan builds are ~10x slower)")
    ap.add_argument("--report", help="write the summary here as JSON")
    ap.add_argument("--generate", type=int, default=0, metavar="COUNT",
                    help="also check COUNT programs of glsl_gen.py")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true", help="keep the files of inputs that pass")
    ap.add_argument("--digest", metavar="FILE.json",
                    help="write a SHA-256 of every spirv-conv run here")
    ap.add_argument("--compare-digest", metavar="BASE.json",
                    help="fail on every run whose SHA-256 differs from BASE's")
    args = ap.parse_args(argv)
    for name, tool in (("--spirv-conv", args.spirv_conv), ("--spirv-opt", args.spirv_opt),
                       ("--spirv-val", args.spirv_val)):
        if not tool or not (os.access(tool, os.X_OK) or shutil.which(tool)):
            print("command_driver: error: %s: %s is not an executable" % (name, tool),
                  file=sys.stderr)
            return 2
    args.inputs = expand_folders(args.inputs)
    missing = [p for p in args.inputs if not os.path.isfile(p)]
    if missing:
        print("command_driver: error: no such file: %s" % ", ".join(missing), file=sys.stderr)
        return 2
    inputs = [os.path.abspath(p) for p in args.inputs]
    inputs += [("seed", s) for s in range(args.first_seed, args.first_seed + args.generate)]
    if not inputs:
        print("command_driver: error: no inputs (give files or --generate COUNT)", file=sys.stderr)
        return 2
    summary = run_inputs(inputs, args.spirv_conv, args.work_dir, jobs=args.jobs,
                         timeout=args.timeout, spirv_opt=args.spirv_opt, spirv_val=args.spirv_val,
                         keep=args.keep, progress=True)
    if args.compare_digest:
        compare_digests(summary, args.compare_digest)
    print_summary(summary)
    if args.digest:
        with open(args.digest, "w") as f:
            json.dump(summary.digests, f, indent=0, sort_keys=True)
    if args.report:
        with open(args.report, "w") as f:
            json.dump(summary.to_json(), f, indent=1)
    return 1 if summary.failures else 0


if __name__ == "__main__":
    sys.exit(main())
