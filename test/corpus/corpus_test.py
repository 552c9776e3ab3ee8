#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Corpus harness: every shader of a folder through glslangValidator, spirv-val
and spirv-conv.

  python3 test/corpus/corpus_test.py --spirv-conv PATH --corpus DIR --work-dir DIR
                                     [--jobs N] [--min-compilable N]

For each file with a shader-stage extension under DIR (recursively), the
shader is compiled with `glslangValidator -V [--target-env E]` (cwd = the
file's folder, so #include resolves), E trying vulkan1.0 (no flag), vulkan1.1,
vulkan1.2, vulkan1.3 in order. The first env whose output the real spirv-val
accepts for that env is chosen; if no compiled output validates, the first
that compiled is kept and classed "glslang-output-invalid"; a file that
compiles for no env is "not compilable" (counted, not checked).

Checks, with spirv-conv choosing its target env itself (from the module):
  valid:                  `opt X -o Y` exits 0 and Y is byte-identical to X
                          (the pipeline has no passes yet: loading, IR
                          round-trip and emission must not change a byte);
                          `validate X` exits 0; `uniformity --format json X`
                          exits 0 and reports every function;
                          `opt --fix-nonuniform` and `opt --strip-nonuniform`
                          exit 0 (their output validates), and running the
                          pass again on its output changes no byte;
                          `opt --lower-nonuniform --device lavapipe` exits
                          0, idempotently, and the lint finds no missing
                          NonUniform in its output -- or exits 2 with the
                          pass's reason (a rewrite it does not support);
                          `opt -O` (the guarded spirv-opt) exits 0 and
                          check-motion accepts its output against the input.
  glslang-output-invalid: `opt X -o Y` exits 2 (spirv-val rejects the input)
                          and writes nothing; `opt --skip-validation X -o Y`
                          exits 3 (the output gate) and Y does not exist;
                          exit 2 instead when the module cannot even be
                          parsed for its env, as `spirv-opt --skip-validation
                          --target-env=E` (the reference) also fails on it.

Compiling is most of the time (919 of glslang's 1255 test files compile for no
env and cost four glslangValidator runs each), so with --cache-dir the
compiler's verdict per (glslangValidator version, env, source bytes) is kept:
the Release and the sanitizer runs of the suite compile once between them.

Prints one line per failing shader, a counts line, and last
`corpus: N passed, M failed` (N, M over the compilable shaders). Exits 1 when
M > 0, when fewer than --min-compilable shaders compiled, or when the corpus
folder is missing or holds no shader.
"""

import argparse
import collections
import concurrent.futures
import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import List, Optional

STAGE_EXTENSIONS = ("vert", "tesc", "tese", "geom", "frag", "comp", "mesh", "task",
                    "rgen", "rint", "rahit", "rchit", "rmiss", "rcall")

# (glslangValidator --target-env value or None, spirv-val --target-env name).
# No flag means Vulkan 1.0, glslangValidator -V's default.
ENVS = ((None, "vulkan1.0"), ("vulkan1.1", "vulkan1.1"), ("vulkan1.2", "vulkan1.2"),
        ("vulkan1.3", "vulkan1.3"))

TIMEOUT = 120  # seconds for any one tool run


@dataclasses.dataclass
class Result:
    path: str                        # relative to the corpus folder
    klass: str = "not-compilable"    # "valid", "glslang-output-invalid", "not-compilable"
    env: Optional[str] = None        # the chosen env (spirv-val's name)
    failures: List[str] = dataclasses.field(default_factory=list)
    # `opt -O`: the spirv-opt passes rolled back, as (pass, [rules or reason]).
    rolled_back: List[tuple] = dataclasses.field(default_factory=list)


def run(args, cwd=None):
    """Runs |args|; returns (exit code, stderr text). A timeout is exit code None."""
    try:
        proc = subprocess.run(args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % TIMEOUT
    return proc.returncode, proc.stderr.decode("utf-8", "replace")


def first_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[0].strip() if lines else "(no message)"


def describe(code):
    if code is None:
        return "a timeout"
    if code < 0:
        return "signal %d" % -code
    return "exit %d" % code


def mangle(rel_path):
    """A flat, unique file stem for |rel_path| inside the work folder."""
    return rel_path.replace(os.sep, "__")


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def count_opcode(binary, opcode):
    """Instructions with |opcode| in a little-endian SPIR-V binary."""
    words = [int.from_bytes(binary[i:i + 4], "little") for i in range(0, len(binary) - 3, 4)]
    count, i = 0, 5
    while i < len(words) and words[i] >> 16:
        count += (words[i] & 0xFFFF) == opcode
        i += words[i] >> 16
    return count


def check_shader(corpus, rel_path, work_dir, tools):
    try:
        return check_shader_unguarded(corpus, rel_path, work_dir, tools)
    except Exception as e:  # a harness problem (e.g. an I/O error): fail this shader only
        result = Result(rel_path, klass="harness-error")
        result.failures.append("harness error: %s: %s" % (type(e).__name__, e))
        return result


def check_shader_unguarded(corpus, rel_path, work_dir, tools):
    result = Result(rel_path)
    source = os.path.join(corpus, rel_path)
    folder = os.path.dirname(source) or "."
    stem = os.path.join(work_dir, mangle(rel_path))

    # Compile for each env; choose the first that spirv-val accepts.
    first_compiled = None  # (spv path, env name)
    chosen = None
    for glslang_env, val_env in ENVS:
        spv = "%s.%s.spv" % (stem, val_env)
        if not compile_shader(tools, source, folder, glslang_env, spv):
            continue
        if first_compiled is None:
            first_compiled = (spv, val_env)
        code, _ = run([tools.spirv_val, "--target-env", val_env, spv])
        if code == 0:
            chosen = (spv, val_env)
            break
    if first_compiled is None:
        return result  # not compilable

    if chosen is not None:
        result.klass = "valid"
        spv, result.env = chosen
    else:
        result.klass = "glslang-output-invalid"
        spv, result.env = first_compiled
    out = stem + ".out.spv"
    if os.path.exists(out):
        os.remove(out)

    def fail(what, stderr=""):
        result.failures.append(what + (": " + first_line(stderr) if stderr else ""))

    if result.klass == "valid":
        code, err = run([tools.spirv_conv, "opt", spv, "-o", out])
        if code != 0:
            fail("opt: %s, expected exit 0" % describe(code), err)
        elif not os.path.isfile(out):
            fail("opt: exit 0 but no output file")
        else:
            expected, actual = read_bytes(spv), read_bytes(out)
            if expected != actual:
                diff_at = next((i for i, (a, b) in enumerate(zip(expected, actual)) if a != b),
                               min(len(expected), len(actual)))
                fail("opt: output differs from the input (%d vs %d bytes, first difference at "
                     "byte %d)" % (len(actual), len(expected), diff_at))
        code, err = run([tools.spirv_conv, "validate", spv])
        if code != 0:
            fail("validate: %s, expected exit 0" % describe(code), err)
        # The uniformity analysis must handle every valid module: exit 0 and
        # a report naming every function the module defines.
        code, err = run([tools.spirv_conv, "uniformity", "--format", "json", spv, "-o", out + ".json"])
        if code != 0:
            fail("uniformity: %s, expected exit 0" % describe(code), err)
        else:
            with open(out + ".json") as f:
                report = json.load(f)
            functions = count_opcode(read_bytes(spv), 54)  # OpFunction
            if len(report["functions"]) != functions:
                fail("uniformity: %d functions reported, module has %d"
                     % (len(report["functions"]), functions))
        for flag in ("--fix-nonuniform", "--strip-nonuniform"):
            once, twice = out + flag + ".1.spv", out + flag + ".2.spv"
            code, err = run([tools.spirv_conv, "opt", flag, spv, "-o", once])
            if code != 0:
                fail("opt %s: %s, expected exit 0" % (flag, describe(code)), err)
                continue
            code, err = run([tools.spirv_conv, "opt", flag, once, "-o", twice])
            if code != 0:
                fail("opt %s (second run): %s, expected exit 0" % (flag, describe(code)), err)
            elif read_bytes(once) != read_bytes(twice):
                fail("opt %s is not idempotent: the second run changed the module" % flag)
        check_lowering(spv, out, tools, fail)
        result.rolled_back = check_guarded_optimizer(spv, out, tools, fail)
    else:
        code, err = run([tools.spirv_conv, "opt", spv, "-o", out])
        if code != 2:
            fail("opt: %s, expected exit 2 (spirv-val rejects the input for %s)"
                 % (describe(code), result.env), err)
        if os.path.exists(out):
            fail("opt: wrote %s for a rejected input" % out)
            os.remove(out)
        # Without input validation the module still has to be parsed. If the
        # SPIRV-Tools parser rejects it for its env (as the reference
        # `spirv-opt --skip-validation` does, e.g. a loop control mask bit from
        # a later SPIR-V version) it is unparsable input: exit 2. Otherwise
        # the IR is built and emitted, and the output gate must refuse it: 3.
        ref_code, _ = run([tools.spirv_opt, "--skip-validation", "--target-env=" + result.env,
                           spv, "-o", stem + ".ref.spv"])
        if os.path.exists(stem + ".ref.spv"):
            os.remove(stem + ".ref.spv")
        parsable = ref_code == 0
        expected = 3 if parsable else 2
        code, err = run([tools.spirv_conv, "opt", "--skip-validation", spv, "-o", out])
        if code != expected:
            fail("opt --skip-validation: %s, expected exit %d (%s)"
                 % (describe(code), expected,
                    "the output gate" if parsable else "spirv-opt cannot parse it either"), err)
        if os.path.exists(out):
            fail("opt --skip-validation: wrote %s although the output is invalid" % out)
    return result


def check_lowering(spv, out, tools, fail):
    lower = [tools.spirv_conv, "opt", "--lower-nonuniform", "--device", "lavapipe"]
    once, twice = out + ".lower.1.spv", out + ".lower.2.spv"
    code, err = run(lower + [spv, "-o", once])
    if code == 2 and "cannot" in err:
        return  # a documented refusal (docs/passes.md), nothing written
    if code != 0:
        fail("opt --lower-nonuniform: %s, expected exit 0" % describe(code), err)
        return
    code, err = run(lower + [once, "-o", twice])
    if code != 0:
        fail("opt --lower-nonuniform (second run): %s, expected exit 0" % describe(code), err)
    elif read_bytes(once) != read_bytes(twice):
        fail("opt --lower-nonuniform is not idempotent: the second run changed the module")
    code, err = run([tools.spirv_conv, "lint", "--format", "json", once, "-o", once + ".json"])
    if code not in (0, 1):
        fail("lint of the lowered module: %s" % describe(code), err)
        return
    with open(once + ".json") as f:
        report = json.load(f)
    missing = [finding for entry in report["files"] for finding in entry["findings"]
               if finding["rule"] == "nonuniform-missing-decoration"]
    if missing:
        fail("opt --lower-nonuniform left %d nonuniform-missing-decoration findings"
             % len(missing))


def check_guarded_optimizer(spv, out, tools, fail):
    """`opt -O` (docs/motion.md): exit 0, and the output, as a whole, is a
    legal transformation of the input by check-motion. Returns the passes it
    rolled back with their rules (or the reason when there are none)."""
    optimized, report = out + ".O.spv", out + ".O.json"
    code, err = run([tools.spirv_conv, "opt", "-O", "--report", report, spv, "-o", optimized])
    if code != 0:
        fail("opt -O: %s, expected exit 0" % describe(code), err)
        return []
    code, err = run([tools.spirv_conv, "check-motion", spv, optimized])
    if code != 0:
        fail("check-motion of opt -O's output against its input: %s, expected exit 0"
             % describe(code), err)
    with open(report) as f:
        passes = json.load(f)["modules"][0]["optimizer"]
    return [(p["pass"], sorted({f["rule"] for f in p["findings"]}) or [p["reason"]])
            for p in passes if p["outcome"] == "rolled-back"]


def write_motion_corpus(results, path):
    """The rolled-back passes per shader, as the Markdown table that
    docs/motion-corpus.md quotes."""
    lines = ["| shader | env | rolled back (pass: rules) |", "| --- | --- | --- |"]
    for r in sorted(results, key=lambda r: r.path):
        if r.rolled_back:
            counts = collections.Counter((p, ", ".join(rules)) for p, rules in r.rolled_back)
            cells = "; ".join("%s%s: %s" % (p, " x%d" % n if n > 1 else "", rules)
                              for (p, rules), n in sorted(counts.items()))
            lines.append("| %s | %s | %s |" % (r.path, r.env, cells))
    by_pass = collections.Counter(p for r in results for p, _ in r.rolled_back)
    lines += ["", "Rolled back in %d of %d valid shaders; per pass: %s" % (
        sum(1 for r in results if r.rolled_back), sum(1 for r in results if r.klass == "valid"),
        ", ".join("%s %d" % item for item in sorted(by_pass.items())) or "none")]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def cached_build(cache_dir, key_parts, out, build):
    """Produces |out| with build(), which returns (True, "") when it wrote
    |out| or (False, why). With |cache_dir| the verdict is kept under the
    SHA-256 of |key_parts| (strings or bytes): the file as KEY.spv, a failure as
    KEY.fail holding why, and reused. Returns (built, why)."""
    if os.path.exists(out):
        os.remove(out)
    key = None
    if cache_dir:
        digest = hashlib.sha256()
        for part in key_parts:
            digest.update(part if isinstance(part, bytes) else part.encode())
            digest.update(b"\0")
        key = os.path.join(cache_dir, digest.hexdigest())
        if os.path.exists(key + ".fail"):
            with open(key + ".fail", encoding="utf-8", errors="replace") as f:
                return False, f.read()
        if os.path.exists(key + ".spv"):
            shutil.copyfile(key + ".spv", out)
            return True, ""
    built, why = build()
    built = built and os.path.isfile(out)
    if key:
        # Write under a temporary name and rename: parallel runs may share the cache.
        fd, temp = tempfile.mkstemp(dir=cache_dir, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(read_bytes(out) if built else why.encode())
        os.replace(temp, key + (".spv" if built else ".fail"))
    return built, why


def compile_shader(tools, source, folder, glslang_env, spv, extra_args=()):
    """Compiles |source| for |glslang_env| into |spv| (glslangValidator -V,
    then |extra_args|); True when it compiled. With tools.cache_dir, a verdict
    (the module, or that it did not compile) is reused for the same compiler,
    arguments, env and source bytes."""
    parts = []
    if tools.cache_dir:  # tools.glslang_version is read only then
        parts = [tools.glslang_version, str(glslang_env), read_bytes(source)]
        if extra_args:  # plain -V keeps the keys it always had
            parts.insert(0, " ".join(extra_args))

    def build():
        args = [tools.glslang, "-V", *extra_args]
        if glslang_env:
            args += ["--target-env", glslang_env]
        code, _ = run(args + [os.path.basename(source), "-o", spv], cwd=folder)
        return code == 0, ""

    return cached_build(tools.cache_dir, parts, spv, build)[0]


def find_shaders(corpus):
    found = []
    for root, dirs, files in os.walk(corpus):
        dirs.sort()
        for name in sorted(files):
            if name.rsplit(".", 1)[-1] in STAGE_EXTENSIONS and "." in name:
                found.append(os.path.relpath(os.path.join(root, name), corpus))
    return found


def find_tool(name, given):
    path = given or shutil.which(name)
    if not path or not os.access(path, os.X_OK):
        return None
    return os.path.abspath(path)


TOOLS = (("spirv_conv", "spirv-conv"), ("glslang", "glslangValidator"), ("spirv_as", "spirv-as"),
         ("spirv_val", "spirv-val"), ("spirv_opt", "spirv-opt"))


def add_tool_arguments(parser):
    """--glslang, --spirv-as, --spirv-val, --spirv-opt (default: from PATH)."""
    for tool in ("glslang", "spirv-as", "spirv-val", "spirv-opt"):
        parser.add_argument("--" + tool, help="default: from PATH")


def find_tools(args):
    """The tools of add_tool_arguments plus --spirv-conv, resolved; and the
    attribute names of the ones missing."""
    tools = argparse.Namespace(**{attr: find_tool(name, getattr(args, attr))
                                  for attr, name in TOOLS})
    return tools, [attr for attr, _ in TOOLS if getattr(tools, attr) is None]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spirv-conv", required=True, help="the spirv-conv binary")
    parser.add_argument("--corpus", required=True, help="folder of shaders")
    parser.add_argument("--work-dir", required=True, help="folder for compiled modules")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--min-compilable", type=int, default=0,
                        help="fail when fewer shaders compile (default 0)")
    parser.add_argument("--glslang", help="glslangValidator (default: from PATH)")
    parser.add_argument("--spirv-val", help="spirv-val (default: from PATH)")
    parser.add_argument("--spirv-opt", help="spirv-opt, the reference parser for modules "
                        "spirv-val rejects (default: from PATH)")
    parser.add_argument("--cache-dir", help="keep glslangValidator's verdicts here and reuse "
                        "them (keyed by its version, the env and the source bytes)")
    parser.add_argument("--motion-table", help="write the passes `opt -O` rolled back per "
                        "shader to this Markdown file (for docs/motion-corpus.md)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print the class and env of every compilable shader")
    args = parser.parse_args(argv)

    if not os.path.isdir(args.corpus):
        print("corpus: error: corpus folder '%s' does not exist or is not a folder"
              % args.corpus, file=sys.stderr)
        return 1
    tools = argparse.Namespace(spirv_conv=find_tool("spirv-conv", args.spirv_conv),
                               glslang=find_tool("glslangValidator", args.glslang),
                               spirv_val=find_tool("spirv-val", args.spirv_val),
                               spirv_opt=find_tool("spirv-opt", args.spirv_opt))
    for name, path in (("spirv-conv", tools.spirv_conv), ("glslangValidator", tools.glslang),
                       ("spirv-val", tools.spirv_val), ("spirv-opt", tools.spirv_opt)):
        if path is None:
            print("corpus: error: %s not found or not executable" % name, file=sys.stderr)
            return 1
    tools.cache_dir = os.path.abspath(args.cache_dir) if args.cache_dir else None
    if tools.cache_dir:
        os.makedirs(tools.cache_dir, exist_ok=True)
        tools.glslang_version = subprocess.run(
            [tools.glslang, "--version"], stdout=subprocess.PIPE, check=False).stdout
    if args.jobs < 1:
        print("corpus: error: --jobs must be at least 1", file=sys.stderr)
        return 1

    corpus = os.path.abspath(args.corpus)
    shaders = find_shaders(corpus)
    if not shaders:
        print("corpus: error: no shader (%s) in '%s'" % (", ".join(STAGE_EXTENSIONS), corpus),
              file=sys.stderr)
        return 1
    work_dir = os.path.abspath(args.work_dir)
    os.makedirs(work_dir, exist_ok=True)

    start = time.monotonic()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(check_shader, corpus, rel, work_dir, tools) for rel in shaders]
        for future in futures:
            results.append(future.result())
    elapsed = time.monotonic() - start

    compilable = [r for r in results if r.klass != "not-compilable"]
    valid = [r for r in compilable if r.klass == "valid"]
    invalid = [r for r in compilable if r.klass == "glslang-output-invalid"]
    failed = [r for r in compilable if r.failures]
    if args.verbose:
        for r in compilable:
            print("%s %s [%s]" % (r.klass, r.path, r.env))
    for r in failed:
        print("FAIL %s [%s, %s]: %s" % (r.path, r.klass, r.env, "; ".join(r.failures)))

    histogram = collections.Counter(r.env for r in compilable)
    envs = " ".join("%s=%d" % (env, histogram[env]) for _, env in ENVS)
    print("corpus: %d shaders in %s: compilable %d, valid %d, invalid-by-spirv-val %d, "
          "not compilable %d; envs: %s; %.1f s with %d jobs"
          % (len(results), corpus, len(compilable), len(valid), len(invalid),
             len(results) - len(compilable), envs, elapsed, args.jobs))
    print("corpus: %d passed, %d failed" % (len(compilable) - len(failed), len(failed)))

    if args.motion_table:
        write_motion_corpus(compilable, args.motion_table)
    status = 0
    if failed:
        status = 1
    if len(compilable) < args.min_compilable:
        print("corpus: error: only %d shaders compiled, expected at least %d"
              % (len(compilable), args.min_compilable), file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
