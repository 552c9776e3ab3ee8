#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Code growth of structurization: LLVM 19's structurizer pipeline against
`spirv-conv opt --structurize`, on test/differential/gen_cfg.py's random CFGs;
writes the "Structurizer" section of docs/performance.md
(docs/structurize-tests.md explains the method).

  bench/structurize_bench.py [--count 1000] [--first-seed 1] [-j 2]
                             [--growth-json build/release/test/structurize/growth.json]
                             [--no-doc]

LLVM side, per seed (LLVM 19's opt, /usr/lib/llvm-19/bin/opt or $LLVM19_OPT):
  * the AMDGPU kernel of gen_cfg.py --llvm through
      -mtriple=amdgcn-- -passes='lower-switch,mergereturn,fix-irreducible,
                                 unify-loop-exits,structurizecfg'
    (lower-switch and mergereturn first: without them the pipeline aborts
    or miscompiles many CFGs with switches or early returns);
    blocks and instructions of @f before and after, opt failures (crash,
    abort, verifier error), and what is left that SPIR-V's structured rules
    forbid: loop headers with several back edges, irreducible cycles;
  * the same program as the shader of structurize.random (gen_cfg.py
    --llvm-host: the fuel, path hash and return values, tid and the arguments
    as parameters) through the same pipeline, and through the pipeline without
    fix-irreducible and unify-loop-exits (which structurizecfg needs, as
    LLVM's StructurizeCFG/workarounds tests show): every version is run with
    lli-19 on the harness's 3 argument sets x 64 invocations and must print
    what the unstructured function prints. A difference is a miscompile.
Our side: the growth JSON that `structurize_test.py random --growth-json`
writes (the ctest run leaves it in build/release/test/structurize/growth.json).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "test", "differential"))
sys.path.insert(0, os.path.join(REPO, "test", "structurize"))
import run  # noqa: E402  (write_doc, machine facts)
import gen_cfg  # noqa: E402
import structurize_test as st  # noqa: E402  (argument sets, growth summary)

OPT = os.environ.get("LLVM19_OPT", "/usr/lib/llvm-19/bin/opt")
LLI = os.environ.get("LLVM19_LLI", "/usr/lib/llvm-19/bin/lli")
FULL = "lower-switch,mergereturn,fix-irreducible,unify-loop-exits,structurizecfg"
BARE = "lower-switch,mergereturn,structurizecfg"
BEGIN = "<!-- BEGIN STRUCTURIZE RESULTS -->"
END = "<!-- END STRUCTURIZE RESULTS -->"
INVOCATIONS = 64


# ---------------------------------------------------------------------------
# LLVM IR: counting, and the CFG of one function

def function_body(ll, name="f"):
    m = re.search(r"^define [^\n]*@%s\(.*?^}" % re.escape(name), ll, re.S | re.M)
    return m.group(0) if m else None


def ir_cfg(body):
    """(blocks in order, successors, instruction count) of one function's text."""
    blocks, succ, insts, cur = [], {}, 0, None
    lines = body.splitlines()[1:-1]
    i = 0
    text = "\n".join(lines)
    # Join multi-line switches: "switch ... [\n    i32 0, label %x\n  ]".
    text = re.sub(r"\[\s*\n(.*?)\n\s*\]", lambda m: "[ " + " ".join(
        m.group(1).split()) + " ]", text, flags=re.S)
    for line in text.splitlines():
        s = line.split(";", 1)[0].rstrip()
        if not s.strip():
            continue
        m = re.match(r"^([\w.$-]+|\"[^\"]+\"):", s)
        if m:
            cur = m.group(1)
            blocks.append(cur)
            succ[cur] = []
            continue
        if cur is None:          # an unnamed entry block
            cur = "%entry"
            blocks.append(cur)
            succ[cur] = []
        insts += 1
        t = s.strip()
        if t.startswith(("br ", "switch ")):
            succ[cur] += [x for x in re.findall(r"label %([\w.$-]+)", t)]
    del i
    return blocks, succ, insts


def shape_problems(blocks, succ):
    """(loop headers with more than one back edge, irreducible cycles) of a CFG."""
    entry = blocks[0]
    succ = {b: [s for s in succ.get(b, []) if s in succ] for b in blocks}
    dom = gen_cfg.dominators(entry, succ)
    back = {}
    for b in dom:
        for s in succ[b]:
            if s in dom[b]:
                back[s] = back.get(s, 0) + 1
    multi = sum(1 for c in back.values() if c > 1)
    irreducible = 0
    reach = set(dom)
    for comp in gen_cfg.cyclic_sccs([b for b in blocks if b in reach], succ):
        entries = {s for b in reach if b not in comp for s in succ[b] if s in comp}
        if entry in comp:
            entries.add(entry)
        if len(entries) > 1:
            irreducible += 1
    return multi, irreducible


def opt(passes, src, dst, triple=None):
    cmd = [OPT] + (["-mtriple=" + triple] if triple else []) + ["-passes=" + passes, "-S", src,
                                                                "-o", dst]
    code, out, err = st.sim_tools.run_command(cmd, timeout=120)
    if code is None:
        return "timeout", cmd, err
    if code != 0:
        kind = "verifier error" if "Broken module" in err or "Broken function" in err else (
            "crash" if code < 0 or "Stack dump" in err else "error")
        # The first pass after which the module is broken or opt dies.
        steps = passes.split(",")
        for i in range(1, len(steps) + 1):
            prefix = ",".join(steps[:i])
            c, _, _ = st.sim_tools.run_command(
                [OPT] + (["-mtriple=" + triple] if triple else []) +
                ["-passes=" + prefix + ",verify", "-disable-output", src], timeout=120)
            if c != 0:
                kind += " in " + steps[i - 1]
                break
        message = next((line for line in err.splitlines()
                        if line.strip() and not line.startswith((" #", "Stack dump", "PLEASE",
                                                                 "0.", "1.", "2."))), "")
        return kind, cmd, message + "\n" + err
    return None, cmd, ""


def driver(seed):
    """main(): @f on the harness's argument sets for 64 invocations, printed."""
    lines = ['@fmt = private constant [4 x i8] c"%u\\0A\\00"', "declare i32 @printf(ptr, ...)",
             "declare i32 @f(i32, i32, i32, i32, i32)", "define i32 @main() {", "entry:"]
    prev = "entry"
    for k, (args, _, _) in enumerate(st.arg_sets(seed)):
        a, b, n, fuel = args
        lines += ["  br label %%loop%d" % k, "loop%d:" % k,
                  "  %%i%d = phi i32 [ 0, %%%s ], [ %%next%d, %%loop%d ]" % (k, prev, k, k),
                  "  %%t%d = urem i32 %%i%d, %d" % (k, k, gen_cfg.TID_MODULUS),
                  "  %%r%d = call i32 @f(i32 %d, i32 %d, i32 %d, i32 %%t%d, i32 %d)"
                  % (k, a - (1 << 32) if a >= 1 << 31 else a, b - (1 << 32) if b >= 1 << 31 else b,
                     n - (1 << 32) if n >= 1 << 31 else n, k, fuel),
                  "  %%p%d = call i32 (ptr, ...) @printf(ptr @fmt, i32 %%r%d)" % (k, k),
                  "  %%next%d = add i32 %%i%d, 1" % (k, k),
                  "  %%done%d = icmp eq i32 %%next%d, %d" % (k, k, INVOCATIONS),
                  "  br i1 %%done%d, label %%after%d, label %%loop%d" % (k, k, k),
                  "after%d:" % k]
        prev = "after%d" % k
    lines += ["  ret i32 0", "}"]
    return "\n".join(lines) + "\n"


def lli(module, drv):
    cmd = [LLI, "--extra-module=" + module, drv]
    code, out, err = st.sim_tools.run_command(cmd, timeout=120)
    return code, out, err, cmd


def bench_seed(seed, work):
    d = os.path.join(work, "seed-%d" % seed)
    os.makedirs(d, exist_ok=True)
    f = gen_cfg.generate(seed, "f")
    res = {"seed": seed}
    # 1. The AMDGPU kernel: growth, failures, shape.
    kernel = os.path.join(d, "kernel.ll")
    with open(kernel, "w") as fh:
        fh.write(gen_cfg.emit_llvm([f]))
    blocks, succ, insts = ir_cfg(function_body(open(kernel).read()))
    res["kernel_before"] = {"blocks": len(blocks), "insts": insts}
    out = os.path.join(d, "kernel.full.ll")
    fail, cmd, err = opt(FULL, kernel, out, triple="amdgcn--")
    if fail:
        res["kernel_failure"] = {"kind": fail, "cmd": " ".join(cmd), "err": err[:600]}
    else:
        blocks, succ, insts = ir_cfg(function_body(open(out).read()))
        res["kernel_after"] = {"blocks": len(blocks), "insts": insts}
        res["kernel_shape"] = shape_problems(blocks, succ)
    # 2. The host program: growth and semantics.
    host = os.path.join(d, "host.ll")
    with open(host, "w") as fh:
        fh.write(gen_cfg.emit_llvm_host(f, seed))
    drv = os.path.join(d, "driver.ll")
    with open(drv, "w") as fh:
        fh.write(driver(seed))
    blocks, succ, insts = ir_cfg(function_body(open(host).read()))
    res["host_before"] = {"blocks": len(blocks), "insts": insts}
    code, want, err, ref_cmd = lli(host, drv)
    if code != 0:
        res["host_error"] = "lli on the input exits %s: %s" % (code, err[-400:])
        return res
    for label, passes in (("full", FULL), ("bare", BARE)):
        out = os.path.join(d, "host.%s.ll" % label)
        fail, cmd, err = opt(passes, host, out)
        if fail:
            res["host_%s_failure" % label] = {"kind": fail, "cmd": " ".join(cmd),
                                              "err": err[:600]}
            continue
        blocks, succ, insts = ir_cfg(function_body(open(out).read()))
        res["host_%s_after" % label] = {"blocks": len(blocks), "insts": insts}
        res["host_%s_shape" % label] = shape_problems(blocks, succ)
        code, got, err, cmd2 = lli(out, drv)
        if code != 0 or got != want:
            wl, gl = want.split(), got.split()
            first = next((i for i in range(min(len(wl), len(gl))) if wl[i] != gl[i]), None)
            res["host_%s_miscompile" % label] = {
                "exit": code, "differing": sum(1 for x, y in zip(wl, gl) if x != y)
                + abs(len(wl) - len(gl)),
                "first": None if first is None else (first // INVOCATIONS, first % INVOCATIONS),
                "cmds": [" ".join(cmd), " ".join(ref_cmd), " ".join(cmd2)],
                "err": err[-300:]}
    return res


def ratio_summary(pairs):
    recs = [{"before": b, "after": a} for b, a in pairs]
    return st.growth_summary(recs) if recs else None


def fmt_ratio(summary, key):
    if not summary or summary[key]["median"] is None:
        return "—"
    s = summary[key]
    return "%.2f / %.2f / %.2f" % (s["median"], s["p95"], s["max"])


def render(results, ours, args, elapsed):
    n = len(results)
    lines = ["Measured %s UTC with `bench/structurize_bench.py --count %d --first-seed %d` "
             "(%.0f s, %d jobs); LLVM %s." % (time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                                             args.count, args.first_seed, elapsed, args.jobs,
                                             llvm_version()), ""]
    k_pairs = [(r["kernel_before"], r["kernel_after"]) for r in results if "kernel_after" in r]
    h_pairs = {lab: [(r["host_before"], r["host_%s_after" % lab]) for r in results
                     if "host_%s_after" % lab in r] for lab in ("full", "bare")}
    ks = ratio_summary(k_pairs)
    lines += ["Growth after/before per function, median / p95 / max (blocks = basic blocks; "
              "instructions = everything in the body but labels, debug lines and names; for "
              "spirv-conv the merge instructions count):", "",
              "| structurizer | input | functions | blocks | instructions | failures |",
              "|---|---|---|---|---|---|"]

    def failures(key):
        kinds = {}
        for r in results:
            if key in r:
                kinds[r[key]["kind"]] = kinds.get(r[key]["kind"], 0) + 1
        return ", ".join("%d %s" % (v, k) for k, v in sorted(kinds.items())) or "0"

    lines.append("| LLVM 19 `%s` | gen_cfg --llvm (AMDGPU kernel, no instrumentation) | %d | %s | %s | %s |"
                 % (FULL, len(k_pairs), fmt_ratio(ks, "blocks"), fmt_ratio(ks, "insts"),
                    failures("kernel_failure")))
    for lab, passes in (("full", FULL), ("bare", BARE)):
        hs = ratio_summary(h_pairs[lab])
        lines.append("| LLVM 19 `%s` | gen_cfg --llvm-host (the shader's program: fuel, hash, "
                     "stores as return value) | %d | %s | %s | %s |"
                     % (passes, len(h_pairs[lab]), fmt_ratio(hs, "blocks"), fmt_ratio(hs, "insts"),
                        failures("host_%s_failure" % lab)))
    if ours:
        s = ours.get("summary")
        fails = ours.get("failures", {})
        lines.append("| spirv-conv `opt --structurize` | gen_cfg --shader (seeds %d..%d) | %d | %s | "
                     "%s | %s |" % (ours["first_seed"], ours["first_seed"] + ours["count"] - 1,
                                    len(ours["functions"]), fmt_ratio(s, "blocks"),
                                    fmt_ratio(s, "insts"),
                                    ", ".join("%d %s" % (v, k) for k, v in fails.items() if v)
                                    or "0"))
    else:
        lines.append("| spirv-conv `opt --structurize` | gen_cfg --shader | — | not measured: "
                     "no growth JSON (%s) | — | — |" % os.path.relpath(args.growth_json, REPO))
    lines.append("")
    # Shapes SPIR-V forbids.
    multi = sum(1 for r in results if r.get("kernel_shape", (0, 0))[0])
    irr = sum(1 for r in results if r.get("kernel_shape", (0, 0))[1])
    lines += ["What LLVM's output still has that SPIR-V's structured rules forbid (kernel, "
              "full pipeline): %d of %d functions with a loop header of several back edges, "
              "%d with an irreducible cycle." % (multi, len(k_pairs), irr), ""]
    # Miscompiles.
    lines.append("Semantics (lli-19, 3 argument sets x %d invocations per seed, against the "
                 "unstructured function):" % INVOCATIONS)
    lines.append("")
    for lab, passes in (("full", FULL), ("bare", BARE)):
        bad = [r for r in results if "host_%s_miscompile" % lab in r]
        ran = len(h_pairs[lab])
        seeds = ", ".join(str(r["seed"]) for r in bad[:25]) + (" …" if len(bad) > 25 else "")
        lines.append("- `%s`: %d of %d structurized functions compute something else%s"
                     % (passes, len(bad), ran, (": seeds " + seeds) if bad else ""))
    host_err = [r["seed"] for r in results if "host_error" in r]
    if host_err:
        lines.append("- the unstructured host function itself failed to run for seeds %s"
                     % ", ".join(map(str, host_err[:20])))
    lines += ["", "Reproduce a seed S: `bench/structurize_bench.py --count 1 --first-seed S "
              "--keep --no-doc` prints the opt and lli command lines of every difference."]
    return "\n".join(lines)


def llvm_version():
    out = subprocess.run([OPT, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"LLVM version (\S+)", out)
    return m.group(1) if m else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--growth-json", default=os.path.join(REPO, "build", "release", "test",
                                                          "structurize", "growth.json"))
    ap.add_argument("--work-dir")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--doc", default=os.path.join(REPO, "docs", "performance.md"))
    ap.add_argument("--no-doc", action="store_true")
    ap.add_argument("--json", help="write the per-seed results here")
    ap.add_argument("--reuse", help="render a --json file of an earlier run instead of running")
    args = ap.parse_args()
    work = os.path.abspath(args.work_dir or tempfile.mkdtemp(prefix="structurize-bench-"))
    os.makedirs(work, exist_ok=True)
    seeds = list(range(args.first_seed, args.first_seed + args.count))
    start = time.time()
    if args.reuse:
        with open(args.reuse) as fh:
            saved = json.load(fh)
        results, elapsed = saved["results"], saved["elapsed"]
        results = [r for r in results if r["seed"] in set(seeds)]
    else:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(bench_seed, seeds, [work] * len(seeds), chunksize=4))
        elapsed = time.time() - start
    for r in results:
        for key in ("kernel_failure", "host_full_failure", "host_bare_failure"):
            if key in r:
                print("seed %d %s: %s: `%s`\n    %s" % (r["seed"], key, r[key]["kind"],
                                                    r[key]["cmd"],
                                                    r[key]["err"].strip().splitlines()[:1]))
        for key in ("host_full_miscompile", "host_bare_miscompile"):
            if key in r:
                m = r[key]
                print("seed %d %s: %d of %d results differ (first: argument set %s, invocation %s)"
                      % (r["seed"], key, m["differing"], 3 * INVOCATIONS,
                         *(m["first"] or ("?", "?"))))
                for c in m["cmds"]:
                    print("    " + c)
    ours = None
    if os.path.exists(args.growth_json):
        with open(args.growth_json) as fh:
            ours = json.load(fh)
    section = render(results, ours, args, elapsed)
    print(section)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"elapsed": elapsed, "results": results}, fh, indent=1)
    if not args.no_doc:
        run.write_doc(args.doc, section, BEGIN, END, "Structurizer: code growth against LLVM 19")
    if not args.keep:
        import shutil
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
