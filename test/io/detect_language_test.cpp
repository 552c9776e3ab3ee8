// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Input detection: magic number first, then extension, then content.

#include "io/input_formats.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

ShaderSourceOptions WithStage(bool stage) {
  ShaderSourceOptions options;
  if (stage) options.stage = "frag";
  return options;
}

SourceLanguage Detect(const std::string& name, const std::string& bytes,
                      const ShaderSourceOptions& options) {
  Expected<SourceLanguage> language = io::DetectLanguage(name, bytes, options);
  EXPECT_TRUE(language.ok()) << (language.ok() ? "" : language.error().message);
  return language.ok() ? *language : SourceLanguage::kBinary;
}

SourceLanguage Detect(const std::string& name, const std::string& bytes, bool stage = false) {
  Expected<SourceLanguage> language = io::DetectLanguage(name, bytes, WithStage(stage));
  EXPECT_TRUE(language.ok()) << (language.ok() ? "" : language.error().message);
  return language.ok() ? *language : SourceLanguage::kBinary;
}

TEST(DetectLanguage, MagicWinsOverTheExtension) {
  const std::string magic_le("\x03\x02\x23\x07", 4);
  const std::string magic_be("\x07\x23\x02\x03", 4);
  EXPECT_EQ(Detect("shader.frag", magic_le), SourceLanguage::kBinary);
  EXPECT_EQ(Detect("-", magic_be), SourceLanguage::kBinary);
}

TEST(DetectLanguage, Extensions) {
  EXPECT_EQ(Detect("a.spvasm", "garbage"), SourceLanguage::kAssembly);
  EXPECT_EQ(Detect("a.spvas", "garbage"), SourceLanguage::kAssembly);
  EXPECT_EQ(Detect("a.frag", "void main(){}"), SourceLanguage::kGlsl);
  EXPECT_EQ(Detect("a.rchit", "void main(){}"), SourceLanguage::kGlsl);
  EXPECT_EQ(Detect("a.glsl", "void main(){}"), SourceLanguage::kGlsl);
  EXPECT_EQ(Detect("a.hlsl", "float4 main() : SV_Target { return 0; }"), SourceLanguage::kHlsl);
  EXPECT_EQ(Detect("a.ps.hlsl", "void main(){}"), SourceLanguage::kHlsl);
  // A .spv without magic stays a binary, so the reader can say "wrong magic".
  EXPECT_EQ(Detect("a.spv", "#version 450"), SourceLanguage::kBinary);
}

TEST(DetectLanguage, ContentOfUnnamedInput) {
  EXPECT_EQ(Detect("-", "; comment\n  OpCapability Shader\n"), SourceLanguage::kAssembly);
  EXPECT_EQ(Detect("-", "%1 = OpTypeVoid\n"), SourceLanguage::kAssembly);
  EXPECT_EQ(Detect("-", "#version 450\nvoid main(){}", /*stage=*/true), SourceLanguage::kGlsl);
}

TEST(DetectLanguage, LanguageAndProfileOptions) {
  ShaderSourceOptions hlsl;
  hlsl.language = SourceLanguage::kHlsl;
  EXPECT_EQ(Detect("-", "float4 main() : SV_Target { return 0; }", hlsl), SourceLanguage::kHlsl);
  EXPECT_EQ(Detect("a.frag", "void main(){}", hlsl), SourceLanguage::kHlsl);
  // The magic number still wins: a binary is never compiled.
  EXPECT_EQ(Detect("-", std::string("\x03\x02\x23\x07", 4), hlsl), SourceLanguage::kBinary);
  ShaderSourceOptions profile;
  profile.profile = "ps_6_0";
  EXPECT_EQ(Detect("-", "float4 main() : SV_Target { return 0; }", profile), SourceLanguage::kHlsl);
}

TEST(DetectLanguage, HlslStageFromFileName) {
  EXPECT_EQ(io::HlslStageFromFileName("blur.cs.hlsl"), "comp");
  EXPECT_EQ(io::HlslStageFromFileName("dir/lit.PS.hlsl"), "frag");
  EXPECT_EQ(io::HlslStageFromFileName("sky.vert.hlsl"), "vert");
  EXPECT_EQ(io::HlslStageFromFileName("hlsl.array.frag"), "frag");
  EXPECT_EQ(io::HlslStageFromFileName("lighting.hlsl"), "");
  EXPECT_EQ(io::HlslStageFromFileName("v1.cs/lighting.hlsl"), "");
}

TEST(DetectLanguage, GlslWithoutStageAsksForIt) {
  Expected<SourceLanguage> language = io::DetectLanguage("-", "#version 450\nvoid main(){}", {});
  ASSERT_FALSE(language.ok());
  EXPECT_NE(language.error().message.find("--stage"), std::string::npos);
}

TEST(DetectLanguage, GarbageAndEmpty) {
  Expected<SourceLanguage> garbage = io::DetectLanguage("x.bin", "\x7f\x45\x4c\x46 junk", {});
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().code, ExitCode::kBadInput);
  EXPECT_EQ(garbage.error().message.rfind("x.bin: not a SPIR-V module", 0), 0u);
  Expected<SourceLanguage> empty = io::DetectLanguage("e.frag", "", {});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, "e.frag: empty file");
}

TEST(DetectLanguage, StageFromFileName) {
  EXPECT_EQ(io::GlslStageFromFileName("dir.v2/x.comp"), "comp");
  EXPECT_EQ(io::GlslStageFromFileName("X.FRAG"), "frag");
  EXPECT_EQ(io::GlslStageFromFileName("x.glsl"), "");
  EXPECT_EQ(io::GlslStageFromFileName("dir.frag/x"), "");
}

}  // namespace
}  // namespace spirv_conv
