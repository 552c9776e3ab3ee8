#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Black-box tests of input from toolchains newer than the bundled SPIRV-Tools
2023.1 (docs/cli.md#input-from-newer-toolchains), and of the block-layout hint.

  python3 test/cli/newer_toolchains_test.py --spirv-conv PATH [unittest options]

Shares cli_test.py's scaffolding. The modules are made by the real spirv-as
2023.1, which cannot name post-2023 enumerants: they are written as its
"!<number>" immediates (the words a newer compiler emits). The premise of each
test is checked with the real spirv-val: it rejects the module with its generic
parser message. Every expected line is written out in full here.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_test  # noqa: E402  (the shared scaffolding)

ERROR = cli_test.ERROR_PREFIX
WARNING = "spirv-conv: warning: "
BUNDLED = "the bundled SPIRV-Tools v2023.1"

# A compute shader with a branch on the invocation id. {declarations} follow
# its Shader capability, {modes} its LocalSize, {code} opens main's body.
COMPUTE = """; SPIR-V
; Version: 1.3
OpCapability Shader
{declarations}OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 64 1 1
{modes}OpDecorate %lid BuiltIn LocalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%one = OpConstant %float 1
%v3uint = OpTypeVector %uint 3
%ptr = OpTypePointer Input %v3uint
%lid = OpVariable %ptr Input
%bool = OpTypeBool
%zero = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
{code}%id = OpLoad %v3uint %lid
%x = OpCompositeExtract %uint %id 0
%c = OpIEqual %bool %x %zero
OpSelectionMerge %m None
OpBranchConditional %c %t %m
%t = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
"""

# SPV_KHR_float_controls2: capability FloatControls2 (6029) and execution mode
# FPFastMathDefault (6028, an OpExecutionModeId).
FLOAT_CONTROLS2 = dict(
    declarations='OpCapability !6029\nOpExtension "SPV_KHR_float_controls2"\n',
    modes="OpExecutionModeId %main !6028 %float %zero\n", code="")
FLOAT_CONTROLS2_NAMES = ("capability FloatControls2 (6029, SPV_KHR_float_controls2) and "
                         "execution mode FPFastMathDefault (6028, SPV_KHR_float_controls2)")

# SPV_EXT_replicated_composites: capability 6024 and the instruction
# OpCompositeConstructReplicateEXT (opcode 4463, 4 words).
REPLICATED = dict(
    declarations='OpCapability !6024\nOpExtension "SPV_EXT_replicated_composites"\n',
    modes="", code="!0x0004116F %v4float %splat %one\n")
REPLICATED_NAMES = ("capability ReplicatedCompositesEXT (6024, SPV_EXT_replicated_composites) "
                    "and instruction OpCompositeConstructReplicateEXT (4463, "
                    "SPV_EXT_replicated_composites)")

PLAIN = dict(declarations="", modes="", code="")

# SPV_KHR_quad_control: capability QuadControlKHR (5087) and execution mode
# QuadDerivativesKHR (5088), which the grammar overlay teaches SPIRV-Tools 2023.1
# (docs/cli.md#spv_khr_quad_control).
QUAD_CONTROL = dict(
    declarations='OpCapability !5087\nOpExtension "SPV_KHR_quad_control"\n',
    modes="OpExecutionMode %main !5088\n", code="")


class NewerToolchainTests(cli_test.CliTestCase):
    def module(self, name, parts, parser_message=None):
        """COMPUTE with |parts| assembled by spirv-as; spirv-val rejects it with
        |parser_message| (its generic message) when given."""
        self.assemble(COMPUTE.format(**parts), name, env="spv1.3")
        if parser_message:
            proc = self.tool("spirv-val", "--target-env", "vulkan1.1", name, expect_ok=False)
            self.assertNotEqual(proc.returncode, 0, "test premise: spirv-val accepts " + name)
            self.assertIn(parser_message, proc.stderr.decode() + proc.stdout.decode(),
                          "test premise: spirv-val's message")
        return name

    def assert_lines(self, result, code, stderr_lines):
        self.assertEqual(result.code, code, result)
        self.assertEqual(result.err.splitlines(), stderr_lines, result)

    # --- An enumerant the bundled SPIRV-Tools does not know -------------------

    def test_validate_names_the_capability_and_mode_with_exit_2(self):
        spv = self.module("fc2.spv", FLOAT_CONTROLS2, "Invalid capability operand: 6029")
        self.assert_lines(self.conv("validate", spv), 2, [
            ERROR + "fc2.spv: cannot validate for vulkan1.1: " + BUNDLED + " does not know " +
            FLOAT_CONTROLS2_NAMES + "; the rest of the module is valid, and --skip-validation "
            "analyses it without those declarations"])

    def test_quad_control_is_understood(self):
        spv = self.module("quad.spv", QUAD_CONTROL, "Invalid capability operand: 5087")
        result = self.conv("validate", spv)
        self.assertEqual(result.code, 0, result)
        self.assertEqual(result.err, "", result)
        self.assertEqual(self.conv("lint", spv).code, 0)
        self.assertEqual(self.conv("opt", "-O", spv, "-o", "out.spv").code, 0)
        text = self.conv("dis", "out.spv").text
        self.assertIn("OpCapability QuadControlKHR", text)
        self.assertIn("QuadDerivativesKHR", text)

    def test_every_command_gives_the_same_line(self):
        spv = self.module("fc2.spv", FLOAT_CONTROLS2)
        line = (ERROR + "fc2.spv: cannot validate for vulkan1.1: " + BUNDLED + " does not know " +
                FLOAT_CONTROLS2_NAMES + "; the rest of the module is valid, and "
                "--skip-validation analyses it without those declarations")
        for command in (["uniformity", spv], ["lint", spv], ["cfg", spv], ["run", spv],
                        ["opt", spv, "-o", "out.spv"], ["opt", "-O", spv, "-o", "out.spv"],
                        ["check-motion", spv, spv]):
            with self.subTest(command=command[0]):
                result = self.conv(*command)
                self.assertEqual(result.code, 2, result)
                # lint also names the input in its summary on stdout; the
                # error line is the one on stderr.
                self.assertEqual(result.err.splitlines(), [line], result)
        self.assertFalse(self.exists("out.spv"))
        self.assert_lines(self.conv("dis", spv), 2, [
            ERROR + "fc2.spv: cannot disassemble: " + BUNDLED + " does not know " +
            FLOAT_CONTROLS2_NAMES])

    def test_skip_validation_analyses_the_module_without_the_declarations(self):
        spv = self.module("fc2.spv", FLOAT_CONTROLS2)
        plain = self.module("plain.spv", PLAIN)  # the same module without them
        warning = (WARNING + "fc2.spv: not validated; analysed without " + FLOAT_CONTROLS2_NAMES +
                   ", which " + BUNDLED + " does not know")
        for command in (["uniformity"], ["uniformity", "--format", "json"], ["lint"],
                        ["lint", "--format", "json"], ["cfg"]):
            with self.subTest(command=command):
                result = self.conv(*command, "--skip-validation", spv)
                self.assert_lines(result, 0, [warning])
                expected = self.conv(*command, plain)
                self.assertEqual(expected.code, 0, expected)
                self.assertEqual(result.text.replace("fc2.spv", "plain.spv"), expected.text)
        # The simulator runs it too.
        result = self.conv("run", "--skip-validation", spv)
        self.assert_lines(result, 0, [warning])

    def test_opt_never_writes_a_module_without_them(self):
        spv = self.module("fc2.spv", FLOAT_CONTROLS2)
        for command in (["opt", "--skip-validation", spv, "-o", "out.spv"],
                        ["opt", "--skip-validation", "--fix-nonuniform", spv, "-o", "out.spv"],
                        ["opt", "--skip-validation", "-O", spv, "-o", "out.spv"]):
            with self.subTest(command=command):
                self.assert_lines(self.conv(*command), 2, [
                    ERROR + "fc2.spv: cannot load: " + BUNDLED + " does not know " +
                    FLOAT_CONTROLS2_NAMES + " (only the analysis commands leave such "
                    "declarations out; spirv-conv never writes a module without them)"])
                self.assertFalse(self.exists("out.spv"))

    def test_a_newer_instruction_cannot_be_loaded(self):
        spv = self.module("repl.spv", REPLICATED, "Invalid capability operand: 6024")
        self.assert_lines(self.conv("validate", spv), 2, [
            ERROR + "repl.spv: cannot validate for vulkan1.1: " + BUNDLED + " does not know " +
            REPLICATED_NAMES + ", so spirv-conv cannot load the module (not even with "
            "--skip-validation)"])
        for command in ("uniformity", "lint", "cfg"):
            with self.subTest(command=command):
                result = self.conv(command, "--skip-validation", spv)
                self.assertEqual(result.code, 2, result)
                self.assertEqual(result.err.splitlines(), [
                    ERROR + "repl.spv: cannot load: " + BUNDLED + " does not know " +
                    REPLICATED_NAMES + ", so its IR cannot represent the module"], result)

    def test_a_batch_ends_with_exit_2(self):
        fc2 = self.module("fc2.spv", FLOAT_CONTROLS2)
        plain = self.module("plain.spv", PLAIN)
        result = self.conv("validate", plain, fc2)
        self.assertEqual(result.code, 2, result)
        self.assertEqual(result.text, "plain.spv: valid (vulkan1.1, SPIR-V 1.3, binary input)\n")

    def test_assembly_naming_a_newer_capability(self):
        source = self.write("named.spvasm", COMPUTE.format(
            declarations="OpCapability FloatControls2\n", modes="", code=""))
        self.assert_lines(self.conv("validate", source), 2, [
            ERROR + "named.spvasm:4:14: " + BUNDLED + " does not know capability FloatControls2 "
            "(6029, SPV_KHR_float_controls2); its assembler takes the number, !6029"])

    def test_an_extension_the_validator_does_not_know(self):
        # SPV_KHR_compute_shader_derivatives made the NV capability (5288) and
        # mode (5289) KHR; the 2023.1 validator wants the NV extension.
        spv = self.module("derivs.spv", dict(
            declarations="OpCapability ComputeDerivativeGroupQuadsNV\n"
                         'OpExtension "SPV_KHR_compute_shader_derivatives"\n',
            modes="OpExecutionMode %main DerivativeGroupQuadsNV\n", code=""),
            "Capability ComputeDerivativeGroupQuadsNV is not allowed")
        self.assert_lines(self.conv("validate", spv), 2, [
            ERROR + "derivs.spv: cannot validate for vulkan1.1: " + BUNDLED + " does not know "
            "extension SPV_KHR_compute_shader_derivatives, which may allow what it rejects: "
            "Capability ComputeDerivativeGroupQuadsNV is not allowed by Vulkan 1.1 specification "
            "(or requires extension) | OpCapability ComputeDerivativeGroupQuadsNV"])
        # It loads as it is: --skip-validation analyses it, with no warning.
        result = self.conv("uniformity", "--skip-validation", spv)
        self.assert_lines(result, 0, [])

    # --- Block layout ---------------------------------------------------------

    def uniform_block(self, name, offset):
        """A uniform block whose vec3 member is at |offset| (SPIR-V 1.0)."""
        text = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %Block Block
OpMemberDecorate %Block 0 Offset 0
OpMemberDecorate %Block 1 Offset {offset}
OpDecorate %ubo DescriptorSet 0
OpDecorate %ubo Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%Block = OpTypeStruct %float %v3float
%ptr = OpTypePointer Uniform %Block
%ubo = OpVariable %ptr Uniform
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
""".format(offset=offset)
        return self.assemble(text, name)

    def test_a_scalar_layout_block_names_the_flag_that_accepts_it(self):
        spv = self.uniform_block("scalar.spv", 8)
        self.assertFalse(self.spirv_val_accepts(spv, "vulkan1.0"), "test premise")
        self.assert_lines(self.conv("validate", spv), 1, [
            ERROR + "scalar.spv: invalid SPIR-V for vulkan1.0: Structure id 2 decorated as Block "
            "for variable in Uniform storage class must follow standard uniform buffer layout "
            "rules: member 1 at offset 8 is not aligned to 16 | %_struct_2 = OpTypeStruct %float "
            "%v3float; --scalar-block-layout accepts it"])
        # The same with the relaxed layout of Vulkan 1.1.
        result = self.conv("validate", "--target-env", "vulkan1.1", spv)
        self.assertEqual(result.code, 1, result)
        self.assertTrue(result.err.endswith(
            "relaxed uniform buffer layout rules: member 1 is an improperly straddling vector at "
            "offset 8 | %_struct_2 = OpTypeStruct %float %v3float; --scalar-block-layout "
            "accepts it\n"), result)
        # The flag does accept it, and the analysis commands say the same.
        self.assert_lines(self.conv("validate", "-q", "--scalar-block-layout", spv), 0, [])
        result = self.conv("uniformity", spv)
        self.assertEqual(result.code, 2, result)
        self.assertTrue(result.err.endswith("; --scalar-block-layout accepts it\n"), result)

    def test_a_relaxed_layout_block_names_relax_block_layout(self):
        spv = self.uniform_block("relaxed.spv", 4)
        result = self.conv("validate", spv)
        self.assertEqual(result.code, 1, result)
        self.assertTrue(result.err.endswith("; --relax-block-layout accepts it\n"), result)
        self.assert_lines(self.conv("validate", "-q", "--relax-block-layout", spv), 0, [])

    def test_no_hint_when_no_relaxation_accepts(self):
        spv = self.uniform_block("overlap.spv", 2)  # overlaps member 0
        result = self.conv("validate", spv)
        self.assertEqual(result.code, 1, result)
        self.assertNotIn("accepts it", result.err)


if __name__ == "__main__":
    cli_test.main()
