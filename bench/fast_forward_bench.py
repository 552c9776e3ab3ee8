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

The pass section runs the pass itself, `spirv-conv opt --fast-forward-loops`
(the cost model's choice from static estimates; with --fast-forward-profile
and the statistics of a run of the original; and with
--fast-forward-loops-everywhere; --report gives the decisions), on every
kernel of shaders/fastforward: the shape-A kernels rare_expensive, raymarch,
particles and worklist for several rarities, and skewed_inner (shape B) with
skewed and even trip counts. Each is measured against the original and
against `opt --structurize` alone (the pipeline the pass ends in, which also
promotes glslang's variables to SSA values), so the part of the gain due to
the transform shows. The pass's output must equal the original's under every
model above (and on lavapipe with --runner), and the cost model's choices,
with and without the profile, must never issue more instructions than the
original. With --time and --runner, the wall time of the large dispatch is
reported for the case where a choice of the cost model gains most, original
against the pass's output.

--check exits 1 when an output differs or a choice of the cost model issues
more. Without --no-doc the tables go into docs/fast-forward.md, the hand
transform's and the pass's each between their own markers.
"""

import argparse
import json
import math
import os
import re
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
PASS_BEGIN = "<!-- BEGIN FAST-FORWARD PASS RESULTS (bench/fast_forward_bench.py) -->"
PASS_END = "<!-- END FAST-FORWARD PASS RESULTS -->"
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


KERNELS = {}  # (source, defines, transform) -> kernel(): an original serves every window


def kernel(args, work, source, defines, failures, transform=None):
    """|source| compiled with |defines| and run under every model: the module,
    its output words per model and its statistics under maximal reconvergence.
    |transform|, when given, is (tag, make): the module run is then the one
    make(compiled module, output path) writes. With --runner, lavapipe's
    buffer must equal the simulator's."""
    key = (source, tuple(defines), transform and transform[0])
    if key in KERNELS:
        return KERNELS[key]
    name = os.path.basename(source).split(".")[0] + "".join("_%s%s" % d for d in defines)
    if transform:
        original = kernel(args, work, source, defines, failures)[0]
        name += "_" + transform[0]
        module = os.path.join(work, name + ".spv")
        transform[1](original, module)
    else:
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


def compare(args, work, original_src, hand_src, original_defines, hand_defines, failures,
            transform=None):
    """Statistics (maximal) and modules of the original and the hand-transformed
    kernel (or |hand_src| transformed by |transform|, as kernel() takes it); a
    failure for each model under which their outputs differ."""
    base, expected, before = kernel(args, work, original_src, original_defines, failures)
    module, words, after = kernel(args, work, hand_src, hand_defines, failures, transform)
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


# The pass's kernels: (name, the define varied, its values, how a row names
# them). Shape A for several rarities; skewed_inner is shape B.
PASS_KERNELS = [(name, "RARITY", ["%du" % r for r in (4, 8, 16, 32)], "1 in %s")
                for name in ("rare_expensive", "raymarch", "particles", "worklist")] + [
                    ("skewed_inner", "SKEWED", ["1", "0"], "SKEWED = %s")]
# What the pass's output is measured against besides the original: the
# pipeline the pass ends in (--structurize, which also promotes glslang's
# variables to SSA values) without fast-forwarding.
STRUCTURIZE = ("structurize", ("--structurize",))
PROFILE = object()  # in a run's flags: the statistics of a run of the original
PASS_RUNS = (("cost model", ("--fast-forward-loops",)),
             ("profile", ("--fast-forward-loops", "--fast-forward-profile", PROFILE)),
             ("everywhere", ("--fast-forward-loops", "--fast-forward-loops-everywhere")))
# The runs that must never issue more than the original.
CHOOSING_RUNS = ("cost model", "profile")


def opt(spirv_conv, flags):
    """kernel()'s transform: `spirv-conv opt |flags|`, its report beside the
    output (OUT.report.json); PROFILE in |flags| becomes the statistics of a
    maximal-reconvergence run of the original (OUT.profile.json), as measure()
    runs it."""
    def make(original, out):
        if PROFILE in flags:
            profile = out + ".profile.json"
            measure(spirv_conv, original, os.path.dirname(out), "maximal", 0)
            shutil.copyfile(original + ".stats.json", profile)
        resolved = [profile if flag is PROFILE else flag for flag in flags]
        sh(spirv_conv, "opt", original, *resolved, "--report", out + ".report.json", "-o", out)
    return make


def transformed(args, work, source, defines, failures, run_name, flags):
    """compare() of the original with its `opt |flags|` form."""
    return compare(args, work, source, source, defines, defines, failures,
                   (run_name.replace(" ", "_"), opt(args.spirv_conv, flags)))


def decision(module):
    """What the report of the pass that wrote |module| says, briefly: the loops
    it changed (the window of each fast-forwarded one), else why it declined
    the outermost loop."""
    with open(module + ".report.json") as f:
        changes = [c for m in json.load(f)["modules"] for c in m["changes"]
                   if c["pass"] == "fast-forward-loops"]
    applied = []
    for change in changes:
        if change["action"] == "fast-forward":
            applied.append("fast-forwarded, D = " +
                           re.search(r"with window (\d+)", change["detail"]).group(1))
        elif change["action"] == "merge-inner-loop":
            applied.append("inner loop merged")
    if applied or not changes:
        return "; ".join(applied) or "no loop"
    detail = re.sub(r"^function '[^']*': ", "", changes[-1]["detail"])
    if detail.endswith("; no gain expected"):
        return "declined: no gain expected"
    if "a profile measures" in detail:
        return "declined: needs a profile"
    return "declined: " + detail


def pass_section(args, work, failures):
    """The pass on every kernel: the table's lines and, for --time, the case
    where the cost model's choice gains most (label, original, pass output)."""
    lines = ["| kernel, case | original: issued, efficiency | `--structurize` only: issued | " +
             " | ".join("%s: decision | issued, efficiency, gain" % run_name
                        for run_name, _ in PASS_RUNS) + " |",
             "| --- " * (3 + 2 * len(PASS_RUNS)) + "|"]
    gains = {run_name: ([], []) for run_name, _ in PASS_RUNS}  # over original, over structurize
    timed = None
    for name, define, values, label in PASS_KERNELS:
        source = os.path.join(ROOT, "shaders", "fastforward", name + ".comp")
        for value in values:
            defines = [(define, value)]
            case = "%s, %s" % (name, label % value.rstrip("u"))
            before, structurized = transformed(args, work, source, defines, failures,
                                               *STRUCTURIZE)[:2]
            row = [case, "%d, %.3f" % (before["issued"], before["simt_efficiency"]),
                   "%d" % structurized["issued"]]
            for run_name, flags in PASS_RUNS:
                _, after, base, module = transformed(args, work, source, defines, failures,
                                                     run_name, flags)
                gain = (before["issued"] / after["issued"],
                        structurized["issued"] / after["issued"])
                for values_of, g in zip(gains[run_name], gain):
                    values_of.append(g)
                row += [decision(module), "%d, %.3f, %.2f× (%.2f×)" % (
                    after["issued"], after["simt_efficiency"], gain[0], gain[1])]
                if run_name in CHOOSING_RUNS:
                    if after["issued"] > before["issued"]:
                        failures.append("%s: %s issues %d instructions, the original %d" % (
                            case, run_name, after["issued"], before["issued"]))
                    if timed is None or gain[0] > timed[0]:
                        timed = (gain[0], case + ", " + run_name, base, module)
            lines.append("| " + " | ".join(row) + " |")
    lines += ["", "The pass on the kernels of `shaders/fastforward`: `spirv-conv opt "
              "--fast-forward-loops` (the cost model chooses the loops and the window D from "
              "static estimates), with `--fast-forward-profile` (a `run --stats json` of the "
              "original measures the expensive arm's rarity and the inner loops' trips), and with "
              "`--fast-forward-loops-everywhere`. The decision is `--report`'s. 1 in N iterations "
              "takes the expensive arm (shape A); `skewed_inner` is shape B. Gain: "
              "issued(original) / issued(pass output), in parentheses issued(`--structurize` "
              "only) / issued(pass output), the part due to the transform (the pass ends in "
              "`--structurize`, which also turns glslang's variables into SSA values). Geometric "
              "means over all rows: " + ", ".join(
                  "%s **%.2f× (%.2f×)**" % (run_name, geomean(gains[run_name][0]),
                                            geomean(gains[run_name][1]))
                  for run_name, _ in PASS_RUNS) + "."]
    return lines, timed[1:]


def time_table(vk, cases):
    """The lavapipe wall-time table of |cases|, each (label, original, transformed)."""
    lines = ["| lavapipe, 32768 workgroups of 64 | original | transformed |", "| --- | --- | --- |"]
    for label, base, module in cases:
        lines.append("| %s | %.3f s | %.3f s |" % (label, lavapipe_seconds(vk, base),
                                                 lavapipe_seconds(vk, module)))
    return lines + ["", "Wall time of vk_runner (device set-up included), best of 3; lavapipe's "
                    "buffers equal the simulator's for every kernel above."]


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
        lines_pass, best_pass = pass_section(args, work, failures)
        lines = lines_a + [""] + lines_b
        if args.vk and args.time:
            lines += [""] + time_table(args.vk, (("shape A, " + best_a[0],) + best_a[1:],
                                                 ("shape B, " + best_b[0],) + best_b[1:]))
            lines_pass += [""] + time_table(
                args.vk, (("`--fast-forward-loops`, " + best_pass[0],) + best_pass[1:],))
    footer = ["", "Maximal reconvergence, subgroup size 32, 2 workgroups of 64. Every transformed "
              "kernel's output equals the original's under maximal, ipdom and adversarial "
              "(seeds 1-3) reconvergence."]
    return run.finish(args, lines + footer, failures, "fast-forward.md", BEGIN, END,
                      "The transform measured by hand",
                      [(lines_pass + footer, PASS_BEGIN, PASS_END, "The pass measured")])


if __name__ == "__main__":
    sys.exit(main())
