#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""One full run of the uniformity benchmark; writes docs/performance.md.

  1. bench/generate.py writes the inputs into BUILD_DIR/bench-inputs.
  2. uniformity_bench (Google Benchmark, --benchmark_format=json) times, per
     module, the IR load (LoadSpirvFromBytes + BuildIrContext), the analysis
     (UniformityInfo::Compute on a fresh context) and, for comparison, what
     SPIRV-Tools' def-use, decoration and constant managers would cost (the
     analysis does not build them; it has its own id index), and what one
     walk over every instruction of the function bodies costs (a floor for
     anything that reads the module).
  3. External processes, timed as processes (CPU time of the child, user +
     system, from getrusage): spirv-val (which also checks every input),
     spirv-lint (capped), and LLVM 19 opt with -passes=verify (parse and
     verify only), -passes='print<uniformity>' and
     -passes='function(require<uniformity>)' on the same CFG.
  4. The results table replaces the part of docs/performance.md between the
     RESULTS markers; the rest of the file (method, analysis) is kept.

With --profile NAMES it only perf-records the analysis of those modules
(from an earlier run's inputs) instead.

Times are CPU times (the machine's two cores are shared; wall-clock times,
also recorded in the JSON, suffer more from other load). Raw results:
BUILD_DIR/bench-results.json.
"""

import argparse
import array
import datetime
import json
import os
import platform
import re
import resource
import shlex
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPT = "/usr/lib/llvm-19/bin/opt"
BEGIN = "<!-- BEGIN RESULTS (written by bench/run.py) -->"
END = "<!-- END RESULTS -->"
FAMILIES = ("reducible", "irreducible")
# Differences of two process timings below this are not judged (seconds).
NOISE = 0.02
SIZES = ("1k", "10k", "100k")


def log(msg):
    print("[run.py %s] %s" % (time.strftime("%H:%M:%S"), msg), file=sys.stderr, flush=True)


def timed(cmd, timeout=None):
    """Runs |cmd| with output discarded. Returns (cpu seconds, wall seconds,
    exit code); exit code None when it hit |timeout|."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=timeout)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        code = None  # subprocess.run killed and reaped the child
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, code


def timed_median(cmd, repeats, timeout=None):
    runs = []
    for _ in range(repeats):
        runs.append(timed(cmd, timeout))
        if runs[-1][2] is None:  # over the cap: once is enough
            return {"cpu": None, "wall": None, "code": None, "timeout": timeout}
    return {"cpu": statistics.median(r[0] for r in runs),
            "wall": statistics.median(r[1] for r in runs),
            "code": runs[0][2], "repeats": repeats}


def repeats_for(blocks, small, large):
    return large if blocks > 50000 else small


def count_blocks_and_instructions(spv):
    words = array.array("I")
    with open(spv, "rb") as f:
        words.frombytes(f.read())
    i, labels, insts = 5, 0, 0
    while i < len(words):
        op, n = words[i] & 0xFFFF, words[i] >> 16
        labels += op == 248
        insts += 1
        i += max(n, 1)
    return labels, insts


def machine_facts():
    def out(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
        except OSError:
            return ""
    lscpu = out(["lscpu"])
    facts = {}
    for key in ("Model name", "CPU(s)", "Thread(s) per core", "L2 cache", "L3 cache",
                "Hypervisor vendor", "BogoMIPS"):
        m = re.search(r"^%s:\s*(.+)$" % re.escape(key), lscpu, re.M)
        if m:
            facts[key] = m.group(1).strip()
    facts["nproc"] = out(["nproc"]).strip()
    with open("/proc/meminfo") as f:
        facts["MemTotal"] = f.readline().split(":")[1].strip()
    facts["kernel"] = platform.release()
    facts["load average at start"] = " ".join("%.2f" % x for x in os.getloadavg())
    facts["compiler"] = out(["clang++", "--version"]).splitlines()[0] if out(
        ["clang++", "--version"]) else "?"
    facts["spirv-val"] = out(["spirv-val", "--version"]).splitlines()[0]
    m = re.search(r"LLVM version (\S+)", out([OPT, "--version"]))
    facts["LLVM opt"] = m.group(1) if m else "?"
    facts["glslangValidator"] = out(["glslangValidator", "--version"]).splitlines()[0]
    head = out(["git", "-C", REPO, "rev-parse", "--short", "HEAD"]).strip()
    dirty = out(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no",
                 "--", "source", "include"]).strip()
    facts["spirv-conv source"] = (head or "?") + (" + uncommitted changes in source/ or include/"
                                                  if dirty else "")
    return facts


def run_benchmark(exe, inputs, args):
    cmd = [exe]
    for name, spv in inputs:
        cmd += ["--input", "%s=%s" % (name, spv)]
    cmd += ["--benchmark_format=json",
            "--benchmark_min_time=%g" % args.min_time,
            "--benchmark_repetitions=%d" % args.repetitions,
            "--benchmark_report_aggregates_only=true"]
    log("benchmark: " + " ".join(shlex.quote(c) for c in cmd[:1] + cmd[-4:]))
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    data = json.loads(proc.stdout)
    results = {}
    for b in data["benchmarks"]:
        if b.get("error_occurred"):
            raise SystemExit("uniformity_bench: %s: %s" % (b["name"], b.get("error_message")))
        kind, name = b["run_name"].split("/", 1)
        if b.get("aggregate_name") == "cv":  # coefficient of variation, a fraction
            results.setdefault(name, {}).setdefault(kind, {})["cpu_cv"] = b["cpu_time"]
        if b.get("aggregate_name") != "median":
            continue
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        entry = results.setdefault(name, {}).setdefault(kind, {})
        entry["cpu"] = b["cpu_time"] * scale
        entry["wall"] = b["real_time"] * scale
    return results, data["context"]


def fmt_ms(seconds):
    if seconds is None:
        return "—"
    ms = seconds * 1e3
    if ms >= 100:
        return "%.0f" % ms
    if ms >= 10:
        return "%.1f" % ms
    return "%.2f" % ms


def fmt_ratio(x):
    return "—" if x is None else ("%.1f×" % x if x >= 10 else "%.2f×" % x)


def ratio(a, b):
    return None if a is None or b is None or b <= 0 else a / b


def render(results, facts, bench_context, command, args):
    rows = []
    for name in [n for n in results["order"]]:
        r = results["modules"][name]
        llvm = r.get("llvm")
        llvm_uni = llvm_print = None
        if llvm:
            llvm_uni = max(llvm["require"]["cpu"] - llvm["verify"]["cpu"], 0.0)
            llvm_print = max(llvm["print"]["cpu"] - llvm["verify"]["cpu"], 0.0)
        lint = r["lint"]
        if lint["cpu"] is None:
            lint_text = "> %d s cap" % args.lint_cap
        else:
            lint_text = fmt_ms(lint["cpu"])
        rows.append([
            name, "%d" % r["blocks"], "%d" % r["instructions"],
            fmt_ms(r["load"]["cpu"]), fmt_ms(r["analysis"]["cpu"]) + (
                " ±%.0f%%" % (100 * r["analysis"]["cpu_cv"]) if "cpu_cv" in r["analysis"] else ""),
            fmt_ratio(ratio(r["analysis"]["cpu"], r["load"]["cpu"])),
            fmt_ms(r["managers"]["cpu"]),
            fmt_ms(r["walk"]["cpu"]) if "walk" in r else "—",
            fmt_ms(r["val"]["cpu"]), lint_text,
            fmt_ms(llvm["verify"]["cpu"]) if llvm else "—",
            fmt_ms(llvm["print"]["cpu"]) if llvm else "—",
            fmt_ms(llvm["require"]["cpu"]) if llvm else "—",
            fmt_ms(llvm_print) if llvm else "—",
            fmt_ms(llvm_uni) if llvm else "—",
            fmt_ratio(ratio(r["analysis"]["cpu"], llvm_uni)) if llvm else "—",
        ])
        r["llvm_uniformity_cpu"] = llvm_uni
    head = ["module", "blocks", "SPIR-V insts", "IR load", "analysis", "analysis / load",
            "SPIRV-Tools managers (for comparison)", "one walk over the IR (for comparison)",
            "spirv-val (process)", "spirv-lint (process)",
            "LLVM verify", "LLVM print<uniformity>", "LLVM require<uniformity>",
            "LLVM print − verify", "LLVM require − verify", "analysis / LLVM"]
    lines = []
    lines.append("Run: %s UTC, %d repetitions (median) of at least %g s each for the "
                 "in-process timings; %s for the processes. All times are CPU "
                 "milliseconds (user + system) on one thread; ±: the coefficient of variation "
                 "of the analysis over the repetitions." % (
                     results["date"], args.repetitions, args.min_time,
                     "median of %d runs (spirv-val and spirv-lint: 1 run for the 100k "
                     "modules)" % args.proc_repeats))
    lines.append("")
    lines.append("```sh")
    lines.append(command)
    lines.append("```")
    lines.append("")
    lines.append("Machine: " + "; ".join("%s: %s" % kv for kv in facts.items()) + ".")
    lines.append("Google Benchmark %s (library build type reported: %s)." % (
        bench_context.get("library_version", "1.7.1 (Debian)"),
        bench_context.get("library_build_type", "?")))
    lines.append("")
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|")
    for row in rows:
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")

    # Scaling.
    lines.append("Scaling, 10× the blocks (time(100k) / time(10k)):")
    lines.append("")
    lines.append("| family | analysis | IR load | spirv-val | LLVM require − verify |")
    lines.append("|---|---:|---:|---:|---:|")
    mods = results["modules"]
    scaling = {}
    for fam in FAMILIES:
        a, b = mods.get(fam + "_100k"), mods.get(fam + "_10k")
        if not a or not b:
            continue
        s = {
            "analysis": ratio(a["analysis"]["cpu"], b["analysis"]["cpu"]),
            "load": ratio(a["load"]["cpu"], b["load"]["cpu"]),
            "val": ratio(a["val"]["cpu"], b["val"]["cpu"]),
            "llvm": ratio(a.get("llvm_uniformity_cpu"), b.get("llvm_uniformity_cpu")),
        }
        scaling[fam] = s
        lines.append("| %s | %s | %s | %s | %s |" % (
            fam, fmt_ratio(s["analysis"]), fmt_ratio(s["load"]), fmt_ratio(s["val"]),
            fmt_ratio(s["llvm"])))
    lines.append("")

    # Targets.
    lines.append("Targets:")
    lines.append("")
    lines.append("| target | module | measured | verdict |")
    lines.append("|---|---|---|---|")
    verdicts = []
    for fam in FAMILIES:
        m = mods.get(fam + "_10k")
        if m:
            x = ratio(m["analysis"]["cpu"], m["load"]["cpu"])
            ok = x is not None and x <= 1.0
            verdicts.append(ok)
            lines.append("| analysis ≤ 1× IR load (10k blocks) | %s_10k | %s ms / %s ms = %s | %s |" % (
                fam, fmt_ms(m["analysis"]["cpu"]), fmt_ms(m["load"]["cpu"]), fmt_ratio(x),
                "met" if ok else "**missed**"))
    for fam, s in scaling.items():
        ok = s["analysis"] is not None and s["analysis"] <= 12.0
        verdicts.append(ok)
        lines.append("| 10× blocks → ≤ 12× analysis time | %s 10k → 100k | %s | %s |" % (
            fam, fmt_ratio(s["analysis"]), "met" if ok else "**missed**"))
    for name in results["order"]:
        m = mods[name]
        if m.get("llvm_uniformity_cpu") is None:
            continue
        x = ratio(m["analysis"]["cpu"], m["llvm_uniformity_cpu"])
        ok = x is not None and x < 1.0
        if m["llvm_uniformity_cpu"] < NOISE:
            lines.append("| faster than LLVM 19 (require − verify) on the same CFG | %s | %s ms vs "
                         "%s ms | not judged: LLVM's part is below the %d ms noise of a "
                         "process start |" % (name, fmt_ms(m["analysis"]["cpu"]),
                                              fmt_ms(m["llvm_uniformity_cpu"]), NOISE * 1000))
            continue
        verdicts.append(ok)
        lines.append("| faster than LLVM 19 (require − verify) on the same CFG | %s | %s ms vs %s ms (%s) | %s |" % (
            name, fmt_ms(m["analysis"]["cpu"]), fmt_ms(m["llvm_uniformity_cpu"]), fmt_ratio(x),
            "met" if ok else "**missed**"))
    lines.append("")
    lines.append("%d of %d target checks met." % (sum(verdicts), len(verdicts)))
    return "\n".join(lines)


def finish(args, lines, failures, doc, begin, end, heading, more=()):
    """Prints the table |lines| and the failures, writes the table into
    docs/|doc| unless --no-doc; the exit code: 1 on failures under --check.
    |more|: further sections of the same doc, each (lines, begin, end,
    heading), printed and written the same way after the first."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", doc)
    for i, (section_lines, section_begin, section_end, section_heading) in enumerate(
            ((lines, begin, end, heading),) + tuple(more)):
        table = "\n".join(section_lines)
        print(("\n" if i else "") + table)
        if not args.no_doc:
            write_doc(path, table, section_begin, section_end, section_heading)
    for failure in failures:
        print("FAIL " + failure)
    return 1 if (args.check and failures) else 0


def write_doc(path, section, begin=BEGIN, end=END, heading="Results"):
    """Writes |section| between the markers |begin| and |end| of |path|,
    adding them under "## |heading|" at the end when the file lacks them."""
    if os.path.exists(path):
        with open(path) as f:
            text = f.read()
    else:
        text = "# Performance\n"
    if begin not in text or end not in text:
        text = text.rstrip("\n") + "\n\n## %s\n\n%s\n%s\n" % (heading, begin, end)
    start = text.index(begin) + len(begin)
    stop = text.index(end, start)
    text = text[:start] + "\n" + section + "\n" + text[stop:]
    with open(path, "w") as f:
        f.write(text)


def profile(exe, name, spv, out_dir):
    """perf record of the analysis of one module; writes the inclusive
    (children) report of the symbols under UniformityInfo::Compute."""
    data = os.path.join(out_dir, "perf-%s.data" % name)
    subprocess.run(["perf", "record", "-o", data, "--call-graph", "dwarf,16384", "-F", "499",
                    exe, "--input", "%s=%s" % (name, spv), "--benchmark_min_time=1",
                    "--benchmark_filter=analysis/"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rep = subprocess.run(["perf", "report", "-i", data, "--children", "--sort", "symbol",
                          "--stdio", "-g", "none", "--percent-limit", "1"],
                         capture_output=True, text=True, check=True).stdout
    path = os.path.join(out_dir, "perf-%s.txt" % name)
    with open(path, "w") as f:
        f.write(rep)
    log("profile of analysis/%s: %s" % (name, path))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build", "bench"),
                    help="build tree configured with -DSPIRV_CONV_BUILD_BENCH=ON "
                         "(default: build/bench)")
    ap.add_argument("--sizes", default="1k,10k,100k")
    ap.add_argument("--min-time", type=float, default=0.5,
                    help="--benchmark_min_time, seconds per repetition")
    ap.add_argument("--repetitions", type=int, default=3)
    ap.add_argument("--proc-repeats", type=int, default=3,
                    help="runs of each external process (the 100k modules run once)")
    ap.add_argument("--lint-cap", type=int, default=120, help="spirv-lint time cap, seconds")
    ap.add_argument("--no-generate", action="store_true", help="reuse the inputs")
    ap.add_argument("--doc", default=os.path.join(REPO, "docs", "performance.md"))
    ap.add_argument("--no-doc", action="store_true", help="print the section, do not write it")
    ap.add_argument("--profile", metavar="NAMES",
                    help="instead of a run: perf-record the analysis of these modules "
                         "(comma-separated, e.g. reducible_10k,reducible_100k) and write "
                         "the inclusive profile to BUILD_DIR/perf-NAME.txt")
    args = ap.parse_args()

    t0 = time.time()
    build = os.path.abspath(args.build_dir)
    exe = os.path.join(build, "bench", "uniformity_bench")
    if not os.path.exists(exe):
        raise SystemExit("no %s: build it with\n  SPIRV_CONV_BUILD_DIR=%s "
                         "SPIRV_CONV_CMAKE_ARGS=-DSPIRV_CONV_BUILD_BENCH=ON "
                         "scripts/build.sh release uniformity_bench" % (exe, build))
    inputs_dir = os.path.join(build, "bench-inputs")
    facts = machine_facts()
    date = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M")

    if args.profile:
        for name in args.profile.split(","):
            spv = os.path.join(inputs_dir, name + ".spv")
            if not os.path.exists(spv):
                raise SystemExit("no %s: run bench/run.py once first" % spv)
            profile(exe, name, spv, build)
        return 0

    if not args.no_generate:
        log("generating inputs into " + inputs_dir)
        subprocess.run([sys.executable, os.path.join(REPO, "bench", "generate.py"),
                        "--out", inputs_dir, "--sizes", args.sizes, "--no-validate"],
                       check=True, stdout=subprocess.DEVNULL)

    order = []
    for fam in FAMILIES:
        for size in args.sizes.split(","):
            order.append(fam + "_" + size)
    order.append("frag_large")
    modules = {}
    for name in order:
        spv = os.path.join(inputs_dir, name + ".spv")
        blocks, insts = count_blocks_and_instructions(spv)
        modules[name] = {"spv": spv, "blocks": blocks, "instructions": insts}

    # In-process timings first, while nothing else of ours runs.
    bench, context = run_benchmark(exe, [(n, modules[n]["spv"]) for n in order], args)
    for name in order:
        modules[name].update(bench[name])

    for name in order:
        m = modules[name]
        rep = repeats_for(m["blocks"], args.proc_repeats, 1)
        env = "vulkan1.0" if name == "frag_large" else "spv1.2"
        log("%s: spirv-val" % name)
        m["val"] = timed_median(["spirv-val", "--target-env", env, m["spv"]], rep)
        if m["val"]["code"] != 0:
            raise SystemExit("spirv-val rejects %s" % m["spv"])
        log("%s: spirv-lint (cap %d s)" % (name, args.lint_cap))
        m["lint"] = timed_median(["spirv-lint", m["spv"]], rep, timeout=args.lint_cap)
        ll = os.path.join(inputs_dir, name + ".ll")
        if os.path.exists(ll):
            log("%s: LLVM opt" % name)
            # LLVM's analysis is a difference of two process times: always
            # the median of several runs, also for the 100k modules.
            rep = args.proc_repeats
            base = [OPT, "-mtriple", "amdgcn--", "-disable-output", ll]
            m["llvm"] = {
                "verify": timed_median(base + ["-passes=verify"], rep),
                "print": timed_median(base + ["-passes=print<uniformity>"], rep),
                "require": timed_median(base + ["-passes=function(require<uniformity>)"], rep),
            }
            for k, v in m["llvm"].items():
                if v["code"] != 0:
                    raise SystemExit("opt -passes=%s fails on %s" % (k, ll))

    command = ("SPIRV_CONV_BUILD_DIR=%s SPIRV_CONV_CMAKE_ARGS=-DSPIRV_CONV_BUILD_BENCH=ON "
               "scripts/build.sh release -j1 uniformity_bench && bench/run.py --build-dir %s" % (
                   os.path.relpath(build, REPO), os.path.relpath(build, REPO)))
    extra = []
    if args.sizes != "1k,10k,100k":
        extra.append("--sizes " + args.sizes)
    for flag, value, default in (("--min-time", args.min_time, 0.5),
                                 ("--repetitions", args.repetitions, 3),
                                 ("--proc-repeats", args.proc_repeats, 3),
                                 ("--lint-cap", args.lint_cap, 120)):
        if value != default:
            extra.append("%s %s" % (flag, value))
    if extra:
        command += " " + " ".join(extra)
    results = {"date": date, "order": order, "modules": modules}
    section = render(results, facts, context, command, args)
    elapsed = time.time() - t0
    section += "\n\nThe whole run took %.0f s." % elapsed
    raw = "bench-results.json" if not args.no_doc else "bench-results-no-doc.json"
    with open(os.path.join(build, raw), "w") as f:
        json.dump({"facts": facts, "benchmark_context": context, **results}, f, indent=1)
    if args.no_doc:
        print(section)
    else:
        write_doc(args.doc, section)
        log("wrote " + args.doc)
    log("done in %.0f s" % elapsed)


if __name__ == "__main__":
    sys.exit(main())
