# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""What the vk_runner test scripts share: compiling GLSL with glslangValidator,
running vk_runner on a job (test/vulkan/README.md, "Job format") and reading
its result, the exit-77 skip, and small pass/fail bookkeeping. Stdlib only."""

import json
import os
import subprocess
import sys
import tempfile
import time

EXIT_SKIP = 77
TIMEOUT = 120  # seconds for any one tool run


class Skip(Exception):
    """No Vulkan device: the whole test is skipped (exit 77)."""


class ToolError(Exception):
    """A tool that must work did not (a broken set-up, not a test verdict)."""


class RunResult:
    def __init__(self, code, result, stderr):
        self.code = code        # vk_runner's exit code
        self.result = result    # the parsed result JSON when code == 0
        self.stderr = stderr

    def buffer(self, set_, binding, element=0):
        for buf in self.result["buffers"]:
            if (buf["set"], buf["binding"], buf["element"]) == (set_, binding, element):
                return buf["u32"]
        raise KeyError("no storage buffer set %d binding %d element %d in the result"
                       % (set_, binding, element))

    @property
    def device(self):
        return self.result["device"]

    @property
    def pixels(self):
        """The framebuffer as a flat RGBA8 list, rows top first."""
        return self.result["framebuffer"]["rgba8"]


def _environment():
    env = dict(os.environ)
    # The Vulkan loader warns on every run when XDG_RUNTIME_DIR is unset or invalid.
    runtime_dir = env.get("XDG_RUNTIME_DIR")
    if not runtime_dir or not os.path.isdir(runtime_dir):
        env["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="vk-runner-xdg-")
    return env


class Tools:
    """|device|: run on the first device whose name contains it; |prefer|: the same,
    but falling back to any device when no name contains it (the tests prefer
    lavapipe, whose behaviour they know, yet run on whatever exists)."""

    def __init__(self, runner, glslang, work_dir, device="", prefer=""):
        self.runner = os.path.abspath(runner)
        self.glslang = glslang
        self.work_dir = os.path.abspath(work_dir)
        self.device = device or prefer
        self._may_fall_back = not device and bool(prefer)
        self.env = _environment()
        os.makedirs(self.work_dir, exist_ok=True)
        for path, name in ((self.runner, "vk_runner"), (glslang, "glslangValidator")):
            if not path or not os.access(path, os.X_OK):
                raise ToolError("%s not found or not executable: %s" % (name, path))

    def path(self, name):
        return os.path.join(self.work_dir, name)

    def run_tool(self, args):
        """Runs |args|; returns (exit code, stdout, stderr)."""
        try:
            proc = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=self.env, timeout=TIMEOUT,
                                  check=False)
        except subprocess.TimeoutExpired:
            return None, "", "timed out after %d s" % TIMEOUT
        return (proc.returncode, proc.stdout.decode(errors="replace"),
                proc.stderr.decode(errors="replace"))

    def compile(self, source, name, defines=(), env="vulkan1.2"):
        """Compiles GLSL |source| (defines: "NAME" or "NAME=VALUE") to work_dir/name."""
        out = self.path(name)
        args = [self.glslang, "-V", "--target-env", env]
        args += ["-D" + d for d in defines] + [source, "-o", out]
        code, stdout, stderr = self.run_tool(args)
        if code != 0:
            raise ToolError("glslangValidator %s failed (%s):\n%s%s"
                            % (" ".join(args[1:]), code, stdout, stderr))
        return out

    def run(self, job, name):
        """Runs |job| (a dict) as work_dir/name.json; raises Skip on exit 77."""
        job_path = self.path(name + ".json")
        result_path = self.path(name + ".result.json")
        with open(job_path, "w") as f:
            json.dump(job, f)
        if os.path.exists(result_path):
            os.remove(result_path)
        args = [self.runner, job_path, "-o", result_path]
        code, _, stderr = self.run_tool(args + (["--device", self.device] if self.device else []))
        if code == EXIT_SKIP and self._may_fall_back:
            self.device = ""
            code, _, stderr = self.run_tool(args)
        self._may_fall_back = False
        if code == EXIT_SKIP:
            raise Skip(stderr.strip())
        result = None
        if code == 0:
            with open(result_path) as f:
                result = json.load(f)
        return RunResult(code, result, stderr)

    def run_ok(self, job, name):
        """Runs |job|, which must succeed."""
        run = self.run(job, name)
        if run.code != 0:
            raise ToolError("vk_runner failed on %s (exit %s):\n%s"
                            % (self.path(name + ".json"), run.code, run.stderr))
        return run


class Checks:
    """Counts named checks; failures are printed at once and make the exit code 1."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.passed = 0
        self.failed = 0

    def expect(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print("%s: ok: %s" % (self.prefix, what))
        else:
            self.failed += 1
            print("%s: FAIL: %s%s" % (self.prefix, what, (": " + detail) if detail else ""))
        sys.stdout.flush()
        return ok

    def note(self, text):
        print("%s: %s" % (self.prefix, text))
        sys.stdout.flush()

    def summary(self, started):
        print("%s: %d passed, %d failed; %.1f s"
              % (self.prefix, self.passed, self.failed, time.monotonic() - started))
        return 1 if self.failed else 0


def main_guard(body, checks):
    """Runs body() -> exit code, mapping Skip to 77 (1 when checks that need no device
    failed before it) and ToolError to 1."""
    try:
        return body()
    except Skip as e:
        # Loud: a skipped driver test is easy to overlook in a green run.
        print("SKIP: no Vulkan device, the driver-level tests did not run: %s" % e)
        if checks.failed:
            print("%s: %d checks that need no device failed" % (checks.prefix, checks.failed))
            return 1
        return EXIT_SKIP
    except ToolError as e:
        print("error: %s" % e)
        return 1


# Job pieces.

def buffer_binding(set_, binding, type_, elements):
    return {"set": set_, "binding": binding, "type": type_, "count": len(elements),
            "elements": elements}


def u32(words, size=None):
    element = {"u32": list(words)}
    if size is not None:
        element["size"] = size
    return element


def zeros(size):
    return {"size": size}
