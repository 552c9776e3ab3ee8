// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Modules from toolchains newer than the bundled SPIRV-Tools 2023.1
// (docs/cli.md#input-from-newer-toolchains): the enumerant or instruction it
// does not know is named, --skip-validation analyses what can be loaded
// without declarations, and block-layout rejections name the relaxation that
// accepts them. The enumerants are written as the assembler's "!<number>"
// immediates, which SPIRV-Tools 2023.1 assembles without knowing them.

#include "io/newer_spirv.h"

#include <iostream>
#include <string>
#include <vector>

#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/validate.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

// A valid compute shader with |declarations| after its first capability and
// |code| in main's body.
std::string Compute(const std::string& declarations, const std::string& code = "",
                    const std::string& modes = "") {
  return "; Version: 1.3\nOpCapability Shader\n" + declarations +
         R"(OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
)" + modes +
         R"(%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%one = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
)" + code +
         "OpReturn\nOpFunctionEnd\n";
}

const std::string kFloatControls2 = "OpCapability !6029\nOpExtension \"SPV_KHR_float_controls2\"\n";
// OpCompositeConstructReplicateEXT %v4float %10 %one: word count 4, opcode 4463.
const std::string kReplicate = "!0x0004116F %v4float %10 %one\n";

std::string DescribeAllOf(const io::NewerSpirvScan& scan) { return io::DescribeAll(scan.All()); }

TEST(NewerSpirv, AModuleThatParsesHasNothingNewer) {
  const SpirvBinary binary = test::MustAssemble(Compute(""));
  const io::NewerSpirvScan scan = io::ScanForNewerSpirv(binary.words, binary.target_env);
  EXPECT_TRUE(scan.parses);
  EXPECT_FALSE(scan.FoundNewer());
}

TEST(NewerSpirv, ANewerCapabilityIsNamedAndLeftOut) {
  const SpirvBinary binary = test::MustAssemble(Compute(kFloatControls2));
  const io::NewerSpirvScan scan = io::ScanForNewerSpirv(binary.words, binary.target_env);
  EXPECT_FALSE(scan.parses);
  ASSERT_EQ(scan.dropped.size(), 1u);
  EXPECT_EQ(scan.dropped[0].Describe(),
            "capability FloatControls2 (6029, SPV_KHR_float_controls2)");
  EXPECT_FALSE(scan.blocking);
  EXPECT_TRUE(scan.LoadsWithoutDropped());
  // The module without it: one instruction (two words) fewer, and it parses.
  EXPECT_EQ(scan.words.size() + 2, binary.words.size());
  EXPECT_TRUE(io::ScanForNewerSpirv(scan.words, binary.target_env).parses);
}

TEST(NewerSpirv, EachCapabilityAndModeIsNamedOnceInModuleOrder) {
  // SPV_EXT_shader_tile_image, declared twice over; SPV_KHR_float_controls2's
  // FPFastMathDefault through OpExecutionModeId.
  const SpirvBinary binary = test::MustAssemble(Compute(
      "OpCapability !4166\nOpCapability !4166\n" + kFloatControls2, "",
      "OpExecutionMode %main !4169\nOpExecutionMode %main !4170\nOpExecutionMode %main !4169\n"
      "OpExecutionModeId %main !6028 %float %one\n"));
  const io::NewerSpirvScan scan = io::ScanForNewerSpirv(binary.words, binary.target_env);
  EXPECT_TRUE(scan.LoadsWithoutDropped());
  EXPECT_EQ(DescribeAllOf(scan),
            "capability TileImageColorReadAccessEXT (4166, SPV_EXT_shader_tile_image), capability "
            "FloatControls2 (6029, SPV_KHR_float_controls2), execution mode "
            "NonCoherentColorAttachmentReadEXT (4169, SPV_EXT_shader_tile_image), execution mode "
            "NonCoherentDepthAttachmentReadEXT (4170, SPV_EXT_shader_tile_image) and execution "
            "mode FPFastMathDefault (6028, SPV_KHR_float_controls2)");
}

TEST(NewerSpirv, QuadControlIsUnderstood) {
  // The grammar overlay (cmake/spirv_grammar_overlay.py) adds SPV_KHR_quad_control:
  // nothing is newer, nothing is left out.
  const SpirvBinary binary = test::MustAssemble(R"(; Version: 1.3
OpCapability Shader
OpCapability GroupNonUniform
OpCapability QuadControlKHR
OpExtension "SPV_KHR_quad_control"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
OpExecutionMode %main QuadDerivativesKHR
OpExecutionMode %main RequireFullQuadsKHR
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%entry = OpLabel
%any = OpGroupNonUniformQuadAnyKHR %bool %true
%all = OpGroupNonUniformQuadAllKHR %bool %any
OpReturn
OpFunctionEnd
)");
  const io::NewerSpirvScan scan = io::ScanForNewerSpirv(binary.words, binary.target_env);
  EXPECT_TRUE(scan.parses);
  EXPECT_FALSE(scan.FoundNewer());
}

TEST(NewerSpirv, ANewerInstructionBlocksLoading) {
  const SpirvBinary binary = test::MustAssemble(Compute("OpCapability !6024\n", kReplicate));
  const io::NewerSpirvScan scan = io::ScanForNewerSpirv(binary.words, binary.target_env);
  ASSERT_TRUE(scan.blocking);
  EXPECT_FALSE(scan.LoadsWithoutDropped());
  EXPECT_EQ(DescribeAllOf(scan),
            "capability ReplicatedCompositesEXT (6024, SPV_EXT_replicated_composites) and "
            "instruction OpCompositeConstructReplicateEXT (4463, SPV_EXT_replicated_composites)");
}

TEST(NewerSpirv, OtherKindsAreNamedToo) {
  struct Case {
    std::string declarations, code, modes, expected;
  };
  const Case cases[] = {
      // A built-in of SPV_NV_cluster_acceleration_structure (blocks loading).
      {"OpDecorate %one BuiltIn !5436\n", "", "",
       "built-in ClusterIDNV (5436, SPV_NV_cluster_acceleration_structure)"},
      // A decoration of a newer extension.
      {"OpDecorate %one !5124 %one\n", "", "",
       "decoration ArrayStrideIdEXT (5124, SPV_EXT_descriptor_heap)"},
      // A fast-math flag of SPV_KHR_float_controls2 (a mask bit).
      {"OpDecorate %one FPFastMathMode !262144\n", "", "",
       "fast-math flag AllowTransform (0x40000, SPV_KHR_float_controls2)"},
      // An execution mode the table does not list is not left out.
      {"", "", "OpExecutionMode %main !7777\n",
       "execution mode 7777 (not in spirv-conv's table of newer SPIR-V either)"},
  };
  for (const Case& c : cases) {
    const SpirvBinary binary = test::MustAssemble(Compute(c.declarations, c.code, c.modes));
    const io::NewerSpirvScan scan = io::ScanForNewerSpirv(binary.words, binary.target_env);
    ASSERT_TRUE(scan.blocking) << c.expected;
    EXPECT_EQ(scan.blocking->Describe(), c.expected);
  }
}

TEST(NewerSpirv, ANewerStorageClassBlocksLoading) {
  const SpirvBinary binary = test::MustAssemble(Compute("OpCapability !5388\n", "", "") +
                                                "%ptr = OpTypePointer !5411 %float\n");
  const io::NewerSpirvScan scan = io::ScanForNewerSpirv(binary.words, binary.target_env);
  ASSERT_TRUE(scan.blocking);
  EXPECT_EQ(DescribeAllOf(scan),
            "capability ShaderInvocationReorderEXT (5388, SPV_EXT_shader_invocation_reorder) and "
            "storage class HitObjectAttributeEXT (5411, SPV_EXT_shader_invocation_reorder)");
}

TEST(NewerSpirv, AnUnlistedCapabilityIsLeftOutButSaidToBeUnknown) {
  const SpirvBinary binary = test::MustAssemble(Compute("OpCapability !7777\n"));
  const io::NewerSpirvScan scan = io::ScanForNewerSpirv(binary.words, binary.target_env);
  EXPECT_TRUE(scan.LoadsWithoutDropped());
  EXPECT_EQ(DescribeAllOf(scan),
            "capability 7777 (not in spirv-conv's table of newer SPIR-V either)");
}

TEST(NewerSpirv, ANewerSourceLanguageIsLeftOut) {
  // Slang writes OpSource Slang.
  const SpirvBinary binary = test::MustAssemble(Compute("OpSource !11 1\n"));
  const io::NewerSpirvScan scan = io::ScanForNewerSpirv(binary.words, binary.target_env);
  EXPECT_TRUE(scan.LoadsWithoutDropped());
  EXPECT_EQ(DescribeAllOf(scan), "source language Slang (11)");
}

TEST(NewerSpirv, AFloatEncodingOperandIsNamed) {
  // SPV_KHR_bfloat16: OpTypeFloat %bf16 16 BFloat16KHR, one word more than
  // SPIRV-Tools 2023.1's OpTypeFloat has (written as immediates: 4 words,
  // opcode 22).
  const SpirvBinary binary =
      test::MustAssemble(Compute("OpCapability !5116\n") + "!0x00040016 %bf16 16 0\n");
  const io::NewerSpirvScan scan = io::ScanForNewerSpirv(binary.words, binary.target_env);
  EXPECT_EQ(DescribeAllOf(scan),
            "capability BFloat16TypeKHR (5116, SPV_KHR_bfloat16) and floating-point encoding "
            "BFloat16KHR (0, SPV_KHR_bfloat16)");
}

TEST(NewerSpirv, UnknownExtensionsAreListedOnce) {
  const SpirvBinary binary = test::MustAssemble(
      Compute("OpExtension \"SPV_KHR_compute_shader_derivatives\"\nOpExtension "
              "\"SPV_KHR_shader_clock\"\nOpExtension \"SPV_KHR_compute_shader_derivatives\"\n"));
  EXPECT_EQ(io::UnknownExtensions(binary.words),
            std::vector<std::string>{"SPV_KHR_compute_shader_derivatives"});
}

TEST(NewerSpirv, AssemblerNamesOfNewerEnumerantsAreExplained) {
  Expected<SpirvBinary> binary =
      LoadSpirvFromBytes("new.spvasm", "OpCapability Shader\nOpCapability FloatControls2\n", {});
  ASSERT_FALSE(binary.ok());
  EXPECT_EQ(binary.error().message,
            "new.spvasm:2:14: the bundled SPIRV-Tools v2023.1 does not know capability "
            "FloatControls2 (6029, SPV_KHR_float_controls2); its assembler takes the number, "
            "!6029");
  binary = LoadSpirvFromBytes("op.spvasm", "%x = OpFmaKHR %f %a %b %c\n", {});
  ASSERT_FALSE(binary.ok());
  EXPECT_EQ(binary.error().message,
            "op.spvasm:1:6: the bundled SPIRV-Tools v2023.1 does not know instruction OpFmaKHR "
            "(4427, SPV_KHR_fma)");
}

// --- Through the validation gate -------------------------------------------

Status Validate(const std::string& text, ExitCode failure = ExitCode::kFindings,
                const ValidatorFlags& flags = {}) {
  const SpirvBinary binary = test::MustAssemble(text);
  return ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_1, flags, "m.spv", failure);
}

TEST(NewerSpirvValidation, ANewerCapabilityIsOneLineAndExitCode2) {
  const Status status = Validate(Compute(kFloatControls2));
  ASSERT_FALSE(status.ok());
  // Not "invalid" (exit 1 from `validate`): the validator cannot judge it.
  EXPECT_EQ(status.error().code, ExitCode::kBadInput);
  EXPECT_EQ(status.error().message,
            "m.spv: cannot validate for vulkan1.1: the bundled SPIRV-Tools v2023.1 does not know "
            "capability FloatControls2 (6029, SPV_KHR_float_controls2); the rest of the module is "
            "valid, and --skip-validation analyses it without that declaration");
}

TEST(NewerSpirvValidation, TheRestIsValidatedWithoutTheDeclarations) {
  // Without the capability, the module's OpEntryPoint still names no function.
  const Status status = Validate(
      "; Version: 1.3\nOpCapability Shader\nOpCapability !6029\n"
      "OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %void \"main\"\n"
      "%void = OpTypeVoid\n");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message.rfind(
                "m.spv: cannot validate for vulkan1.1: the bundled SPIRV-Tools v2023.1 does not "
                "know capability FloatControls2 (6029, SPV_KHR_float_controls2); "
                "--skip-validation analyses the module without that declaration, but spirv-val "
                "rejects the rest too: OpEntryPoint Entry Point <id> '1[%void]' is not a "
                "function.",
                0),
            0u)
      << status.error().message;
}

TEST(NewerSpirvValidation, ANewerInstructionCannotBeLoadedAtAll) {
  const Status status = Validate(Compute("OpCapability !6024\n", kReplicate), ExitCode::kBadInput);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::kBadInput);
  EXPECT_EQ(status.error().message,
            "m.spv: cannot validate for vulkan1.1: the bundled SPIRV-Tools v2023.1 does not know "
            "capability ReplicatedCompositesEXT (6024, SPV_EXT_replicated_composites) and "
            "instruction OpCompositeConstructReplicateEXT (4463, SPV_EXT_replicated_composites), "
            "so spirv-conv cannot load the module (not even with --skip-validation)");
}

TEST(NewerSpirvValidation, OutputValidationKeepsItsCode) {
  const Status status = Validate(Compute(kFloatControls2), ExitCode::kInvalidOutput);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::kInvalidOutput);
}

TEST(NewerSpirvValidation, AnUnknownExtensionIsNamedWhenTheModuleIsRejected) {
  // SPV_KHR_compute_shader_derivatives promoted the NV capability the
  // validator knows only from SPV_NV_compute_shader_derivatives.
  const Status status =
      Validate(Compute("OpCapability ComputeDerivativeGroupQuadsNV\nOpExtension "
                       "\"SPV_KHR_compute_shader_derivatives\"\n",
                       "", "OpExecutionMode %main DerivativeGroupQuadsNV\n"));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::kBadInput);
  EXPECT_EQ(status.error().message,
            "m.spv: cannot validate for vulkan1.1: the bundled SPIRV-Tools v2023.1 does not know "
            "extension SPV_KHR_compute_shader_derivatives, which may allow what it rejects: "
            "Capability ComputeDerivativeGroupQuadsNV is not allowed by Vulkan 1.1 specification "
            "(or requires extension) | OpCapability ComputeDerivativeGroupQuadsNV");
  // Accepted modules with unknown extensions stay accepted (spirv-val warns).
  EXPECT_TRUE(Validate(Compute("OpExtension \"SPV_KHR_compute_shader_derivatives\"\n")).ok());
}

Status ValidateVulkan10(const std::string& text, const ValidatorFlags& flags = {}) {
  const SpirvBinary binary = test::MustAssemble(text);
  return ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, flags, "b.spv", ExitCode::kFindings);
}

std::string Tail(const Status& status) {
  const std::string& message = status.error().message;
  const size_t semicolon = message.rfind("; ");
  return semicolon == std::string::npos ? "" : message.substr(semicolon);
}

TEST(LayoutHint, TheLeastRelaxationThatAcceptsIsNamed) {
  // vec3 at offset 4: relaxed block layout suffices.
  Status status = ValidateVulkan10(test::UniformBlockModule(4));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::kFindings);
  EXPECT_EQ(Tail(status), "; --relax-block-layout accepts it");
  // vec3 at offset 8 straddles a 16-byte boundary: only scalar layout.
  status = ValidateVulkan10(test::UniformBlockModule(8));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message,
            "b.spv: invalid SPIR-V for vulkan1.0: Structure id 2 decorated as Block for variable "
            "in Uniform storage class must follow standard uniform buffer layout rules: member 1 "
            "at offset 8 is not aligned to 16 | %_struct_2 = OpTypeStruct %float %v3float; "
            "--scalar-block-layout accepts it");
  // Already relaxed: the next one that helps.
  ValidatorFlags relaxed;
  relaxed.relax_block_layout = true;
  status = ValidateVulkan10(test::UniformBlockModule(8), relaxed);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(Tail(status), "; --scalar-block-layout accepts it");
}

TEST(LayoutHint, NoHintWhenNoRelaxationAccepts) {
  // Member 1 overlaps member 0: no layout allows that.
  const Status status = ValidateVulkan10(test::UniformBlockModule(2));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message.find("accepts it"), std::string::npos) << status.error().message;
}

// --- Through the IR loader (--skip-validation) ------------------------------

class IrLoadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SetIrWarningHandler([this](const std::string& line) { warnings_.push_back(line); });
  }
  void TearDown() override {
    SetIrWarningHandler(
        [](const std::string& line) { std::cerr << "spirv-conv: warning: " << line << "\n"; });
  }
  std::vector<std::string> warnings_;
};

TEST_F(IrLoadTest, AnalysisLoadsWithoutTheDeclarationsAndWarnsOnce) {
  SpirvBinary binary = test::MustAssemble(
      Compute(kFloatControls2, "", "OpExecutionModeId %main !6028 %float %one\n"));
  binary.name = "fc2.spv";
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context =
      BuildIrContext(binary, IrLoad::kAnalysis);
  ASSERT_TRUE(context.ok()) << context.error().message;
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0],
            "fc2.spv: not validated; analysed without capability FloatControls2 (6029, "
            "SPV_KHR_float_controls2) and execution mode FPFastMathDefault (6028, "
            "SPV_KHR_float_controls2), which the bundled SPIRV-Tools v2023.1 does not know");
  // The rest is there: main and its entry point.
  EXPECT_EQ((*context)->module()->entry_points().begin()->NumInOperands(), 3u);
}

TEST_F(IrLoadTest, AModuleThatIsWrittenIsNeverLoadedWithoutThem) {
  SpirvBinary binary = test::MustAssemble(Compute(kFloatControls2));
  binary.name = "fc2.spv";
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context =
      BuildIrContext(binary, IrLoad::kExact);
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.error().code, ExitCode::kBadInput);
  EXPECT_EQ(context.error().message,
            "fc2.spv: cannot load: the bundled SPIRV-Tools v2023.1 does not know capability "
            "FloatControls2 (6029, SPV_KHR_float_controls2) (only the analysis commands leave "
            "such declarations out; spirv-conv never writes a module without them)");
  EXPECT_TRUE(warnings_.empty());
}

TEST_F(IrLoadTest, ANewerInstructionIsSaidPlainly) {
  SpirvBinary binary = test::MustAssemble(Compute("OpCapability !6024\n", kReplicate));
  binary.name = "r.spv";
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context =
      BuildIrContext(binary, IrLoad::kAnalysis);
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.error().message,
            "r.spv: cannot load: the bundled SPIRV-Tools v2023.1 does not know capability "
            "ReplicatedCompositesEXT (6024, SPV_EXT_replicated_composites) and instruction "
            "OpCompositeConstructReplicateEXT (4463, SPV_EXT_replicated_composites), so its IR "
            "cannot represent the module");
  EXPECT_TRUE(warnings_.empty());
}

}  // namespace
}  // namespace spirv_conv
