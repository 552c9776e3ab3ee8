// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// GLSL through glslang: stage, defines, includes, debug info, errors.

#include <fstream>

#include "spirv_conv/validate.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

constexpr uint32_t kOpLine = 8;
constexpr uint32_t kOpSource = 3;

const char* kFragment = R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
void main() { color = texture(tex, uv); }
)";

Expected<SpirvBinary> Compile(const std::string& name, const std::string& source,
                              const LoadOptions& options = {}) {
  return LoadSpirvFromBytes(name, source, options);
}

TEST(GlslInput, CompilesForVulkan12ByDefaultAndValidates) {
  Expected<SpirvBinary> binary = Compile("a.frag", kFragment);
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  EXPECT_EQ(binary->language, SourceLanguage::kGlsl);
  EXPECT_EQ(binary->target_env, SPV_ENV_VULKAN_1_2);
  EXPECT_EQ(binary->words[1], 0x00010500u);
  EXPECT_TRUE(
      ValidateSpirv(binary->words, binary->target_env, {}, "a.frag", ExitCode::kFindings).ok());
  EXPECT_FALSE(test::HasOpcode(binary->words, kOpLine));
}

TEST(GlslInput, TargetEnvChoosesTheSpirvVersion) {
  LoadOptions options;
  options.target_env = SPV_ENV_VULKAN_1_0;
  Expected<SpirvBinary> binary = Compile("a.frag", kFragment, options);
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  EXPECT_EQ(binary->words[1], 0x00010000u);
}

TEST(GlslInput, CompileErrorNamesFileAndLine) {
  Expected<SpirvBinary> binary =
      Compile("broken.frag", "#version 450\nvoid main() {\n  x = 1;\n}\n");
  ASSERT_FALSE(binary.ok());
  EXPECT_EQ(binary.error().code, ExitCode::kBadInput);
  EXPECT_EQ(binary.error().message.rfind("broken.frag: GLSL compilation failed:", 0), 0u);
  EXPECT_NE(binary.error().message.find("broken.frag:3:"), std::string::npos)
      << binary.error().message;
}

TEST(GlslInput, DefinesReachThePreprocessor) {
  const std::string source =
      "#version 450\n#ifndef ENABLED\n#error ENABLED is not defined\n#endif\n"
      "layout(local_size_x = SIZE) in;\nvoid main() {}\n";
  EXPECT_FALSE(Compile("d.comp", source).ok());
  LoadOptions options;
  options.source.defines = {"ENABLED", "SIZE=64"};
  Expected<SpirvBinary> binary = Compile("d.comp", source, options);
  ASSERT_TRUE(binary.ok()) << binary.error().message;
}

TEST(GlslInput, IncludeSearchesTheIncludeDirectories) {
  const std::string dir = ::testing::TempDir() + "/spirv_conv_glsl_include";
  std::system(("mkdir -p " + dir).c_str());
  std::ofstream(dir + "/common.glsl") << "const float kScale = 2.0;\n";
  const std::string source =
      "#version 450\n#extension GL_GOOGLE_include_directive : require\n"
      "#include \"common.glsl\"\nlayout(location = 0) out vec4 c;\n"
      "void main() { c = vec4(kScale); }\n";
  EXPECT_FALSE(Compile("i.frag", source).ok());
  LoadOptions options;
  options.source.include_dirs = {dir};
  Expected<SpirvBinary> binary = Compile("i.frag", source, options);
  ASSERT_TRUE(binary.ok()) << binary.error().message;
}

TEST(GlslInput, DebugInfoEmitsLinesAndSource) {
  LoadOptions options;
  options.source.debug_info = true;
  Expected<SpirvBinary> binary = Compile("g.frag", kFragment, options);
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  EXPECT_TRUE(test::HasOpcode(binary->words, kOpLine));
  EXPECT_TRUE(test::HasOpcode(binary->words, kOpSource));
}

TEST(GlslInput, StageOptionAndItsAbsence) {
  Expected<SpirvBinary> missing = Compile("s.glsl", kFragment);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("--stage"), std::string::npos);

  LoadOptions options;
  options.source.stage = "frag";
  EXPECT_TRUE(Compile("s.glsl", kFragment, options).ok());
  options.source.stage = "pixel";
  Expected<SpirvBinary> unknown = Compile("s.glsl", kFragment, options);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown shader stage 'pixel'"), std::string::npos);
}

TEST(GlslInput, NonGraphicsTargetEnvIsRefused) {
  LoadOptions options;
  options.target_env = SPV_ENV_OPENCL_2_2;
  Expected<SpirvBinary> binary = Compile("a.frag", kFragment, options);
  ASSERT_FALSE(binary.ok());
  EXPECT_NE(binary.error().message.find("Vulkan or OpenGL"), std::string::npos);
}

}  // namespace
}  // namespace spirv_conv
