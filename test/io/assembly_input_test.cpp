// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "io/input_formats.h"
#include "spirv_conv/target_env.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

TEST(AssemblyInput, SyntaxErrorNamesFileLineAndColumn) {
  const std::string text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpBogus\n";
  Expected<SpirvBinary> binary = LoadSpirvFromBytes("bad.spvasm", text, LoadOptions());
  ASSERT_FALSE(binary.ok());
  EXPECT_EQ(binary.error().code, ExitCode::kBadInput);
  // The bad opcode is on line 3, column 6.
  EXPECT_EQ(binary.error().message.rfind("bad.spvasm:3:6: ", 0), 0u) << binary.error().message;
}

TEST(AssemblyInput, NumericIdsArePreservedByDefault) {
  const std::string text = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %42 "main"
OpExecutionMode %42 LocalSize 1 1 1
%7 = OpTypeVoid
%8 = OpTypeFunction %7
%42 = OpFunction %7 None %8
%43 = OpLabel
OpReturn
OpFunctionEnd
)";
  const SpirvBinary preserved = test::MustAssemble(text);
  EXPECT_EQ(preserved.words[3], 44u);  // the bound: highest id + 1
  LoadOptions renumber;
  renumber.preserve_numeric_ids = false;
  const SpirvBinary renumbered = test::MustAssemble(text, renumber);
  EXPECT_EQ(renumbered.words[3], 5u);  // four ids, numbered from 1
}

TEST(AssemblyInput, VersionComment) {
  EXPECT_EQ(io::AssemblyVersionComment("; SPIR-V\n; Version: 1.3\nOpCapability Shader\n"),
            SPV_ENV_UNIVERSAL_1_3);
  // A comment after the first instruction does not count.
  EXPECT_EQ(io::AssemblyVersionComment("OpCapability Shader\n; Version: 1.3\n"), std::nullopt);
  EXPECT_EQ(io::AssemblyVersionComment("OpCapability Shader\n"), std::nullopt);
}

TEST(AssemblyInput, ModuleVersionFollowsTheCommentOrTheTargetEnv) {
  const SpirvBinary commented = test::MustAssemble(test::MinimalCompute());
  EXPECT_EQ(commented.words[1], 0x00010000u);
  EXPECT_EQ(commented.target_env, SPV_ENV_VULKAN_1_0);

  LoadOptions vulkan12;
  vulkan12.target_env = SPV_ENV_VULKAN_1_2;
  const SpirvBinary targeted = test::MustAssemble(test::MinimalCompute(), vulkan12);
  EXPECT_EQ(targeted.words[1], 0x00010500u);  // Vulkan 1.2 consumes SPIR-V 1.5
  EXPECT_EQ(targeted.target_env, SPV_ENV_VULKAN_1_2);

  const SpirvBinary uncommented =
      test::MustAssemble("OpCapability Shader\nOpMemoryModel Logical GLSL450\n");
  EXPECT_EQ(uncommented.words[1], 0x00010600u);
}

}  // namespace
}  // namespace spirv_conv
