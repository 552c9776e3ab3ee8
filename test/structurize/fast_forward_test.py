#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Semantics campaign for `spirv-conv opt --fast-forward-loops`, CTest
`structurize.fast-forward-random` (docs/structurize-tests.md).

  fast_forward_test.py --spirv-conv PATH [--count 1000] [--first-seed 1] [-j 2]
                       [--work-dir DIR] [--keep] [--opt-args ARGS] [--generator-only]
                       [--spirv-val PATH] [--glslang PATH]

For each seed, gen_loops.py writes a GLSL compute shader (local size 64, one
storage buffer) whose loops have the shape `loop { P; if (c) E else C; T }`
with random variations, some of them ones the pass must decline (barrier,
subgroup operation, atomic, shared-memory store, return in the loop). The
shader is compiled with `glslangValidator -V --target-env vulkan1.1` (with
-g for half the seeds, so the report names each loop's source line) and run
with `spirv-conv run` under --model maximal, ipdom, adversarial --seed 1 and
adversarial --seed 2 (subgroups of 8 for odd seeds, 32 for even ones; 1 or 2
workgroups); the four input results must be equal (the generator keeps
subgroup operations and barriers in uniform control flow), or the seed is a
generator error. Then

  spirv-conv opt in.spv --fast-forward-loops --fast-forward-loops-everywhere
      [--fast-forward-window W] --report rep.json -o out.spv

(W from 1, 2, 3, 4, 8, 16, 1000, omitted for one seed in eight; --opt-args
replaces everything but the input, --report and -o) must succeed, spirv-val
--target-env vulkan1.1 must accept out.spv, and out.spv run under each of
the four models must dump the same buffer, word for word, as the input under
the same model. For -g seeds, a loop the report says was fast-forwarded or
merged must not be one the generator marked as forbidden (it contains, or calls a
function that contains, a barrier, subgroup operation, atomic or
shared-memory store, or returns).

The summary counts the report's decisions: loops fast-forwarded (shape A),
inner loops merged into their outer loop (shape B, action
"merge-inner-loop"), seeds with at least one, and the declines by reason;
with -g also how many of the loops the generator built to qualify for shape
A (divergent condition, no exit from E or C, nothing forbidden) were
fast-forwarded. A failing seed's files stay in
WORK_DIR/seed-S (all seeds' with --keep).

--generator-only compiles the shaders and, when --spirv-conv can run them,
checks the input runs; it needs no pass.

Exit: 0 no failure, 1 failures, 2 usage or tool error, 77 skipped because
`spirv-conv opt --help` does not mention --fast-forward-loops (with
--generator-only the generator checks still run).
"""

import argparse
import json
import os
import random
import re
import shlex
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "test", "reconvergence"))
import gen_loops  # noqa: E402
import sim_tools  # noqa: E402

EXIT_SKIP = 77
EXIT_ERROR = 2
MAX_INSTRUCTIONS = 50000000   # per run; the programs issue a few hundred thousand at most
MODELS = (("maximal", None), ("ipdom", None), ("adversarial", 1), ("adversarial", 2))
WINDOWS = (1, 2, 3, 4, 8, 16, 1000)
DEFAULT_OPT = ["--fast-forward-loops", "--fast-forward-loops-everywhere"]
CATEGORIES = ("generator error", "pass error", "invalid output", "output mismatch", "run error",
              "forbidden loop fast-forwarded")


def quote(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


def model_name(model, seed):
    return model if seed is None else "%s-%d" % (model, seed)


def seed_setup(seed, opt_args):
    """(workgroups, subgroup size, debug info, opt flags) of |seed|, reproducibly."""
    r = random.Random(seed * 1000003 + 4242)
    groups = r.choice((1, 2))
    subgroup = 8 if seed % 2 else 32
    debug = (seed // 2) % 2 == 0
    if opt_args is not None:
        flags = shlex.split(opt_args)
    else:
        flags = list(DEFAULT_OPT)
        if r.random() >= 1.0 / 8:
            flags += ["--fast-forward-window", str(r.choice(WINDOWS))]
    return groups, subgroup, debug, flags


def run_tool(cmd, timeout=120):
    return sim_tools.run_command_waiting(cmd, timeout=timeout)


def normalize_reason(change):
    """The action, for a decline its reason without the function name and
    numbers: "fast-forward" (shape A), "merge-inner-loop" (shape B) or
    "decline: ..."."""
    detail = re.sub(r"^function '[^']*': ", "", change.get("detail") or "")
    if change.get("action") != "decline":
        return change.get("action")
    if detail.startswith("expensive arm"):
        detail = "cost model: " + (detail.rsplit("; ", 1)[-1] if "no gain" in detail else detail)
    return "decline: " + re.sub(r"\d+", "N", detail)


def match_loop(loops, line):
    """The innermost generated loop whose source lines hold |line|, or None."""
    best = None
    for n, rec in enumerate(loops):
        if rec["start"] <= line <= rec["end"]:
            if best is None or rec["start"] >= loops[best]["start"]:
                best = n
    return best


def qualifies(rec):
    """The generator built this loop for the pass to apply (with --everywhere)."""
    return (rec["kind"] != "simple" and rec["divergent_cond"] and not rec["forbidden"]
            and "E" not in rec["exits"] and "C" not in rec["exits"])


def check_seed(seed, opts):
    """Everything about one seed; returns a result dict (picklable)."""
    d = os.path.join(opts.work_dir, "seed-%d" % seed)
    os.makedirs(d, exist_ok=True)
    groups, subgroup, debug, flags = seed_setup(seed, opts.opt_args)
    res = {"seed": seed, "failures": [], "decisions": [], "loops": 0, "qualifying": 0,
           "qualifying_applied": 0, "debug": debug, "flags": flags, "time": 0.0}
    start = time.time()

    def fail(category, message, commands=()):
        res["failures"].append({"category": category, "message": message.strip()[:3000],
                                "commands": [quote(c) for c in commands]})

    prog = gen_loops.generate(seed)
    src = os.path.join(d, "gen.comp")
    with open(src, "w") as fh:
        fh.write(prog["source"])
    with open(os.path.join(d, "loops.json"), "w") as fh:
        json.dump(prog["loops"], fh, indent=1)
    res["loops"] = len(prog["loops"])
    res["features"] = prog["features"]
    gen_cmd = [sys.executable, os.path.join(HERE, "gen_loops.py"), "--seed", str(seed), "-o", src]

    in_spv = os.path.join(d, "in.spv")
    compile_cmd = [opts.glslang, "-V", "--target-env", "vulkan1.1"] + (["-g"] if debug else []) + [
        src, "-o", in_spv]
    code, out, err = run_tool(compile_cmd)
    if code != 0:
        fail("generator error", "glslangValidator exits %s: %s%s" % (code, out, err),
             [gen_cmd, compile_cmd])
        return finish(res, d, opts, start)

    size_path = os.path.join(d, "size.json")
    with open(size_path, "w") as fh:
        json.dump({"size": 4 * gen_loops.buffer_words(groups)}, fh)

    def run(spv, model, mseed, tag):
        dump = os.path.join(d, "%s-%s.json" % (tag, model_name(model, mseed)))
        cmd = [opts.spirv_conv, "run", spv, "--model", model]
        if mseed is not None:
            cmd += ["--seed", str(mseed)]
        cmd += ["--workgroups", str(groups), "--subgroup-size", str(subgroup),
                "--max-instructions", str(MAX_INSTRUCTIONS),
                "--buffer", "0:0=" + size_path, "--dump", "0:0=" + dump]
        code, out, err = run_tool(cmd, timeout=300)
        if code != 0:
            return None, cmd, "exits %s: %s" % (code, (err or out).strip()[:1500])
        with open(dump) as fh:
            return json.load(fh)["u32"], cmd, None

    if not opts.can_run:
        return finish(res, d, opts, start)

    # The input under every model: the expected results, equal to each other.
    expected = {}
    for model, mseed in MODELS:
        words, cmd, problem = run(in_spv, model, mseed, "in")
        if problem:
            fail("generator error", "input run (%s) %s" % (model_name(model, mseed), problem),
                 [gen_cmd, compile_cmd, cmd])
            return finish(res, d, opts, start)
        expected[(model, mseed)] = (words, cmd)
    ref_words, ref_cmd = expected[MODELS[0]]
    for key, (words, cmd) in expected.items():
        diffs = sim_tools.word_differences(ref_words, words)
        if diffs:
            fail("generator error", "the input's result depends on the model: %s and %s differ "
                 "in %d words, first %s" % (model_name(*MODELS[0]), model_name(*key), len(diffs),
                                            diffs[0]), [gen_cmd, compile_cmd, ref_cmd, cmd])
            return finish(res, d, opts, start)

    if opts.generator_only:
        return finish(res, d, opts, start)

    out_spv = os.path.join(d, "out.spv")
    report = os.path.join(d, "rep.json")
    opt_cmd = [opts.spirv_conv, "opt", in_spv] + flags + ["--report", report, "-o", out_spv]
    code, out, err = run_tool(opt_cmd, timeout=300)
    if code != 0 or not os.path.exists(out_spv):
        fail("pass error", "exit %s: %s%s" % (code, err, out), [gen_cmd, compile_cmd, opt_cmd])
        return finish(res, d, opts, start)
    try:
        with open(report) as fh:
            changes = [c for m in json.load(fh)["modules"] for c in m["changes"]
                       if c.get("pass") == "fast-forward-loops"]
    except (OSError, ValueError, KeyError) as e:
        fail("pass error", "no readable report %s: %s" % (report, e), [gen_cmd, compile_cmd, opt_cmd])
        return finish(res, d, opts, start)
    res["decisions"] = [normalize_reason(c) for c in changes]

    # With debug info, each decision names its loop's source line.
    if debug:
        applied = set()
        for c in changes:
            if c.get("line") is None:
                continue
            n = match_loop(prog["loops"], c["line"])
            if n is None or c.get("action") == "decline":
                continue
            rec = prog["loops"][n]
            if c.get("action") == "fast-forward":
                applied.add(n)
            if rec["forbidden"]:
                fail("forbidden loop fast-forwarded",
                     "the loop at gen.comp:%d-%d (%s) contains %s, and the report says %s: %s"
                     % (rec["start"], rec["end"], rec["function"], ", ".join(rec["forbidden"]),
                        c.get("action"), c.get("detail")), [gen_cmd, compile_cmd, opt_cmd])
        res["qualifying"] = sum(1 for rec in prog["loops"] if qualifies(rec))
        res["qualifying_applied"] = sum(1 for n in applied if qualifies(prog["loops"][n]))

    val_cmd = [opts.spirv_val, "--target-env", "vulkan1.1", out_spv]
    code, out, err = run_tool(val_cmd)
    if code != 0:
        fail("invalid output", err + out, [gen_cmd, compile_cmd, opt_cmd, val_cmd])
        return finish(res, d, opts, start)

    for model, mseed in MODELS:
        words, in_cmd = expected[(model, mseed)]
        got, cmd, problem = run(out_spv, model, mseed, "out")
        if problem:
            fail("run error", "output run (%s) %s" % (model_name(model, mseed), problem),
                 [gen_cmd, compile_cmd, opt_cmd, cmd])
            continue
        diffs = sim_tools.word_differences(words, got)
        if diffs:
            lines = []
            for i, e, a in diffs[:6]:
                if i < gen_loops.COUNTER_WORDS:
                    where = "atomic counter %d" % i
                else:
                    inv, word = divmod(i - gen_loops.COUNTER_WORDS, gen_loops.OUT_WORDS)
                    where = "invocation %d, v%d" % (inv, word)
                lines.append("word %d (%s): input %s, output %s" % (i, where, e, a))
            fail("output mismatch", "--model %s: %d words differ\n  %s"
                 % (model_name(model, mseed), len(diffs), "\n  ".join(lines)),
                 [gen_cmd, compile_cmd, opt_cmd, in_cmd, cmd])
    return finish(res, d, opts, start)


def finish(res, d, opts, start):
    res["time"] = time.time() - start
    if not res["failures"] and not opts.keep:
        shutil.rmtree(d, ignore_errors=True)
    return res


def pass_missing(spirv_conv):
    """None when `spirv-conv opt --fast-forward-loops` exists, else why not."""
    if not spirv_conv or not os.access(spirv_conv, os.X_OK):
        return "%s is not an executable" % spirv_conv
    code, out, err = sim_tools.run_command([spirv_conv, "opt", "--help"], timeout=30)
    if code != 0 or "--fast-forward-loops" not in out:
        return "`spirv-conv opt --help` does not mention --fast-forward-loops"
    return None


def summarize(opts, seeds, results, elapsed):
    by_cat, failed = sim_tools.failure_counts(results, CATEGORIES)
    features = {}
    for res in results:
        for k, v in res.get("features", {}).items():
            features[k] = features.get(k, 0) + v
    print("structurize.fast-forward-random: seeds %d..%d, %.0f s (%.2f s per seed at -j %d)"
          % (seeds[0], seeds[-1], elapsed, elapsed / max(1, len(seeds)), opts.jobs))
    print("  generator: %d loops (%s)" % (
        sum(r["loops"] for r in results),
        ", ".join("%s %d" % kv for kv in sorted(features.items()))))
    if not opts.generator_only:
        decisions = [x for r in results for x in r["decisions"]]
        applied = sum(1 for x in decisions if x == "fast-forward")
        merged = sum(1 for x in decisions if x == "merge-inner-loop")
        seeds_applied = sum(1 for r in results if "fast-forward" in r["decisions"])
        seeds_any = sum(1 for r in results
                        if any(not x.startswith("decline") for x in r["decisions"]))
        print("  decisions: %d loops considered, %d fast-forwarded (shape A), %d inner loops "
              "merged (shape B), %d declined"
              % (len(decisions), applied, merged, len(decisions) - applied - merged))
        print("  seeds with a fast-forwarded loop: %d of %d (%.0f %%); with either: %d"
              % (seeds_applied, len(results), 100.0 * seeds_applied / max(1, len(results)),
                 seeds_any))
        reasons = {}
        for x in decisions:
            if x.startswith("decline"):
                reasons[x] = reasons.get(x, 0) + 1
        for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
            print("    %5d  %s" % (count, reason))
        debug = [r for r in results if r["debug"] and r["decisions"]]
        q = sum(r["qualifying"] for r in debug)
        qa = sum(r["qualifying_applied"] for r in debug)
        print("  -g seeds (%d): %d of the %d loops built to qualify were fast-forwarded"
              % (len(debug), qa, q))
        windows = {}
        for r in results:
            f = r["flags"]
            w = f[f.index("--fast-forward-window") + 1] if "--fast-forward-window" in f else "-"
            windows[w] = windows.get(w, 0) + 1
        print("  windows: %s" % ", ".join("%s %d" % kv for kv in sorted(windows.items())))
    print("  passed %d, failed %d (seeds by category: %s)" % (
        len(results) - failed, failed, ", ".join("%s %d" % kv for kv in by_cat.items())))
    return failed


def main(argv=None):
    opts = parse_args(argv)
    if shutil.which(opts.glslang) is None and not os.access(opts.glslang, os.X_OK):
        print("error: no glslangValidator (%s)" % opts.glslang, file=sys.stderr)
        return EXIT_ERROR
    missing = pass_missing(opts.spirv_conv)
    if missing and not opts.generator_only:
        print("SKIP: %s (the pass of issue 44 is not built)" % missing)
        return EXIT_SKIP
    opts.can_run = bool(opts.spirv_conv) and sim_tools.simulator_missing(opts.spirv_conv) is None
    if not opts.generator_only:
        if shutil.which(opts.spirv_val) is None and not os.access(opts.spirv_val, os.X_OK):
            print("error: no spirv-val (%s)" % opts.spirv_val, file=sys.stderr)
            return EXIT_ERROR
    elif not opts.can_run:
        print("note: no spirv-conv to run the inputs: only compiling them")
    start = time.time()
    seeds = list(range(opts.first_seed, opts.first_seed + opts.count))
    results = []
    with ProcessPoolExecutor(max_workers=opts.jobs) as pool:
        for res in pool.map(check_seed, seeds, [opts] * len(seeds), chunksize=2):
            results.append(res)
            for fl in res["failures"]:
                print("FAIL seed %d [%s]: %s" % (res["seed"], fl["category"], fl["message"]))
                print("  files: %s" % os.path.join(opts.work_dir, "seed-%d" % res["seed"]))
                print("  reproduce:")
                for c in fl["commands"]:
                    print("    " + c)
                sys.stdout.flush()
    failed = summarize(opts, seeds, results, time.time() - start)
    return 1 if failed else 0


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spirv-conv", default=None,
                    help="the spirv-conv binary (required unless --generator-only)")
    ap.add_argument("--spirv-val", default=shutil.which("spirv-val") or "spirv-val")
    ap.add_argument("--glslang", default=shutil.which("glslangValidator") or "glslangValidator")
    ap.add_argument("--opt-args", default=None,
                    help="what follows `spirv-conv opt INPUT` instead of the default "
                         "--fast-forward-loops --fast-forward-loops-everywhere "
                         "[--fast-forward-window W] (--report and -o are always added)")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--work-dir", default=None)
    ap.add_argument("--keep", action="store_true", help="keep the files of passing seeds")
    ap.add_argument("--generator-only", action="store_true",
                    help="only compile the shaders and check the input runs")
    opts = ap.parse_args(argv)
    if opts.spirv_conv is None and not opts.generator_only:
        ap.error("--spirv-conv is required (unless --generator-only)")
    if opts.count < 1 or opts.jobs < 1:
        ap.error("--count and --jobs must be positive")
    if opts.spirv_conv:
        opts.spirv_conv = os.path.abspath(opts.spirv_conv)
    if opts.work_dir is None:
        opts.work_dir = tempfile.mkdtemp(prefix="fast-forward-")
    opts.work_dir = os.path.abspath(opts.work_dir)
    os.makedirs(opts.work_dir, exist_ok=True)
    return opts


if __name__ == "__main__":
    sys.exit(main())
