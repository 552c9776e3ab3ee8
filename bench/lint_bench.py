#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""The lint benchmark: `spirv-conv lint` on generated fragment shaders of about
1,000, 10,000, 12,000 and 24,000 blocks, against spirv-val and spirv-lint in
the same run; writes the Results section of docs/lint-performance.md.

  1. bench/generate.py --frag writes the shaders (GLSL, compiled with
     glslangValidator -V) into BUILD_DIR/bench-inputs. One seed serves every
     size: a smaller shader is a prefix of a larger one.
  2. Each tool runs as a process; its CPU time (user + system, from
     getrusage of the child, as bench/run.py times processes) is the median
     of --repeats runs: `spirv-conv lint --skip-validation` (the target's
     "without input validation", docs/lint-performance.md; the text report,
     written to /dev/null),
     `spirv-conv lint` with validation, `spirv-conv lint --skip-validation`
     of the GLSL source (glslang in the process) next to `glslangValidator
     -V` alone, `spirv-val --target-env vulkan1.0` and, once, `spirv-lint`,
     stopped at --cap seconds (not run on the 24k shader: it is over the cap
     from 10k on).
  3. Linear growth: CPU time per block of `lint --skip-validation`, less one
     process start (`spirv-conv --version`), across the sizes; the target
     check doubles the 12k shader (frag_24k); the exponent k of time ∝
     blocks^k from 1k to 12k and from 12k to 24k is shown too.

With --profile it instead perf-records the whole lint process on frag_12k
(`perf record --call-graph dwarf`) and prints the share of each phase (load,
analysis, lint, report, teardown) in the samples.
"""

import argparse
import datetime
import math
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the process timing and machine facts of bench/run.py)

REPO = run.REPO
BEGIN = "<!-- BEGIN RESULTS (written by bench/lint_bench.py) -->"
END = "<!-- END RESULTS -->"
# name: GLSL statements of bench/generate.py's fragment shader (blocks follow).
SHADERS = (("frag_1k", 560), ("frag_10k", 6400), ("frag_12k", 7600), ("frag_24k", 15000))
NO_SPIRV_LINT = ("frag_24k",)  # over the cap anyway; it would add minutes
TARGET_MODULE = "frag_12k"
TARGET_SECONDS = 0.2
# Linear growth: doubling the blocks (GROWTH[0] -> GROWTH[1]) may at most
# multiply the time per block by this (net of one process start).
GROWTH = ("frag_12k", "frag_24k")
LINEAR_SLACK = 1.25
# Phases of the whole process for --profile: (label, function names); a
# sample counts for a phase when one of them is on its stack.
PHASES = (
    ("read the file", ("spirv_conv::LoadSpirv",)),
    ("parse into SPIRV-Tools IR (BuildIrContext)", ("spirv_conv::BuildIrContext",)),
    ("uniformity analysis (UniformityInfo::Compute)", ("spirv_conv::UniformityInfo::Compute",)),
    ("lint (Lint): tables, rules, explanations, locations", ("spirv_conv::Lint",)),
    ("· of which building LintContext", ("spirv_conv::lint::LintContext::LintContext",)),
    ("· of which the derivative, barrier and subgroup rules",
     ("spirv_conv::lint::CheckConvergent",)),
    ("· of which the NonUniform rules", ("spirv_conv::lint::CheckMissingNonUniform",
                                         "spirv_conv::lint::CheckRedundantNonUniform")),
    ("text report (RenderText)", ("spirv_conv::RenderText",)),
    ("teardown (~IRContext, ~UniformityInfo)", ("spvtools::opt::IRContext::~IRContext",
                                                 "spirv_conv::UniformityInfo::~UniformityInfo")),
    ("SPIRV-Tools def-use manager (build and destroy)",
     ("spvtools::opt::analysis::DefUseManager::AnalyzeDefUse",
      "spvtools::opt::analysis::DefUseManager::~DefUseManager")),
    ("SPIRV-Tools instruction-to-block map", ("spvtools::opt::IRContext::BuildInstrToBlockMapping",)),
)


def generate(inputs_dir):
    cmd = [sys.executable, os.path.join(REPO, "bench", "generate.py"), "--out", inputs_dir,
           "--sizes", "", "--no-validate"]
    for name, statements in SHADERS:
        cmd += ["--frag", "%s=%d" % (name, statements)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def count_findings(exe, spv):
    import json
    out = subprocess.run([exe, "lint", "--skip-validation", "--format", "json", spv],
                         capture_output=True, text=True, check=False)
    if out.returncode not in (0, 1):
        raise SystemExit("spirv-conv lint fails on %s: %s" % (spv, out.stderr.strip()))
    return len(json.loads(out.stdout)["files"][0]["findings"])


def measure(exe, name, spv, args):
    m = {"spv": spv}
    m["blocks"], m["instructions"] = run.count_blocks_and_instructions(spv)
    m["findings"] = count_findings(exe, spv)
    run.log("%s (%d blocks): spirv-conv lint" % (name, m["blocks"]))
    m["lint_novalidate"] = run.timed_median([exe, "lint", "--skip-validation", spv, "-o",
                                             os.devnull], args.repeats)
    m["lint"] = run.timed_median([exe, "lint", spv, "-o", os.devnull], args.repeats)
    glsl = os.path.splitext(spv)[0] + ".frag"
    m["lint_glsl"] = run.timed_median([exe, "lint", "--skip-validation", glsl, "-o", os.devnull],
                                      args.repeats)
    m["glslang"] = run.timed_median(["glslangValidator", "-V", glsl, "-o", os.devnull],
                                    args.repeats)
    for key in ("lint_novalidate", "lint", "lint_glsl"):
        if m[key]["code"] not in (0, 1):
            raise SystemExit("spirv-conv lint exits %s on %s" % (m[key]["code"], spv))
    run.log("%s: spirv-val" % name)
    m["val"] = run.timed_median(["spirv-val", "--target-env", "vulkan1.0", spv], args.repeats)
    if m["val"]["code"] != 0:
        raise SystemExit("spirv-val rejects %s" % spv)
    if name in NO_SPIRV_LINT or args.cap <= 0:
        m["spirv_lint"] = None
    else:
        run.log("%s: spirv-lint (cap %d s)" % (name, args.cap))
        m["spirv_lint"] = run.timed_median(["spirv-lint", spv], 1, timeout=args.cap)
    return m


def cell_ms(result, cap):
    if result is None:
        return "not run"
    if result["cpu"] is None:
        return "> %d s cap" % cap
    return run.fmt_ms(result["cpu"])


def render(mods, order, start_cpu, facts, command, args):
    lines = []
    lines.append("Run: %s UTC; CPU milliseconds (user + system) of each process, median of %d "
                 "runs (spirv-lint: 1 run, stopped at %d s)." % (
                     datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"), args.repeats,
                     args.cap))
    lines += ["", "```sh", command, "```", ""]
    lines.append("Machine: " + "; ".join("%s: %s" % kv for kv in facts.items()) + ".")
    lines.append("Process start (`spirv-conv --version`): %s ms." % run.fmt_ms(start_cpu))
    lines.append("")
    head = ["module", "blocks", "SPIR-V insts", "findings", "**lint --skip-validation**",
            "lint (validating)", "lint of the GLSL", "glslangValidator -V", "spirv-val",
            "spirv-lint", "lint / spirv-val", "spirv-lint / lint", "µs per block (net of start)"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|---|" + "---:|" * (len(head) - 1))
    per_block = {}
    for name in order:
        m = mods[name]
        t = m["lint_novalidate"]["cpu"]
        per_block[name] = max(t - start_cpu, 0.0) / m["blocks"]
        sl = m["spirv_lint"]
        if sl is None:
            sl_ratio = "—"
        elif sl["cpu"] is None:
            sl_ratio = "> %.0f×" % (args.cap / t)
        else:
            sl_ratio = run.fmt_ratio(run.ratio(sl["cpu"], t))
        lines.append("| %s | %d | %d | %d | **%s** | %s | %s | %s | %s | %s | %s | %s | %.1f |" % (
            name, m["blocks"], m["instructions"], m["findings"], run.fmt_ms(t),
            run.fmt_ms(m["lint"]["cpu"]), run.fmt_ms(m["lint_glsl"]["cpu"]),
            run.fmt_ms(m["glslang"]["cpu"]), run.fmt_ms(m["val"]["cpu"]),
            cell_ms(sl, args.cap), run.fmt_ratio(run.ratio(t, m["val"]["cpu"])), sl_ratio,
            per_block[name] * 1e6))
    lines.append("")

    def net(name):
        return max(mods[name]["lint_novalidate"]["cpu"] - start_cpu, 1e-9)

    exponents = []
    for a, b in (("frag_1k", "frag_12k"), GROWTH):
        exponents.append("%s → %s: %.2f" % (a, b, math.log(net(b) / net(a)) / math.log(
            mods[b]["blocks"] / mods[a]["blocks"])))
    lines.append("Growth exponent k of time ∝ blocks^k (net of process start): " +
                 "; ".join(exponents) + ".")
    lines.append("")
    small, large = GROWTH
    growth = per_block[large] / per_block[small]
    target = mods[TARGET_MODULE]["lint_novalidate"]["cpu"]
    lines.append("| target | measured | verdict |")
    lines.append("|---|---|---|")
    lines.append("| lint of %s without input validation ≤ %.1f s, whole process | %s ms | %s |"
                 % (TARGET_MODULE, TARGET_SECONDS, run.fmt_ms(target),
                    "met" if target <= TARGET_SECONDS else "**missed**"))
    ok = growth <= LINEAR_SLACK
    lines.append("| linear growth: time per block (net of process start) of %s ≤ %.2f× that of "
                 "%s | %.2f× (%d → %d blocks) | %s |"
                 % (large, LINEAR_SLACK, small, growth, mods[small]["blocks"],
                    mods[large]["blocks"], "met" if ok else "**missed**"))
    return "\n".join(lines)


def write_doc(path, section):
    with open(path) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise SystemExit("%s has no %s ... %s markers" % (path, BEGIN, END))
    start = text.index(BEGIN) + len(BEGIN)
    with open(path, "w") as f:
        f.write(text[:start] + "\n" + section + "\n" + text[text.index(END, start):])


def profile(exe, spv, out_dir):
    data = os.path.join(out_dir, "perf-lint.data")
    subprocess.run(["perf", "record", "-o", data, "--call-graph", "dwarf,16384", "-F", "2000",
                    exe, "lint", "--skip-validation", spv, "-o", os.devnull],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    script = subprocess.run(["perf", "script", "-i", data], capture_output=True, text=True,
                            check=True).stdout
    # One sample: a header line, then one line per frame ("addr symbol+off (dso)").
    total, hits = 0, [0] * len(PHASES)
    for sample in script.split("\n\n"):
        frames = set(re.sub(r"\[abi:\w+\]|\+0x[0-9a-f]+$", "", m.group(1)).split("(")[0]
                     for m in re.finditer(r"^\s+[0-9a-f]+ (.*?) \(", sample, re.M))
        if not frames:
            continue
        total += 1
        for i, (_, symbols) in enumerate(PHASES):
            hits[i] += any(s in frames for s in symbols)
    print("Samples of the whole process (`spirv-conv lint --skip-validation %s`), %d in all:"
          % (os.path.basename(spv), total))
    print("")
    print("| phase | share |")
    print("|---|---:|")
    for (label, _), n in zip(PHASES, hits):
        print("| %s | %.1f %% |" % (label, 100.0 * n / max(total, 1)))
    print("")
    print("perf data: %s (perf report -i %s --children)" % (data, data))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build", "release"),
                    help="build tree with tools/spirv-conv/spirv-conv (default: build/release)")
    ap.add_argument("--spirv-conv", help="the spirv-conv to time (default: the build tree's)")
    ap.add_argument("--repeats", type=int, default=5, help="runs of each process (median)")
    ap.add_argument("--cap", type=int, default=120, help="spirv-lint time cap, seconds")
    ap.add_argument("--no-generate", action="store_true", help="reuse the inputs")
    ap.add_argument("--doc", default=os.path.join(REPO, "docs", "lint-performance.md"))
    ap.add_argument("--no-doc", action="store_true", help="print the section, do not write it")
    ap.add_argument("--profile", action="store_true",
                    help="instead of a run: perf-record the lint of %s" % TARGET_MODULE)
    args = ap.parse_args()

    t0 = time.time()
    build = os.path.abspath(args.build_dir)
    exe = os.path.abspath(args.spirv_conv or os.path.join(build, "tools", "spirv-conv",
                                                          "spirv-conv"))
    if not os.path.exists(exe):
        raise SystemExit("no %s: build it with\n  SPIRV_CONV_BUILD_DIR=%s scripts/build.sh "
                         "release spirv-conv" % (exe, os.path.relpath(build, REPO)))
    inputs_dir = os.path.join(build, "bench-inputs")
    if not args.no_generate:
        run.log("generating inputs into " + inputs_dir)
        generate(inputs_dir)
    if args.profile:
        profile(exe, os.path.join(inputs_dir, TARGET_MODULE + ".spv"), build)
        return 0

    facts = run.machine_facts()
    for key in ("LLVM opt",):
        facts.pop(key, None)
    start_cpu = run.timed_median([exe, "--version"], max(args.repeats, 5))["cpu"]
    order = [name for name, _ in SHADERS]
    mods = {name: measure(exe, name, os.path.join(inputs_dir, name + ".spv"), args)
            for name in order}
    rel = os.path.relpath(build, REPO)
    command = ("SPIRV_CONV_BUILD_DIR=%s scripts/build.sh release -j1 spirv-conv && "
               "bench/lint_bench.py --build-dir %s" % (rel, rel))
    for flag, value, default in (("--repeats", args.repeats, 5), ("--cap", args.cap, 120),
                                 ("--spirv-conv", args.spirv_conv, None)):
        if value != default:
            command += " %s %s" % (flag, value)
    section = render(mods, order, start_cpu, facts, command, args)
    section += "\n\nThe whole run took %.0f s." % (time.time() - t0)
    if args.no_doc:
        print(section)
    else:
        write_doc(args.doc, section)
        run.log("wrote " + args.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
