// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// HLSL through glslang's HLSL front end: the stage from the profile or the
// name, the entry point, NonUniformResourceIndex, includes, and the errors
// for what glslang does not support.

#include <fstream>

#include "spirv_conv/emit.h"
#include "spirv_conv/validate.h"
#include "test/file_check.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

const char* kBindless = R"(Texture2D textures[] : register(t0, space1);
SamplerState linearSampler : register(s0);
RWStructuredBuffer<float4> results : register(u0);
float4 main(float2 uv : TEXCOORD0, nointerpolation uint material : MATERIAL) : SV_Target {
  float4 fetched = textures[NonUniformResourceIndex(material + 1)].Sample(linearSampler, uv);
  results[material] = fetched;
  return fetched + textures[material].Sample(linearSampler, uv);
}
)";

const char* kCompute = R"(RWStructuredBuffer<uint> counts : register(u0);
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) { counts[id.x] = WaveActiveSum(id.x); }
)";

Expected<SpirvBinary> Compile(const std::string& name, const std::string& source,
                              const LoadOptions& options = {}) {
  return LoadSpirvFromBytes(name, source, options);
}

std::string Text(const SpirvBinary& binary) {
  Expected<std::string> text = Disassemble(binary.words, binary.target_env, {}, binary.name);
  return text ? *text : text.error().message;
}

bool Valid(const SpirvBinary& binary) {
  return ValidateSpirv(binary.words, binary.target_env, {}, binary.name, ExitCode::kFindings).ok();
}

LoadOptions Profile(const std::string& profile) {
  LoadOptions options;
  options.source.profile = profile;
  return options;
}

TEST(HlslInput, ProfileGivesTheStageAndTheModuleValidates) {
  Expected<SpirvBinary> binary = Compile("b.hlsl", kBindless, Profile("ps_6_0"));
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  EXPECT_EQ(binary->language, SourceLanguage::kHlsl);
  EXPECT_EQ(binary->target_env, SPV_ENV_VULKAN_1_2);
  EXPECT_TRUE(Valid(*binary));
  // Storage buffers in the StorageBuffer class: BufferBlock is gone in SPIR-V 1.4+.
  EXPECT_TRUE(test::FileCheck(R"(
; CHECK: OpEntryPoint Fragment %main "main"
; CHECK: OpExecutionMode %main OriginUpperLeft
; CHECK-NOT: BufferBlock
; CHECK: OpVariable %{{.*}} StorageBuffer
)",
                              Text(*binary)));
}

TEST(HlslInput, NonUniformResourceIndexDecoratesTheDescriptorAccess) {
  Expected<SpirvBinary> binary = Compile("b.ps.hlsl", kBindless);
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  // The wrapped index, the access chain it selects, the image loaded and the
  // sampled image made from it are NonUniform, as DXC decorates them; the
  // unwrapped access on the last line is not (the lint reports it).
  EXPECT_TRUE(test::FileCheck(R"(
; CHECK-DAG: OpCapability ShaderNonUniform
; CHECK-DAG: OpCapability SampledImageArrayNonUniformIndexing
; CHECK-DAG: OpDecorate [[index:%[0-9]+]] NonUniform
; CHECK-DAG: OpDecorate [[chain:%[0-9]+]] NonUniform
; CHECK-DAG: OpDecorate [[image:%[0-9]+]] NonUniform
; CHECK-DAG: OpDecorate [[sampled:%[0-9]+]] NonUniform
; CHECK: [[index]] = OpIAdd %uint
; CHECK: [[chain]] = OpAccessChain %{{.*}} %textures [[index]]
; CHECK: [[image]] = OpLoad %{{.*}} [[chain]]
; CHECK: [[sampled]] = OpSampledImage %{{.*}} [[image]]
; CHECK: OpImageSampleImplicitLod %v4float [[sampled]]
; CHECK: [[plain:%[0-9]+]] = OpAccessChain %{{.*}} %textures %{{[0-9]+}}
; CHECK-NOT: OpDecorate [[plain]] NonUniform
)",
                              Text(*binary)));
  EXPECT_TRUE(Valid(*binary));
}

TEST(HlslInput, StageFromTheFileNameOrStage) {
  EXPECT_TRUE(Compile("b.ps.hlsl", kBindless).ok());
  EXPECT_TRUE(Compile("b.frag.hlsl", kBindless).ok());
  LoadOptions options;
  options.source.stage = "frag";
  EXPECT_TRUE(Compile("b.hlsl", kBindless, options).ok());

  Expected<SpirvBinary> unknown = Compile("b.hlsl", kBindless);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, ExitCode::kBadInput);
  EXPECT_EQ(unknown.error().message,
            "b.hlsl: the shader stage is unknown: pass -T (ps_6_0, vs_6_0, cs_6_0, ...) or name "
            "the file after its stage (blur.cs.hlsl)");
}

TEST(HlslInput, LanguageOptionReadsOtherNamesAsHlsl) {
  LoadOptions options = Profile("cs_6_0");
  options.source.entry_point = "CSMain";
  options.source.language = SourceLanguage::kHlsl;
  Expected<SpirvBinary> binary = Compile("counts.shader", kCompute, options);
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  EXPECT_EQ(binary->language, SourceLanguage::kHlsl);
  EXPECT_TRUE(test::FileCheck("; CHECK: OpEntryPoint GLCompute %CSMain \"CSMain\"", Text(*binary)));
  // A GLSL stage extension gives the stage of HLSL read with --language hlsl.
  options.source.profile.clear();
  EXPECT_TRUE(Compile("counts.comp", kCompute, options).ok());
}

TEST(HlslInput, ProfileErrors) {
  const struct {
    const char* profile;
    const char* message;
  } kCases[] = {
      {"pixel",
       "b.hlsl: 'pixel' is not a target profile: -T takes DXC's form, e.g. ps_6_0, "
       "vs_6_0, cs_6_0 (stage vs, hs, ds, gs, ps, cs, ms, as)"},
      {"xs_6_0",
       "b.hlsl: unknown stage 'xs' in target profile 'xs_6_0' (vs, hs, ds, gs, ps, cs, "
       "ms, as)"},
      {"lib_6_3",
       "b.hlsl: library profiles (lib_6_3: ray tracing, work graphs) are not "
       "supported by glslang's HLSL front end; compile with DXC (-spirv) and pass "
       "the .spv"},
  };
  for (const auto& c : kCases) {
    Expected<SpirvBinary> binary = Compile("b.hlsl", kBindless, Profile(c.profile));
    ASSERT_FALSE(binary.ok()) << c.profile;
    EXPECT_EQ(binary.error().code, ExitCode::kBadInput);
    EXPECT_EQ(binary.error().message, c.message);
  }
  LoadOptions contradicting = Profile("ps_6_0");
  contradicting.source.stage = "comp";
  Expected<SpirvBinary> binary = Compile("b.hlsl", kBindless, contradicting);
  ASSERT_FALSE(binary.ok());
  EXPECT_EQ(binary.error().message, "b.hlsl: --stage comp contradicts -T ps_6_0");
}

TEST(HlslInput, MissingEntryPointIsAnError) {
  Expected<SpirvBinary> binary = Compile("c.cs.hlsl", kCompute);
  ASSERT_FALSE(binary.ok());
  EXPECT_EQ(binary.error().code, ExitCode::kBadInput);
  EXPECT_EQ(binary.error().message,
            "c.cs.hlsl: no entry point function 'main': pass -E with the name of the shader's "
            "entry function");
}

TEST(HlslInput, UnsupportedConstructsAreNamed) {
  const struct {
    const char* source;
    const char* named;
  } kCases[] = {
      {"RWStructuredBuffer<uint> o;\n[numthreads(64, 1, 1)]\n"
       "void main(uint3 id : SV_DispatchThreadID) { o[id.x] = WaveMatch(id.x).x; }\n",
       "does not support WaveMatch (Shader Model 6.5)"},
      {"RWStructuredBuffer<uint> o;\ntemplate<typename T> T twice(T x) { return x * 2; }\n"
       "[numthreads(64, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { o[id.x] = 1; }\n",
       "does not support templates (HLSL 2021)"},
      // glslang only says "'declaration' : Expected" here: the line names it.
      {"RaytracingAccelerationStructure scene;\nRWStructuredBuffer<uint> o;\n"
       "[numthreads(64, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { o[id.x] = 1; }\n",
       "does not support ray tracing (DXR)"},
  };
  for (const auto& c : kCases) {
    Expected<SpirvBinary> binary = Compile("u.cs.hlsl", c.source);
    ASSERT_FALSE(binary.ok()) << c.named;
    EXPECT_EQ(binary.error().code, ExitCode::kBadInput);
    const std::string& message = binary.error().message;
    EXPECT_EQ(message.rfind("u.cs.hlsl: HLSL compilation failed:\n", 0), 0u) << message;
    EXPECT_NE(message.find("\n  glslang's HLSL front end, which spirv-conv compiles HLSL with, " +
                           std::string(c.named) + "; compile with DXC (-spirv) and pass the .spv"),
              std::string::npos)
        << message;
  }
  // An ordinary mistake gets glslang's message and no such note.
  Expected<SpirvBinary> typo =
      Compile("t.cs.hlsl", "[numthreads(1, 1, 1)]\nvoid main() { x = 1; }\n");
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.error().message.find("t.cs.hlsl:2: 'x' : unknown variable"), std::string::npos)
      << typo.error().message;
  EXPECT_EQ(typo.error().message.find("does not support"), std::string::npos);
}

// A ':' for a blank in a parameter: glslang 12's HLSL front end (and
// glslangValidator) crash on it in remapEntryPointIO (found by
// hlsl_load_fuzzer). The compile runs in a child process: bad input.
TEST(HlslInput, GlslangCrashIsBadInput) {
  const char* source = R"(struct PSInput {
    float4 position : SV_Position;
};
float4 main(PSInput:input) : SV_Target {
    return input.position;
}
)";
  Expected<SpirvBinary> binary = Compile("crash.ps.hlsl", source);
  ASSERT_FALSE(binary.ok());
  EXPECT_EQ(binary.error().code, ExitCode::kBadInput);
  // "(signal 11, Segmentation fault)"; under ASan, which reports the fault
  // and exits, "(exit status 1)".
  EXPECT_EQ(
      binary.error().message.rfind("crash.ps.hlsl: HLSL compilation failed: glslang crashed (", 0),
      0u)
      << binary.error().message;
  // The process goes on: the next compilation works.
  EXPECT_TRUE(Compile("b.ps.hlsl", kBindless).ok());
}

TEST(HlslInput, IncludesAreSearchedAndRecorded) {
  const std::string dir = ::testing::TempDir() + "/spirv_conv_hlsl_include";
  std::system(("mkdir -p " + dir + "/inc").c_str());
  std::ofstream(dir + "/inc/common.hlsli") << "static const uint kScale = 2;\n";
  const std::string source =
      "#include \"common.hlsli\"\nRWStructuredBuffer<uint> o;\n[numthreads(64, 1, 1)]\n"
      "void main(uint3 id : SV_DispatchThreadID) { o[id.x] = id.x * kScale; }\n";
  EXPECT_FALSE(Compile(dir + "/i.cs.hlsl", source).ok());
  LoadOptions options;
  options.source.include_dirs = {dir + "/inc"};
  Expected<SpirvBinary> binary = Compile(dir + "/i.cs.hlsl", source, options);
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  EXPECT_EQ(binary->source_files,
            (std::vector<std::string>{dir + "/i.cs.hlsl", dir + "/inc/common.hlsli"}));
}

TEST(HlslInput, DefinesAndDebugLines) {
  const std::string source =
      "RWStructuredBuffer<uint> o;\n[numthreads(WIDTH, 1, 1)]\n"
      "void main(uint3 id : SV_DispatchThreadID) { o[id.x] = id.x; }\n";
  EXPECT_FALSE(Compile("d.cs.hlsl", source).ok());
  LoadOptions options;
  options.source.defines = {"WIDTH=32"};
  options.source.debug_info = true;
  Expected<SpirvBinary> binary = Compile("d.cs.hlsl", source, options);
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  EXPECT_TRUE(test::FileCheck(R"(
; CHECK: OpExecutionMode %main LocalSize 32 1 1
; CHECK: OpLine %{{[0-9]+}} 3
)",
                              Text(*binary)));
}

}  // namespace
}  // namespace spirv_conv
