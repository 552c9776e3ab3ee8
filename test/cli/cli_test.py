#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Black-box tests of the spirv-conv command line.

  python3 test/cli/cli_test.py --spirv-conv PATH [unittest options]

Every expectation here is derived independently of spirv-conv: exit codes from
the documented contract (0 ok, 1 findings, 2 bad input or usage, 3 invalid
output refused, 5 output not writable), validity from the real spirv-val,
disassembly from the real spirv-dis, compiled GLSL from glslangValidator, and
file contents from the bytes the test wrote itself. Each test works in a fresh
temporary folder and runs spirv-conv there, so file names in messages are the
relative names the test passed.

Needs glslangValidator, spirv-as, spirv-dis and spirv-val on PATH.
"""

import argparse
import glob
import json
import os
import random
import re
import shutil
import stat
import struct
import subprocess
import sys
import threading
import tempfile
import unittest

SPIRV_CONV = None  # set by main()
ALLOCATOR = None  # the allocator the build chose (--allocator), set by main()
TIMEOUT = 60  # seconds for any one process

SPIRV_MAGIC = 0x07230203
ERROR_PREFIX = "spirv-conv: error: "

# A small, valid fragment shader; 8 lines.
FRAG = """\
#version 450
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 result;

void main() {
  result = color * 2.0;
}
"""

# The same shader with an error on line 6 (1-based).
FRAG_WITH_ERROR = """\
#version 450
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 result;

void main() {
  result = color * undeclared_identifier;
}
"""
FRAG_ERROR_LINE = 6

# Compiles only when FEATURE is defined and SCALE has a value.
FRAG_NEEDS_DEFINES = """\
#version 450
#ifndef FEATURE
#error FEATURE must be defined
#endif
layout(location = 0) out vec4 result;
void main() { result = vec4(SCALE); }
"""

# Needs x.glsl from an include directory.
FRAG_WITH_INCLUDE = """\
#version 450
#extension GL_GOOGLE_include_directive : require
#include "x.glsl"
layout(location = 0) out vec4 result;
void main() { result = included_helper(); }
"""
INCLUDED = "vec4 included_helper() { return vec4(0.25); }\n"

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data")


def read_data(name):
    with open(os.path.join(DATA_DIR, name)) as f:
        return f.read()


# A minimal valid compute shader module (SPIR-V assembly, shared with the C++
# tests; line 4 is its OpExecutionMode).
SHADER_ASM = read_data("minimal_compute.spvasm")

# The same module without OpMemoryModel: it assembles, spirv-dis and the IR
# loader can parse it, but spirv-val rejects it (a Shader module needs a
# memory model, and OpEntryPoint must follow it).
INVALID_ASM = SHADER_ASM.replace("OpMemoryModel Logical GLSL450\n", "")
assert INVALID_ASM != SHADER_ASM

# An OpenCL kernel module: Kernel without Shader, OpenCL memory model.
KERNEL_ASM = read_data("minimal_kernel.spvasm")


class Result:
    def __init__(self, proc):
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr.decode("utf-8", "replace")

    @property
    def text(self):
        return self.out.decode("utf-8", "replace")

    def __str__(self):
        return "exit %d, stderr:\n%s" % (self.code, self.err)


def swap_words(data):
    """|data| with the bytes of every 32-bit word reversed."""
    assert len(data) % 4 == 0
    count = len(data) // 4
    return struct.pack(">%dI" % count, *struct.unpack("<%dI" % count, data))


class CliTestCase(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="spirv-conv-cli-")
        self.addCleanup(self._tmp.cleanup)
        self.dir = self._tmp.name

    # Files.

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, data):
        if isinstance(data, str):
            data = data.encode()
        os.makedirs(os.path.dirname(self.path(name)) or self.dir, exist_ok=True)
        with open(self.path(name), "wb") as f:
            f.write(data)
        return name

    def read(self, name):
        with open(self.path(name), "rb") as f:
            return f.read()

    def exists(self, name):
        return os.path.lexists(self.path(name))

    # Processes (all run in the test's folder).

    def conv(self, *args, stdin=b"", env=None):
        proc = subprocess.run([SPIRV_CONV] + list(args), cwd=self.dir, input=stdin, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
        return Result(proc)

    def tool(self, *args, expect_ok=True):
        proc = subprocess.run(list(args), cwd=self.dir, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
        if expect_ok and proc.returncode != 0:
            self.fail("test premise: %s failed (exit %d):\n%s%s" % (
                " ".join(args), proc.returncode, proc.stdout.decode("utf-8", "replace"),
                proc.stderr.decode("utf-8", "replace")))
        return proc

    def spirv_val_accepts(self, name, env):
        return self.tool("spirv-val", "--target-env", env, name, expect_ok=False).returncode == 0

    def spirv_dis(self, name, *options):
        return self.tool("spirv-dis", *options, name, "-o", "-").stdout.decode()

    # Test modules, made by the reference tools.

    def glslang(self, source_name, output_name, env=None):
        args = ["glslangValidator", "-V"]
        if env:
            args += ["--target-env", env]
        self.tool(*args, source_name, "-o", output_name)
        return output_name

    def frag_spv(self, name="shader.spv"):
        """FRAG compiled by glslangValidator -V (Vulkan 1.0, SPIR-V 1.0)."""
        self.write("reference.frag", FRAG)
        self.glslang("reference.frag", name)
        self.assertTrue(self.spirv_val_accepts(name, "vulkan1.0"), "test premise")
        return name

    def assemble(self, text, name, env="spv1.0"):
        source = self.write(name + ".spvasm", text)
        self.tool("spirv-as", "--target-env", env, source, "-o", name)
        return name

    def invalid_spv(self, name="invalid.spv"):
        """A module spirv-val rejects (checked with the real spirv-val)."""
        self.assemble(INVALID_ASM, name)
        for env in ("vulkan1.0", "spv1.0"):
            self.assertFalse(self.spirv_val_accepts(name, env),
                             "test premise: spirv-val accepts the invalid module for " + env)
        return name

    # Assertions.

    def assert_one_error_line(self, result, name):
        """stderr is exactly one line, "spirv-conv: error: NAME: ..."."""
        lines = result.err.splitlines()
        self.assertEqual(len(lines), 1, "expected one line on stderr, got:\n" + result.err)
        self.assertTrue(result.err.endswith("\n"), repr(result.err))
        self.assertTrue(lines[0].startswith(ERROR_PREFIX + name + ":"),
                        "expected '%s%s: ...', got: %s" % (ERROR_PREFIX, name, lines[0]))

    def assert_no_temp_files(self, folder="."):
        leftovers = glob.glob(os.path.join(self.path(folder), ".*.tmp.*"))
        self.assertEqual(leftovers, [], "temporary files left behind")

    def assert_unchanged(self, name, data, stat_before):
        self.assertEqual(self.read(name), data, name + " was modified")
        after = os.stat(self.path(name))
        self.assertEqual(after.st_ino, stat_before.st_ino, name + " was replaced")
        self.assertEqual(after.st_mtime_ns, stat_before.st_mtime_ns, name + " was rewritten")


# ---------------------------------------------------------------------------
# Bad input: the same classes for validate and opt (one subclass each).


class BadInputMixin:
    COMMAND = None           # "validate", "opt" or "uniformity"
    INVALID_MODULE_EXIT = None

    def run_command(self, *args, stdin=b""):
        if self.COMMAND == "opt":
            return self.conv("opt", *args, "-o", "out.spv", stdin=stdin)
        return self.conv(self.COMMAND, *args, stdin=stdin)

    def check_rejected(self, name, pattern, *options, code=2):
        result = self.run_command(*options, name)
        self.assertEqual(result.code, code, result)
        self.assert_one_error_line(result, name)
        self.assertRegex(result.err, pattern)
        self.assertEqual(result.out, b"")
        self.assertFalse(self.exists("out.spv"), "an output was written for rejected input")
        self.assert_no_temp_files()
        return result

    def test_missing_file(self):
        self.check_rejected("missing.spv", r"(?i)no such file|cannot open|not found")

    def test_directory(self):
        os.mkdir(self.path("folder.spv"))
        self.check_rejected("folder.spv", r"(?i)directory")

    def test_empty_file(self):
        self.check_rejected(self.write("empty.spv", b""), r"(?i)empty")

    def test_wrong_magic(self):
        self.check_rejected(self.write("text.spv", b"abcdefgh"), r"(?i)magic")

    def test_truncated_word_stream(self):
        data = self.read(self.frag_spv())
        self.check_rejected(self.write("cut.spv", data[:-2]), r"(?i)truncated|whole number")

    def test_truncated_header(self):
        # Valid magic and version, then nothing: 2 of the header's 5 words.
        data = self.read(self.frag_spv())
        self.check_rejected(self.write("short.spv", data[:8]), r"(?i)header")

    def test_garbage_with_spv_extension(self):
        garbage = b"\xff\xfe" + random.Random(1).randbytes(254)  # 0xff: never the magic
        self.check_rejected(self.write("garbage.spv", garbage), r"(?i)magic|not a SPIR-V")

    def test_garbage_with_unknown_extension(self):
        garbage = b"\xff\xfe" + random.Random(2).randbytes(254)
        self.check_rejected(self.write("garbage.bin", garbage),
                            r"(?i)not a SPIR-V|unrecognized|unknown (format|input)")

    def test_assembly_syntax_error(self):
        # The error's 1-based line must be the line the test broke.
        module = self.frag_spv()
        lines = self.spirv_dis(module).splitlines(keepends=True)
        middle = next(i for i, line in enumerate(lines) if "OpSource" in line)
        broken = lines[:middle] + ["               OpNotAnInstruction %1\n"] + lines[middle + 1:]
        cases = [
            ("opcode.spvasm", "".join(broken), middle + 1),
            ("first_line.spvasm", "OpCapability NotACapability\n" + SHADER_ASM.split("\n", 1)[1], 1),
            ("crlf.spvasm", SHADER_ASM.replace("LocalSize 1 1 1", "LocalSize 1 1 x")
             .replace("\n", "\r\n"), 4),
        ]
        for name, text, line in cases:
            with self.subTest(name=name):
                self.write(name, text)
                self.tool("spirv-as", name, "-o", "premise.spv", expect_ok=False)
                self.assertFalse(self.exists("premise.spv"), "test premise: spirv-as accepts it")
                result = self.check_rejected(name, re.escape("%s:%d:" % (name, line)))
                self.assertTrue(result.err.startswith("%s%s:%d:" % (ERROR_PREFIX, name, line)))

    def test_glsl_compile_error(self):
        name = self.write("broken.frag", FRAG_WITH_ERROR)
        result = self.run_command(name)
        self.assertEqual(result.code, 2, result)
        lines = result.err.splitlines()
        self.assertTrue(lines and lines[0].startswith(ERROR_PREFIX + name + ":"), result.err)
        # glslang's own diagnostic, with file and line of the error.
        self.assertRegex(result.err, r"broken\.frag:%d\b" % FRAG_ERROR_LINE)
        self.assertIn("undeclared_identifier", result.err)
        self.assertFalse(self.exists("out.spv"))

    def test_glsl_without_stage(self):
        self.check_rejected(self.write("shader.glsl", FRAG), r"--stage")

    def test_hlsl_without_stage(self):
        self.check_rejected(self.write("shader.hlsl", HLSL_COMPUTE), r"pass -T \(ps_6_0")

    def test_hlsl_profile_contradicts_stage(self):
        self.check_rejected(self.write("shader.hlsl", HLSL_COMPUTE),
                            r": --stage frag contradicts -T cs_6_0$", "-T", "cs_6_0",
                            "--stage", "frag")

    def test_hlsl_missing_entry_point(self):
        self.check_rejected(self.write("shader.cs.hlsl", HLSL_COMPUTE),
                            r"no entry point function 'CSMain'", "-E", "CSMain")

    def test_hlsl_that_crashes_glslang(self):
        # glslang 12's HLSL front end crashes on this (HlslInput.GlslangCrashIsBadInput):
        # one error line, exit 2. Under ASan the child's report of the fault comes
        # first and the status names ASan's exit status instead of the signal.
        name = self.write("crash.ps.hlsl", "struct S { float4 p : SV_Position; };\n"
                          "float4 main(S:s) : SV_Target { return s.p; }\n")
        result = self.run_command(name)
        self.assertEqual(result.code, 2, result)
        lines = result.err.splitlines()
        self.assertRegex(lines[-1], "^" + re.escape(ERROR_PREFIX + name) +
                         r": HLSL compilation failed: glslang crashed \((signal 11, |exit status 1\))")
        if len(lines) > 1:
            self.assertIn("AddressSanitizer", result.err)
        self.assertEqual(result.out, b"")
        self.assertFalse(self.exists("out.spv"))

    def test_hlsl_compile_error_names_unsupported_construct(self):
        name = self.write("match.cs.hlsl", HLSL_COMPUTE.replace("WaveActiveSum(id.x)",
                                                               "WaveMatch(id.x).x"))
        result = self.run_command(name)
        self.assertEqual(result.code, 2, result)
        lines = result.err.splitlines()
        self.assertEqual(lines[0], ERROR_PREFIX + name + ": HLSL compilation failed:")
        self.assertRegex(lines[1], r"^  ERROR: match\.cs\.hlsl:4: 'WaveMatch' : ")
        self.assertEqual(lines[-1], "  glslang's HLSL front end, which spirv-conv compiles HLSL "
                                    "with, does not support WaveMatch (Shader Model 6.5); compile "
                                    "with DXC (-spirv) and pass the .spv")
        self.assertFalse(self.exists("out.spv"))

    def test_glsl_built_ins_glslang_cannot_parse(self):
        # glslang prints its whole built-in declarations to stdout when it
        # cannot parse them (#version 110 for OpenGL SPIR-V): stdout stays the
        # command's own, one error line names the file.
        name = self.write("old.vert", "#version 110\nvoid main() { gl_Position = vec4(0.0); }\n")
        result = self.run_command("--target-env", "opengl4.5", name)
        self.assertEqual(result.code, 2, result)
        self.assertNotIn(b"radians", result.out)
        self.assertTrue(result.err.startswith(ERROR_PREFIX + name + ":"), result.err)

    def test_module_spirv_val_rejects(self):
        name = self.invalid_spv()
        self.check_rejected(name, r"(?i)invalid", code=self.INVALID_MODULE_EXIT)

    def test_empty_stdin(self):
        result = self.run_command("-", stdin=b"")
        self.assertEqual(result.code, 2, result)
        self.assert_one_error_line(result, "<stdin>")
        self.assertFalse(self.exists("out.spv"))


# A compute shader in HLSL whose entry point is main.
HLSL_COMPUTE = """RWStructuredBuffer<uint> sums : register(u0);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  sums[id.x] = WaveActiveSum(id.x);
}
"""


class HlslInputTests(CliTestCase):
    def test_every_command_reads_hlsl(self):
        name = self.write("sums.cs.hlsl", HLSL_COMPUTE)
        self.assertEqual(self.conv("validate", name).code, 0)
        self.assertEqual(self.conv("lint", "-g", name).code, 0)
        self.assertEqual(self.conv("cfg", name).code, 0)
        self.assertEqual(self.conv("dis", name).code, 0)
        report = json.loads(self.conv("uniformity", "--format", "json", name).out)
        self.assertEqual([f["name"] for f in report["functions"]], ["main"])
        result = self.conv("opt", "-O", name, "-o", "sums.spv")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(self.conv("validate", "sums.spv").code, 0)

    def test_stdin_with_language_profile_and_entry(self):
        source = HLSL_COMPUTE.replace("void main(", "void CSMain(").encode()
        result = self.conv("dis", "--language", "hlsl", "-T", "cs_6_0", "-E", "CSMain", "-",
                           stdin=source)
        self.assertEqual(result.code, 0, result)
        self.assertIn(b'OpEntryPoint GLCompute %CSMain "CSMain"', result.out)
        # Without --language, HLSL on stdin is not recognised: one line says how.
        result = self.conv("dis", "-", stdin=source)
        self.assertEqual(result.code, 2, result)
        self.assertIn("--language hlsl", result.err)

    def test_depfile_lists_the_includes(self):
        self.write("inc/common.hlsli", "static const uint kScale = 2;\n")
        name = self.write("sums.cs.hlsl", '#include "inc/common.hlsli"\n' +
                          HLSL_COMPUTE.replace("WaveActiveSum(id.x)", "id.x * kScale"))
        result = self.conv("opt", name, "-o", "out dir.spv", "--depfile", "out.d")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(self.read("out.d").decode(),
                         "out\\ dir.spv: \\\n  sums.cs.hlsl \\\n  ./inc/common.hlsli\n")
        result = self.conv("lint", name, "-o", "report.txt", "--depfile", "lint.d")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(self.read("lint.d").decode(),
                         "report.txt: \\\n  sums.cs.hlsl \\\n  ./inc/common.hlsli\n")

    def test_lint_exit_zero(self):
        # dFdx where a fragment input sent only some pixels: an error-level finding.
        name = self.write("d.frag", UNIFORMITY_FRAG.replace("if (v > 0.5) b = 2.0;",
                                                            "if (v > 0.5) b = dFdx(v);"))
        self.assertEqual(self.conv("lint", name).code, 1)
        self.assertEqual(self.conv("lint", "--exit-zero", name).code, 0)
        self.assertEqual(self.conv("lint", "--exit-zero", "missing.frag").code, 2)


class ValidateBadInputTests(BadInputMixin, CliTestCase):
    COMMAND = "validate"
    INVALID_MODULE_EXIT = 1  # a finding: the module was read and is invalid


class OptBadInputTests(BadInputMixin, CliTestCase):
    COMMAND = "opt"
    INVALID_MODULE_EXIT = 2  # opt's input is rejected; nothing is written


class UniformityBadInputTests(BadInputMixin, CliTestCase):
    COMMAND = "uniformity"
    INVALID_MODULE_EXIT = 2  # the analysis refuses input spirv-val rejects


class LintBadInputTests(BadInputMixin, CliTestCase):
    COMMAND = "lint"
    INVALID_MODULE_EXIT = 2  # the lint refuses input spirv-val rejects


# A fragment shader whose branch depends on a fragment input (divergent:
# Vulkan inputs vary per invocation) and a uniform-buffer value (uniform).
UNIFORMITY_FRAG = """#version 450
layout(location = 0) in float v;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform U { float limit; };
void main() {
  float a = 0.0;
  if (limit > 0.5) a = 1.0;
  float b = a;
  if (v > 0.5) b = 2.0;
  color = vec4(a, b, dFdx(v), 1.0);
}
"""


class UniformityCommandTests(CliTestCase):
    def report(self, *options):
        name = self.write("u.frag", UNIFORMITY_FRAG)
        result = self.conv("uniformity", "--format", "json", name, *options)
        self.assertEqual(result.code, 0, result)
        return json.loads(result.text)

    def test_json_branch_levels(self):
        (function,) = self.report()["functions"]
        self.assertEqual(function["name"], "main")
        self.assertTrue(function["entry_point"])
        # Two conditional branches: on the uniform buffer (uniform), on the
        # input (divergent). glslang -O0 keeps a and b in variables.
        levels = sorted(b["branch_level"] for b in function["blocks"]
                        if b["branch_level"] != "uniform" or b["divergent_branch"])
        self.assertEqual(levels, ["divergent"])
        self.assertEqual(sum(1 for b in function["blocks"] if b["divergent_branch"]), 1)
        # The block inside `if (v > 0.5)` runs in divergent control flow;
        # the entry block does not.
        self.assertEqual(function["blocks"][0]["control_flow_level"], "uniform")
        self.assertIn("divergent", [b["control_flow_level"] for b in function["blocks"]])

    def test_text_marks_divergent_definitions(self):
        name = self.write("u.frag", UNIFORMITY_FRAG)
        result = self.conv("uniformity", name)
        self.assertEqual(result.code, 0, result)
        self.assertIn("UniformityInfo for function %main:", result.text)
        self.assertRegex(result.text, r"DIVERGENT:\s+%\w+ = OpLoad %float %v\b")

    def test_unknown_function_is_bad_input(self):
        name = self.write("u.frag", UNIFORMITY_FRAG)
        result = self.conv("uniformity", "--function", "nope", name)
        self.assertEqual(result.code, 2, result)
        self.assert_one_error_line(result, name)


# Source lines (1-based) matter below: an implicit-LOD sample at the top level
# (line 8: uniform control flow), one inside a branch on a uniform-buffer value
# (9 uniform branch, 10 uniform control flow) and a derivative inside a branch
# on a fragment input (12 divergent branch, 13 divergent control flow).
LINES_FRAG = """\
#version 450
layout(location = 0) in float v;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform U { float limit; };
void main() {
  vec4 c = texture(tex, uv);
  if (limit > 0.5) {
    c += texture(tex, uv * 2.0);
  }
  if (v > 0.5) {
    c.x += dFdx(v);
  }
  color = c;
}
"""

# A compute module with hand-placed debug lines. Block %10 ends in a branch on
# the local invocation id (divergent) under OpLine 12; the barrier before it is
# under OpLine 10. Block %11 has no OpLine (a line's scope ends with its
# block), so its elect has no line and runs in divergent control flow. In block
# %12 (reconverged, uniform) the elect %21 is under OpLine 15, then OpNoLine
# ends the line for the barrier and the return.
LINES_COMPUTE_ASM = """\
; SPIR-V
; Version: 1.3
OpCapability Shader
OpCapability GroupNonUniform
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 64 1 1
%file = OpString "k.comp"
OpName %main "main"
OpDecorate %lid BuiltIn LocalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%v3uint = OpTypeVector %uint 3
%ptr = OpTypePointer Input %v3uint
%lid = OpVariable %ptr Input
%uint_0 = OpConstant %uint 0
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_264 = OpConstant %uint 264
%main = OpFunction %void None %fn
%10 = OpLabel
OpLine %file 10 1
OpControlBarrier %uint_2 %uint_2 %uint_264
%id = OpLoad %v3uint %lid
%x = OpCompositeExtract %uint %id 0
%c = OpIEqual %bool %x %uint_0
OpLine %file 12 1
OpSelectionMerge %12 None
OpBranchConditional %c %11 %12
%11 = OpLabel
%20 = OpGroupNonUniformElect %bool %uint_3
OpBranch %12
%12 = OpLabel
OpLine %file 15 1
%21 = OpGroupNonUniformElect %bool %uint_3
OpNoLine
OpControlBarrier %uint_2 %uint_2 %uint_264
OpReturn
OpFunctionEnd
"""

CONVERGENT_OPCODES = re.compile(
    r"^Op(DPd[xy](Fine|Coarse)?|Fwidth(Fine|Coarse)?|Image(Sparse)?Sample\w*ImplicitLod|"
    r"ImageQueryLod|ControlBarrier|Group\w+|Subgroup\w+)$")


class UniformityLinesTests(CliTestCase):
    """Source lines and convergent operations in the JSON report."""

    def report(self, *args):
        result = self.conv("uniformity", "--format", "json", *args)
        self.assertEqual(result.code, 0, result)
        (function,) = json.loads(result.text)["functions"]
        return function

    def disassembly_facts(self, module):
        """From spirv-dis --raw-id: per block its terminator opcode and the line
        of the OpLine in effect there, and every convergent instruction with
        its block and line. OpLine applies until OpNoLine or the block's end."""
        blocks, ops = {}, []
        label, line = None, None
        listing = self.spirv_dis(module, "--raw-id")
        # Function bodies only (OpSource may hold the GLSL text, over many lines).
        for text in listing[listing.index("OpFunction "):].splitlines():
            tokens = text.split()
            if not tokens:
                continue
            result_id = int(tokens[0][1:]) if len(tokens) > 2 and tokens[1] == "=" else None
            opcode = tokens[2] if result_id is not None else tokens[0]
            if opcode == "OpLabel":
                label, line = result_id, None
            elif opcode == "OpLine":
                line = int(tokens[2])
            elif opcode == "OpNoLine":
                line = None
            elif label is not None:
                if CONVERGENT_OPCODES.match(opcode):
                    ops.append({"id": result_id, "opcode": opcode, "block": label, "line": line})
                if opcode in ("OpBranch", "OpBranchConditional", "OpSwitch", "OpReturn",
                              "OpReturnValue", "OpKill", "OpUnreachable",
                              "OpTerminateInvocation"):
                    blocks[label] = {"terminator": opcode, "line": line}
                    label = None
        return blocks, ops

    def assert_matches_disassembly(self, function, module):
        blocks, ops = self.disassembly_facts(module)
        self.assertEqual({b["id"]: {"terminator": b["terminator"], "line": b["line"]}
                          for b in function["blocks"]}, blocks)
        self.assertEqual([{k: op[k] for k in ("id", "opcode", "block", "line")}
                          for op in function["convergent_ops"]], ops)

    def test_glsl_lines_and_convergent_ops(self):
        self.write("lines.frag", LINES_FRAG)
        self.tool("glslangValidator", "-V", "-g", "lines.frag", "-o", "lines.spv")
        function = self.report("lines.spv")
        self.assert_matches_disassembly(function, "lines.spv")
        ops = [(op["opcode"], op["line"], op["control_flow_level"])
               for op in function["convergent_ops"]]
        self.assertEqual(ops, [("OpImageSampleImplicitLod", 8, "uniform"),
                               ("OpImageSampleImplicitLod", 10, "uniform"),
                               ("OpDPdx", 13, "divergent")])
        values = {v["id"] for v in function["values"]}
        for op in function["convergent_ops"]:
            self.assertIn(op["id"], values)
        branches = sorted((b["line"], b["branch_level"]) for b in function["blocks"]
                          if b["terminator"] == "OpBranchConditional")
        self.assertEqual(branches, [(9, "uniform"), (12, "divergent")])
        # The same shader compiled by spirv-conv itself with -g.
        in_process = self.report("-g", "lines.frag")
        self.assertEqual([(op["opcode"], op["line"], op["control_flow_level"])
                          for op in in_process["convergent_ops"]], ops)

    def test_no_debug_info_means_null_lines(self):
        self.write("lines.frag", LINES_FRAG)
        function = self.report("lines.frag")
        self.assertEqual(len(function["convergent_ops"]), 3)
        self.assertTrue(all(b["line"] is None for b in function["blocks"]))
        self.assertTrue(all(op["line"] is None for op in function["convergent_ops"]))

    def test_assembly_lines_barriers_and_group_ops(self):
        source = self.write("lines.spvasm", LINES_COMPUTE_ASM)
        self.tool("spirv-as", "--preserve-numeric-ids", "--target-env", "spv1.3", source,
                  "-o", "lines.spv")
        function = self.report("lines.spv")
        self.assert_matches_disassembly(function, "lines.spv")
        self.assertEqual(self.report(source), function)  # spirv-conv's own assembler
        by_id = {b["id"]: b for b in function["blocks"]}
        self.assertEqual((by_id[10]["line"], by_id[10]["terminator"], by_id[10]["branch_level"]),
                         (12, "OpBranchConditional", "divergent"))
        self.assertEqual((by_id[11]["line"], by_id[11]["control_flow_level"]), (None, "divergent"))
        self.assertEqual((by_id[12]["line"], by_id[12]["terminator"],
                          by_id[12]["control_flow_level"]), (None, "OpReturn", "uniform"))
        self.assertEqual(function["convergent_ops"], [
            {"id": None, "opcode": "OpControlBarrier", "block": 10, "line": 10,
             "control_flow_level": "uniform"},
            {"id": 20, "opcode": "OpGroupNonUniformElect", "block": 11, "line": None,
             "control_flow_level": "divergent"},
            {"id": 21, "opcode": "OpGroupNonUniformElect", "block": 12, "line": 15,
             "control_flow_level": "uniform"},
            {"id": None, "opcode": "OpControlBarrier", "block": 12, "line": None,
             "control_flow_level": "uniform"},
        ])


# ---------------------------------------------------------------------------
# Usage.


class UsageTests(CliTestCase):
    def test_unknown_target_env(self):
        module = self.frag_spv()
        for args in (["validate"], ["opt", "-o", "out.spv"], ["dis"]):
            with self.subTest(command=args[0]):
                result = self.conv(*args, "--target-env", "vulkan9.9", module)
                self.assertEqual(result.code, 2, result)
                self.assertEqual(len(result.err.splitlines()), 1, result.err)
                self.assertIn("vulkan9.9", result.err)
                self.assertEqual(result.out, b"")
                self.assertFalse(self.exists("out.spv"))

    def test_target_env_prefix_is_not_accepted(self):
        # spvParseTargetEnv accepts any name starting with a known one.
        result = self.conv("validate", "--target-env", "vulkan1.2junk", self.frag_spv())
        self.assertEqual(result.code, 2, result)

    def test_unknown_subcommand(self):
        result = self.conv("frobnicate", self.frag_spv())
        self.assertEqual(result.code, 2, result)
        self.assertNotEqual(result.err.strip(), "")

    def test_no_subcommand(self):
        result = self.conv()
        self.assertEqual(result.code, 2, result)
        self.assertNotEqual(result.err.strip(), "")

    def test_missing_file_argument(self):
        for args in (["validate"], ["opt", "-o", "out.spv"], ["dis"]):
            with self.subTest(command=args[0]):
                result = self.conv(*args)
                self.assertEqual(result.code, 2, result)
                self.assertNotEqual(result.err.strip(), "")
                self.assertFalse(self.exists("out.spv"))

    def test_opt_without_output(self):
        result = self.conv("opt", self.frag_spv())
        self.assertEqual(result.code, 2, result)
        self.assertEqual(result.out, b"")

    def check_help(self, *args):
        result = self.conv(*args, "--help")
        self.assertEqual(result.code, 0, result)
        usage = "Usage: " + " ".join(["spirv-conv"] + list(args))
        self.assertTrue(any(line.startswith(usage) for line in result.text.splitlines()),
                        "no '%s' line in:\n%s" % (usage, result.text))

    def test_help(self):
        self.check_help()

    def test_help_validate(self):
        self.check_help("validate")

    def test_help_opt(self):
        self.check_help("opt")

    def test_help_dis(self):
        self.check_help("dis")

    def test_help_lint(self):
        self.check_help("lint")

    def test_version(self):
        result = self.conv("--version")
        self.assertEqual(result.code, 0, result)
        self.assertIn("SPIRV-Tools v2023.1", result.text)
        self.assertIn("glslang 12", result.text)
        # The allocator the build configured must be the one serving malloc
        # (cmake/SpirvConvAllocator.cmake): a dropped or shadowed mimalloc
        # would silently slow every command down (docs/performance.md).
        if ALLOCATOR == "mimalloc":
            self.assertRegex(result.text, r"allocator: mimalloc 2\.\d+\.\d+"
                             r"(, 2 MiB pages)?(, memory kept until exit)?\n")
        elif ALLOCATOR == "system":
            self.assertIn("allocator: system malloc\n", result.text)

    @staticmethod
    def environment_without_mimalloc_options():
        # The test's environment with no MIMALLOC_... variable, so that the
        # executable's own mimalloc settings apply.
        return {k: v for k, v in os.environ.items() if not k.startswith("MIMALLOC_")}

    def test_mimalloc_settings(self):
        # tools/allocator/mimalloc_settings.cpp: no decommit, and 2 MiB pages
        # when the files named add up to 256 KiB or more, unless the
        # environment says otherwise (docs/building.md). Without them a large
        # analysis spends much of its time in page faults; with them a small
        # module's run is slower (docs/performance.md, "Memory allocator").
        if ALLOCATOR != "mimalloc":
            self.skipTest("the build does not link mimalloc")
        clean = self.environment_without_mimalloc_options()
        result = self.conv("--version", env=clean)
        self.assertIn("mimalloc 2", result.text)
        self.assertNotIn("2 MiB pages", result.text)
        self.assertIn(", memory kept until exit\n", result.text)
        self.write("large.spv", b"\0" * (256 * 1024))
        self.write("small.spv", b"\0" * (255 * 1024))
        result = self.conv("--version", "small.spv", env=clean)
        self.assertNotIn("2 MiB pages", result.text)
        result = self.conv("--version", "large.spv", env=clean)
        self.assertIn(", 2 MiB pages, memory kept until exit\n", result.text)
        overridden = dict(clean, MIMALLOC_LARGE_OS_PAGES="0", MIMALLOC_ALLOW_DECOMMIT="1")
        result = self.conv("--version", env=overridden)
        self.assertRegex(result.text, r"allocator: mimalloc 2\.\d+\.\d+\n")

    def committed_memory_freed(self, env, *args):
        # mimalloc's statistics at exit (MIMALLOC_SHOW_STATS=1, on stderr):
        # the "committed:" row is peak, total, freed and current, each a
        # number with an optional unit. Freed committed memory is memory
        # decommitted (handed back to the kernel) during the run.
        result = self.conv(*args, env=dict(env, MIMALLOC_SHOW_STATS="1"))
        rows = [line for line in result.err.splitlines() if line.strip().startswith("committed:")]
        self.assertEqual(len(rows), 1, result.err)
        tokens = rows[0].split(":", 1)[1].split()
        columns = []
        for token in tokens:
            if token in ("B", "KiB", "MiB", "GiB") and columns:
                columns[-1] += " " + token
            else:
                columns.append(token)
        self.assertGreaterEqual(len(columns), 4, rows[0])
        return columns[2]

    def test_mimalloc_keeps_memory_from_the_start(self):
        # The settings must reach every mimalloc segment, also the first one,
        # which libstdc++'s start-up allocations create before any static
        # constructor of the program runs; a segment created with decommit
        # allowed keeps decommitting its freed spans. With no delay
        # (MIMALLOC_DECOMMIT_DELAY=0) a decommit happens at the first free
        # span of such a segment, so a short lint shows it when the settings
        # are applied from a static constructor; none when they are applied
        # from .preinit_array.
        if ALLOCATOR != "mimalloc":
            self.skipTest("the build does not link mimalloc")
        clean = self.environment_without_mimalloc_options()
        clean["MIMALLOC_DECOMMIT_DELAY"] = "0"
        shader = self.frag_spv()
        self.assertEqual(self.committed_memory_freed(clean, "lint", shader), "0")
        # The premise: with decommit allowed (and small pages: mimalloc never
        # decommits memory it got as large OS pages), the same run does.
        allowed = dict(clean, MIMALLOC_ALLOW_DECOMMIT="1", MIMALLOC_LARGE_OS_PAGES="0")
        self.assertNotEqual(self.committed_memory_freed(allowed, "lint", shader), "0")


# ---------------------------------------------------------------------------
# Never lose data.


class DataSafetyTests(CliTestCase):
    def check_refuses_to_overwrite(self, input_name, output_name):
        data = self.read(input_name)
        before = os.stat(self.path(input_name))
        result = self.conv("opt", input_name, "-o", output_name)
        self.assertEqual(result.code, 2, result)
        self.assertEqual(len(result.err.splitlines()), 1, result.err)
        self.assertTrue(result.err.startswith(ERROR_PREFIX), result.err)
        self.assert_unchanged(input_name, data, before)
        self.assert_no_temp_files()

    def test_opt_refuses_output_equal_to_input(self):
        self.check_refuses_to_overwrite(self.frag_spv("in.spv"), "in.spv")

    def test_opt_refuses_output_hard_linked_to_input(self):
        self.frag_spv("in.spv")
        os.link(self.path("in.spv"), self.path("link.spv"))
        self.check_refuses_to_overwrite("in.spv", "link.spv")
        self.check_refuses_to_overwrite("link.spv", "in.spv")

    def test_opt_refuses_output_naming_input_another_way(self):
        self.frag_spv("in.spv")
        for output in ("./in.spv", os.path.join(self.dir, "in.spv"), "../%s/in.spv"
                       % os.path.basename(self.dir)):
            with self.subTest(output=output):
                self.check_refuses_to_overwrite("in.spv", output)

    def test_opt_refuses_output_symlinked_to_input(self):
        self.frag_spv("in.spv")
        os.symlink("in.spv", self.path("alias.spv"))
        self.check_refuses_to_overwrite("in.spv", "alias.spv")
        self.assertTrue(os.path.islink(self.path("alias.spv")))

    def test_opt_into_directory_refuses_to_overwrite_an_input(self):
        # out/a.spv is both the second input and where the first one's result would go.
        self.write("a.frag", FRAG)
        os.mkdir(self.path("out"))
        self.frag_spv("out/a.spv")
        data, before = self.read("out/a.spv"), os.stat(self.path("out/a.spv"))
        result = self.conv("opt", "a.frag", "out/a.spv", "-o", "out")
        self.assertNotEqual(result.code, 0, result)
        self.assert_unchanged("out/a.spv", data, before)
        self.assert_no_temp_files("out")

    def test_skip_validation_invalid_input_writes_nothing(self):
        result = self.conv("opt", "--skip-validation", self.invalid_spv(), "-o", "out.spv")
        self.assertEqual(result.code, 3, result)
        self.assertEqual(len(result.err.splitlines()), 1, result.err)
        self.assertIn("invalid.spv", result.err)
        self.assertFalse(self.exists("out.spv"))
        self.assert_no_temp_files()

    def test_refused_output_keeps_existing_file(self):
        old = self.read(self.frag_spv("out.spv"))
        result = self.conv("opt", "--skip-validation", self.invalid_spv(), "-o", "out.spv")
        self.assertEqual(result.code, 3, result)
        self.assertEqual(self.read("out.spv"), old)
        self.assert_no_temp_files()

    def test_output_in_missing_directory(self):
        result = self.conv("opt", self.frag_spv(), "-o", "no/such/dir/out.spv")
        self.assertEqual(result.code, 5, result)
        self.assert_one_error_line(result, "no/such/dir/out.spv")
        self.assertFalse(self.exists("no"))

    def test_no_temp_files_after_success(self):
        module = self.frag_spv()
        os.mkdir(self.path("out"))
        for args in (["opt", module, "-o", "out/a.spv"], ["opt", "--text", module, "-o", "out/b"],
                     ["dis", module, "-o", "out/c.spvasm"]):
            with self.subTest(args=args):
                result = self.conv(*args)
                self.assertEqual(result.code, 0, result)
        self.assertEqual(sorted(os.listdir(self.path("out"))), ["a.spv", "b", "c.spvasm"])

    def test_no_temp_files_after_failure(self):
        module = self.frag_spv()
        invalid = self.invalid_spv()
        os.mkdir(self.path("out"))
        os.mkdir(self.path("out/taken"))  # a directory where the output file should go
        cases = [(["opt", "--skip-validation", invalid, "-o", "out/x.spv"], 3),
                 (["opt", module, "-o", "out/taken"], 5),
                 (["opt", "out/taken", "-o", "out/y.spv"], 2)]
        for args, code in cases:
            with self.subTest(args=args):
                result = self.conv(*args)
                self.assertEqual(result.code, code, result)
                self.assert_no_temp_files("out")
        self.assertEqual(os.listdir(self.path("out")), ["taken"])
        self.assertEqual(os.listdir(self.path("out/taken")), [])

    def test_opt_several_inputs_with_same_file_name(self):
        # x/a.spv and y/a.frag both map to out/a.spv. Writing both there would
        # lose the first result: the run is refused before anything is written.
        os.mkdir(self.path("x"))
        self.frag_spv("x/a.spv")
        self.write("y/a.frag", FRAG.replace("2.0", "3.0"))
        os.mkdir(self.path("out"))
        result = self.conv("opt", "x/a.spv", "y/a.frag", "-o", "out")
        self.assertEqual(result.code, 2, result)
        self.assert_one_error_line(result, "y/a.frag")
        self.assertEqual(os.listdir(self.path("out")), [])

    def test_output_through_a_symlink_replaces_its_target(self):
        os.mkdir(self.path("real"))
        self.write("real/out.spv", b"old")
        os.symlink("real/out.spv", self.path("link.spv"))
        module = self.frag_spv()
        result = self.conv("opt", module, "-o", "link.spv")
        self.assertEqual(result.code, 0, result)
        self.assertTrue(os.path.islink(self.path("link.spv")))
        self.assertEqual(self.read("real/out.spv"), self.read(module))
        self.assert_no_temp_files()
        self.assert_no_temp_files("real")

    def test_output_to_a_device_or_fifo_writes_through(self):
        module = self.frag_spv()
        result = self.conv("opt", module, "-o", "/dev/null")
        self.assertEqual(result.code, 0, result)
        self.assertTrue(stat.S_ISCHR(os.stat("/dev/null").st_mode))

        fifo = self.path("pipe")
        os.mkfifo(fifo)
        received = []
        def read_fifo():
            with open(fifo, "rb") as f:
                received.append(f.read())
        reader = threading.Thread(target=read_fifo)
        reader.start()
        result = self.conv("opt", module, "-o", "pipe")
        reader.join(timeout=60)
        self.assertEqual(result.code, 0, result)
        self.assertEqual(received, [self.read(module)])
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))


# ---------------------------------------------------------------------------
# Inputs and options.


def version_word(data):
    return struct.unpack("<I", data[4:8])[0]


class InputTests(CliTestCase):
    def test_glsl_compiled_in_process(self):
        name = self.write("shader.frag", FRAG)
        result = self.conv("validate", name)
        self.assertEqual(result.code, 0, result)
        self.assertIn("vulkan1.2", result.text)  # GLSL's default target env
        result = self.conv("opt", name, "-o", "out.spv")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(result.err, "")
        out = self.read("out.spv")
        self.assertEqual(struct.unpack("<I", out[:4])[0], SPIRV_MAGIC)
        self.assertEqual(version_word(out), 0x00010500)  # Vulkan 1.2 means SPIR-V 1.5
        self.assertTrue(self.spirv_val_accepts("out.spv", "vulkan1.2"))

    def test_glsl_in_process_matches_glslangValidator(self):
        # Compiled "like glslangValidator -V" for the same env: same module.
        self.write("shader.frag", FRAG)
        self.glslang("shader.frag", "reference.spv", env="vulkan1.2")
        result = self.conv("dis", "shader.frag")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(result.text, self.spirv_dis("reference.spv"))

    def test_binary_big_endian_and_stdin_give_identical_output(self):
        module = self.frag_spv()
        data = self.read(module)
        self.write("big.spv", swap_words(data))
        self.assertNotEqual(self.read("big.spv"), data)
        runs = [("little-endian", ["opt", module, "-o", "le.out.spv"], b""),
                ("big-endian", ["opt", "big.spv", "-o", "be.out.spv"], b""),
                ("stdin", ["opt", "-", "-o", "stdin.out.spv"], data)]
        for label, args, stdin in runs:
            with self.subTest(input=label):
                result = self.conv(*args, stdin=stdin)
                self.assertEqual(result.code, 0, result)
        le = self.read("le.out.spv")
        self.assertEqual(self.read("be.out.spv"), le)
        self.assertEqual(self.read("stdin.out.spv"), le)
        self.assertEqual(struct.unpack("<I", le[:4])[0], SPIRV_MAGIC)  # written little-endian
        self.assertTrue(self.spirv_val_accepts("le.out.spv", "vulkan1.0"))

    def test_big_endian_on_stdin(self):
        module = self.frag_spv()
        data = self.read(module)
        self.conv("opt", module, "-o", "le.out.spv")
        result = self.conv("opt", "-", "-o", "-", stdin=swap_words(data))
        self.assertEqual(result.code, 0, result)
        self.assertEqual(result.out, self.read("le.out.spv"))

    def test_assembly_input(self):
        module = self.frag_spv()
        original = self.spirv_dis(module)
        self.write("shader.spvasm", original)
        result = self.conv("opt", "shader.spvasm", "-o", "out.spv")
        self.assertEqual(result.code, 0, result)
        self.assertTrue(self.spirv_val_accepts("out.spv", "vulkan1.0"))
        # The same module, down to the ids and the "; Version: 1.0" the text
        # names; only the generator word is the assembler's now.
        def without_generator(text):
            return [line for line in text.splitlines() if not line.startswith("; Generator:")]
        self.assertEqual(without_generator(self.spirv_dis("out.spv")), without_generator(original))

    def test_define(self):
        name = self.write("defines.frag", FRAG_NEEDS_DEFINES)
        result = self.conv("opt", name, "-o", "out.spv")
        self.assertEqual(result.code, 2, result)
        self.assertFalse(self.exists("out.spv"))
        result = self.conv("opt", "-D", "FEATURE", "-D", "SCALE=0.5", name, "-o", "out.spv")
        self.assertEqual(result.code, 0, result)
        self.assertTrue(self.spirv_val_accepts("out.spv", "vulkan1.2"))
        self.assertRegex(self.spirv_dis("out.spv"), r"OpConstant %float 0\.5\b")

    def test_include_directory(self):
        self.write("include/x.glsl", INCLUDED)
        name = self.write("main.frag", FRAG_WITH_INCLUDE)
        result = self.conv("opt", name, "-o", "out.spv")
        self.assertEqual(result.code, 2, result)
        self.assertIn("main.frag", result.err)
        for args in (["-I", "include"], ["-Iinclude"], ["-I", self.path("include")]):
            with self.subTest(args=args):
                result = self.conv("opt", *args, name, "-o", "out.spv")
                self.assertEqual(result.code, 0, result)
                self.assertTrue(self.spirv_val_accepts("out.spv", "vulkan1.2"))
                self.assertIn("included_helper", self.spirv_dis("out.spv"))

    def test_debug_info(self):
        name = self.write("shader.frag", FRAG)
        self.assertEqual(self.conv("opt", name, "-o", "plain.spv").code, 0)
        self.assertNotIn("OpLine", self.spirv_dis("plain.spv"))
        result = self.conv("opt", "-g", name, "-o", "debug.spv")
        self.assertEqual(result.code, 0, result)
        self.assertTrue(self.spirv_val_accepts("debug.spv", "vulkan1.2"))
        self.assertRegex(self.spirv_dis("debug.spv"), r"\bOpLine\b")

    def test_stage_option(self):
        name = self.write("shader.glsl", FRAG)
        result = self.conv("opt", "--stage", "frag", name, "-o", "out.spv")
        self.assertEqual(result.code, 0, result)
        self.assertTrue(self.spirv_val_accepts("out.spv", "vulkan1.2"))
        self.assertRegex(self.spirv_dis("out.spv"), r"OpEntryPoint Fragment %main \"main\"")
        # The same source from stdin, which has no extension either.
        result = self.conv("opt", "--stage", "frag", "-", "-o", "stdin.spv", stdin=FRAG.encode())
        self.assertEqual(result.code, 0, result)
        self.assertEqual(self.read("stdin.spv"), self.read("out.spv"))

    def test_text_output(self):
        module = self.frag_spv()
        result = self.conv("opt", "--text", module, "-o", "out.spvasm")
        self.assertEqual(result.code, 0, result)
        text = self.read("out.spvasm").decode()
        self.assertIn("OpCapability Shader", text)
        self.tool("spirv-as", "--target-env", "spv1.0", "out.spvasm", "-o", "again.spv")
        self.assertTrue(self.spirv_val_accepts("again.spv", "vulkan1.0"))

    def test_several_inputs_into_directory(self):
        self.frag_spv("one.spv")
        self.write("two.frag", FRAG)
        self.write("three.spvasm", SHADER_ASM)
        os.mkdir(self.path("out"))
        result = self.conv("opt", "one.spv", "two.frag", "three.spvasm", "-o", "out")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(sorted(os.listdir(self.path("out"))), ["one.spv", "three.spv", "two.spv"])
        for name, env in (("one.spv", "vulkan1.0"), ("two.spv", "vulkan1.2"),
                          ("three.spv", "spv1.6")):
            with self.subTest(output=name):
                self.assertTrue(self.spirv_val_accepts("out/" + name, env))
        self.assertEqual(self.read("out/one.spv"), self.read("one.spv"))

    def test_several_inputs_need_a_directory(self):
        self.frag_spv("one.spv")
        self.write("two.frag", FRAG)
        for output in ("out.spv", "missing_dir/"):
            with self.subTest(output=output):
                result = self.conv("opt", "one.spv", "two.frag", "-o", output)
                self.assertEqual(result.code, 2, result)
                self.assertFalse(self.exists(output))
        self.frag_spv("existing.spv")
        old = self.read("existing.spv")
        result = self.conv("opt", "one.spv", "two.frag", "-o", "existing.spv")
        self.assertEqual(result.code, 2, result)
        self.assertEqual(self.read("existing.spv"), old)

    def test_default_env_shader_spirv_1_3_is_vulkan_1_1(self):
        name = self.assemble(SHADER_ASM, "shader13.spv", env="spv1.3")
        # Premise: the choice matters. Vulkan 1.0 means SPIR-V 1.0 and rejects it.
        self.assertTrue(self.spirv_val_accepts(name, "vulkan1.1"))
        self.assertFalse(self.spirv_val_accepts(name, "vulkan1.0"))
        result = self.conv("validate", name)
        self.assertEqual(result.code, 0, result)
        self.assertRegex(result.text, r"\bvulkan1\.1\b")
        result = self.conv("validate", "--target-env", "vulkan1.0", name)
        self.assertEqual(result.code, 1, result)

    def test_default_env_kernel_is_universal(self):
        name = self.assemble(KERNEL_ASM, "kernel.spv", env="spv1.2")
        self.assertTrue(self.spirv_val_accepts(name, "spv1.2"))
        self.assertFalse(self.spirv_val_accepts(name, "vulkan1.1"))  # no Shader: not Vulkan
        result = self.conv("validate", name)
        self.assertEqual(result.code, 0, result)
        self.assertRegex(result.text, r"\bspv1\.\d\b")
        self.assertNotIn("vulkan", result.text)
        result = self.conv("opt", name, "-o", "out.spv")
        self.assertEqual(result.code, 0, result)
        self.assertTrue(self.spirv_val_accepts("out.spv", "spv1.2"))

    def test_validate_several_inputs_exits_with_the_worst(self):
        good = self.frag_spv()
        invalid = self.invalid_spv()
        result = self.conv("validate", good, invalid)
        self.assertEqual(result.code, 1, result)
        self.assertIn(good, result.text)           # the valid one is still reported
        result = self.conv("validate", good, invalid, "missing.spv")
        self.assertEqual(result.code, 2, result)
        self.assertEqual(len(result.err.splitlines()), 2, result.err)


# ---------------------------------------------------------------------------
# lint. Verdicts from the Vulkan spec: an explicit derivative (dFdx) must run
# in control flow uniform within its quad (error), an implicit-LOD texture()
# there gives undefined results (warning); a fragment input varies per
# invocation, so a branch on it is divergent. Line numbers are 1-based.

LINT_FRAG = """\
#version 450
layout(location = 0) in float v;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
void main() {
  vec4 c = texture(tex, uv);
  if (v > 0.5) {
    c.x += dFdx(v);%s
    c += texture(tex, uv * 2.0);
  }
  color = c;
}
"""
LINT_DERIVATIVE_LINE = 9
LINT_SAMPLE_LINE = 10

# Only the implicit-LOD sample in the branch: one warning.
LINT_WARNING_FRAG = LINT_FRAG.replace("    c.x += dFdx(v);%s\n", "")
assert LINT_WARNING_FRAG != LINT_FRAG

# A compute shader with a workgroup barrier under a branch on the local
# invocation id (divergent): an error, as assembly without debug info.
LINT_BARRIER_ASM = """\
; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 64 1 1
OpName %main "main"
OpDecorate %lid BuiltIn LocalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%v3uint = OpTypeVector %uint 3
%ptr = OpTypePointer Input %v3uint
%lid = OpVariable %ptr Input
%uint_0 = OpConstant %uint 0
%uint_2 = OpConstant %uint 2
%uint_264 = OpConstant %uint 264
%main = OpFunction %void None %fn
%entry = OpLabel
%id = OpLoad %v3uint %lid
%x = OpCompositeExtract %uint %id 0
%c = OpIEqual %bool %x %uint_0
OpSelectionMerge %merge None
OpBranchConditional %c %then %merge
%then = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_264
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
"""


class LintCommandTests(CliTestCase):
    def lint_json(self, *args, code=None):
        result = self.conv("lint", "--format", "json", *args)
        if code is not None:
            self.assertEqual(result.code, code, result)
        return json.loads(result.text)

    def findings(self, report):
        return [(f["rule"], f["severity"], f["location"]["line"])
                for entry in report["files"] for f in entry["findings"]]

    def test_findings_with_one_cause_are_one_finding(self):
        # Three implicit-LOD samples after one per-pixel discard: one cause.
        name = self.write("g.frag", """#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) uniform sampler2D a;
void main() {
    if (uv.x > 0.5) discard;
    o = texture(a, uv);
    o += texture(a, uv * 2.0);
    o += texture(a, uv * 3.0);
}
""")
        report = self.lint_json("-g", name, code=0)
        self.assertEqual(self.findings(report), [("derivative-after-discard", "warning", 7)])
        (finding,) = report["files"][0]["findings"]
        self.assertEqual([site["location"]["line"] for site in finding["more_sites"]], [8, 9])
        for site in finding["more_sites"]:
            self.assertEqual(site["message"], finding["message"])
        text = self.conv("lint", "-g", name).text
        self.assertEqual(text.count("note: and here, with the same cause\n"), 2, text)
        self.assertTrue(text.endswith("0 errors, 1 warning and 0 notes in 1 file\n"), text)
        separate = self.lint_json("-g", "--no-group", name, code=0)
        self.assertEqual(self.findings(separate), [("derivative-after-discard", "warning", line)
                                                   for line in (7, 8, 9)])
        for f in separate["files"][0]["findings"]:
            self.assertEqual(f["more_sites"], [])
            self.assertEqual(f["notes"], finding["notes"])
        sarif = json.loads(self.conv("lint", "-g", "--format", "sarif", name).text)
        (result,) = sarif["runs"][0]["results"]
        self.assertTrue(result["message"]["text"].endswith(
            "(also [line 8](%d), [line 9](%d), with the same cause)"
            % (len(finding["notes"]) + 1, len(finding["notes"]) + 2)), result["message"])
        self.assertEqual(len(result["relatedLocations"]), len(finding["notes"]) + 2)

    def test_text_report_and_exit_code(self):
        name = self.write("a.frag", LINT_FRAG % "")
        result = self.conv("lint", "-g", name)
        self.assertEqual(result.code, 1, result)  # an error-level finding
        self.assertEqual(result.err, "")
        text = result.text
        self.assertIn("a.frag:%d: error: " % LINT_DERIVATIVE_LINE, text)
        self.assertIn("[derivative-divergent-cf]", text)
        self.assertIn("a.frag:%d: warning: " % LINT_SAMPLE_LINE, text)
        # The source line with a caret under its first character.
        self.assertRegex(text, r"(?m)^\s+%d \|     c\.x \+= dFdx\(v\);\n\s+\|     \^$"
                         % LINT_DERIVATIVE_LINE)
        # The explanation reaches the input.
        self.assertIn("note: control flow depends on a condition computed from 'v'", text)
        self.assertIn("'v' is a shader input", text)
        self.assertTrue(text.endswith("1 error, 1 warning and 0 notes in 1 file\n"), text)

    def test_json_report(self):
        name = self.write("a.frag", LINT_FRAG % "")
        report = self.lint_json("-g", name, code=1)
        self.assertEqual(report["tool"], "spirv-conv")
        self.assertRegex(report["version"], r"^\d+\.\d+\.\d+$")
        (entry,) = report["files"]
        self.assertEqual(entry["file"], name)
        self.assertEqual(self.findings(report),
                         [("derivative-divergent-cf", "error", LINT_DERIVATIVE_LINE),
                          ("derivative-divergent-cf", "warning", LINT_SAMPLE_LINE)])
        finding = entry["findings"][0]
        self.assertEqual(set(finding),
                         {"rule", "severity", "message", "location", "more_sites", "notes"})
        self.assertEqual(finding["more_sites"], [])
        self.assertEqual(set(finding["location"]),
                         {"file", "line", "column", "function", "block", "instruction"})
        self.assertEqual(finding["location"]["file"], name)
        self.assertEqual(finding["location"]["function"], "main")
        self.assertRegex(finding["location"]["instruction"], r"= OpDPdx ")
        self.assertTrue(finding["notes"])
        for note in finding["notes"]:
            self.assertEqual(set(note), {"message", "location"})

    def test_without_debug_info(self):
        name = self.write("a.frag", LINT_FRAG % "")
        report = self.lint_json(name, code=1)
        location = report["files"][0]["findings"][0]["location"]
        self.assertIsNone(location["file"])
        self.assertIsNone(location["line"])
        self.assertEqual(location["function"], "main")
        result = self.conv("lint", name)
        self.assertRegex(result.text, r"(?m)^a\.frag: error: .*\n  in function 'main', block "
                                      r"%\w+: %\w+ = OpDPdx ")

    def test_nonsemantic_debug_info_lines(self):
        # glslangValidator -gVS: DebugLine (NonSemantic.Shader.DebugInfo.100)
        # instead of OpLine, with the source text in DebugSource.
        self.write("a.frag", LINT_FRAG % "")
        self.tool("glslangValidator", "-V", "-gVS", "a.frag", "-o", "a.spv")
        # (glslang still puts one OpLine before each OpFunction; the body's
        # lines are all DebugLines.)
        body = self.spirv_dis("a.spv").split("OpFunction ", 1)[1]
        self.assertIn("DebugLine", body, "test premise")
        self.assertNotIn("OpLine ", body, "test premise")
        report = self.lint_json("a.spv", code=1)
        self.assertEqual(self.findings(report),
                         [("derivative-divergent-cf", "error", LINT_DERIVATIVE_LINE),
                          ("derivative-divergent-cf", "warning", LINT_SAMPLE_LINE)])
        self.assertEqual(report["files"][0]["findings"][0]["location"]["file"], "a.frag")
        result = self.conv("lint", "a.spv")
        self.assertIn("| " + "    c.x += dFdx(v);", result.text)

    def test_stdin(self):
        result = self.conv("lint", "--format", "json", "-", stdin=self.read(self.frag_spv()))
        self.assertEqual(result.code, 0, result)
        self.assertEqual(json.loads(result.text)["files"][0]["file"], "-")

    def test_warnings_exit_0_unless_werror(self):
        name = self.write("w.frag", LINT_WARNING_FRAG)
        result = self.conv("lint", name)
        self.assertEqual(result.code, 0, result)
        self.assertIn(": warning: ", result.text)
        self.assertEqual(self.conv("lint", "--werror", name).code, 1)

    def test_clean_shader(self):
        name = self.write("clean.frag", FRAG)
        result = self.conv("lint", name)
        self.assertEqual((result.code, result.out, result.err), (0, b"", ""), result)
        self.assertEqual(self.findings(self.lint_json(name, code=0)), [])

    def test_assembly_barrier(self):
        name = self.write("k.spvasm", LINT_BARRIER_ASM)
        report = self.lint_json(name, code=1)
        self.assertEqual(self.findings(report), [("barrier-divergent-cf", "error", None)])
        self.assertEqual(report["files"][0]["findings"][0]["location"]["instruction"],
                         "OpControlBarrier %uint_2 %uint_2 %uint_264")

    def test_output_file(self):
        name = self.write("a.frag", LINT_FRAG % "")
        result = self.conv("lint", "--format", "json", "-o", "report.json", name)
        self.assertEqual(result.code, 1, result)
        self.assertEqual(result.out, b"")
        report = json.loads(self.read("report.json"))
        self.assertEqual(len(report["files"][0]["findings"]), 2)
        self.assert_no_temp_files()

    def test_rule_levels(self):
        name = self.write("a.frag", LINT_FRAG % "")
        report = self.lint_json("--rule", "derivative-divergent-cf=warning", name, code=0)
        self.assertEqual({f[1] for f in self.findings(report)}, {"warning"})
        report = self.lint_json("--rule", "derivative-divergent-cf=off", name, code=0)
        self.assertEqual(self.findings(report), [])
        for bad in ("no-such-rule=error", "derivative-divergent-cf=loud"):
            with self.subTest(bad=bad):
                result = self.conv("lint", "--rule", bad, name)
                self.assertEqual(result.code, 2, result)
                self.assertEqual(len(result.err.splitlines()), 1, result.err)
                self.assertTrue(result.err.startswith(ERROR_PREFIX), result.err)

    def test_suppression_comment(self):
        name = self.write("a.frag",
                          LINT_FRAG % " // spirv-conv: allow(derivative-divergent-cf)")
        report = self.lint_json("-g", name, code=0)
        self.assertEqual(self.findings(report),
                         [("derivative-divergent-cf", "warning", LINT_SAMPLE_LINE)])

    def test_directory_batch(self):
        self.write("d/a.frag", LINT_FRAG % "")
        self.write("d/sub/clean.frag", FRAG)
        self.write("d/k.spvasm", LINT_BARRIER_ASM)
        self.write("d/notes.txt", "not a shader")
        report = self.lint_json("d", code=1)
        self.assertEqual([f["file"] for f in report["files"]],
                         [os.path.join("d", "a.frag"), os.path.join("d", "k.spvasm"),
                          os.path.join("d", "sub", "clean.frag")])
        # Parallel: the same report.
        for jobs in ("2", "8"):
            self.assertEqual(self.lint_json("-j", jobs, "d", code=1), report)

    def test_bad_file_in_a_batch(self):
        good = self.write("a.frag", LINT_FRAG % "")
        result = self.conv("lint", "--format", "json", good, "missing.spv")
        self.assertEqual(result.code, 2, result)  # the worst: bad input
        self.assert_one_error_line(result, "missing.spv")
        report = json.loads(result.text)
        self.assertEqual(len(report["files"][0]["findings"]), 2)
        self.assertEqual(report["files"][1]["file"], "missing.spv")
        self.assertIn("error", report["files"][1])

    def test_empty_directory(self):
        os.mkdir(self.path("empty"))
        result = self.conv("lint", "empty")
        self.assertEqual(result.code, 2, result)
        self.assert_one_error_line(result, "empty")


# ---------------------------------------------------------------------------
# dis.


class DisTests(CliTestCase):
    def test_dis_shader(self):
        result = self.conv("dis", self.frag_spv())
        self.assertEqual(result.code, 0, result)
        self.assertEqual(result.err, "")
        self.assertRegex(result.text, r"(?m)^\s*OpCapability Shader$")
        self.assertEqual(result.text, self.spirv_dis("shader.spv"))

    def test_dis_invalid_module(self):
        # dis does not validate: an invalid but parseable module is shown.
        name = self.invalid_spv()
        result = self.conv("dis", name)
        self.assertEqual(result.code, 0, result)
        self.assertIn("OpEntryPoint GLCompute", result.text)
        self.assertEqual(result.text, self.spirv_dis(name))


class MessageFormatTests(CliTestCase):
    def test_assembly_error_is_one_line_for_unterminated_string(self):
        name = self.write("string.spvasm", 'OpCapability Shader\nOpSourceExtension "abc\n')
        result = self.conv("validate", name)
        self.assertEqual(result.code, 2, result)
        self.assert_one_error_line(result, name)


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--allocator", choices=("mimalloc", "system"))
    args, rest = parser.parse_known_args()
    global SPIRV_CONV, ALLOCATOR
    ALLOCATOR = args.allocator
    SPIRV_CONV = os.path.abspath(args.spirv_conv)
    if not os.access(SPIRV_CONV, os.X_OK):
        sys.exit("cli_test: error: spirv-conv '%s' is not an executable" % args.spirv_conv)
    missing = [tool for tool in ("glslangValidator", "spirv-as", "spirv-dis", "spirv-val")
               if shutil.which(tool) is None]
    if missing:
        sys.exit("cli_test: error: not on PATH: " + ", ".join(missing))
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
