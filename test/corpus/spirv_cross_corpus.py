#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""The SPIRV-Cross test shaders as a second public corpus for every command
(docs/spirv-cross-corpus.md).

  python3 test/corpus/spirv_cross_corpus.py --spirv-conv PATH --corpus DIR --work-dir DIR
          [--cache-dir DIR] [--jobs N] [--sample K] [--counts FILE.json]
          [--glslang P] [--spirv-as P] [--spirv-val P] [--spirv-opt P] [--timeout S]

--corpus is Debian's spirv-cross source package, as scripts/setup-deps.sh
unpacks it into third_party/spirv-cross. Its shaders*/ folders hold GLSL
(every file with a stage extension) and SPIR-V assembly (every file with an
`asm` component in its name, e.g. `x.asm.frag`, `x.asm.invalid.comp`).

All of the GLSL is Vulkan GLSL: SPIRV-Cross's own harness (test_shaders.py)
compiles every folder, desktop-only/, legacy/ and the HLSL and MSL ones too,
with `glslangValidator -V --amb`; the folder and the name tags (.desktop.,
.legacy., .es., .msl2., ...) only choose SPIRV-Cross's output language.
A GLSL shader is compiled with `glslangValidator -V --target-env vulkan1.2`,
the env `spirv-conv` compiles GLSL for by default, so the module counted here
is the one the driver compiles from the source; a shader that needs glslang's
automatic binding numbers (OpenGL-style blocks without `binding`, which
spirv-conv cannot compile) is compiled again with `--amb`. Assembly goes
through `spirv-as --target-env E` with E as SPIRV-Cross's harness chooses it
from the name (.spv16. spv1.6, .spv14. vulkan1.1spv1.4, else vulkan1.1;
.preserve. keeps the ids). Each module is validated by spirv-val for the env
spirv-conv chooses for it (docs/cli.md: the lowest Vulkan that consumes its
SPIR-V version); a rejected one is tried again with SPIRV-Cross's relaxations
(--scalar-block-layout --allow-localsizeid) only to report why it is out.

Every valid module goes to the command driver (test/fuzz/command_driver.py),
which builds its -O0, -g and spirv-opt -O variants and runs every command on
each: GLSL shaders as their source (so -g has lines), the others as the .spv
(assembly and --amb shaders: no -g variant). With --cache-dir the
compilers' verdicts are kept (corpus_test.cached_build), so the Release and
the ASan run compile once between them.

Prints the counts per folder (found, compiled, valid, run as GLSL / as
SPIR-V) and why the rest are out, the driver's summary with the lint's
findings per rule and variant, and last `N passed, M failed` (the driver's).
--counts writes all of it as JSON. --sample K keeps K of the shaders, every
(found/K)-th in path order, before compiling (CI smoke). Exit 0, 1 when the
driver reports a failure, 2 for a usage error (a missing tool or corpus, no
shader found).
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
import time
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "test", "fuzz"))
import command_driver  # noqa: E402  (every command on every module and variant)
import corpus_test as ct  # noqa: E402  (tool runs, the compile cache, stage extensions)

EXIT_USAGE = 2
GLSL_ENV = "vulkan1.2"  # spirv-conv's default for GLSL input (docs/cli.md)
# SPIRV-Cross's harness: the relaxations it validates every module with.
CROSS_RELAXATIONS = ("--scalar-block-layout", "--allow-localsizeid")
# spirv-conv's target env for a binary Shader module, by SPIR-V minor version (docs/cli.md).
ENV_BY_MINOR = {0: "vulkan1.0", 1: "vulkan1.1", 2: "vulkan1.1", 3: "vulkan1.1",
                4: "vulkan1.1spv1.4", 5: "vulkan1.2", 6: "vulkan1.3"}


@dataclasses.dataclass
class Shader:
    path: str                      # relative to the corpus
    kind: str                      # "glsl" or "asm"
    how: Optional[str] = None      # what compiled it: "glsl", "glsl --amb", "asm"
    spv: Optional[str] = None      # the compiled module, in the work folder
    env: Optional[str] = None      # spirv-val's env for it
    valid: bool = False
    why: Optional[str] = None      # why it was not compiled or is not valid (grouped)

    @property
    def folder(self):
        return self.path.split(os.sep, 1)[0]


def classify(name):
    """"asm", "glsl" or None (not a shader) for a file name of the corpus."""
    parts = name.split(".")
    if "asm" in parts[1:]:
        return "asm"
    if len(parts) > 1 and parts[-1] in ct.STAGE_EXTENSIONS:
        return "glsl"
    return None


def find_shaders(corpus):
    found = []
    for top in sorted(os.listdir(corpus)):
        if not (top.startswith("shaders") and os.path.isdir(os.path.join(corpus, top))):
            continue
        for root, dirs, files in os.walk(os.path.join(corpus, top)):
            dirs.sort()
            for name in sorted(files):
                kind = classify(name)
                if kind:
                    found.append(Shader(os.path.relpath(os.path.join(root, name), corpus), kind))
    return found


def every_nth(items, count):
    """|count| of |items|, evenly spaced in their order (all of them when fewer)."""
    if count is None or count >= len(items):
        return list(items)
    return [items[i * len(items) // count] for i in range(count)]


def reason(text):
    """A compiler's or validator's first error, without what differs from one
    shader to the next (file, line, ids, numbers), so that reasons group."""
    lines = [line for line in text.splitlines() if "error" in line.lower()] or text.splitlines()
    line = lines[0].strip() if lines else "(no message)"
    line = re.sub(r"^(ERROR|error): ([^:]*:\d+: )?", "", line)
    line = re.sub(r"^line \d+: ", "", line)
    line = re.sub(r"'\d+\[%[^\]]*\]'", "<id>", line)
    line = re.sub(r"%\w+", "%id", line)
    return re.sub(r"\d+", "N", line)[:160]


def spirv_env(binary):
    minor = (int.from_bytes(binary[4:8], "little") >> 8) & 0xFF
    return ENV_BY_MINOR.get(minor, "vulkan1.3")


def cross_asm_env(name):
    """spirv-as's env for an assembly test, as SPIRV-Cross's test_shaders.py picks it."""
    if ".spv16." in name:
        return "spv1.6"
    if ".spv14." in name:
        return "vulkan1.1spv1.4"
    return "vulkan1.1"


def cached_compile(tools, args, source, out):
    """Runs |args| + ["-o", out, source's name] in the source's folder, through
    the compile cache (keyed by the tool's version, |args| and the source
    bytes). Returns (built, the tool's messages)."""
    def build():
        proc = subprocess.run(args + ["-o", out, os.path.basename(source)],
                              cwd=os.path.dirname(source), stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=ct.TIMEOUT)
        return proc.returncode == 0, proc.stdout.decode("utf-8", "replace")
    key = [tools.versions[args[0]], *args[1:], ct.read_bytes(source)]
    return ct.cached_build(tools.cache_dir, key, out, build)


def compile_one(shader, corpus, work_dir, tools, glsl_args=()):
    """Compiles and validates |shader|, filling in its fields. |glsl_args| go
    to glslangValidator for GLSL (lint_findings.py: -g)."""
    source = os.path.join(corpus, shader.path)
    out = os.path.join(work_dir, ct.mangle(shader.path) + ".spv")
    if shader.kind == "asm":
        args = [tools.spirv_as, "--target-env", cross_asm_env(shader.path)]
        if ".preserve." in shader.path:
            args.append("--preserve-numeric-ids")
        attempts = [("asm", args)]
    else:
        args = [tools.glslang, "-V", "--target-env", GLSL_ENV, *glsl_args]
        attempts = [("glsl", args), ("glsl --amb", args + ["--amb"])]
    for how, args in attempts:
        built, messages = cached_compile(tools, args, source, out)
        if built:
            shader.how, shader.spv, shader.why = how, out, None
            break
        shader.why = "%s: %s" % (how, reason(messages))
    if shader.spv is None:
        return shader

    shader.env = spirv_env(ct.read_bytes(out))
    val = [tools.spirv_val, "--target-env", shader.env]
    code, err = ct.run(val + [out])
    if code == 0:
        shader.valid = True
        return shader
    # Name the relaxation it needs, if one of SPIRV-Cross's (or both) is enough.
    for flags in [[flag] for flag in CROSS_RELAXATIONS] + [list(CROSS_RELAXATIONS)]:
        if ct.run(val + flags + [out])[0] == 0:
            shader.why = "valid only with spirv-val " + " ".join(flags)
            return shader
    shader.why = "spirv-val: " + reason(err)
    return shader


def package_version(corpus):
    """The Debian version scripts/setup-deps.sh recorded, else the changelog's."""
    for name, pattern in ((".spirv-conv-version", r"(\S+)"), ("debian/changelog", r"\((\S+)\)")):
        try:
            with open(os.path.join(corpus, name)) as f:
                match = re.search(pattern, f.readline())
        except OSError:
            continue
        if match:
            return match.group(1)
    return None


def folder_counts(shaders):
    counts = collections.OrderedDict()
    for s in shaders:
        row = counts.setdefault(s.folder, collections.Counter())
        row["found"] += 1
        row[s.kind] += 1
        row["compiled"] += s.spv is not None
        row["compiled with --amb"] += s.how == "glsl --amb"
        row["valid"] += s.valid
        row["run as GLSL"] += s.valid and s.how == "glsl"
        row["run as SPIR-V"] += s.valid and s.how != "glsl"
    counts["total"] = sum(counts.values(), collections.Counter())
    return counts


COLUMNS = ("found", "glsl", "asm", "compiled", "compiled with --amb", "valid", "run as GLSL",
           "run as SPIR-V")


def print_counts(counts, shaders):
    width = max(len(name) for name in counts)
    print("%-*s %s" % (width, "folder", " ".join("%*s" % (max(5, len(c)), c) for c in COLUMNS)))
    for name, row in counts.items():
        print("%-*s %s" % (width, name, " ".join("%*d" % (max(5, len(c)), row[c])
                                                 for c in COLUMNS)))
    out = collections.defaultdict(list)
    for s in shaders:
        if not s.valid:
            out[s.why].append(s.path)
    for why, paths in sorted(out.items(), key=lambda item: (-len(item[1]), item[0])):
        print("not run (%d): %s; e.g. %s" % (len(paths), why, ", ".join(paths[:2])))
    return {why: paths for why, paths in out.items()}


VARIANTS = ("O0", "g", "O")


def lint_findings(summary, inputs, driver_dir, tools, jobs):
    """`spirv-conv lint --format json` on each variant the driver built and
    accepted (it keeps them with keep=True, in its folder per input); the
    driver checks the lint's exit and output but does not keep its findings.
    Returns (findings as dicts, problems: variants whose lint did not report)."""
    skipped = {(s["input"], s["variant"]) for s in summary.skipped}
    tasks = []
    for index, path in enumerate(inputs):
        folder = os.path.join(driver_dir, "modules", command_driver._folder_name(index, path))
        for variant in VARIANTS:
            spv = os.path.join(folder, variant + ".spv")
            if (path, variant) not in skipped and os.path.isfile(spv):
                tasks.append((path, variant, spv))

    def lint(task):
        path, variant, spv = task
        code, err = ct.run([tools.spirv_conv, "lint", "--format", "json", "--no-group", spv,
                            "-o", spv + ".lint.json"])
        if code not in (0, 1):
            return [], ["%s [%s]: lint %s: %s" % (path, variant, ct.describe(code),
                                                  ct.first_line(err))]
        with open(spv + ".lint.json") as f:
            report = json.load(f)
        return [dict(finding, input=path, variant=variant) for entry in report["files"]
                for finding in entry["findings"]], []

    findings, problems = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for found, problem in pool.map(lint, tasks):
            findings += found
            problems += problem
    return findings, problems


def rule_counts(findings):
    """{variant: {rule: {"findings": N, "modules": M}}}."""
    counts = {}
    for variant in VARIANTS:
        mine = [f for f in findings if f["variant"] == variant]
        counts[variant] = {rule: {"findings": sum(f["rule"] == rule for f in mine),
                                  "modules": len({f["input"] for f in mine if f["rule"] == rule})}
                           for rule in sorted({f["rule"] for f in mine})}
    return counts


def print_rule_counts(counts):
    rules = sorted({rule for per_rule in counts.values() for rule in per_rule})
    width = max([len(r) for r in rules] + [4])
    if not rules:
        print("(no findings)")
        return
    print("%-*s %s" % (width, "rule", " ".join("%14s" % v for v in VARIANTS)))
    for rule in rules:
        cells = ["%5d in %3d" % (counts[v][rule]["findings"], counts[v][rule]["modules"])
                 if rule in counts[v] else "%14s" % "0" for v in VARIANTS]
        print("%-*s %s" % (width, rule, " ".join("%14s" % c for c in cells)))


def failure_classes(failures):
    """{"COMMAND [TRANSFORM]: exit E": N}: the spirv-conv command of each
    failure, with the transform flag for `opt` (as the driver's exit counts
    name them)."""
    classes = collections.Counter()
    for f in failures:
        words = f["command"].split()
        name = " ".join(words[1:2] + [w for w in words if w in command_driver.TRANSFORMS])
        classes["%s: exit %s" % (name, f["exit"])] += 1
    return dict(classes)


def find_tool(name, given):
    path = ct.find_tool(name, given)
    if path is None:
        print("spirv-cross-corpus: error: %s not found or not executable" % name,
              file=sys.stderr)
    return path


def tool_version(path):
    proc = subprocess.run([path, "--version"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, check=False)
    return proc.stdout


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spirv-conv", required=True, help="the spirv-conv binary")
    parser.add_argument("--corpus", required=True,
                        help="the unpacked spirv-cross source package (third_party/spirv-cross)")
    parser.add_argument("--work-dir", required=True, help="folder for modules and the driver")
    parser.add_argument("--cache-dir", help="keep the compilers' verdicts here and reuse them")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--sample", type=int, metavar="K",
                        help="only K shaders, every (found/K)-th in path order")
    parser.add_argument("--counts", metavar="FILE.json", help="write the counts here")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per command (driver)")
    for tool in ("glslang", "spirv-as", "spirv-val", "spirv-opt"):
        parser.add_argument("--" + tool, help="default: from PATH")
    args = parser.parse_args(argv)
    if args.jobs < 1 or (args.sample is not None and args.sample < 1):
        parser.error("--jobs and --sample must be at least 1")

    corpus = os.path.abspath(args.corpus)
    if not os.path.isdir(corpus):
        print("spirv-cross-corpus: error: corpus folder '%s' does not exist (run "
              "scripts/setup-deps.sh)" % args.corpus, file=sys.stderr)
        return EXIT_USAGE
    tools = argparse.Namespace(
        spirv_conv=find_tool("spirv-conv", args.spirv_conv),
        glslang=find_tool("glslangValidator", args.glslang),
        spirv_as=find_tool("spirv-as", args.spirv_as),
        spirv_val=find_tool("spirv-val", args.spirv_val),
        spirv_opt=find_tool("spirv-opt", args.spirv_opt))
    if None in vars(tools).values():
        return EXIT_USAGE
    tools.versions = {tools.glslang: tool_version(tools.glslang),
                      tools.spirv_as: tool_version(tools.spirv_as)}
    tools.cache_dir = os.path.abspath(args.cache_dir) if args.cache_dir else None
    if tools.cache_dir:
        os.makedirs(tools.cache_dir, exist_ok=True)

    found = find_shaders(corpus)
    shaders = every_nth(found, args.sample)
    if not shaders:
        print("spirv-cross-corpus: error: no shader under %s/shaders*/" % corpus, file=sys.stderr)
        return EXIT_USAGE
    work_dir = os.path.abspath(args.work_dir)
    modules_dir = os.path.join(work_dir, "modules")
    os.makedirs(modules_dir, exist_ok=True)

    start = start_all = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        shaders = list(pool.map(lambda s: compile_one(s, corpus, modules_dir, tools), shaders))
    compile_seconds = time.monotonic() - start
    print("spirv-cross-corpus: %s (spirv-cross %s), %d of %d shaders%s; compiled and validated "
          "in %.1f s" % (corpus, package_version(corpus), len(shaders), len(found),
                         " (--sample %d)" % args.sample if args.sample else "", compile_seconds))
    counts = folder_counts(shaders)
    not_run = print_counts(counts, shaders)

    # The GLSL source where spirv-conv compiles it as it is (the driver then
    # builds a -g variant too), else the module.
    inputs = [os.path.join(corpus, s.path) if s.how == "glsl" else s.spv
              for s in shaders if s.valid]
    driver_dir = os.path.join(work_dir, "driver")
    # The lint counts read the variants the driver leaves: none from an earlier run.
    shutil.rmtree(driver_dir, ignore_errors=True)
    start = time.monotonic()
    summary = command_driver.run_inputs(inputs, tools.spirv_conv, driver_dir, jobs=args.jobs,
                                        timeout=args.timeout, spirv_opt=tools.spirv_opt,
                                        spirv_val=tools.spirv_val, keep=True)
    driver_seconds = time.monotonic() - start
    findings, lint_problems = lint_findings(summary, inputs, driver_dir, tools, args.jobs)
    rules = rule_counts(findings)
    print("spirv-cross-corpus: driver: %d inputs in %.1f s; lint findings per rule "
          "(findings in modules) at each variant:" % (len(inputs), driver_seconds))
    print_rule_counts(rules)
    for problem in lint_problems:
        print("lint did not report: " + problem)
    classes = failure_classes(summary.failures)
    for name, count in sorted(classes.items()):
        print("failures: %s: %d" % (name, count))

    if args.counts:
        report = {
            "corpus": corpus, "package_version": package_version(corpus),
            "shaders_found": len(found), "sample": args.sample,
            "folders": {name: {c: row[c] for c in COLUMNS} for name, row in counts.items()},
            "not_run": not_run,
            "driver": {"inputs": summary.inputs, "modules": summary.modules,
                       "commands": summary.commands, "passed": summary.passed,
                       "failed": summary.failed, "failure_classes": classes,
                       "failures": summary.failures, "skipped": summary.skipped,
                       "exit_counts": summary.exit_counts},
            "lint": {"rules": rules, "findings": findings, "problems": lint_problems},
            "seconds": {"compile": round(compile_seconds, 1), "driver": round(driver_seconds, 1),
                        "total": round(time.monotonic() - start_all, 1)},
        }
        with open(args.counts, "w") as f:
            json.dump(report, f, indent=1, sort_keys=True, default=str)
            f.write("\n")
    command_driver.print_summary(summary)
    return 1 if summary.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
