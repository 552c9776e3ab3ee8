#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""The simulator against a real Vulkan driver, CTest `sim.vulkan-crosscheck`.

  crosscheck_test.py --spirv-conv PATH --vk-runner PATH --shaders DIR --work-dir DIR
                     [--glslang PATH] [--models maximal,...] [--only NAME,...]

Every NAME.comp in --shaders has a vk_runner job NAME.json (test/vulkan/README.md,
"Job format"; its "spv" names NAME.spv). Each shader is compiled with
glslangValidator (vulkan1.1), its job is run on the Vulkan device through
vk_runner (lavapipe preferred: subgroup size 8) and through `spirv-conv run
--job` with the device's subgroup size, once per --models entry; every storage
buffer must come back word for word the same. The shaders are written so that
their results do not depend on the reconvergence model (each says why in its
header), so every model must agree with the device.

A few jobs also have hand-derived expectations (EXPECTATIONS below) checked
against the device's result, so a job that runs but computes nothing useful
is noticed; the device is the oracle for everything else.

Exit: 0 all equal, 1 a difference or a failure, 77 when there is no Vulkan
device, or when `spirv-conv run` does not exist (after every job has run on
the device, so the suite itself stays checked).
"""

import argparse
import json
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "vulkan"))
import sim_tools  # noqa: E402
import vk_job  # noqa: E402

MAX_REPORTED = 8    # differing words printed per buffer


# ---------------------------------------------------------------------------
# Hand-derived expectations for some jobs: (job, device result) -> problems.

def _input(job, binding):
    for b in job["bindings"]:
        if b["binding"] == binding:
            return b["elements"][0]["u32"]
    raise KeyError(binding)


def expect_shared_reduce(job, result):
    values = _input(job, 0)
    out = sim_tools.result_buffer(result, 0, 1)
    want = []
    for w in range(4):
        chunk = values[64 * w:64 * (w + 1)]
        want += [sum(chunk) & 0xFFFFFFFF, min(chunk), max(chunk)]
    return [] if out == want else ["(sum, min, max) per workgroup %s, expected %s" % (out, want)]


def expect_subgroup_arith(job, result):
    values = _input(job, 0)
    out = sim_tools.result_buffer(result, 0, 1)
    problems = []
    for g in (0, 13, 127):
        group = values[g // 8 * 8:g // 8 * 8 + 8]
        lane = g % 8
        want = {0: sum(group), 2: min(group), 3: max(group),
                12: sum(group[:lane + 1]), 13: sum(group[:lane])}
        for k, v in want.items():
            if out[g * 20 + k] != v:
                problems.append("invocation %d word %d: %d, expected %d"
                                % (g, k, out[g * 20 + k], v))
    return problems


def expect_atomics(job, result):
    counters = sim_tools.result_buffer(result, 0, 0)
    slots = sim_tools.result_buffer(result, 0, 1)
    hashes = [(g * 2654435761) & 0xFFFFFFFF for g in range(256)]
    problems = []
    if counters[0] != sum(range(256)) or counters[8] != 256:
        problems.append("add %d, next %d" % (counters[0], counters[8]))
    if counters[1] != min(h | 1 for h in hashes) or counters[2] != max(h >> 1 for h in hashes):
        problems.append("min/max %d %d" % (counters[1], counters[2]))
    if slots != [1] * 256:
        problems.append("slots are not all marked once")
    for w in range(4):
        ok, wins = counters[9 + w] // 1000000, counters[9 + w] // 1000 % 1000
        if ok != 64 or wins != 8:
            problems.append("workgroup %d summary %d: %d of 64 ok, %d of 8 wins"
                            % (w, counters[9 + w], ok, wins))
    return problems


def expect_workgroup_ids(job, result):
    out = sim_tools.result_buffer(result, 0, 0)
    problems = []
    for gid in ((0, 0, 0), (5, 1, 2), (11, 3, 3)):
        x, y, z = gid
        flat = (z * 4 + y) * 12 + x
        want = [x // 4, y // 2, z // 2, (z % 2) * 8 + (y % 2) * 4 + x % 4,
                x % 4, y % 2, z % 2, 322]
        got = out[flat * 8:flat * 8 + 8]
        if got != want:
            problems.append("invocation %s: %s, expected %s" % (gid, got, want))
    return problems


def expect_arith_int(job, result):
    pairs = _input(job, 0)
    out = sim_tools.result_buffer(result, 0, 1)
    problems = []
    for i in (0, 9, 63):
        a, b = pairs[2 * i], pairs[2 * i + 1]
        want = {0: (a + b) & 0xFFFFFFFF, 2: (a * b) & 0xFFFFFFFF, 3: a // (b | 1),
                12: a ^ b, 14: bin(a).count("1"), 22: (a * b) >> 32}
        for k, v in want.items():
            if out[i * 36 + k] != v:
                problems.append("pair %d word %d: %d, expected %d" % (i, k, out[i * 36 + k], v))
    return problems


EXPECTATIONS = {
    "arith_int": expect_arith_int,
    "atomics": expect_atomics,
    "shared_reduce": expect_shared_reduce,
    "subgroup_arith": expect_subgroup_arith,
    "workgroup_ids": expect_workgroup_ids,
}


# ---------------------------------------------------------------------------

def compare_results(device, simulated):
    """Lines naming every storage buffer that differs, with the first differing words."""
    lines = []
    for buf in device["buffers"]:
        key = (buf["set"], buf["binding"], buf["element"])
        name = "buffer %d:%d[%d]" % key
        got = sim_tools.result_buffer(simulated, *key)
        if got is None:
            lines.append("%s: missing from the simulator's result" % name)
            continue
        diffs = sim_tools.word_differences(buf["u32"], got)
        for index, want, have in diffs[:MAX_REPORTED]:
            lines.append("%s word %d: device %s, simulator %s"
                         % (name, index, _hex(want), _hex(have)))
        if len(diffs) > MAX_REPORTED:
            lines.append("%s: %d words differ in all (of %d)"
                         % (name, len(diffs), len(buf["u32"])))
    return lines


def _hex(word):
    return "(none)" if word is None else "0x%08x" % word


def load_jobs(shaders, only):
    names = sorted(f[:-len(".json")] for f in os.listdir(shaders) if f.endswith(".json"))
    if only:
        names = [n for n in names if n in only]
    jobs = []
    for name in names:
        with open(os.path.join(shaders, name + ".json")) as f:
            jobs.append((name, json.load(f)))
    return jobs


def check_shader(name, job, args, tools, simulators, checks):
    """Device run, expectations, then every simulator model."""
    source = os.path.join(args.shaders, name + ".comp")
    spv = tools.compile(source, name + ".spv", env="vulkan1.1")
    job = dict(job, spv=spv)
    run = tools.run_ok(job, name + ".device")
    size = run.device.get("subgroup_size")
    checks.expect(True, "%s runs on %s (subgroup size %s)" % (name, run.device.get("name"), size))
    if name in EXPECTATIONS:
        problems = EXPECTATIONS[name](job, run.result)
        checks.expect(not problems, "%s: the device computes the hand-derived values" % name,
                      "; ".join(problems))
    for simulator in simulators:
        what = "%s: simulator (--model %s, subgroup size %s) equals the device" % (
            name, simulator.model, size)
        job_path = tools.path("%s.sim-%s.json" % (name, simulator.model))
        try:
            result = simulator.run(spv, job, job_path, size)
        except sim_tools.ToolFailure as e:
            checks.expect(False, what, str(e))
            continue
        lines = compare_results(run.result, result)
        checks.expect(not lines, what, "\n    " + "\n    ".join(lines) if lines else "")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--vk-runner", required=True)
    parser.add_argument("--shaders", required=True)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--glslang", default="glslangValidator")
    parser.add_argument("--models", default="maximal",
                        help="comma-separated simulator models (maximal, ipdom, adversarial)")
    parser.add_argument("--seed", type=int, help="--seed for the simulator (adversarial model)")
    parser.add_argument("--only", help="comma-separated shader names")
    parser.add_argument("--device", default="", help="vk_runner --device NAME")
    args = parser.parse_args()
    args.glslang = shutil.which(args.glslang) or args.glslang
    args.only = set(args.only.split(",")) if args.only else None
    return args


def main():
    args = parse_args()
    started = time.monotonic()
    checks = vk_job.Checks("sim.vulkan-crosscheck")
    missing = sim_tools.simulator_missing(args.spirv_conv)
    simulators = [] if missing else [sim_tools.Simulator(args.spirv_conv, m, args.seed)
                                     for m in args.models.split(",")]

    def body():
        tools = vk_job.Tools(args.vk_runner, args.glslang, args.work_dir,
                             device=args.device, prefer="llvmpipe")
        jobs = load_jobs(args.shaders, args.only)
        checks.expect(len(jobs) >= (len(args.only) if args.only else 20),
                      "the suite has its shaders (%d jobs in %s)" % (len(jobs), args.shaders))
        for name, job in jobs:
            try:
                check_shader(name, job, args, tools, simulators, checks)
            except vk_job.ToolError as e:
                checks.expect(False, "%s runs on the device" % name, str(e))
        code = checks.summary(started)
        if missing:
            print("SKIP: the simulator is not there, only the device runs were checked: %s"
                  % missing)
            return code or vk_job.EXIT_SKIP
        return code

    return vk_job.main_guard(body, checks)


if __name__ == "__main__":
    sys.exit(main())
