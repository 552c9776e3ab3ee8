#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""spirv-conv check-motion against the real spirv-opt (docs/motion.md).

Reproductions: each GLSL shader below is compiled with glslangValidator, the
named spirv-opt 2023.1 passes are run on it, and check-motion must flag the
pair (exit 1) with the expected rule. Why each pass is wrong is argued in the
comment of the case (and in docs/motion.md); the verdict is not taken from
the checker.

`spirv-conv opt --passes` (the guarded optimizer) must roll back exactly the
pass that breaks the rule, keep the rest, and write a valid module that
check-motion accepts against the input; with --strict it must refuse. (The
whole sequence runs first and its check fails, so each pass is then run and
checked alone: every outcome is per pass.)

No false alarms: standard passes (-O, --ssa-rewrite, ADCE, inlining) on the
clean shaders of shaders/ (they pass the lint) must give exit 0, and the
guarded optimizer must roll back none of their passes: the whole sequence is
checked once and kept (every outcome "applied", or "unchanged"). These passes
move no convergent instruction across divergent control flow, except for the
reproductions above, whose patterns the clean shaders do not contain.

A pass that crashes (SPIRV-Tools 2023.1's --simplify-instructions on glslang's
spv.coopmat.comp, with --glslang-tests) is rolled back in its child process,
every time -O runs it, and the rest of -O still optimizes the module.
"""

import argparse
import json
import os
import subprocess
import sys

# (a) --replace-desc-array-access-using-var-index clones the sample into the
# cases of an OpSwitch on the non-uniform index: each clone runs in divergent
# control flow, so its implicit derivatives are undefined.
NU3 = """#version 450
#extension GL_EXT_nonuniform_qualifier : enable
layout(set = 0, binding = 0) uniform sampler2D texs[4];
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = texture(texs[nonuniformEXT(int(uv.x * 4.0))], uv); }
"""

# (b) The break block holding subgroupAdd is melded into the loop merge (DXC
# #6222 pattern): the reduction, which ran per iteration among the invocations
# breaking together, now runs once among all of them.
BRK2 = """#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint id = gl_LocalInvocationID.x;
  uint i = 0u;
  uint r = 0u;
  while (true) {
    if (i == (id & 3u)) { r = subgroupAdd(1u); break; }
    ++i;
  }
  data[id] = r;
}
"""

# (c) The texture() after the loop (uniform control flow) is replaced by the
# in-loop one, whose last instance ran after quad neighbours left the loop
# (the trip count n varies per pixel).
RE = """#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 1) in float n;
layout(location = 0) out vec4 color;
void main() {
  vec4 a = vec4(0.0);
  float i = 0.0;
  do { a += texture(tex, uv); i += 1.0; } while (i < n);
  vec4 b = texture(tex, uv);
  color = a + b;
}
"""

GAINED = "motion-convergent-gained-divergence"
CHANGED = "motion-coconvergent-changed-divergence"

# (name, shader file, GLSL, spirv-opt flags, the rule, the single pass that
# breaks it: what `spirv-conv opt --passes` must roll back).
REPRODUCTIONS = [
    ("desc-array-switch", "nu3.frag", NU3, ["--replace-desc-array-access-using-var-index"], GAINED,
     "--replace-desc-array-access-using-var-index"),
    ("merge-blocks-O", "brk2.comp", BRK2, ["-O"], CHANGED, "--merge-blocks"),
    ("merge-blocks", "brk2.comp", BRK2,
     ["--eliminate-local-multi-store", "--eliminate-dead-branches", "--merge-blocks"], CHANGED,
     "--merge-blocks"),
    ("redundancy-elimination", "re.frag", RE,
     ["--eliminate-local-multi-store", "--redundancy-elimination"], GAINED,
     "--redundancy-elimination"),
    ("redundancy-elimination-O", "re.frag", RE, ["-O"], GAINED, "--redundancy-elimination"),
]

CLEAN_PASSES = [["-O"], ["--ssa-rewrite"], ["--eliminate-dead-code-aggressive"],
                ["--inline-entry-points-exhaustive"]]
TARGET = "vulkan1.1"


def run(command):
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def compile_glsl(args, path, out):
    result = run([args.glslang, "-V", "--target-env", TARGET, path, "-o", out])
    return result.returncode == 0


def optimize(args, spv, passes, out):
    result = run([args.spirv_opt, "--target-env=" + TARGET] + passes + [spv, "-o", out])
    if result.returncode != 0:
        raise RuntimeError("spirv-opt %s failed: %s" % (" ".join(passes), result.stderr))


def check_motion(args, before, after):
    result = run([args.spirv_conv, "check-motion", "--target-env", TARGET, "--format", "json",
                  before, after])
    rules = []
    if result.stdout.strip():
        for entry in json.loads(result.stdout)["files"]:
            rules += [finding["rule"] for finding in entry["findings"]]
    return result.returncode, rules, result.stderr


def check_sarif(args, name, before, after):
    """check-motion --format sarif: the motion rules are the run's rules and
    every result points at its rule by ruleIndex."""
    result = run([args.spirv_conv, "check-motion", "--target-env", TARGET, "--format", "sarif",
                  before, after])
    run_ = json.loads(result.stdout)["runs"][0]
    rules = [rule["id"] for rule in run_["tool"]["driver"]["rules"]]
    problems = []
    if not run_["results"]:
        problems.append("%s: SARIF has no result" % name)
    for res in run_["results"]:
        index = res.get("ruleIndex")
        if index is None or index >= len(rules) or rules[index] != res["ruleId"]:
            problems.append("%s: SARIF result %s has ruleIndex %s; rules %s"
                            % (name, res["ruleId"], index, rules))
    return problems


def guarded_opt(args, before, passes, out, extra=()):
    """spirv-conv opt --passes: (exit code, the report's optimizer entries, stderr)."""
    report = out + ".report.json"
    for stale in (out, report):
        if os.path.exists(stale):
            os.remove(stale)
    result = run([args.spirv_conv, "opt", "--target-env", TARGET, "--passes", " ".join(passes),
                  "--report", report, before, "-o", out] + list(extra))
    passes_run = []
    if os.path.exists(report):
        with open(report) as f:
            passes_run = json.load(f)["modules"][0]["optimizer"]
    return result.returncode, passes_run, result.stderr


def check_verbose(args, name, before, passes, culprit, out):
    """-v names the rolled-back pass on the module's line; -vv also prints a
    line per pass, the culprit's saying rolled-back."""
    problems = []
    for level, want in (("-v", "rolled back: " + culprit), ("-vv", "rolled-back")):
        result = run([args.spirv_conv, "opt", "--target-env", TARGET, "--passes", " ".join(passes),
                      level, before, "-o", out])
        lines = result.stderr.splitlines()
        if level == "-v":
            found = any(" -> " in line and want in line for line in lines)
        else:
            found = any(culprit in line and want in line and line.lstrip().startswith("[")
                        for line in lines)
        if result.returncode != 0 or not found:
            problems.append("%s: opt %s exit %d, no line with %r: %s"
                            % (name, level, result.returncode, want, result.stderr[-2000:]))
    return problems


def check_guarded(args, name, before, passes, rule, culprit):
    """`spirv-conv opt --passes` on a reproduction: the culprit pass is rolled
    back for |rule|, the other passes still optimize, the output is valid and
    a legal transformation of the input as a whole; --strict refuses."""
    out = os.path.join(args.work_dir, name + ".guarded.spv")
    code, passes_run, stderr = guarded_opt(args, before, passes, out)
    if code != 0:
        return ["%s: opt --passes exit %d: %s" % (name, code, stderr)]
    problems = []
    rolled = [p for p in passes_run if p["outcome"] == "rolled-back"]
    if not any(p["pass"] == culprit and rule in [f["rule"] for f in p["findings"]]
               for p in rolled):
        problems.append("%s: %s not rolled back for %s: %s" % (name, culprit, rule, rolled))
    if any(p["pass"] != culprit for p in rolled):
        problems.append("%s: other passes rolled back too: %s" % (name, rolled))
    if len(passes) > 1 and not any(p["outcome"] == "kept" for p in passes_run):
        problems.append("%s: no pass was kept; the rest of the pipeline did nothing" % name)
    valid = run([args.spirv_val, "--target-env", TARGET, out])
    if valid.returncode != 0:
        problems.append("%s: spirv-val rejects the output: %s" % (name, valid.stderr))
    motion_code, rules, motion_err = check_motion(args, before, out)
    if motion_code != 0:
        problems.append("%s: the guarded output is not a legal transformation: %s %s"
                        % (name, rules, motion_err))
    strict_out = out + ".strict.spv"
    strict_code, _, _ = guarded_opt(args, before, passes, strict_out, ["--strict"])
    if strict_code != 1 or os.path.exists(strict_out):
        problems.append("%s: --strict gave exit %d (want 1, and no output)" % (name, strict_code))
    problems += check_verbose(args, name, before, passes, culprit, out + ".verbose.spv")
    if not problems:
        print("rolled back %s in %s: %s kept" % (culprit, name,
                                                 sum(p["outcome"] == "kept" for p in passes_run)))
    return problems


def check_crashing_pass(args):
    """opt -O on spv.coopmat.comp: --simplify-instructions crashes (so does
    spirv-opt -O); each of its three runs is rolled back as a crash, nothing
    else is, and the output is valid."""
    source = os.path.join(args.glslang_tests, "spv.coopmat.comp")
    before = os.path.join(args.work_dir, "coopmat.spv")
    if not compile_glsl(args, source, before):
        return ["spv.coopmat.comp: glslangValidator failed"]
    out = os.path.join(args.work_dir, "coopmat.guarded.spv")
    code, passes_run, stderr = guarded_opt(args, before, ["-O"], out)
    rolled = [p for p in passes_run if p["outcome"] == "rolled-back"]
    problems = []
    if code != 0:
        problems.append("spv.coopmat.comp: opt -O exit %d: %s" % (code, stderr[-2000:]))
    # A sanitizer build's handler makes the crash an exit: "ended without an answer".
    if (len(rolled) != 3 or any(p["pass"] != "--simplify-instructions" for p in rolled) or
            any("crashed" not in p["reason"] and "ended without an answer" not in p["reason"]
                for p in rolled)):
        problems.append("spv.coopmat.comp: want the 3 runs of --simplify-instructions rolled "
                        "back as crashes, got %s" % [(p["pass"], p["reason"]) for p in rolled])
    if not any(p["outcome"] == "kept" for p in passes_run):
        problems.append("spv.coopmat.comp: no other pass was kept")
    valid = run([args.spirv_val, "--target-env", TARGET, out])
    if valid.returncode != 0:
        problems.append("spv.coopmat.comp: spirv-val rejects the output: %s" % valid.stderr)
    if not problems:
        print("rolled back the crashing --simplify-instructions 3 times in spv.coopmat.comp")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--glslang", default="glslangValidator")
    parser.add_argument("--spirv-opt", default="spirv-opt")
    parser.add_argument("--spirv-val", default="spirv-val")
    parser.add_argument("--shaders", required=True, help="clean shaders (the project's shaders/)")
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--glslang-tests", help="glslang's Test/ folder (the crashing pass)")
    args = parser.parse_args()
    os.makedirs(args.work_dir, exist_ok=True)
    failures = []

    for name, file_name, source, passes, rule, culprit in REPRODUCTIONS:
        path = os.path.join(args.work_dir, file_name)
        with open(path, "w") as out:
            out.write(source)
        before = path + ".spv"
        after = os.path.join(args.work_dir, name + ".spv")
        if not compile_glsl(args, path, before):
            failures.append("%s: glslangValidator failed" % name)
            continue
        optimize(args, before, passes, after)
        code, rules, stderr = check_motion(args, before, after)
        if code != 1 or rule not in rules:
            failures.append("%s: expected exit 1 with %s, got exit %d with %s %s"
                            % (name, rule, code, rules, stderr))
        else:
            print("reproduced %s: %s" % (name, sorted(set(rules))))
        failures += check_guarded(args, name, before, passes, rule, culprit)
        failures += check_sarif(args, name, before, after)

    clean = 0
    for file_name in sorted(os.listdir(args.shaders)):
        if not file_name.endswith((".frag", ".comp", ".vert")):
            continue
        before = os.path.join(args.work_dir, file_name + ".spv")
        if not compile_glsl(args, os.path.join(args.shaders, file_name), before):
            continue
        for passes in CLEAN_PASSES:
            after = os.path.join(args.work_dir, file_name + passes[0] + ".spv")
            optimize(args, before, passes, after)
            code, rules, stderr = check_motion(args, before, after)
            clean += 1
            if code != 0:
                failures.append("false alarm: %s %s: exit %d %s %s"
                                % (file_name, passes[0], code, rules, stderr))
            guarded = after + ".guarded.spv"
            code, passes_run, stderr = guarded_opt(args, before, passes, guarded)
            rolled = [p["pass"] for p in passes_run if p["outcome"] == "rolled-back"]
            if code != 0 or rolled:
                failures.append("false alarm: opt --passes %s on %s: exit %d, rolled back %s %s"
                                % (passes[0], file_name, code, rolled, stderr))
            outcomes = set(p["outcome"] for p in passes_run)
            if outcomes - {"applied"} and outcomes != {"unchanged"}:
                failures.append("opt --passes %s on %s: not checked as one sequence: %s"
                                % (passes[0], file_name, sorted(outcomes)))
    print("%d clean pairs checked" % clean)
    if clean < 10:
        failures.append("only %d clean pairs (need at least 10)" % clean)
    if args.glslang_tests:
        failures += check_crashing_pass(args)

    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
