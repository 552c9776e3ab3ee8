#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Loop fast-forwarding: the target shapes checked in the simulator.

Compiles the kernels of shaders/fastforward and their hand-transformed forms
in bench/fastforward (the CFGs the pass of issue 44 is to emit,
docs/fast-forward.md): shape A (rare_expensive, fast-forwarded) for several
rarities of the expensive arm and windows D, shape B (skewed_inner, inner loop
merged) for skewed and uniform trip counts. Runs both in the SIMT simulator
(subgroup size 32, 2 workgroups of 64) and compares:

  * outputs: the transformed kernel's buffer must equal the original's under
    the maximal, ipdom and adversarial (3 seeds) models;
  * instructions issued and SIMT efficiency under maximal reconvergence.

--check exits 1 when an output differs. Without --no-doc the table goes into
docs/fast-forward.md.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (bench/run.py: write_doc)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- BEGIN FAST-FORWARD RESULTS (bench/fast_forward_bench.py) -->"
END = "<!-- END FAST-FORWARD RESULTS -->"
RARITIES = (4, 8, 32)
WINDOWS = (2, 4, 8, 16, None)  # None: no window, wait for every lane
MODELS = (("maximal", 0), ("ipdom", 0), ("adversarial", 1), ("adversarial", 2),
          ("adversarial", 3))


def sh(*args):
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s" % (" ".join(args), result.returncode, result.stderr))
    return result.stdout


def compile_glsl(glslang, source, out, defines):
    sh(glslang, "-V", "--target-env", "vulkan1.1", *["-D%s=%s" % d for d in defines], source,
       "-o", out)


def measure(spirv_conv, module, work, model, seed):
    """The output words and (under maximal reconvergence) the statistics."""
    size = os.path.join(work, "size.json")
    with open(size, "w") as f:
        json.dump({"u32": [], "size": 512}, f)
    dump, stats = module + ".out.json", module + ".stats.json"
    sh(spirv_conv, "run", module, "--workgroups", "2", "--subgroup-size", "32", "--model", model,
       "--seed", str(seed), "--buffer", "0:0=" + size, "--dump", "0:0=" + dump, "--stats", "json",
       "-o", stats)
    with open(dump) as f, open(stats) as g:
        return json.load(f)["u32"], json.load(g)


def compare(args, work, stem, original_src, hand_src, original_defines, hand_defines, failures):
    """Instructions issued and efficiency (maximal) of the original and the
    hand-transformed kernel; a failure when an output differs under a model."""
    base, module = os.path.join(work, stem + ".orig.spv"), os.path.join(work, stem + ".hand.spv")
    compile_glsl(args.glslang, original_src, base, original_defines)
    compile_glsl(args.glslang, hand_src, module, hand_defines)
    results = {}
    for model, seed in MODELS:
        expected, before = measure(args.spirv_conv, base, work, model, seed)
        words, after = measure(args.spirv_conv, module, work, model, seed)
        if words != expected:
            failures.append("%s, %s seed %d: output differs" % (stem, model, seed))
        results[model, seed] = (before, after)
    return results["maximal", 0]


def shape_a(args, work, failures):
    original_src = os.path.join(ROOT, "shaders", "fastforward", "rare_expensive.comp")
    hand_src = os.path.join(ROOT, "bench", "fastforward", "rare_expensive_ff.comp")
    lines = ["| 1 in N items takes E | original: issued, efficiency | " +
             " | ".join("D = %s" % (d if d else "∞") for d in WINDOWS) + " |",
             "| --- " * (2 + len(WINDOWS)) + "|"]
    best = []
    for rarity in RARITIES:
        rare = [("RARITY", "%du" % rarity)]
        row, gains = ["%d" % rarity], []
        for window in WINDOWS:
            before, after = compare(args, work, "rare%d_d%s" % (rarity, window), original_src,
                                    hand_src, rare, rare + [("D", "%du" % (window or 1 << 30))],
                                    failures)
            if len(row) == 1:
                row.append("%d, %.3f" % (before["issued"], before["simt_efficiency"]))
            gains.append(before["issued"] / after["issued"])
            row.append("%.2f× (%.3f)" % (gains[-1], after["simt_efficiency"]))
        best.append(max(gains))
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Shape A, `rare_expensive.comp`. Each cell: issued(original) / "
              "issued(fast-forwarded), then the fast-forwarded kernel's SIMT efficiency. Geometric "
              "mean of the best window per row: **%.2f×**." % geomean(best)]
    return lines


def shape_b(args, work, failures):
    original_src = os.path.join(ROOT, "shaders", "fastforward", "skewed_inner.comp")
    hand_src = os.path.join(ROOT, "bench", "fastforward", "skewed_inner_merged.comp")
    lines = ["| inner trip counts | original: issued, efficiency | merged: issued, efficiency | "
             "gain |", "| --- | --- | --- | --- |"]
    for skewed, label in ((1, "1 item in 16: 31, else 0–3"), (0, "uniform 0–31")):
        defines = [("SKEWED", str(skewed))]
        before, after = compare(args, work, "inner%d" % skewed, original_src, hand_src, defines,
                                defines, failures)
        lines.append("| %s | %d, %.3f | %d, %.3f | %.2f× |" % (
            label, before["issued"], before["simt_efficiency"], after["issued"],
            after["simt_efficiency"], before["issued"] / after["issued"]))
    lines += ["", "Shape B, `skewed_inner.comp` against its merged form."]
    return lines


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--glslang", default="glslangValidator")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--no-doc", action="store_true")
    args = parser.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as work:
        lines = shape_a(args, work, failures) + [""] + shape_b(args, work, failures)
    lines += ["", "Maximal reconvergence, subgroup size 32, 2 workgroups of 64. Every transformed "
              "kernel's output equals the original's under maximal, ipdom and adversarial "
              "(seeds 1-3) reconvergence."]
    table = "\n".join(lines)
    print(table)
    for failure in failures:
        print("FAIL " + failure)
    if not args.no_doc:
        run.write_doc(os.path.join(ROOT, "docs", "fast-forward.md"), table, BEGIN, END,
                      "The transform measured by hand")
    return 1 if (args.check and failures) else 0


if __name__ == "__main__":
    sys.exit(main())
