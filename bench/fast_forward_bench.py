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

With --runner (test/vulkan's vk_runner), lavapipe runs every pair too: its
buffers must equal the simulator's; with --time as well, the wall time of a
large dispatch (32768 workgroups, best of 3) is reported for the best variant
of each shape.

--check exits 1 when an output differs. Without --no-doc the table goes into
docs/fast-forward.md.
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (bench/run.py: write_doc)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "test", "vulkan"))
import vk_job  # noqa: E402  (test/vulkan/vk_job.py: vk_runner jobs)

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
    """The output words and the statistics of one simulator run."""
    size = os.path.join(work, "size.json")
    with open(size, "w") as f:
        json.dump({"u32": [], "size": 512}, f)
    dump, stats = module + ".out.json", module + ".stats.json"
    sh(spirv_conv, "run", module, "--workgroups", "2", "--subgroup-size", "32", "--model", model,
       "--seed", str(seed), "--buffer", "0:0=" + size, "--dump", "0:0=" + dump, "--stats", "json",
       "-o", stats)
    with open(dump) as f, open(stats) as g:
        return json.load(f)["u32"], json.load(g)


KERNELS = {}  # (source, defines) -> kernel(): an original serves every window


def kernel(args, work, source, defines, failures):
    """|source| compiled with |defines| and run under every model: the module,
    its output words per model and its statistics under maximal reconvergence.
    With --runner, lavapipe's buffer must equal the simulator's."""
    key = (source, tuple(defines))
    if key in KERNELS:
        return KERNELS[key]
    name = os.path.basename(source).split(".")[0] + "".join("_%s%s" % d for d in defines)
    module = os.path.join(work, name + ".spv")
    compile_glsl(args.glslang, source, module, defines)
    words = {}
    for model, seed in MODELS:
        words[model, seed], stats = measure(args.spirv_conv, module, work, model, seed)
        if model == "maximal":
            maximal = stats
    if args.vk:
        try:
            if lavapipe_words(args.vk, module, 2) != words["maximal", 0]:
                failures.append("%s: lavapipe's buffer differs from the simulator's" % name)
        except vk_job.Skip as skip:
            print("no Vulkan device, lavapipe not checked: %s" % skip)
            args.vk = None
    KERNELS[key] = (module, words, maximal)
    return KERNELS[key]


def compare(args, work, original_src, hand_src, original_defines, hand_defines, failures):
    """Statistics (maximal) and modules of the original and the hand-transformed
    kernel; a failure for each model under which their outputs differ."""
    base, expected, before = kernel(args, work, original_src, original_defines, failures)
    module, words, after = kernel(args, work, hand_src, hand_defines, failures)
    for model, seed in MODELS:
        if words[model, seed] != expected[model, seed]:
            failures.append("%s: output differs from the original's, %s seed %d" %
                            (os.path.basename(module), model, seed))
    return before, after, base, module


def lavapipe_job(spv, groups):
    return {"mode": "compute", "spv": spv, "groups": [groups, 1, 1],
            "bindings": [{"set": 0, "binding": 0, "type": "storage_buffer",
                          "elements": [{"size": groups * 64 * 4}]}]}


def lavapipe_words(vk, spv, groups):
    return vk.run_ok(lavapipe_job(spv, groups), os.path.basename(spv)).buffer(0, 0)


def lavapipe_seconds(vk, spv, groups=32768, repeats=3):
    """vk_runner's best wall time over |repeats| runs of a large dispatch."""
    best = None
    for _ in range(repeats):
        start = time.perf_counter()
        vk.run_ok(lavapipe_job(spv, groups), os.path.basename(spv) + ".large")
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def shape_a(args, work, failures):
    original_src = os.path.join(ROOT, "shaders", "fastforward", "rare_expensive.comp")
    hand_src = os.path.join(ROOT, "bench", "fastforward", "rare_expensive_ff.comp")
    lines = ["| 1 in N items takes E | original: issued, efficiency | " +
             " | ".join("D = %s" % (d if d else "∞") for d in WINDOWS) + " |",
             "| --- " * (2 + len(WINDOWS)) + "|"]
    best, timed = [], None  # timed: the best window of all, for --time
    for rarity in RARITIES:
        rare = [("RARITY", "%du" % rarity)]
        row, gains = ["%d" % rarity], []
        for window in WINDOWS:
            before, after, base, module = compare(
                args, work, original_src, hand_src, rare,
                rare + [("D", "%du" % (window or 1 << 30))], failures)
            if len(row) == 1:
                row.append("%d, %.3f" % (before["issued"], before["simt_efficiency"]))
            gains.append(before["issued"] / after["issued"])
            if timed is None or gains[-1] > timed[0]:
                timed = (gains[-1], "1 in %d, D = %s" % (rarity, window or "∞"), base, module)
            row.append("%.2f× (%.3f)" % (gains[-1], after["simt_efficiency"]))
        best.append(max(gains))
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Shape A, `rare_expensive.comp`. Each cell: issued(original) / "
              "issued(fast-forwarded), then the fast-forwarded kernel's SIMT efficiency. Geometric "
              "mean of the best window per row: **%.2f×**." % geomean(best)]
    return lines, timed[1:]


def shape_b(args, work, failures):
    original_src = os.path.join(ROOT, "shaders", "fastforward", "skewed_inner.comp")
    hand_src = os.path.join(ROOT, "bench", "fastforward", "skewed_inner_merged.comp")
    lines = ["| inner trip counts | original: issued, efficiency | merged: issued, efficiency | "
             "gain |", "| --- | --- | --- | --- |"]
    timed = None  # the skewed case, for --time
    for skewed, label in ((1, "1 item in 16: 31, else 0–3"), (0, "uniform 0–31")):
        defines = [("SKEWED", str(skewed))]
        before, after, base, module = compare(args, work, original_src, hand_src, defines,
                                              defines, failures)
        timed = timed or (label, base, module)
        lines.append("| %s | %d, %.3f | %d, %.3f | %.2f× |" % (
            label, before["issued"], before["simt_efficiency"], after["issued"],
            after["simt_efficiency"], before["issued"] / after["issued"]))
    lines += ["", "Shape B, `skewed_inner.comp` against its merged form."]
    return lines, timed


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--glslang", default="glslangValidator")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--no-doc", action="store_true")
    parser.add_argument("--runner", help="vk_runner: check the kernels on lavapipe")
    parser.add_argument("--time", action="store_true", help="with --runner: time a large dispatch")
    args = parser.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as work:
        args.vk = None
        if args.runner:
            args.vk = vk_job.Tools(args.runner, shutil.which(args.glslang) or args.glslang,
                                   os.path.join(work, "vk"), prefer="llvmpipe")
        lines_a, best_a = shape_a(args, work, failures)
        lines_b, best_b = shape_b(args, work, failures)
        lines = lines_a + [""] + lines_b
        if args.vk and args.time:
            lines += ["", "| lavapipe, 32768 workgroups of 64 | original | transformed |",
                      "| --- | --- | --- |"]
            for label, base, module in (("shape A, " + best_a[0],) + best_a[1:],
                                        ("shape B, " + best_b[0],) + best_b[1:]):
                lines.append("| %s | %.3f s | %.3f s |" % (label, lavapipe_seconds(args.vk, base),
                                                         lavapipe_seconds(args.vk, module)))
            lines += ["", "Wall time of vk_runner (device set-up included), best of 3; lavapipe's "
                      "buffers equal the simulator's for every kernel above."]
    lines += ["", "Maximal reconvergence, subgroup size 32, 2 workgroups of 64. Every transformed "
              "kernel's output equals the original's under maximal, ipdom and adversarial "
              "(seeds 1-3) reconvergence."]
    return run.finish(args, lines, failures, "fast-forward.md", BEGIN, END, "The transform measured by hand")


if __name__ == "__main__":
    sys.exit(main())
