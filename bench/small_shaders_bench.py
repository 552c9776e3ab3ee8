#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Many small shaders: `spirv-conv lint -j` over a folder of the SPIRV-Cross
test shaders' valid modules (one per distinct source, as
bench/guarded_opt_bench.py chooses them), and `spirv-conv uniformity` and
`spirv-val` run once per file, in the same run; writes the "Many small
shaders" section of docs/lint-performance.md.

  bench/small_shaders_bench.py --build-dir build/release [--cache-dir build/corpus-cache]

A folder lint is one process: its CPU time (user + system, with its threads)
and wall time. A per-file tool runs one process per module: CPU and wall
time summed. Files per second are modules over wall time.
"""

import argparse
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test", "corpus"))
import run  # noqa: E402  (machine facts, the results section)
import guarded_opt_bench as gob  # noqa: E402  (the corpus tools and modules, process timing)

REPO = run.REPO
BEGIN = "<!-- BEGIN SMALL SHADERS RESULTS (written by bench/small_shaders_bench.py) -->"
END = "<!-- END SMALL SHADERS RESULTS -->"


def timed_wall(cmd):
    """(CPU seconds, wall seconds) of |cmd|."""
    start = time.perf_counter()
    cpu, _ = gob.timed(cmd)
    return cpu, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build", "release"))
    ap.add_argument("--cache-dir", default=os.path.join(REPO, "build", "corpus-cache"))
    ap.add_argument("--doc", default=os.path.join(REPO, "docs", "lint-performance.md"))
    args = ap.parse_args()
    build = os.path.abspath(args.build_dir)
    exe = os.path.join(build, "tools", "spirv-conv", "spirv-conv")
    work = os.path.join(build, "bench-small-shaders")
    folder = os.path.join(work, "modules")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)

    tools = gob.corpus_tools(args.cache_dir)
    run.log("compiling the SPIRV-Cross corpus")
    modules = gob.spirv_cross_modules(tools, work)
    for i, (_, spv, _) in enumerate(modules):
        shutil.copy(spv, os.path.join(folder, "%04d.spv" % i))
    count = len(modules)

    rows = []
    for jobs in (1, 2):
        cpu, wall = timed_wall([exe, "lint", "-j", str(jobs), folder])
        rows.append(("`spirv-conv lint -j %d FOLDER` (one process)" % jobs, cpu, wall))
    per_file = {"`spirv-conv uniformity FILE` (a process per file)":
                lambda spv, env: [exe, "uniformity", spv],
                "`spirv-val --target-env ENV FILE` (a process per file)":
                lambda spv, env: [tools.spirv_val, "--target-env", env, spv]}
    for name, command in per_file.items():
        cpu = wall = 0.0
        for _, spv, env in modules:
            c, w = timed_wall(command(spv, env))
            cpu, wall = cpu + c, wall + w
        rows.append((name, cpu, wall))

    lines = ["Measured %s UTC with `bench/small_shaders_bench.py --build-dir %s`: %d modules." %
             (time.strftime("%Y-%m-%d %H:%M", time.gmtime()), os.path.relpath(build, REPO),
              count), "",
             "| command | CPU time | wall time | files per second (wall) |", "|---|---|---|---|"]
    for name, cpu, wall in rows:
        lines.append("| %s | %.2f s | %.2f s | %.0f |" % (name, cpu, wall, count / wall))
    facts = run.machine_facts()
    facts = {k: facts[k] for k in ("Model name", "nproc", "spirv-conv source") if k in facts}
    lines += ["", "Machine: " + "; ".join("%s: %s" % item for item in facts.items())]
    section = "\n".join(lines)
    print(section)
    run.write_doc(args.doc, section, BEGIN, END, "Many small shaders")
    return 0


if __name__ == "__main__":
    sys.exit(main())
