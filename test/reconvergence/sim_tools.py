# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""What the two simulator drivers of test/reconvergence share: running
`spirv-conv run --job` (the simulator, docs/simulator.md) on a vk_runner job
and reading its result, finding out whether the simulator exists at all,
compiling GLSL without a Vulkan runner, and comparing result buffers word by
word (a word and the f32 it holds: f32_bits, bits_f32). Stdlib only.

The job and result formats are vk_runner's (test/vulkan/README.md, "Job
format", "Result"); test/vulkan/vk_job.py runs the same jobs on lavapipe.
"""

import json
import os
import struct
import subprocess
import time

EXIT_SKIP = 77
TIMEOUT = 120   # seconds for any one tool run


class ToolFailure(Exception):
    """A tool run that had to succeed did not; the message says how."""


def run_command(args, timeout=TIMEOUT):
    """Runs |args|; returns (exit code or None on timeout, stdout, stderr)."""
    try:
        proc = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %d s" % timeout
    return (proc.returncode, proc.stdout.decode(errors="replace"),
            proc.stderr.decode(errors="replace"))


def run_command_waiting(args, timeout=TIMEOUT):
    """run_command, waiting (up to 10 minutes) while the tool cannot be
    started: spirv-conv may be relinked while a long campaign runs."""
    for _ in range(120):
        try:
            return run_command(args, timeout=timeout)
        except OSError:
            time.sleep(5)
    return run_command(args, timeout=timeout)


def failure_counts(results, categories):
    """Campaign results (each with "failures", each failure with a
    "category") as ({category: failing seeds}, failing seeds)."""
    by_category = {c: 0 for c in categories}
    failed = 0
    for result in results:
        found = {failure["category"] for failure in result["failures"]}
        failed += bool(found)
        for c in found:
            by_category[c] += 1
    return by_category, failed


def compile_glsl(glslang, source, output, target_env="vulkan1.1"):
    """glslangValidator -V; returns |output| or raises ToolFailure with its messages.
    (vk_job.Tools.compile does the same but needs a vk_runner to exist.)"""
    code, stdout, stderr = run_command([glslang, "-V", "--target-env", target_env,
                                        source, "-o", output])
    if code != 0:
        raise ToolFailure("glslangValidator failed on %s (exit %s):\n%s%s"
                          % (source, code, stdout, stderr))
    return output


def simulator_missing(spirv_conv):
    """None when `spirv-conv run` exists, else why not (the drivers then skip)."""
    if not os.access(spirv_conv, os.X_OK):
        return "%s is not an executable" % spirv_conv
    code, stdout, stderr = run_command([spirv_conv, "run", "--help"], timeout=30)
    if code != 0:
        return ("`spirv-conv run --help` exits %s: %s"
                % (code, (stderr or stdout).strip().splitlines()[:1]))
    # Without a `run` subcommand the top-level help is printed, with exit 0.
    if "--job" not in stdout:
        return "`spirv-conv run --help` does not describe `run` (no --job option)"
    return None


class Simulator:
    """`spirv-conv run SPV --job JOB --subgroup-size N --model M [--seed S]`."""

    def __init__(self, spirv_conv, model="maximal", seed=None):
        self.spirv_conv = os.path.abspath(spirv_conv)
        self.model = model
        self.seed = seed

    def command(self, spv, job_path, subgroup_size):
        args = [self.spirv_conv, "run", spv, "--job", job_path,
                "--subgroup-size", str(subgroup_size), "--model", self.model]
        if self.seed is not None:
            args += ["--seed", str(self.seed)]
        return args

    def run(self, spv, job, job_path, subgroup_size):
        """Writes |job| to |job_path|, runs it; returns the result JSON (a dict).
        Raises ToolFailure with the command line on any error."""
        with open(job_path, "w") as f:
            json.dump(job, f)
        args = self.command(spv, job_path, subgroup_size)
        code, stdout, stderr = run_command(args)
        if code != 0:
            raise ToolFailure("`%s` exits %s:\n%s" % (" ".join(args), code, stderr.strip()))
        try:
            return json.loads(stdout)
        except ValueError as e:
            raise ToolFailure("`%s` printed no result JSON (%s):\n%s"
                              % (" ".join(args), e, stdout[:500]))


def result_buffer(result, set_, binding, element=0):
    """The u32 words of one storage buffer in a vk_runner-format result, or None."""
    for buf in result.get("buffers", []):
        if (buf.get("set"), buf.get("binding"), buf.get("element", 0)) == (set_, binding, element):
            return buf.get("u32")
    return None


def f32_bits(value):
    """The 32-bit word that holds |value| as an IEEE single."""
    return struct.unpack("<I", struct.pack("<f", value))[0]


def bits_f32(word):
    """The IEEE single that the 32-bit |word| holds."""
    return struct.unpack("<f", struct.pack("<I", word & 0xFFFFFFFF))[0]


def word_differences(expected, actual, limit=None):
    """[(index, expected word or None, actual word or None)] where the two differ;
    a length difference shows as None on the shorter side."""
    diffs = []
    for i in range(max(len(expected), len(actual))):
        e = expected[i] if i < len(expected) else None
        a = actual[i] if i < len(actual) else None
        if e != a:
            diffs.append((i, e, a))
            if limit is not None and len(diffs) >= limit:
                break
    return diffs
