// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Target env names and defaults. The defaults follow the Vulkan spec's
// SPIR-V version table: Vulkan 1.0 consumes SPIR-V 1.0, 1.1 up to 1.3 (1.4
// with VK_KHR_spirv_1_4), 1.2 up to 1.5, 1.3 up to 1.6.

#include "spirv_conv/target_env.h"

#include "test/test_util.h"

namespace spirv_conv {
namespace {

std::vector<uint32_t> ModuleWith(uint32_t version_word, std::vector<uint32_t> capabilities) {
  std::vector<uint32_t> words = {0x07230203u, version_word, 0, 1, 0};
  for (uint32_t capability : capabilities) {
    words.push_back((2u << 16) | 17u);  // OpCapability
    words.push_back(capability);
  }
  return words;
}

TEST(TargetEnv, NamesRoundTrip) {
  for (const char* name : {"vulkan1.0", "vulkan1.1", "vulkan1.1spv1.4", "vulkan1.2", "vulkan1.3",
                           "spv1.0", "spv1.6", "opencl2.2", "opengl4.5"}) {
    std::optional<spv_target_env> env = ParseTargetEnv(name);
    ASSERT_TRUE(env.has_value()) << name;
    EXPECT_EQ(TargetEnvName(*env), name);
  }
}

TEST(TargetEnv, ParsingIsExact) {
  // spvParseTargetEnv would accept these by prefix.
  EXPECT_FALSE(ParseTargetEnv("vulkan1.2x").has_value());
  EXPECT_FALSE(ParseTargetEnv("vulkan").has_value());
  EXPECT_FALSE(ParseTargetEnv("").has_value());
}

TEST(TargetEnv, ShaderModulesDefaultToTheLowestVulkanCoveringTheirVersion) {
  const uint32_t kShader = 1;
  EXPECT_EQ(DefaultTargetEnv(ModuleWith(0x00010000u, {kShader})), SPV_ENV_VULKAN_1_0);
  EXPECT_EQ(DefaultTargetEnv(ModuleWith(0x00010300u, {kShader})), SPV_ENV_VULKAN_1_1);
  EXPECT_EQ(DefaultTargetEnv(ModuleWith(0x00010400u, {kShader})), SPV_ENV_VULKAN_1_1_SPIRV_1_4);
  EXPECT_EQ(DefaultTargetEnv(ModuleWith(0x00010500u, {kShader})), SPV_ENV_VULKAN_1_2);
  EXPECT_EQ(DefaultTargetEnv(ModuleWith(0x00010600u, {kShader})), SPV_ENV_VULKAN_1_3);
}

TEST(TargetEnv, KernelModulesDefaultToUniversal) {
  const uint32_t kAddresses = 4, kKernel = 6, kShader = 1;
  EXPECT_EQ(DefaultTargetEnv(ModuleWith(0x00010200u, {kAddresses, kKernel})),
            SPV_ENV_UNIVERSAL_1_2);
  // Shader and Kernel together: a Shader module.
  EXPECT_EQ(DefaultTargetEnv(ModuleWith(0x00010200u, {kKernel, kShader})), SPV_ENV_VULKAN_1_1);
}

TEST(TargetEnv, VersionHelpers) {
  EXPECT_EQ(SpirvVersionWordOf(SPV_ENV_VULKAN_1_1), 0x00010300u);
  EXPECT_EQ(SpirvVersionString(0x00010500u), "1.5");
}

}  // namespace
}  // namespace spirv_conv
