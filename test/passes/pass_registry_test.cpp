// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The pass registry (spirv_conv/pass_registry.h): one table of every pass by
// flag name, and our passes in a plain spvtools::Optimizer next to
// SPIRV-Tools' own, as a library user registers them.

#include "spirv_conv/pass_registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.hpp"
#include "spirv-tools/optimizer.hpp"
#include "spirv_conv/load.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {
namespace test {
namespace {

// texs[idx] with idx read from a per-fragment input: the access needs
// NonUniform, which the shader does not write.
constexpr char kMissingNonUniform[] = R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(location = 0) flat in uint idx;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D texs[];
void main() { color = texture(texs[idx], uv); }
)";

SpirvBinary Compile(const std::string& glsl) {
  LoadOptions options;
  options.target_env = SPV_ENV_VULKAN_1_2;
  Expected<SpirvBinary> binary = LoadSpirvFromBytes("test.frag", glsl, options);
  EXPECT_TRUE(binary.ok()) << (binary.ok() ? "" : binary.error().message);
  return binary.ok() ? std::move(binary).value() : SpirvBinary();
}

std::string Disassemble(const std::vector<uint32_t>& words) {
  std::string text;
  EXPECT_TRUE(spvtools::SpirvTools(SPV_ENV_VULKAN_1_2).Disassemble(words, &text));
  return text;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PassRegistry, NamesAreUniqueAndEachMakesThePassOfThatName) {
  std::set<std::string> names;
  for (const PassInfo& pass : Passes()) {
    EXPECT_TRUE(names.insert(pass.name).second) << pass.name;
    EXPECT_EQ(FindPass(pass.name), &pass);
    std::unique_ptr<spvtools::opt::Pass> made = CreatePass(pass.name);
    ASSERT_NE(made, nullptr) << pass.name;
    EXPECT_EQ(std::string(made->name()), pass.name);
    EXPECT_NE(std::string(pass.summary), "");
  }
  for (const char* name : {"uniformity-analysis", "structurize", "reconverge", "fix-nonuniform",
                           "strip-nonuniform", "waterfall", "descriptor-switch"}) {
    EXPECT_NE(FindPass(name), nullptr) << name;
  }
}

TEST(PassRegistry, UnknownNamesMakeNothing) {
  EXPECT_EQ(FindPass("fix-nonuniformity"), nullptr);
  EXPECT_EQ(CreatePass(""), nullptr);
  spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_2);
  EXPECT_FALSE(RegisterPass(&optimizer, "--fix-nonuniform"));
  // Only the NonUniform rows are NonUniform passes.
  EXPECT_EQ(CreateNonUniformPass("structurize", {}), nullptr);
  EXPECT_NE(CreateNonUniformPass("waterfall", {}), nullptr);
}

// A SPIRV-Tools pass, ours by name, and ours by token, in one plain
// Optimizer: the access gets its NonUniform decorations and the module
// stays valid.
TEST(PassRegistry, OurPassesRunInAPlainOptimizer) {
  const SpirvBinary input = Compile(kMissingNonUniform);
  ASSERT_FALSE(input.words.empty());
  ASSERT_EQ(Count(Disassemble(input.words), "NonUniform\n"), 0u);

  spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_2);
  std::string messages;
  optimizer.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
        messages += std::string(message) + "\n";
      });
  optimizer.RegisterPass(spvtools::CreateStripDebugInfoPass());
  ASSERT_TRUE(RegisterPass(&optimizer, "uniformity-analysis"));
  ASSERT_TRUE(RegisterPass(&optimizer, "fix-nonuniform"));
  optimizer.RegisterPass(CreateStructurizePass());
  std::vector<uint32_t> output;
  ASSERT_TRUE(optimizer.Run(input.words.data(), input.words.size(), &output)) << messages;

  const std::string text = Disassemble(output);
  EXPECT_EQ(Count(text, "OpName"), 0u) << "strip-debug-info ran";
  // The index, the descriptor's pointer and the loaded image (at least).
  EXPECT_GE(Count(text, "NonUniform\n"), 2u) << text;
  EXPECT_NE(text.find("OpCapability ShaderNonUniform"), std::string::npos) << text;
  Status valid = ValidateSpirv(output, SPV_ENV_VULKAN_1_2, {}, "output", ExitCode::kInvalidOutput);
  EXPECT_TRUE(valid.ok()) << valid.error().message;
}

}  // namespace
}  // namespace test
}  // namespace spirv_conv
