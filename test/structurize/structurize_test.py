#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Verification of `spirv-conv opt --structurize`, CTest
`structurize.random` and `structurize.shaders` (docs/structurize-tests.md).

  structurize_test.py random  --spirv-conv PATH [--count 1000] [--first-seed 1] [-j 2]
                              [--work-dir DIR] [--growth-json FILE] [--generator-only]
  structurize_test.py shaders --spirv-conv PATH --shaders DIR [--glslang PATH] [--work-dir DIR]

random: for each seed, test/differential/gen_cfg.py's CFG as an executable
GLCompute shader without merge instructions (gen_cfg.py --shader). The
generator is checked first: spirv-val may only reject the module for a rule of
structured control flow (classify_spirv_val), and the Kernel twin of the same
function body (gen_cfg.py --shader-kernel-twin) must validate completely. The
module is run with `spirv-conv run --skip-validation --model ipdom`, the
expected result; `spirv-conv opt gen.spvasm --structurize -o out.spv` must
give a module the real spirv-val accepts (--target-env vulkan1.1) that
computes the same output buffer word for word under --model maximal and
--model ipdom, for 3 seeded argument sets per CFG (1 or 2 workgroups of 64,
subgroups of 8 or 32). Odd seeds structurize the module declaring
MaximallyReconvergesKHR: its output must also pass `spirv-conv validate` (the
extension's rules) and, without the mode, the Debian spirv-val.

shaders: every compute shader of --shaders with a vk_runner job (as
test/reconvergence/crosscheck_test.py finds them) loses its OpSelectionMerge
and OpLoopMerge lines; the structurized copy must validate and compute what the
stripped copy computes under ipdom and the original under maximal. Shaders
whose original results differ between maximal and ipdom are skipped.

Exit: 0 no failure, 1 failures, 2 usage or tool error, 77 skipped because
`spirv-conv opt --structurize` does not exist (with --generator-only the
generator checks and the input runs still run).
"""

import argparse
import array
import json
import os
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "test", "differential"))
sys.path.insert(0, os.path.join(REPO, "test", "reconvergence"))
import gen_cfg  # noqa: E402
import sim_tools  # noqa: E402

EXIT_SKIP = 77
LOCAL_SIZE = 64
ARG_SETS = 3
MAX_INSTRUCTIONS = 20000000   # per run; fuel ends every run long before this
CATEGORIES = ("generator error", "structurize error", "invalid output", "output mismatch",
              "run error")


# ---------------------------------------------------------------------------
# spirv-val messages

# The messages of SPIRV-Tools 2023.1's structured-control-flow checks
# (source/val/validate_cfg.cpp: ValidateStructuredSelections,
# StructuredControlFlowChecks, ValidateLoopMerge, the switch case checks and
# the nesting limit). Everything else is some other rule.
STRUCTURED_PATTERNS = (
    r"Selection must be structured",
    r"OpSwitch must be preceded by an OpSelectionMerge",
    r"Back-edges \(.*\) can only be formed between a block and a loop header",
    r"Loop header .* is targeted by \d+ back-edge blocks but the standard requires exactly one",
    r"is already a merge block for another header",
    r"The .* construct with the .* (does not (strictly )?structurally dominate|"
    r"is not structurally post dominated by)",
    r"exits the .* construct headed by .*, but not via a structured exit",
    r"branches to the .* construct, but not to the .* <ID>",
    r"Header block .* is contained in the .* construct headed by",
    r"Case construct that targets",
    r"Switch header .* does not structurally dominate its case construct",
    r"Multiple case constructs have branches to the case construct",
    r"Maximum Control Flow nesting depth exceeded",
)
_STRUCTURED = re.compile("|".join("(?:%s)" % p for p in STRUCTURED_PATTERNS))


def classify_spirv_val(returncode, output):
    """'valid', 'structured' (rejected only for a structured control-flow rule,
    as far as spirv-val 2023.1 tells: it stops at the first error, and the
    structured checks run after every per-instruction check), or 'other'."""
    if returncode == 0:
        return "valid"
    first = next((line for line in output.splitlines() if line.startswith("error")), output)
    return "structured" if _STRUCTURED.search(first) else "other"


# ---------------------------------------------------------------------------
# Counting blocks and instructions

NON_INSTRUCTIONS = {"OpLabel", "OpLine", "OpNoLine", "OpName", "OpFunctionParameter"}
_OPCODES = {5: "OpName", 8: "OpLine", 317: "OpNoLine", 248: "OpLabel", 54: "OpFunction",
            55: "OpFunctionParameter", 56: "OpFunctionEnd"}


def count_text(spvasm):
    """[{'blocks', 'insts'}] per function of SPIR-V assembly: blocks are
    OpLabels, instructions everything between OpFunction and OpFunctionEnd
    except OpLabel, OpLine, OpNoLine, OpName and the parameters."""
    funcs, cur = [], None
    for line in spvasm.splitlines():
        line = line.split(";", 1)[0].strip()
        if not line:
            continue
        op = line.split("=", 1)[1].split()[0] if re.match(r"^%\S+\s*=", line) else line.split()[0]
        if op == "OpFunction":
            cur = {"blocks": 0, "insts": 0}
        elif op == "OpFunctionEnd":
            funcs.append(cur)
            cur = None
        elif cur is not None:
            cur["blocks"] += op == "OpLabel"
            cur["insts"] += op not in NON_INSTRUCTIONS
    return funcs


def count_binary(path):
    """count_text for a SPIR-V binary (either byte order)."""
    words = array.array("I")
    with open(path, "rb") as f:
        words.frombytes(f.read())
    if words and words[0] != 0x07230203:
        words.byteswap()
    funcs, cur, i = [], None, 5
    while i < len(words):
        op, n = words[i] & 0xFFFF, words[i] >> 16
        name = _OPCODES.get(op)
        if name == "OpFunction":
            cur = {"blocks": 0, "insts": 0}
        elif name == "OpFunctionEnd":
            funcs.append(cur)
            cur = None
        elif cur is not None:
            cur["blocks"] += name == "OpLabel"
            cur["insts"] += name not in NON_INSTRUCTIONS
        i += max(n, 1)
    return funcs


def percentile(values, q):
    values = sorted(values)
    if not values:
        return None
    k = min(len(values) - 1, max(0, int(round(q * (len(values) - 1)))))
    return values[k]


def growth_summary(records):
    """records: [{'before': {...}, 'after': {...}}] -> medians / p95 of the ratios."""
    out = {}
    for key in ("blocks", "insts"):
        ratios = [r["after"][key] / r["before"][key] for r in records if r["before"][key]]
        out[key] = {"median": statistics.median(ratios) if ratios else None,
                    "p95": percentile(ratios, 0.95), "max": max(ratios) if ratios else None,
                    "count": len(ratios)}
    return out


# ---------------------------------------------------------------------------
# Tools

class Tools:
    def __init__(self, args):
        self.spirv_conv = os.path.abspath(args.spirv_conv)
        self.spirv_val = args.spirv_val
        self.spirv_as = args.spirv_as
        self.opt_args = shlex.split(args.opt_args)

    def run(self, cmd, timeout=120):
        # spirv-conv may be relinked while a long run goes on: wait for it
        # (up to 10 minutes) instead of failing every remaining seed.
        for _ in range(120):
            try:
                return sim_tools.run_command(cmd, timeout=timeout)
            except OSError:
                time.sleep(5)
        return sim_tools.run_command(cmd, timeout=timeout)

    def structurize_cmd(self, src, out):
        return [self.spirv_conv, "opt", src] + self.opt_args + ["-o", out]

    def validate_output(self, spv, work_dir, maximal):
        """(problem or None, commands run). The Debian spirv-val checks the
        output; a |maximal| one, declaring MaximallyReconvergesKHR (which that
        spirv-val cannot parse), is checked by `spirv-conv validate` (spirv-val with the
        mode known, plus the extension's rules) and, without the mode line,
        by the Debian spirv-val."""
        commands = []
        if not maximal:
            val = [self.spirv_val, "--target-env", "vulkan1.1", spv]
            code, out, err = self.run(val)
            return (err + out if code != 0 else None), [val]
        own = [self.spirv_conv, "validate", "-q", "--target-env", "vulkan1.1", spv]
        commands.append(own)
        code, out, err = self.run(own)
        if code != 0:
            return err + out, commands
        dis = [self.spirv_conv, "dis", spv]
        commands.append(dis)
        code, text, err = self.run(dis)
        if code != 0:
            return "spirv-conv dis: " + err, commands
        stripped = os.path.join(work_dir, "out-without-mode.spvasm")
        with open(stripped, "w") as fh:
            fh.write("".join(line + "\n" for line in text.splitlines()
                             if "MaximallyReconvergesKHR" not in line
                             and "SPV_KHR_maximal_reconvergence" not in line))
        binary = stripped[:-len(".spvasm")] + ".spv"
        for cmd in ([self.spirv_as, "--target-env", "spv1.3", stripped, "-o", binary],
                    [self.spirv_val, "--target-env", "vulkan1.1", binary]):
            commands.append(cmd)
            code, out, err = self.run(cmd)
            if code != 0:
                return err + out, commands
        return None, commands


def with_maximal_reconvergence(spvasm):
    """|spvasm| (one GLCompute entry point %main) declaring the mode."""
    lines = spvasm.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("OpMemoryModel"))
    lines.insert(at, 'OpExtension "SPV_KHR_maximal_reconvergence"')
    at = next(i for i, line in enumerate(lines) if line.startswith("OpExecutionMode %main"))
    lines.insert(at + 1, "OpExecutionMode %main MaximallyReconvergesKHR")
    return "\n".join(lines) + "\n"


def structurizer_missing(spirv_conv):
    """None when `spirv-conv opt --structurize` exists, else why not."""
    if not os.access(spirv_conv, os.X_OK):
        return "%s is not an executable" % spirv_conv
    code, out, err = sim_tools.run_command([spirv_conv, "opt", "--help"], timeout=30)
    if code != 0 or "--structurize" not in out:
        return "`spirv-conv opt --help` does not list --structurize"
    return None


def quote(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


# ---------------------------------------------------------------------------
# structurize.random

def arg_sets(seed):
    """ARG_SETS (args, workgroups, subgroup size) per seed, reproducibly."""
    r = random.Random(seed * 1000003 + 12345)
    sets = []
    for _ in range(ARG_SETS):
        def value():
            x = r.random()
            if x < 0.5:
                return r.randint(0, 16)
            if x < 0.8:
                return r.randint(0, 100)
            return r.getrandbits(32)
        args = [value(), value(), value(), r.randint(0, 200)]   # a, b, n, fuel
        sets.append((args, r.choice((1, 2)), r.choice((8, 32))))
    return sets


def check_seed(seed, opts):
    """Everything about one seed; returns a result dict (picklable)."""
    tools = Tools(opts)
    d = os.path.join(opts.work_dir, "seed-%d" % seed)
    os.makedirs(d, exist_ok=True)
    res = {"seed": seed, "failures": [], "limit_skips": 0, "validity": None,
           "runs_ok": 0, "runs": 0}

    def fail(category, message, commands=()):
        res["failures"].append({"category": category, "message": message.strip()[:3000],
                                "commands": [quote(c) for c in commands]})

    f = gen_cfg.generate(seed, "f")
    gen = os.path.join(d, "gen.spvasm")
    twin = os.path.join(d, "twin.spvasm")
    with open(gen, "w") as fh:
        fh.write(gen_cfg.emit_shader(f, seed, LOCAL_SIZE))
    with open(twin, "w") as fh:
        fh.write(gen_cfg.emit_shader(f, seed, LOCAL_SIZE, kernel_twin=True))
    gen_cmd = [sys.executable, os.path.join(REPO, "test", "differential", "gen_cfg.py"),
               "--seed", str(seed), "--shader", gen]
    with open(gen) as fh:
        res["before"] = count_text(fh.read())[0]

    # The generator: only structured-CFG errors in the shader, none in the twin.
    for path, env, want in ((gen, "vulkan1.1", ("structured", "valid")),
                            (twin, "spv1.2", ("valid",))):
        binary = path[:-len(".spvasm")] + ".spv"
        asm = [tools.spirv_as, "--target-env", "spv1.3" if env == "vulkan1.1" else env,
               path, "-o", binary]
        code, out, err = tools.run(asm)
        if code != 0:
            fail("generator error", "spirv-as: " + err + out, [gen_cmd, asm])
            return res
        val = [tools.spirv_val, "--target-env", env, binary]
        code, out, err = tools.run(val)
        verdict = classify_spirv_val(code, err + out)
        if path == gen:
            res["validity"] = verdict
            res["validity_message"] = (err + out).strip().splitlines()[:1]
        if verdict not in want:
            fail("generator error", "spirv-val (%s): %s" % (verdict, err + out), [gen_cmd, asm, val])
            return res

    # Expected results: the input under ipdom.
    expected = []
    for k, (args, groups, subgroup) in enumerate(arg_sets(seed)):
        args_path = os.path.join(d, "args%d.json" % k)
        size_path = os.path.join(d, "out-size%d.json" % k)
        with open(args_path, "w") as fh:
            json.dump({"u32": args}, fh)
        with open(size_path, "w") as fh:
            json.dump({"size": 4 * gen_cfg.OUT_WORDS * LOCAL_SIZE * groups}, fh)
        common = ["--workgroups", str(groups), "--subgroup-size", str(subgroup),
                  "--max-instructions", str(MAX_INSTRUCTIONS),
                  "--buffer", "0:0=" + args_path, "--buffer", "0:1=" + size_path]
        dump = os.path.join(d, "in%d.json" % k)
        cmd = [tools.spirv_conv, "run", "--skip-validation", gen, "--model", "ipdom"] + common + [
            "--dump", "0:1=" + dump]
        res["runs"] += 1
        code, out, err = tools.run(cmd)
        if code != 0:
            if "instruction" in err and "limit" in err:
                res["limit_skips"] += 1
                continue
            fail("run error", "input run exits %s: %s" % (code, err), [gen_cmd, cmd])
            continue
        with open(dump) as fh:
            words = json.load(fh)["u32"]
        res["runs_ok"] += 1
        expected.append((k, common, words, cmd))

    if opts.generator_only:
        return res

    # Odd seeds declare MaximallyReconvergesKHR: the output must also keep
    # SPV_KHR_maximal_reconvergence's rules (docs/maximal-reconvergence.md).
    src = gen
    if seed % 2 == 1:
        src = os.path.join(d, "gen-maximal.spvasm")
        with open(gen) as fh, open(src, "w") as out_fh:
            out_fh.write(with_maximal_reconvergence(fh.read()))
    out_spv = os.path.join(d, "out.spv")
    scmd = tools.structurize_cmd(src, out_spv)
    code, out, err = tools.run(scmd)
    if code != 0 or not os.path.exists(out_spv):
        fail("structurize error", "exit %s: %s%s" % (code, err, out), [gen_cmd, scmd])
        return res
    problem, commands = tools.validate_output(out_spv, d, maximal=src != gen)
    if problem:
        fail("invalid output", problem, [gen_cmd, scmd] + commands)
        return res
    after = count_binary(out_spv)
    res["after"] = after[0] if after else None

    for k, common, words, in_cmd in expected:
        for model in ("maximal", "ipdom"):
            dump = os.path.join(d, "out%d-%s.json" % (k, model))
            cmd = [tools.spirv_conv, "run", out_spv, "--model", model] + common + [
                "--dump", "0:1=" + dump]
            code, out, err = tools.run(cmd)
            if code != 0:
                fail("run error", "structurized run (%s) exits %s: %s" % (model, code, err),
                     [gen_cmd, scmd, in_cmd, cmd])
                continue
            with open(dump) as fh:
                got = json.load(fh)["u32"]
            diffs = sim_tools.word_differences(words, got)
            if diffs:
                lines = ["word %d (invocation %d, word %d): input %s, structurized %s"
                         % (i, i // gen_cfg.OUT_WORDS, i % gen_cfg.OUT_WORDS, e, a)
                         for i, e, a in diffs[:6]]
                fail("output mismatch", "--model %s, argument set %d: %d words differ\n  %s"
                     % (model, k, len(diffs), "\n  ".join(lines)),
                     [gen_cmd, scmd, in_cmd, cmd])
    if not res["failures"] and not opts.keep:
        shutil.rmtree(d, ignore_errors=True)
    return res


def main_random(opts):
    missing = structurizer_missing(opts.spirv_conv)
    if missing and not opts.generator_only:
        print("SKIP: %s (the structurizer of issue 8 is not built yet)" % missing)
        return EXIT_SKIP
    start = time.time()
    seeds = list(range(opts.first_seed, opts.first_seed + opts.count))
    results = []
    with ProcessPoolExecutor(max_workers=opts.jobs) as pool:
        for res in pool.map(check_seed, seeds, [opts] * len(seeds), chunksize=4):
            results.append(res)
            for fl in res["failures"]:
                print("FAIL seed %d [%s]: %s" % (res["seed"], fl["category"], fl["message"]))
                print("  reproduce:")
                for c in fl["commands"]:
                    print("    " + c)
                sys.stdout.flush()
    elapsed = time.time() - start

    by_cat, failed_seeds = sim_tools.failure_counts(results, CATEGORIES)
    validity = {}
    for res in results:
        validity[res["validity"]] = validity.get(res["validity"], 0) + 1
    messages = {}
    for res in results:
        if res["validity"] == "structured" and res.get("validity_message"):
            kind = re.sub(r"'[^']*'|\d+|%\w+", "_", res["validity_message"][0])[:90]
            messages[kind] = messages.get(kind, 0) + 1
    runs = sum(r["runs"] for r in results)
    runs_ok = sum(r["runs_ok"] for r in results)
    limits = sum(r["limit_skips"] for r in results)
    print("structurize.random: seeds %d..%d, %.0f s, -j %d"
          % (seeds[0], seeds[-1], elapsed, opts.jobs))
    print("  generator: spirv-val verdicts %s" % ", ".join(
        "%s %d" % (k, v) for k, v in sorted(validity.items(), key=str)))
    for kind, count in sorted(messages.items(), key=lambda kv: -kv[1]):
        print("    %5d  %s" % (count, kind))
    print("  input runs (--model ipdom): %d of %d completed, %d hit the instruction limit (skipped)"
          % (runs_ok, runs, limits))
    print("  passed %d, failed %d (seeds by category: %s)" % (
        len(results) - failed_seeds, failed_seeds,
        ", ".join("%s %d" % kv for kv in by_cat.items())))
    growth = [{"seed": r["seed"], "before": r["before"], "after": r["after"]}
              for r in results if r.get("after") and r.get("before")]
    if growth:
        g = growth_summary(growth)
        print("  growth after/before over %d functions: blocks median %.2f p95 %.2f max %.2f; "
              "instructions median %.2f p95 %.2f max %.2f"
              % (len(growth), g["blocks"]["median"], g["blocks"]["p95"], g["blocks"]["max"],
                 g["insts"]["median"], g["insts"]["p95"], g["insts"]["max"]))
    if opts.growth_json:
        with open(opts.growth_json, "w") as fh:
            json.dump({"tool": "spirv-conv opt --structurize", "first_seed": seeds[0],
                       "count": len(seeds), "functions": growth,
                       "failures": {c: n for c, n in by_cat.items()},
                       "summary": growth_summary(growth) if growth else None}, fh, indent=1)
    return 1 if failed_seeds else 0


# ---------------------------------------------------------------------------
# structurize.shaders

def strip_merges(spvasm):
    return "".join(line for line in spvasm.splitlines(True)
                   if not re.match(r"^\s*(OpSelectionMerge|OpLoopMerge)\b", line))


def run_job(tools, spv, job, job_path, model, subgroup, skip_validation=False):
    with open(job_path, "w") as fh:
        json.dump(job, fh)
    cmd = [tools.spirv_conv, "run", spv, "--job", job_path, "--subgroup-size", str(subgroup),
           "--model", model]
    if skip_validation:
        cmd.append("--skip-validation")
    code, out, err = tools.run(cmd)
    if code != 0:
        raise sim_tools.ToolFailure("`%s` exits %s: %s" % (quote(cmd), code, err.strip()))
    return json.loads(out), cmd


def buffers_differ(a, b):
    lines = []
    for buf in a.get("buffers", []):
        key = (buf["set"], buf["binding"], buf.get("element", 0))
        other = sim_tools.result_buffer(b, *key)
        diffs = sim_tools.word_differences(buf["u32"], other or [])
        if diffs:
            lines.append("buffer %d:%d[%d]: %d words differ, first %s"
                         % (key + (len(diffs), diffs[0])))
    return lines


def divergent_branches(tools, spv):
    code, out, _ = tools.run([tools.spirv_conv, "uniformity", spv, "--format", "json"])
    if code != 0:
        return None
    data = json.loads(out)
    return sum(1 for fn in data["functions"] for b in fn["blocks"] if b.get("divergent_branch"))


def main_shaders(opts):
    missing = structurizer_missing(opts.spirv_conv)
    if missing:
        print("SKIP: %s (the structurizer of issue 8 is not built yet)" % missing)
        return EXIT_SKIP
    tools = Tools(opts)
    os.makedirs(opts.work_dir, exist_ok=True)
    names = sorted(f[:-5] for f in os.listdir(opts.shaders)
                   if f.endswith(".json") and os.path.exists(os.path.join(opts.shaders, f[:-5] + ".comp")))
    failures, skipped, table = [], [], []
    for name in names:
        with open(os.path.join(opts.shaders, name + ".json")) as fh:
            job = json.load(fh)
        w = lambda suffix: os.path.join(opts.work_dir, name + suffix)  # noqa: E731
        try:
            orig = sim_tools.compile_glsl(opts.glslang, os.path.join(opts.shaders, name + ".comp"),
                                          w(".spv"))
            code, dis, err = tools.run([tools.spirv_conv, "dis", orig])
            if code != 0:
                raise sim_tools.ToolFailure("spirv-conv dis: " + err)
            stripped = w(".stripped.spvasm")
            with open(stripped, "w") as fh:
                fh.write(strip_merges(dis))
            problems = []
            for subgroup in (8, 32):
                ref_max, _ = run_job(tools, orig, job, w(".job.json"), "maximal", subgroup)
                ref_ipdom, _ = run_job(tools, orig, job, w(".job.json"), "ipdom", subgroup)
                if buffers_differ(ref_max, ref_ipdom):
                    skipped.append("%s: results depend on the reconvergence model "
                                   "(maximal vs ipdom differ at subgroup size %d)" % (name, subgroup))
                    problems = None
                    break
                base, base_cmd = run_job(tools, stripped, job, w(".job.json"), "ipdom", subgroup,
                                         skip_validation=True)
                if buffers_differ(ref_max, base):
                    problems.append("the stripped module under ipdom differs from the original "
                                    "(a harness problem): " + "; ".join(buffers_differ(ref_max, base)))
                    continue
                if subgroup == 8:
                    out_spv = w(".structurized.spv")
                    scmd = tools.structurize_cmd(stripped, out_spv)
                    code, out, err = tools.run(scmd)
                    if code != 0:
                        problems.append("structurize error: `%s` exits %s: %s"
                                        % (quote(scmd), code, err.strip()))
                        break
                    vcmd = [tools.spirv_val, "--target-env", "vulkan1.1", out_spv]
                    code, out, err = tools.run(vcmd)
                    if code != 0:
                        problems.append("invalid output: `%s`: %s" % (quote(vcmd), (err + out).strip()))
                        break
                got, got_cmd = run_job(tools, out_spv, job, w(".job.json"), "maximal", subgroup)
                diff = buffers_differ(ref_max, got)
                if diff:
                    problems.append("output mismatch at subgroup size %d: `%s`: %s"
                                    % (subgroup, quote(got_cmd), "; ".join(diff)))
            if problems is None:
                continue
            if problems:
                failures.append((name, problems))
            before = count_binary(orig)
            after = count_binary(w(".structurized.spv")) if os.path.exists(
                w(".structurized.spv")) else []
            table.append((name, divergent_branches(tools, orig), sum(f["blocks"] for f in before),
                          sum(f["blocks"] for f in after) if after else None,
                          sum(f["insts"] for f in before),
                          sum(f["insts"] for f in after) if after else None))
        except (sim_tools.ToolFailure, OSError, ValueError) as e:
            failures.append((name, ["run error: %s" % e]))
    for name, problems in failures:
        for p in problems:
            print("FAIL %s: %s" % (name, p))
    for s in skipped:
        print("SKIP %s" % s)
    print("\n| shader | divergent branches | blocks before | blocks after | insts before | "
          "insts after | block count kept |")
    print("|---|---|---|---|---|---|---|")
    for name, div, bb, ba, ib, ia in table:
        kept = "—" if ba is None else ("yes" if ba == bb else "no")
        if div == 0 and ba is not None and ba != bb:
            kept = "**no (uniform branches only)**"
        print("| %s | %s | %s | %s | %s | %s | %s |" % (name, div, bb, ba, ib, ia, kept))
    print("\nstructurize.shaders: %d shaders, %d checked, %d skipped, %d failed"
          % (len(names), len(table), len(skipped), len(failures)))
    return 1 if failures else 0


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("random", "shaders"))
    ap.add_argument("--spirv-conv", required=True)
    ap.add_argument("--spirv-val", default=shutil.which("spirv-val") or "spirv-val")
    ap.add_argument("--spirv-as", default=shutil.which("spirv-as") or "spirv-as")
    ap.add_argument("--glslang", default=shutil.which("glslangValidator") or "glslangValidator")
    ap.add_argument("--opt-args", default="--structurize",
                    help="what follows `spirv-conv opt INPUT` (default: --structurize)")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--work-dir", default=None)
    ap.add_argument("--keep", action="store_true", help="keep the files of passing seeds")
    ap.add_argument("--growth-json", help="write the per-function growth here")
    ap.add_argument("--generator-only", action="store_true",
                    help="random: only check the generator and run the inputs")
    ap.add_argument("--shaders", default=os.path.join(REPO, "shaders", "sim"))
    opts = ap.parse_args(argv)
    if opts.work_dir is None:
        opts.work_dir = tempfile.mkdtemp(prefix="structurize-")
    opts.work_dir = os.path.abspath(opts.work_dir)
    os.makedirs(opts.work_dir, exist_ok=True)
    return opts


def main(argv=None):
    opts = parse_args(argv)
    return main_random(opts) if opts.mode == "random" else main_shaders(opts)


if __name__ == "__main__":
    sys.exit(main())
