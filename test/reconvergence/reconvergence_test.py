#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""The simulator against the reconvergence reference model, CTest `sim.reconvergence`.

  reconvergence_test.py --spirv-conv PATH --work-dir DIR [--count 1000] [--seed 1]
                        [--subgroup-sizes 4,8,32] [--glslang glslangValidator]
                        [--vk-runner PATH] [--keep-going N]

For each of --count programs (seeds --seed, --seed + 1, ...), recon_gen.py
generates the program, glslangValidator compiles its GLSL, and for every
subgroup size `spirv-conv run PROG.spv --job JOB --subgroup-size S --model
maximal` runs it; OutputB (the tagged ballot records) and OutputC (the record
counts) must equal the reference model's words exactly.

--vk-runner: also run every program on the Vulkan device (lavapipe, subgroup
size 8) and compare it with the model. Nothing promises maximal reconvergence
there (glslang 12 cannot ask for it), so this only cross-checks the model;
differences are counted and printed, not failures.

Every mismatch prints a reproducer: the seed, the GLSL and job paths, the
command line, and the first differing records decoded. Exit: 0 all equal,
1 a mismatch or a tool failure, 77 when `spirv-conv run` does not exist.
"""

import argparse
import collections
import concurrent.futures
import os
import shutil
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "vulkan"))
import recon_gen as gen  # noqa: E402
import sim_tools  # noqa: E402

BINDING_INPUT, BINDING_RECORDS, BINDING_COUNTS = 0, 1, 2


def make_job(spv, stride):
    """The vk_runner job of one program: one workgroup, the three buffers."""
    n = gen.NUM_INVOCATIONS
    return {
        "mode": "compute", "spv": spv, "entry": "main", "groups": [1, 1, 1],
        "bindings": [
            {"set": 0, "binding": BINDING_INPUT, "type": "storage_buffer",
             "elements": [{"u32": gen.input_words(stride)}]},
            {"set": 0, "binding": BINDING_RECORDS, "type": "storage_buffer",
             "elements": [{"size": n * stride * gen.RECORD_WORDS * 4}]},
            {"set": 0, "binding": BINDING_COUNTS, "type": "storage_buffer",
             "elements": [{"size": n * 4}]},
        ],
    }


def decode_index(index, stride):
    """OutputB word index -> (invocation, record, word in the record)."""
    record, word = divmod(index, gen.RECORD_WORDS)
    return record // stride, record % stride, word


def _record_at(words, lid, k, stride):
    at = (lid * stride + k) * gen.RECORD_WORDS
    chunk = words[at:at + gen.RECORD_WORDS]
    if len(chunk) < gen.RECORD_WORDS:
        return "(missing)"
    ballot = sum(w << (32 * i) for i, w in enumerate(chunk[1:]))
    return gen.describe_record((chunk[0], ballot))


def compare(expected_b, expected_c, result, stride):
    """Lines describing how |result| differs from the expected buffers ([] if equal)."""
    lines = []
    got_c = sim_tools.result_buffer(result, 0, BINDING_COUNTS)
    got_b = sim_tools.result_buffer(result, 0, BINDING_RECORDS)
    if got_c is None or got_b is None:
        return ["the result has no storage buffer 0:%d or 0:%d" % (BINDING_RECORDS, BINDING_COUNTS)]
    for lid, e, a in sim_tools.word_differences(expected_c, got_c, limit=5):
        lines.append("invocation %s wrote %s records, expected %s" % (lid, a, e))
    seen = set()
    for index, _, _ in sim_tools.word_differences(expected_b, got_b):
        lid, k, _ = decode_index(index, stride)
        if (lid, k) in seen:
            continue
        seen.add((lid, k))
        lines.append("invocation %d record %d: expected %s, got %s"
                     % (lid, k, _record_at(expected_b, lid, k, stride),
                        _record_at(got_b, lid, k, stride)))
        if len(seen) >= 5:
            lines.append("... (more records differ)")
            break
    return lines


class Stats:
    """Counters and accumulated tool times over all programs (thread-safe)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.times = {"generate+model": 0.0, "glslang": 0.0, "simulator": 0.0, "vk_runner": 0.0}
        self.counts = collections.Counter()

    def timed(self, what, fn, *args):
        started = time.monotonic()
        try:
            return fn(*args)
        finally:
            with self.lock:
                self.times[what] += time.monotonic() - started

    def count(self, what):
        with self.lock:
            self.counts[what] += 1


def check_program(seed, args, simulator, device, stats):
    """Generates, compiles and runs one program; returns (ok, lines to print)."""
    out = []
    program = stats.timed("generate+model", gen.generate, seed)
    base = os.path.join(args.work_dir, "prog_%d" % seed)
    with open(base + ".comp", "w") as f:
        f.write(gen.to_glsl(program))
    try:
        spv = stats.timed("glslang", sim_tools.compile_glsl, args.glslang, base + ".comp",
                          base + ".spv")
    except sim_tools.ToolFailure as e:
        stats.count("tool failures")
        return False, ["FAIL: seed %d: %s" % (seed, e)]
    ok = True
    for size in args.subgroup_sizes:
        records = stats.timed("generate+model", gen.model_records, program, size)
        stride = gen.stride_for(records)
        expected = gen.expected_buffers(records, stride) + (stride,)
        job = make_job(spv, stride)
        job_path = "%s.sg%d.json" % (base, size)
        if simulator:
            ok &= run_simulator(seed, size, simulator, (spv, job, job_path), expected, stats, out)
        if device and size == 8:
            run_device(seed, device, job, base, expected, stats, out)
    return ok, out


def run_simulator(seed, size, simulator, run, expected, stats, out):
    """One simulator run compared with the model; False (and a reproducer) on a mismatch."""
    spv, job, job_path = run
    expected_b, expected_c, stride = expected
    stats.count("simulator runs")
    try:
        result = stats.timed("simulator", simulator.run, spv, job, job_path, size)
    except sim_tools.ToolFailure as e:
        stats.count("tool failures")
        out.append("FAIL: seed %d subgroup size %d: %s" % (seed, size, e))
        return False
    diffs = compare(expected_b, expected_c, result, stride)
    if not diffs:
        return True
    stats.count("mismatches")
    out.append("MISMATCH: seed %d, subgroup size %d" % (seed, size))
    out.append("  GLSL %s; reproduce: %s" % (spv[:-len(".spv")] + ".comp",
                                            " ".join(simulator.command(spv, job_path, size))))
    out.append("  expected records: python3 %s --seed %d --subgroup-size %d --records"
               % (os.path.join(HERE, "recon_gen.py"), seed, size))
    out.extend("  " + line for line in diffs)
    return False


def run_device(seed, device, job, base, expected, stats, out):
    """The program on the Vulkan device (size 8): a check of the model, not of the
    simulator. Differences and device errors are counted and printed, never fatal."""
    import vk_job  # test/vulkan/vk_job.py
    expected_b, expected_c, stride = expected
    stats.count("device runs")
    job = dict(job, timeout_ms=10000)
    try:
        run = stats.timed("vk_runner", device.run_ok, job, os.path.basename(base) + ".device")
    except vk_job.ToolError as e:
        stats.count("device errors")
        out.append("device error: seed %d: %s" % (seed, str(e).splitlines()[-1]))
        return
    if run.device.get("subgroup_size") != 8:
        raise sim_tools.ToolFailure("the device's subgroup size is %s, not 8"
                                    % run.device.get("subgroup_size"))
    diffs = compare(expected_b, expected_c, run.result, stride)
    if not diffs:
        return
    stats.count("device differences")
    got_b = sim_tools.result_buffer(run.result, 0, BINDING_RECORDS)
    got_c = sim_tools.result_buffer(run.result, 0, BINDING_COUNTS)
    bad = {decode_index(i, stride)[0]
           for i, _, _ in sim_tools.word_differences(expected_b, got_b)}
    bad |= {i for i, _, _ in sim_tools.word_differences(expected_c, got_c)}
    partial = min(bad) >= gen.NUM_INVOCATIONS // 8 * 8
    if partial:
        stats.count("device differences only in the partial subgroup")
    out.append("device differs from the model: seed %d (%s): %s"
               % (seed, "only in the partial subgroup" if partial
                  else "invocations %s" % sorted(bad)[:8], diffs[0]))


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--subgroup-sizes", default="4,8,32")
    parser.add_argument("--glslang", default="glslangValidator")
    parser.add_argument("--vk-runner", help="also compare the model with the Vulkan device")
    parser.add_argument("--jobs", type=int, default=1, help="programs checked in parallel")
    parser.add_argument("--keep-going", type=int, default=20,
                        help="stop after this many failing programs (0: never)")
    args = parser.parse_args()
    args.subgroup_sizes = [int(s) for s in args.subgroup_sizes.split(",")]
    for size in args.subgroup_sizes:
        if size < 4 or size > 128 or size & (size - 1):
            parser.error("subgroup sizes are powers of two from 4 to 128")
    args.work_dir = os.path.abspath(args.work_dir)
    args.glslang = shutil.which(args.glslang) or args.glslang
    return args


def open_device(args):
    if not args.vk_runner:
        return None
    import vk_job  # test/vulkan/vk_job.py
    return vk_job.Tools(args.vk_runner, args.glslang, args.work_dir, prefer="llvmpipe")


def main():
    args = parse_args()
    os.makedirs(args.work_dir, exist_ok=True)
    missing = sim_tools.simulator_missing(args.spirv_conv)
    simulator = None if missing else sim_tools.Simulator(args.spirv_conv, "maximal")
    device = open_device(args)
    if missing and not device:
        print("SKIP: the simulator is not there, nothing was compared: %s" % missing)
        return sim_tools.EXIT_SKIP
    started = time.monotonic()
    stats = Stats()
    failed_programs = 0
    seeds = range(args.seed, args.seed + args.count)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(lambda seed: check_program(seed, args, simulator, device, stats), seeds)
        for ok, lines in results:
            for line in lines:
                print(line)
            sys.stdout.flush()
            if not ok:
                failed_programs += 1
                if args.keep_going and failed_programs >= args.keep_going:
                    print("stopping after %d failing programs" % failed_programs)
                    pool.shutdown(wait=True, cancel_futures=True)
                    break
    c = stats.counts
    print("reconvergence: %d programs from seed %d, subgroup sizes %s: %d simulator runs, "
          "%d mismatches, %d tool failures, %d failing programs; %.1f s (tool time: %s)"
          % (args.count, args.seed, ",".join(map(str, args.subgroup_sizes)), c["simulator runs"],
             c["mismatches"], c["tool failures"], failed_programs, time.monotonic() - started,
             ", ".join("%s %.1f s" % kv for kv in stats.times.items())))
    if device:
        print("device: %d runs, %d differ from the model (%d of them only in the partial "
              "subgroup), %d device errors"
              % (c["device runs"], c["device differences"],
                 c["device differences only in the partial subgroup"], c["device errors"]))
    if missing:
        print("SKIP: the simulator is not there: %s" % missing)
        return 1 if c["tool failures"] else sim_tools.EXIT_SKIP
    return 1 if failed_programs else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except sim_tools.ToolFailure as e:
        print("error: %s" % e)
        sys.exit(1)
