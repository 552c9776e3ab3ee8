#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Loop fast-forwarding: the shape-A transform checked in the simulator.

Compiles shaders/fastforward/rare_expensive.comp and its hand fast-forwarded
form bench/fastforward/rare_expensive_ff.comp (the CFG the pass of issue 44
is to emit, docs/fast-forward.md) for several rarities of the expensive arm
and windows D, runs both in the SIMT simulator (subgroup size 32, 2
workgroups of 64) and compares:

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--glslang", default="glslangValidator")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--no-doc", action="store_true")
    args = parser.parse_args()
    original_src = os.path.join(ROOT, "shaders", "fastforward", "rare_expensive.comp")
    hand_src = os.path.join(ROOT, "bench", "fastforward", "rare_expensive_ff.comp")
    header = "| 1 in N items takes E | original: issued, efficiency | " + " | ".join(
        "D = %s" % (d if d else "∞") for d in WINDOWS) + " |"
    lines = [header, "| --- " * (2 + len(WINDOWS)) + "|"]
    failures, best = [], []
    with tempfile.TemporaryDirectory() as work:
        for rarity in RARITIES:
            base = os.path.join(work, "orig%d.spv" % rarity)
            compile_glsl(args.glslang, original_src, base, [("RARITY", "%du" % rarity)])
            expected = {}
            for model, seed in MODELS:
                expected[model, seed], stats = measure(args.spirv_conv, base, work, model, seed)
                if model == "maximal":
                    before = stats
            row = ["%d" % rarity, "%d, %.3f" % (before["issued"], before["simt_efficiency"])]
            gains = []
            for window in WINDOWS:
                module = os.path.join(work, "ff%d_%s.spv" % (rarity, window))
                compile_glsl(args.glslang, hand_src, module,
                             [("RARITY", "%du" % rarity), ("D", "%du" % (window or 1 << 30))])
                for model, seed in MODELS:
                    words, stats = measure(args.spirv_conv, module, work, model, seed)
                    if words != expected[model, seed]:
                        failures.append("rarity %d, D %s, %s seed %d: output differs" %
                                        (rarity, window, model, seed))
                    if model == "maximal":
                        after = stats
                gain = before["issued"] / after["issued"]
                gains.append(gain)
                row.append("%.2f× (%.3f)" % (gain, after["simt_efficiency"]))
            best.append(max(gains))
            lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Each cell: issued(original) / issued(fast-forwarded), then the fast-forwarded "
              "kernel's SIMT efficiency (maximal reconvergence, subgroup size 32, 2 workgroups of "
              "64). Outputs equal the original's under maximal, ipdom and adversarial (seeds 1-3) "
              "in every cell. Geometric mean of the best window per row: **%.2f×**." %
              math.exp(sum(math.log(g) for g in best) / len(best))]
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
