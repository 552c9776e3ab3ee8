// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// nonuniform-missing-decoration and nonuniform-redundant-decoration.
// Expected verdicts come from the Vulkan rule VUID-RuntimeSpirv-subgroupSize-
// 10149: when the resource an instruction accesses is not uniform within the
// invocation group nor within the subgroup, "the operand corresponding to
// that resource (e.g. the pointer or sampled image operand) must be decorated
// with NonUniform". A flat input differs between the primitives one subgroup
// can hold, so an index loaded from it is neither; a push constant is uniform,
// so NonUniform on an access it indexes is not needed (a note).

#include "test/lint/lint_test_fixture.h"

namespace spirv_conv {
namespace {

using test::Expect;
using test::ExpectFindings;
using test::HasNote;
using test::LintShader;
using test::Shader;

constexpr char kMissing[] = "nonuniform-missing-decoration";
constexpr char kRedundant[] = "nonuniform-redundant-decoration";

// %textures: sampler2D[4]; %images: texture2D[4] with a separate %samp;
// %bufs: 4 storage buffers { uint value; }; %pc: a push constant uint.
Shader Bindless(const std::string& names, const std::string& annotations,
                const std::string& main_body, const std::string& helpers = "") {
  Shader shader;
  shader.capabilities = R"(OpCapability ShaderNonUniform
OpCapability SampledImageArrayDynamicIndexing
OpCapability SampledImageArrayNonUniformIndexing
OpCapability StorageBufferArrayDynamicIndexing
OpCapability StorageBufferArrayNonUniformIndexing
OpExtension "SPV_EXT_descriptor_indexing"
OpExtension "SPV_KHR_storage_buffer_storage_class"
)";
  shader.names =
      "OpName %textures \"textures\"\nOpName %images \"images\"\n"
      "OpName %bufs \"bufs\"\nOpName %idx \"idx\"\n" +
      names;
  shader.annotations = R"(OpDecorate %textures DescriptorSet 0
OpDecorate %textures Binding 0
OpDecorate %images DescriptorSet 0
OpDecorate %images Binding 1
OpDecorate %samp DescriptorSet 0
OpDecorate %samp Binding 2
OpDecorate %bufs DescriptorSet 0
OpDecorate %bufs Binding 3
OpDecorate %buf Block
OpMemberDecorate %buf 0 Offset 0
OpDecorate %pc_block Block
OpMemberDecorate %pc_block 0 Offset 0
)" + annotations;
  shader.globals = R"(%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%sampler = OpTypeSampler
%simg_array = OpTypeArray %simg %uint_4
%img_array = OpTypeArray %img %uint_4
%ptr_UC_simg_array = OpTypePointer UniformConstant %simg_array
%ptr_UC_img_array = OpTypePointer UniformConstant %img_array
%ptr_UC_simg = OpTypePointer UniformConstant %simg
%ptr_UC_img = OpTypePointer UniformConstant %img
%ptr_UC_sampler = OpTypePointer UniformConstant %sampler
%textures = OpVariable %ptr_UC_simg_array UniformConstant
%images = OpVariable %ptr_UC_img_array UniformConstant
%samp = OpVariable %ptr_UC_sampler UniformConstant
%buf = OpTypeStruct %uint
%buf_array = OpTypeArray %buf %uint_4
%ptr_SB_buf_array = OpTypePointer StorageBuffer %buf_array
%ptr_SB_uint = OpTypePointer StorageBuffer %uint
%bufs = OpVariable %ptr_SB_buf_array StorageBuffer
%pc_block = OpTypeStruct %uint
%ptr_PC_block = OpTypePointer PushConstant %pc_block
%ptr_PC_uint = OpTypePointer PushConstant %uint
%pc = OpVariable %ptr_PC_block PushConstant
%fn_v4float_uint = OpTypeFunction %v4float %uint
)";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%idx = OpLoad %uint %in_flat
%pc_ptr = OpAccessChain %ptr_PC_uint %pc %uint_0
%uniform_idx = OpLoad %uint %pc_ptr
)" + main_body + R"(OpReturn
OpFunctionEnd
)" + helpers;
  return shader;
}

// A sample from %textures[|index|]: chain %p, loaded sampled image %t.
std::string SampleTextures(const std::string& index) {
  return "%p = OpAccessChain %ptr_UC_simg %textures " + index +
         "\n%t = OpLoad %simg %p\n"
         "%s = OpImageSampleExplicitLod %v4float %t %v2_half Lod %float_0\n"
         "OpStore %out_color %s\n";
}

TEST(NonUniformRulesTest, DivergentIndexWithoutNonUniformIsAnError) {
  const std::vector<Finding> findings =
      LintShader(Bindless("OpName %s \"s\"\n", "", SampleTextures("%idx")));
  ExpectFindings(findings, {{kMissing, Severity::kError, "%s = OpImageSampleExplicitLod"}});
  if (findings.size() != 1) return;
  EXPECT_NE(findings[0].message.find("sampled image operand %"), std::string::npos)
      << findings[0].message;
  EXPECT_TRUE(HasNote(findings[0], "the descriptor is selected here by 'idx'"))
      << test::Describe(findings);
  EXPECT_TRUE(HasNote(findings[0], "'idx' is read from 'in_flat', a shader input"))
      << test::Describe(findings);
}

TEST(NonUniformRulesTest, DecoratedOperandIsFine) {
  // glslang's nonuniformEXT(): the index copy, the chain and the load.
  ExpectFindings(LintShader(Bindless("", "OpDecorate %t NonUniform\n", SampleTextures("%idx"))),
                 {});
}

TEST(NonUniformRulesTest, DecorationOnTheChainOnlyIsNotEnough) {
  // The sample's operand is the load %t, not the chain %p.
  const std::vector<Finding> findings = LintShader(
      Bindless("OpName %s \"s\"\n", "OpDecorate %p NonUniform\n", SampleTextures("%idx")));
  ExpectFindings(findings, {{kMissing, Severity::kError, "%s = OpImageSampleExplicitLod"}});
  if (findings.size() != 1) return;
  EXPECT_TRUE(HasNote(findings[0], "is decorated NonUniform, but the decoration does not carry"))
      << test::Describe(findings);
}

TEST(NonUniformRulesTest, SampledImageBuiltFromADecoratedLoad) {
  // glslang issue #1826: texture(sampler2D(images[nonuniformEXT(i)], samp))
  // decorates the image load but not the OpSampledImage the sample uses.
  const std::string body = R"(%ip = OpAccessChain %ptr_UC_img %images %idx
%i = OpLoad %img %ip
%sm = OpLoad %sampler %samp
%si = OpSampledImage %simg %i %sm
%s = OpImageSampleExplicitLod %v4float %si %v2_half Lod %float_0
OpStore %out_color %s
)";
  ExpectFindings(LintShader(Bindless("OpName %s \"s\"\n", "OpDecorate %i NonUniform\n", body)),
                 {{kMissing, Severity::kError, "%s = OpImageSampleExplicitLod"}});
  ExpectFindings(LintShader(Bindless("", "OpDecorate %si NonUniform\n", body)), {});
}

TEST(NonUniformRulesTest, IndexThroughAFunctionParameter) {
  // The helper's chain indexes with its parameter; its only call passes the
  // flat input.
  const std::string helper = R"(%fetch = OpFunction %v4float None %fn_v4float_uint
%i = OpFunctionParameter %uint
%fentry = OpLabel
%fp = OpAccessChain %ptr_UC_simg %textures %i
%ft = OpLoad %simg %fp
%fs = OpImageSampleExplicitLod %v4float %ft %v2_half Lod %float_0
OpReturnValue %fs
OpFunctionEnd
)";
  const std::vector<Finding> findings = LintShader(
      Bindless("OpName %fetch \"fetch(u1;\"\nOpName %i \"i\"\nOpName %fs \"fs\"\n", "",
               "%r = OpFunctionCall %v4float %fetch %idx\nOpStore %out_color %r\n", helper));
  ExpectFindings(findings, {{kMissing, Severity::kError, "%fs = OpImageSampleExplicitLod"}});
  if (findings.size() != 1) return;
  EXPECT_TRUE(HasNote(findings[0], "parameter 'i' of 'fetch' receives 'idx' from 'main'"))
      << test::Describe(findings);
}

TEST(NonUniformRulesTest, StorageBufferPointerOperand) {
  // A store through bufs[idx].value: the pointer operand of the store.
  const std::string body = R"(%bp = OpAccessChain %ptr_SB_uint %bufs %idx %uint_0
OpStore %bp %uint_1
)";
  ExpectFindings(LintShader(Bindless("OpName %bp \"bp\"\n", "", body)),
                 {{kMissing, Severity::kError, "OpStore %bp %uint_1"}});
  ExpectFindings(LintShader(Bindless("", "OpDecorate %bp NonUniform\n", body)), {});
}

TEST(NonUniformRulesTest, UniformIndexWithNonUniformIsANote) {
  ExpectFindings(LintShader(Bindless("OpName %s \"s\"\n", "OpDecorate %t NonUniform\n",
                                     SampleTextures("%uniform_idx"))),
                 {{kRedundant, Severity::kNote, "%s = OpImageSampleExplicitLod"}});
  // A constant index is uniform too.
  ExpectFindings(LintShader(Bindless("OpName %s \"s\"\n", "OpDecorate %t NonUniform\n",
                                     SampleTextures("%uint_2"))),
                 {{kRedundant, Severity::kNote, "%s = OpImageSampleExplicitLod"}});
}

TEST(NonUniformRulesTest, UniformIndexWithoutNonUniformIsFine) {
  ExpectFindings(LintShader(Bindless("", "", SampleTextures("%uniform_idx"))), {});
}

// glslang copies a struct argument into its Function temporary member by
// member when the source's layout differs (a uniform block's struct) and the
// target has no OpCopyLogical (SPIR-V 1.0-1.3). Each member holds what the
// caller stored right before the call, so the callee's index has the level
// of the stored members, also where the stores run in non-uniform control
// flow (after the discard). An array member is copied element by element
// through a chain of the member's chain (Godot's SceneData).
constexpr char kStructArgument[] = R"(#version 450
struct Data { uint idx; float pad; MEMBERS };
layout(binding = 0) uniform U { Data data[2]; } u;
layout(binding = 1) uniform sampler2D texs[4];
layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint per_pixel;
layout(location = 2) in float clip;
layout(location = 0) out vec4 o;
vec4 shade(in Data d) { return textureLod(texs[d.idx], uv, 0.0); }
void main() {
  if (clip > 0.0) discard;
  o = shade(u.data[INDEX]);
}
)";

std::vector<Finding> LintStructArgument(const std::string& index, const std::string& members = "") {
  std::string glsl = kStructArgument;
  glsl.replace(glsl.find("MEMBERS"), 7, members);
  glsl.replace(glsl.find("INDEX"), 5, index);
  LoadOptions options;
  options.target_env = SPV_ENV_VULKAN_1_0;
  Expected<SpirvBinary> binary = LoadSpirvFromBytes("struct_argument.frag", glsl, options);
  if (!binary.ok()) {
    ADD_FAILURE() << binary.error().message;
    return {};
  }
  EXPECT_TRUE(test::HasOpcode(binary->words, uint32_t(spv::Op::OpCompositeExtract)))
      << "glslang no longer copies the struct member by member";
  auto context = BuildIrContext(*binary);
  auto info = UniformityInfo::Compute(context->get());
  if (!info.ok()) {
    ADD_FAILURE() << info.error().message;
    return {};
  }
  return Lint(**context, **info, {});
}

TEST(NonUniformRulesTest, StructArgumentCopiedMemberByMemberFromUniformData) {
  ExpectFindings(LintStructArgument("1"), {});
}

TEST(NonUniformRulesTest, StructArgumentCopiedMemberByMemberFromPerPixelData) {
  ExpectFindings(LintStructArgument("per_pixel & 1u"),
                 {{kMissing, Severity::kError, "OpImageSampleExplicitLod"}});
}

TEST(NonUniformRulesTest, StructArgumentWithArrayMembersCopiedElementByElement) {
  ExpectFindings(LintStructArgument("1", "vec4 w[2]; mat4 m[2];"), {});
  ExpectFindings(LintStructArgument("per_pixel & 1u", "vec4 w[2]; mat4 m[2];"),
                 {{kMissing, Severity::kError, "OpImageSampleExplicitLod"}});
}

}  // namespace
}  // namespace spirv_conv
