#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Reconvergence gain of `spirv-conv opt --reconverge` (docs/structurize.md).

For every shader of shaders/reconverge: compile it with glslang, make the
baseline `opt --structurize` (the same SSA clean-up and layout, without
predicated reconvergence) and the candidate `opt --reconverge`, run the
original, the baseline and the candidate in the SIMT simulator (maximal
reconvergence, subgroup size 32, 2 workgroups of 64), and compare:

  * the output buffer of both transforms must equal the original's;
  * SIMT efficiency = active lanes / (issues x 32), baseline vs candidate,
    and the instructions issued.

The candidate applies the transform only where its cost model expects fewer
issues (the decision and the estimates come from `--report`); the last
column is the transform applied regardless (`--reconverge-everywhere`), to
show what the cost model declined and why.

--check exits 1 when an output differs, or the candidate's efficiency is
lower or its issue count higher than the baseline's on any shader (CTest
`structurize.reconverge`).
Without --no-doc the table goes into docs/performance.md.
"""

import argparse
import json
import math
import re
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (bench/run.py: write_doc)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- BEGIN RECONVERGE RESULTS (bench/reconverge_bench.py) -->"
END = "<!-- END RECONVERGE RESULTS -->"


def sh(*args):
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s" % (" ".join(args), result.returncode, result.stderr))
    return result.stdout


def measure(spirv_conv, module, work):
    size = os.path.join(work, "size.json")
    with open(size, "w") as f:
        json.dump({"u32": [], "size": 4096}, f)
    dump = module + ".out.json"
    stats = module + ".stats.json"
    sh(spirv_conv, "run", module, "--workgroups", "2", "--subgroup-size", "32", "--model", "maximal",
       "--buffer", "0:0=" + size, "--dump", "0:0=" + dump, "--stats", "json", "-o", stats)
    with open(dump) as f:
        words = json.load(f)["u32"]
    with open(stats) as f:
        return words, json.load(f)


def decisions(report):
    """The cost model's verdicts in an `opt --report` file, e.g. "applied (27 → 18)"."""
    with open(report) as f:
        modules = json.load(f)["modules"]
    verdicts = []
    for module in modules:
        for change in module["changes"]:
            if change["pass"] != "reconverge":
                continue
            before, after = re.findall(r"([\d.]+) structurized, ([\d.]+) reconverged",
                                       change["detail"])[0]
            verdicts.append("%s (%s → %s)" % ("applied" if change["action"] == "reconverge"
                                              else "declined", before, after))
    return ", ".join(verdicts) or "nothing to change"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--glslang", default="glslangValidator")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--no-doc", action="store_true")
    args = parser.parse_args()
    folder = os.path.join(ROOT, "shaders", "reconverge")
    rows, failures = [], []
    with tempfile.TemporaryDirectory() as work:
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".comp"):
                continue
            stem = os.path.join(work, name[:-5])
            sh(args.glslang, "-V", "--target-env", "vulkan1.1", os.path.join(folder, name), "-o",
               stem + ".spv")
            sh(args.spirv_conv, "opt", stem + ".spv", "--structurize", "-o", stem + ".base.spv")
            report = stem + ".report.json"
            sh(args.spirv_conv, "opt", stem + ".spv", "--reconverge", "-o", stem + ".reconv.spv",
               "--report", report)
            sh(args.spirv_conv, "opt", stem + ".spv", "--reconverge", "--reconverge-everywhere",
               "-o", stem + ".always.spv")
            original, _ = measure(args.spirv_conv, stem + ".spv", work)
            base_out, base = measure(args.spirv_conv, stem + ".base.spv", work)
            new_out, new = measure(args.spirv_conv, stem + ".reconv.spv", work)
            always_out, always = measure(args.spirv_conv, stem + ".always.spv", work)
            if base_out != original or new_out != original or always_out != original:
                failures.append("%s: output differs from the original" % name)
            if new["simt_efficiency"] < base["simt_efficiency"]:
                failures.append("%s: efficiency %.4f < %.4f" % (name, new["simt_efficiency"],
                                                                 base["simt_efficiency"]))
            if new["issued"] > base["issued"]:
                failures.append("%s: %d instructions issued > %d" % (name, new["issued"],
                                                                      base["issued"]))
            rows.append((name, decisions(report), base, new, always))
    lines = ["| shader | cost model: estimate `--structurize` → `--reconverge` | efficiency "
             "`--structurize` | efficiency `--reconverge` | gain | issues before → after | "
             "`--reconverge-everywhere`: efficiency, issues |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    logs = []
    for name, decided, base, new, always in rows:
        gain = new["simt_efficiency"] / base["simt_efficiency"]
        logs.append(math.log(gain))
        lines.append("| %s | %s | %.4f | %.4f | %.3f× | %d → %d | %.4f, %d |" % (
            name, decided, base["simt_efficiency"], new["simt_efficiency"], gain, base["issued"],
            new["issued"], always["simt_efficiency"], always["issued"]))
    geomean = math.exp(sum(logs) / len(logs)) if logs else 1.0
    lines.append("")
    lines.append("Geometric mean of the gains: **%.3f×** over %d shaders (maximal reconvergence, "
                 "subgroup size 32, 2 workgroups of 64; outputs equal to the original's)." %
                 (geomean, len(rows)))
    return run.finish(args, lines, failures, "performance.md", BEGIN, END,
                      "Predicated reconvergence")


if __name__ == "__main__":
    sys.exit(main())
