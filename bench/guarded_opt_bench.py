#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""The guarded optimizer's overhead: `spirv-conv opt -O` (each spirv-opt pass
run on its own and checked by the motion checker, docs/motion.md) against
plain `spirv-opt -O` in the same run; writes the "Guarded optimizer" results
section of docs/performance.md.

  bench/guarded_opt_bench.py --build-dir build/release [--cache-dir build/corpus-cache]

Inputs: every module of glslang's Test/ folder that compiles and validates
(chosen as test/corpus/corpus_test.py chooses them, with its compile cache),
and bench/generate.py's fragment shaders of about 1,000 and 10,000 blocks.
Each tool runs as a process; CPU time (user + system of the child, as
bench/run.py measures it). Over the corpus every tool runs once per module
and the times are summed; the large shaders take the median of --repeats.
Timed: `spirv-opt --target-env=E -O`, `spirv-conv opt -O` (passes in child
processes, the default), and `spirv-conv opt -O --no-pass-isolation`. For the
large shaders the per-pass report (--report) splits spirv-conv's time into
running the passes and checking them.
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test", "corpus"))
import run  # noqa: E402  (process timing and machine facts)
import corpus_test as ct  # noqa: E402  (compiling and caching the corpus)
import lint_vs_spirv_lint as lvs  # noqa: E402  (the valid module of a corpus shader)

REPO = run.REPO
BEGIN = "<!-- BEGIN GUARDED OPT RESULTS (written by bench/guarded_opt_bench.py) -->"
END = "<!-- END GUARDED OPT RESULTS -->"
# (name, GLSL statements of bench/generate.py's fragment shader, repeats):
# the 10k-block shader takes minutes per guarded run, so it runs once.
LARGE = (("frag_1k", 560, None), ("frag_10k", 6400, 1))


def corpus_modules(tools, work_dir):
    corpus = os.path.join(REPO, "third_party", "glslang", "Test")
    modules = []
    for rel in ct.find_shaders(corpus):
        spv, env, _ = lvs.compile_valid(tools, corpus, rel, work_dir, auto_map=False)
        if spv:
            modules.append((rel, spv, env))
    return modules


def commands(exe, spv, env, out):
    return {
        "spirv-opt -O": ["spirv-opt", "--target-env=" + env, "-O", spv, "-o", out],
        "spirv-conv opt -O": [exe, "opt", "-O", spv, "-o", out],
        "spirv-conv opt -O --no-pass-isolation": [exe, "opt", "-O", "--no-pass-isolation", spv,
                                                  "-o", out],
    }


def split(exe, spv, out):
    """(pass ms, check ms, passes, rolled back) from spirv-conv's --report."""
    report = out + ".json"
    subprocess.run([exe, "opt", "-O", "--no-pass-isolation", "--report", report, spv, "-o", out],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    with open(report) as f:
        passes = json.load(f)["modules"][0]["optimizer"]
    return (sum(p["pass_ms"] for p in passes), sum(p["check_ms"] for p in passes), len(passes),
            sum(p["outcome"] == "rolled-back" for p in passes))


def fmt_s(seconds):
    return "%.2f s" % seconds if seconds >= 1 else "%.0f ms" % (seconds * 1000)


def render(corpus_totals, corpus_count, large, facts, command):
    base = "spirv-opt -O"
    lines = ["Measured %s UTC with `%s`." % (time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                                             command), ""]
    lines += ["| input | %s |" % " | ".join(corpus_totals), "|---" * (len(corpus_totals) + 1) + "|"]
    row = ["glslang corpus, %d modules (sum)" % corpus_count]
    for name, cpu in corpus_totals.items():
        row.append(fmt_s(cpu) + ("" if name == base else " (%.1f×)" % (cpu / corpus_totals[base])))
    lines.append("| %s |" % " | ".join(row))
    for name, m in large:
        row = ["%s (%d blocks, median of %d)" % (name, m["blocks"], m["repeats"])]
        for tool, cpu in m["cpu"].items():
            row.append(fmt_s(cpu) + ("" if tool == base else " (%.1f×)" % (cpu / m["cpu"][base])))
        lines.append("| %s |" % " | ".join(row))
    lines += ["", "Inside `spirv-conv opt -O --no-pass-isolation` (its --report, one run):", "",
              "| input | passes | running the passes | checking them | rolled back |",
              "|---|---|---|---|---|"]
    for name, m in large:
        pass_ms, check_ms, count, rolled = m["split"]
        lines.append("| %s | %d | %.0f ms | %.0f ms | %d |" % (name, count, pass_ms, check_ms,
                                                              rolled))
    lines += ["", "Machine: " + "; ".join("%s: %s" % item for item in facts.items())]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build", "release"))
    ap.add_argument("--cache-dir", default=os.path.join(REPO, "build", "corpus-cache"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--doc", default=os.path.join(REPO, "docs", "performance.md"))
    args = ap.parse_args()
    build = os.path.abspath(args.build_dir)
    exe = os.path.join(build, "tools", "spirv-conv", "spirv-conv")
    work = os.path.join(build, "bench-guarded-opt")
    os.makedirs(work, exist_ok=True)

    tools = argparse.Namespace(glslang=ct.find_tool("glslangValidator", None),
                               spirv_val=ct.find_tool("spirv-val", None),
                               cache_dir=os.path.abspath(args.cache_dir))
    os.makedirs(tools.cache_dir, exist_ok=True)
    tools.glslang_version = subprocess.run([tools.glslang, "--version"], stdout=subprocess.PIPE,
                                           check=False).stdout
    run.log("compiling the corpus")
    modules = corpus_modules(tools, work)
    out = os.path.join(work, "out.spv")
    totals = {}
    for rel, spv, env in modules:
        for name, cmd in commands(exe, spv, env, out).items():
            cpu, _, _ = run.timed(cmd)
            totals[name] = totals.get(name, 0.0) + cpu
    run.log("corpus: %d modules" % len(modules))

    inputs = os.path.join(build, "bench-inputs")
    gen = [sys.executable, os.path.join(HERE, "generate.py"), "--out", inputs, "--sizes", "",
           "--no-validate"]
    for name, statements, _ in LARGE:
        gen += ["--frag", "%s=%d" % (name, statements)]
    subprocess.run(gen, check=True, stdout=subprocess.DEVNULL)
    large = []
    for name, _, repeats in LARGE:
        spv = os.path.join(inputs, name + ".spv")
        repeats = repeats or args.repeats
        m = {"blocks": run.count_blocks_and_instructions(spv)[0], "repeats": repeats, "cpu": {}}
        for tool, cmd in commands(exe, spv, "vulkan1.0", out).items():
            m["cpu"][tool] = run.timed_median(cmd, repeats)["cpu"]
        m["split"] = split(exe, spv, out)
        large.append((name, m))
        run.log("%s done" % name)

    facts = run.machine_facts()
    facts = {k: facts[k] for k in ("Model name", "nproc", "spirv-val", "spirv-conv source")
             if k in facts}
    rel = os.path.relpath(build, REPO)
    section = render(totals, len(modules), large, facts,
                     "bench/guarded_opt_bench.py --build-dir %s" % rel)
    print(section)
    run.write_doc(args.doc, section, BEGIN, END, "Guarded optimizer (`spirv-conv opt -O`)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
