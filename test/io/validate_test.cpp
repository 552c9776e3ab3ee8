// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/validate.h"

#include "test/test_util.h"

namespace spirv_conv {
namespace {

TEST(Validate, AcceptsAValidModule) {
  const SpirvBinary binary = test::MustAssemble(test::MinimalCompute());
  EXPECT_TRUE(
      ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, {}, "ok.spv", ExitCode::kFindings).ok());
}

TEST(Validate, RejectionIsOneLineNamingFileEnvAndReason) {
  // OpEntryPoint names an id that is not a function: spirv-val rejects it.
  const SpirvBinary binary = test::MustAssemble(test::kInvalidEntryPoint);
  Status status =
      ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, {}, "bad.spv", ExitCode::kBadInput);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::kBadInput);
  EXPECT_EQ(status.error().message.rfind("bad.spv: invalid SPIR-V for vulkan1.0: ", 0), 0u)
      << status.error().message;
  EXPECT_EQ(status.error().message.find('\n'), std::string::npos);
}

TEST(Validate, TheFailureCodeIsTheCallers) {
  const SpirvBinary binary = test::MustAssemble("; Version: 1.0\nOpCapability Shader\n");
  Status status =
      ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, {}, "x", ExitCode::kInvalidOutput);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::kInvalidOutput);
}

TEST(Validate, RelaxationFlagsReachTheValidator) {
  // A uniform block with a vec3 at offset 4: legal only under scalar layout
  // (VK_EXT_scalar_block_layout), rejected by the default std140 rules.
  const SpirvBinary binary = test::MustAssemble(R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %Block Block
OpMemberDecorate %Block 0 Offset 0
OpMemberDecorate %Block 1 Offset 4
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
)");
  EXPECT_FALSE(ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, {}, "s", ExitCode::kFindings).ok());
  ValidatorFlags scalar;
  scalar.scalar_block_layout = true;
  EXPECT_TRUE(
      ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, scalar, "s", ExitCode::kFindings).ok());
}

}  // namespace
}  // namespace spirv_conv
