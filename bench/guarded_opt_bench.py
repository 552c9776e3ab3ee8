#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""The guarded optimizer's overhead: `spirv-conv opt -O` (spirv-opt's passes
checked by the motion checker, docs/motion.md) against plain `spirv-opt -O`
in the same run; writes the "Guarded optimizer" results section of
docs/performance.md.

  bench/guarded_opt_bench.py --build-dir build/release [--cache-dir build/corpus-cache]

Inputs: every module of glslang's Test/ folder that compiles and validates
(chosen as test/corpus/corpus_test.py chooses them, with its compile cache),
the SPIRV-Cross test shaders' valid modules, one per distinct source (as
test/corpus/spirv_cross_corpus.py compiles them), and bench/generate.py's
fragment shaders of about 1,000 and 10,000 blocks. Each tool runs as a
process; CPU time (user + system of the child and what it waited for) and
peak resident memory, from wait4. Over the corpora every tool runs once per
module: the times are summed, and the median of the per-module ratios to
spirv-opt is given; the large shaders take the median of --repeats.
Timed: `spirv-opt --target-env=E -O`, `spirv-conv opt -O` (the default: the
whole sequence in a child process, checked once), the same with
`--no-pass-isolation`, and with `--check-each-pass` (every pass run and
checked on its own). For the large shaders the per-pass report (--report of
`--check-each-pass --no-pass-isolation`) splits that mode's time into running
the passes and checking them.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test", "corpus"))
import run  # noqa: E402  (process timing and machine facts)
import corpus_test as ct  # noqa: E402  (compiling and caching the corpus)
import lint_vs_spirv_lint as lvs  # noqa: E402  (the valid module of a corpus shader)
import spirv_cross_corpus as scc  # noqa: E402  (the SPIRV-Cross shaders' modules)

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


def corpus_tools(cache_dir):
    """The compilers, validator and compile cache the corpus helpers want."""
    tools = argparse.Namespace(glslang=ct.find_tool("glslangValidator", None),
                               spirv_val=ct.find_tool("spirv-val", None),
                               spirv_as=ct.find_tool("spirv-as", None),
                               cache_dir=os.path.abspath(cache_dir))
    os.makedirs(tools.cache_dir, exist_ok=True)
    tools.glslang_version = subprocess.run([tools.glslang, "--version"], stdout=subprocess.PIPE,
                                           check=False).stdout
    tools.versions = {tools.glslang: scc.tool_version(tools.glslang),
                      tools.spirv_as: scc.tool_version(tools.spirv_as)}
    return tools


def spirv_cross_modules(tools, work_dir):
    """(path, module, env) of each valid SPIRV-Cross module, one per distinct source."""
    corpus = os.path.join(REPO, "third_party", "spirv-cross")
    modules, seen = [], set()
    for shader in scc.find_shaders(corpus):
        with open(os.path.join(corpus, shader.path), "rb") as f:
            source = f.read()
        if source in seen:
            continue
        seen.add(source)
        scc.compile_one(shader, corpus, work_dir, tools)
        if shader.valid:
            modules.append((shader.path, shader.spv, shader.env))
    return modules


def timed(cmd):
    """(CPU seconds, peak resident KiB) of |cmd| and what it waited for."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped by wait4
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


BASE = "spirv-opt -O"


def commands(exe, spv, env, out):
    return {
        BASE: ["spirv-opt", "--target-env=" + env, "-O", spv, "-o", out],
        "spirv-conv opt -O": [exe, "opt", "-O", spv, "-o", out],
        "--no-pass-isolation": [exe, "opt", "-O", "--no-pass-isolation", spv, "-o", out],
        "--check-each-pass": [exe, "opt", "-O", "--check-each-pass", spv, "-o", out],
    }


def split(exe, spv, out):
    """(pass ms, check ms, passes, rolled back) from spirv-conv's --report."""
    report = out + ".json"
    subprocess.run([exe, "opt", "-O", "--check-each-pass", "--no-pass-isolation", "--report",
                    report, spv, "-o", out],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    with open(report) as f:
        passes = json.load(f)["modules"][0]["optimizer"]
    return (sum(p["pass_ms"] for p in passes), sum(p["check_ms"] for p in passes), len(passes),
            sum(p["outcome"] == "rolled-back" for p in passes))


def fmt_s(seconds):
    return "%.2f s" % seconds if seconds >= 1 else "%.0f ms" % (seconds * 1000)


def ratio(value, base):
    return "" if not base else " (%.2f×)" % (value / base)


def render(corpora, large, facts, command):
    lines = ["Measured %s UTC with `%s`." % (time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                                             command), ""]
    tools = list(next(iter(corpora.values()))["cpu"])
    lines += ["CPU time; `spirv-conv opt -O` columns after the first add the flag named.", "",
              "| input | %s |" % " | ".join("`%s`" % t for t in tools),
              "|---" * (len(tools) + 1) + "|"]
    for name, c in corpora.items():
        row = ["%s, %d modules (sum)" % (name, c["count"])]
        for tool in tools:
            row.append(fmt_s(c["cpu"][tool]) +
                       ("" if tool == BASE else ratio(c["cpu"][tool], c["cpu"][BASE])))
        lines.append("| %s |" % " | ".join(row))
        row = ["%s, median of the per-module ratios" % name]
        for tool in tools:
            row.append("1" if tool == BASE else "%.2f×" % statistics.median(c["ratios"][tool]))
        lines.append("| %s |" % " | ".join(row))
    for name, m in large:
        row = ["%s (%d blocks, median of %d)" % (name, m["blocks"], m["repeats"])]
        for tool in tools:
            row.append(fmt_s(m["cpu"][tool]) +
                       ("" if tool == BASE else ratio(m["cpu"][tool], m["cpu"][BASE])))
        lines.append("| %s |" % " | ".join(row))
    lines += ["", "Peak resident memory, the largest of any module of the input:", "",
              "| input | %s |" % " | ".join("`%s`" % t for t in tools),
              "|---" * (len(tools) + 1) + "|"]
    rows = [(name, c["rss"]) for name, c in corpora.items()] + [(n, m["rss"]) for n, m in large]
    for name, rss in rows:
        cells = ["%.0f MiB" % (rss[t] / 1024) + ("" if t == BASE else ratio(rss[t], rss[BASE]))
                 for t in tools]
        lines.append("| %s | %s |" % (name, " | ".join(cells)))
    lines += ["", "Inside `spirv-conv opt -O --check-each-pass --no-pass-isolation` (its --report, "
              "one run):", "",
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

    tools = corpus_tools(args.cache_dir)
    run.log("compiling the corpora")
    out = os.path.join(work, "out.spv")
    corpora = {}
    for name, modules in (("glslang corpus", corpus_modules(tools, work)),
                          ("SPIRV-Cross corpus", spirv_cross_modules(tools, work))):
        c = {"count": len(modules), "cpu": {}, "rss": {}, "ratios": {}}
        for rel, spv, env in modules:
            cpus = {}
            for tool, cmd in commands(exe, spv, env, out).items():
                cpu, rss = timed(cmd)
                cpus[tool] = cpu
                c["cpu"][tool] = c["cpu"].get(tool, 0.0) + cpu
                c["rss"][tool] = max(c["rss"].get(tool, 0), rss)
            for tool, cpu in cpus.items():
                c["ratios"].setdefault(tool, []).append(cpu / max(cpus[BASE], 1e-4))
        corpora[name] = c
        run.log("%s: %d modules" % (name, len(modules)))

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
        m = {"blocks": run.count_blocks_and_instructions(spv)[0], "repeats": repeats, "cpu": {},
             "rss": {}}
        for tool, cmd in commands(exe, spv, "vulkan1.0", out).items():
            runs = [timed(cmd) for _ in range(repeats)]
            m["cpu"][tool] = statistics.median(r[0] for r in runs)
            m["rss"][tool] = max(r[1] for r in runs)
        m["split"] = split(exe, spv, out)
        large.append((name, m))
        run.log("%s done" % name)

    facts = run.machine_facts()
    facts = {k: facts[k] for k in ("Model name", "nproc", "spirv-val", "spirv-conv source")
             if k in facts}
    rel = os.path.relpath(build, REPO)
    section = render(corpora, large, facts, "bench/guarded_opt_bench.py --build-dir %s" % rel)
    print(section)
    run.write_doc(args.doc, section, BEGIN, END, "Guarded optimizer (`spirv-conv opt -O`)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
