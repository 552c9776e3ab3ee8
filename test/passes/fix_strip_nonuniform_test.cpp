// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// fix-nonuniform and strip-nonuniform. Most tests write the input in SPIR-V
// and the module the pass must produce next to it as CHECK lines
// (RunPassAndMatch). The expectation of fix-nonuniform is what a correct
// hand-written `nonuniformEXT` shader carries: glslang's own decorations on
// the values that select and access the descriptor (not on the index
// expression, which the Vulkan rule does not ask for), plus those glslang
// forgets (OpSampledImage, #1826; the access in a callee, known-traps.md).
// The first test compares with glslang itself: a shader compiled without
// `nonuniformEXT` and fixed against the same shader compiled with it.

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "source/opt/build_module.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/nonuniform_passes.h"
#include "spirv_conv/pipeline.h"
#include "test/passes/lowering_test_util.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace test {
namespace {

using spvtools::opt::Instruction;

SpirvBinary Compile(const std::string& glsl, spv_target_env env = SPV_ENV_VULKAN_1_2) {
  LoadOptions options;
  options.target_env = env;
  Expected<SpirvBinary> binary = LoadSpirvFromBytes("test.frag", glsl, options);
  EXPECT_TRUE(binary.ok()) << (binary.ok() ? "" : binary.error().message);
  return binary.ok() ? std::move(binary).value() : SpirvBinary();
}

struct PipelineRun {
  std::vector<uint32_t> words;
  ChangeLog log;
};

PipelineRun RunPasses(const SpirvBinary& binary, std::vector<std::string> passes) {
  PipelineOptions options;
  options.passes = std::move(passes);
  PipelineRun run;
  Expected<std::vector<uint32_t>> words = RunPipeline(binary, options, &run.log);
  EXPECT_TRUE(words.ok()) << (words.ok() ? "" : words.error().message);
  if (words.ok()) run.words = std::move(words).value();
  return run;
}

SpirvBinary Rebinary(const SpirvBinary& original, std::vector<uint32_t> words) {
  SpirvBinary binary = original;
  binary.words = std::move(words);
  return binary;
}

// Each NonUniform-decorated value as "<opcode> <root>", where <root> is the
// OpName of the variable its first operands lead back to. A value that is
// not a pointer or a handle (an index expression, data loaded from a buffer,
// arithmetic on it) is "<opcode> data:<root>" ("data:-" when it leads to no
// variable).
std::multiset<std::string> DecoratedValues(const std::vector<uint32_t>& words) {
  std::unique_ptr<spvtools::opt::IRContext> context =
      spvtools::BuildModule(SPV_ENV_UNIVERSAL_1_6, nullptr, words.data(), words.size());
  EXPECT_NE(context, nullptr);
  std::multiset<std::string> result;
  if (context == nullptr) return result;
  std::map<uint32_t, std::string> names;
  for (const Instruction& name : context->module()->debugs2()) {
    if (name.opcode() == spv::Op::OpName) {
      names[name.GetSingleWordInOperand(0)] = name.GetInOperand(1).AsString();
    }
  }
  auto* defs = context->get_def_use_mgr();
  for (const Instruction& annotation : context->module()->annotations()) {
    if (annotation.opcode() != spv::Op::OpDecorate ||
        spv::Decoration(annotation.GetSingleWordInOperand(1)) != spv::Decoration::NonUniform) {
      continue;
    }
    const Instruction* value = defs->GetDef(annotation.GetSingleWordInOperand(0));
    std::string root = "-";
    for (const Instruction* inst = value; inst != nullptr;) {
      if (inst->opcode() == spv::Op::OpVariable) {
        root = names[inst->result_id()];
        break;
      }
      if (inst->NumInOperands() == 0 || inst->opcode() == spv::Op::OpFunctionParameter) break;
      const spvtools::opt::Operand& first = inst->GetInOperand(0);
      if (first.type != SPV_OPERAND_TYPE_ID) break;
      inst = defs->GetDef(first.words[0]);
    }
    const spv::Op type = defs->GetDef(value->type_id())->opcode();
    const bool handle = type == spv::Op::OpTypePointer || type == spv::Op::OpTypeImage ||
                        type == spv::Op::OpTypeSampler || type == spv::Op::OpTypeSampledImage;
    result.insert(std::string("Op") + spvOpcodeString(value->opcode()) + " " +
                  (handle ? "" : "data:") + root);
  }
  return result;
}

// Drops the values that are not pointers or handles.
std::multiset<std::string> DescriptorValuesOnly(std::multiset<std::string> values) {
  for (auto it = values.begin(); it != values.end();) {
    it = it->find(" data:") != std::string::npos ? values.erase(it) : std::next(it);
  }
  return values;
}

// One shader, with or without nonuniformEXT on every descriptor index.
std::string Bindless(bool qualified) {
  const std::string q = qualified ? "nonuniformEXT" : "";
  return R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint material;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D albedo[];
layout(set = 0, binding = 1) uniform texture2D detail[16];
layout(set = 0, binding = 2) uniform sampler linearSampler;
layout(set = 0, binding = 3) buffer Materials { vec4 tint; uint counter; } materials[];
layout(set = 0, binding = 4) uniform Params { vec4 scale; } params[8];
layout(set = 0, binding = 5, r32ui) uniform uimage2D counters[4];
layout(push_constant) uniform PC { uint sky; } pc;
void main() {
  uint i = material;
  vec4 c = texture(albedo[)" +
         q + R"((i)], uv);
  c *= texture(sampler2D(detail[)" +
         q + R"((i & 15u)], linearSampler), uv);
  c *= materials[)" +
         q + R"((i)].tint * params[)" + q + R"((i % 8u)].scale;
  atomicAdd(materials[)" +
         q + R"((i)].counter, 1u);
  imageAtomicAdd(counters[)" +
         q + R"((i & 3u)], ivec2(0), 1u);
  c += texture(albedo[pc.sky], uv);  // uniform: never decorated
  color = c;
}
)";
}

TEST(FixNonUniformTest, DecoratesWhatAHandWrittenNonUniformShaderNeeds) {
  const SpirvBinary plain = Compile(Bindless(false));
  const SpirvBinary qualified = Compile(Bindless(true));
  const PipelineRun fixed = RunPasses(plain, {"fix-nonuniform"});

  std::multiset<std::string> expected = DescriptorValuesOnly(DecoratedValues(qualified.words));
  // glslang #1826: the sampled image made from a non-uniform texture.
  expected.insert("OpSampledImage detail");
  // glslang 12 also leaves the pointer of atomicAdd(materials[nonuniformEXT(i)]
  // .counter, 1) undecorated (it decorates the index only).
  expected.insert("OpAccessChain materials");
  EXPECT_EQ(DecoratedValues(fixed.words), expected);

  // And the set, reasoned from the Vulkan rule, so the comparison above
  // cannot pass by glslang changing too: an access chain and a load (of the
  // handle) per image access, the sampled image of the separate texture, an
  // access chain per buffer access (two into `materials`: the read and the
  // atomic), the texel pointer of the image atomic.
  const std::multiset<std::string> reasoned = {
      "OpAccessChain albedo",    "OpLoad albedo",
      "OpAccessChain detail",    "OpLoad detail",
      "OpSampledImage detail",   "OpAccessChain materials",
      "OpAccessChain materials", "OpAccessChain params",
      "OpAccessChain counters",  "OpImageTexelPointer counters"};
  EXPECT_EQ(DecoratedValues(fixed.words), reasoned);
}

// The same accesses written in SPIR-V: each descriptor value of an access
// through a varying index (%i, a flat input) is decorated, the access chain
// into the array and the loaded handle; the OpSampledImage made from the
// non-uniform texture (glslang #1826) but not the sampler, whose index is a
// constant; the pointers into the buffer arrays, also the one of the
// atomic. Not the index, the loaded data, nor anything of the access
// through the uniform index %u (a Uniform block member). The pass declares
// ShaderNonUniform and the capability of each class it decorated, in the
// order docs/passes.md lists the classes; the extension is there already.
// The decorations follow the order of the values in the function.
TEST(FixNonUniformTest, DecoratesEveryDescriptorValueOfANonUniformAccess) {
  const PassRun run = RunPassAndMatch("fix-nonuniform", FragmentModule(R"(
; CHECK: OpCapability Shader
; CHECK-NEXT: OpCapability RuntimeDescriptorArray
; CHECK-NEXT: OpCapability ShaderNonUniform
; CHECK-NEXT: OpCapability UniformBufferArrayNonUniformIndexing
; CHECK-NEXT: OpCapability StorageBufferArrayNonUniformIndexing
; CHECK-NEXT: OpCapability SampledImageArrayNonUniformIndexing
; CHECK-NEXT: OpExtension "SPV_EXT_descriptor_indexing"
; CHECK: OpDecorate %tp NonUniform
; CHECK-NEXT: OpDecorate %t NonUniform
; CHECK-NEXT: OpDecorate %ip NonUniform
; CHECK-NEXT: OpDecorate %img NonUniform
; CHECK-NEXT: OpDecorate %si NonUniform
; CHECK-NEXT: OpDecorate %bp NonUniform
; CHECK-NEXT: OpDecorate %cp NonUniform
; CHECK-NEXT: OpDecorate %vp NonUniform
; CHECK: %main = OpFunction
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%tp = OpAccessChain %ptr_sampled %tex %i
%t = OpLoad %sampled %tp
%r1 = OpImageSampleImplicitLod %v4float %t %c
%ip = OpAccessChain %ptr_image %images %i
%img = OpLoad %image %ip
%sp = OpAccessChain %ptr_sampler %samplers %int_0
%smp = OpLoad %sampler %sp
%si = OpSampledImage %sampled %img %smp
%r2 = OpImageSampleImplicitLod %v4float %si %c
%bp = OpAccessChain %ptr_StorageBuffer_uint %ssbos %i %int_0
%count = OpLoad %uint %bp
%cp = OpAccessChain %ptr_StorageBuffer_uint %ssbos %i %int_0
%old = OpAtomicIAdd %uint %cp %uint_1 %uint_0 %uint_1
%vp = OpAccessChain %ptr_Uniform_v4float %ubos %i %int_0
%v = OpLoad %v4float %vp
%pp = OpAccessChain %ptr_Uniform_int %params %int_0
%u = OpLoad %int %pp
%up = OpAccessChain %ptr_sampled %tex %u
%ut = OpLoad %sampled %up
%r3 = OpImageSampleImplicitLod %v4float %ut %c
%r12 = OpFAdd %v4float %r1 %r2
%r123 = OpFAdd %v4float %r12 %r3
%sum = OpFAdd %v4float %r123 %v
OpStore %color %sum
OpReturn
OpFunctionEnd
)"),
                                      {"NonUniform", "SPV_EXT_descriptor_indexing"});
  EXPECT_EQ(run.status, Pass::Status::SuccessWithChange) << run.messages;
  ExpectIdempotent("fix-nonuniform", run);
}

// A SPIR-V 1.0 fragment shader that declares nothing of descriptor
// indexing: a sampler2D[4] and a BufferBlock[4], both indexed by a flat
// input.
TEST(FixNonUniformTest, AddsCapabilitiesAndTheExtensionBeforeSpirv15) {
  const PassRun run = RunPassAndMatch("fix-nonuniform", R"(; Version: 1.0
; CHECK: OpCapability Shader
; CHECK-NEXT: OpCapability ShaderNonUniform
; CHECK-NEXT: OpCapability StorageBufferArrayNonUniformIndexing
; CHECK-NEXT: OpCapability SampledImageArrayNonUniformIndexing
; CHECK-NEXT: OpExtension "SPV_EXT_descriptor_indexing"
; CHECK-NEXT: OpMemoryModel Logical GLSL450
; CHECK: OpDecorate %tp NonUniform
; CHECK-NEXT: OpDecorate %t NonUniform
; CHECK-NEXT: OpDecorate %bp NonUniform
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %uv %material %color
OpExecutionMode %main OriginUpperLeft
OpDecorate %uv Location 0
OpDecorate %material Flat
OpDecorate %material Location 1
OpDecorate %color Location 0
OpDecorate %albedo DescriptorSet 0
OpDecorate %albedo Binding 0
OpDecorate %B BufferBlock
OpMemberDecorate %B 0 Offset 0
OpDecorate %buffers DescriptorSet 0
OpDecorate %buffers Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%uint_4 = OpConstant %uint 4
%int_0 = OpConstant %int 0
%image = OpTypeImage %float 2D 0 0 0 1 Unknown
%sampled = OpTypeSampledImage %image
%albedo_arr = OpTypeArray %sampled %uint_4
%ptr_albedo_arr = OpTypePointer UniformConstant %albedo_arr
%ptr_sampled = OpTypePointer UniformConstant %sampled
%B = OpTypeStruct %v4float
%B_arr = OpTypeArray %B %uint_4
%ptr_B_arr = OpTypePointer Uniform %B_arr
%ptr_Uniform_v4float = OpTypePointer Uniform %v4float
%ptr_Input_v2float = OpTypePointer Input %v2float
%ptr_Input_uint = OpTypePointer Input %uint
%ptr_Output_v4float = OpTypePointer Output %v4float
%albedo = OpVariable %ptr_albedo_arr UniformConstant
%buffers = OpVariable %ptr_B_arr Uniform
%uv = OpVariable %ptr_Input_v2float Input
%material = OpVariable %ptr_Input_uint Input
%color = OpVariable %ptr_Output_v4float Output
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %uint %material
%c = OpLoad %v2float %uv
%tp = OpAccessChain %ptr_sampled %albedo %i
%t = OpLoad %sampled %tp
%s = OpImageSampleImplicitLod %v4float %t %c
%bp = OpAccessChain %ptr_Uniform_v4float %buffers %i %int_0
%b = OpLoad %v4float %bp
%sum = OpFAdd %v4float %s %b
OpStore %color %sum
OpReturn
OpFunctionEnd
)",
                                      {"NonUniform", "OpExtension"});
  std::set<std::string> added;
  for (const PassChange& change : run.log) {
    if (change.action != "decorate") added.insert(change.action + " " + change.detail);
  }
  EXPECT_EQ(added, (std::set<std::string>{"add-capability ShaderNonUniform",
                                          "add-capability SampledImageArrayNonUniformIndexing",
                                          "add-capability StorageBufferArrayNonUniformIndexing",
                                          "add-extension SPV_EXT_descriptor_indexing"}));
}

// main passes the varying %idx to `sample`, whose parameter %k indexes %tex
// (lowering_test_util.h): the access in the callee is decorated, neither
// the argument nor the parameter (index expressions).
TEST(FixNonUniformTest, IndexThroughAParameterDecoratesTheCalleesAccess) {
  const PassRun run = RunPassAndMatch("fix-nonuniform", FragmentModule(std::string(R"(
; CHECK: OpCapability ShaderNonUniform
; CHECK-NEXT: OpCapability SampledImageArrayNonUniformIndexing
; CHECK: OpDecorate %p NonUniform
; CHECK-NEXT: OpDecorate %t NonUniform
; CHECK: %sample = OpFunction
; CHECK: %p = OpAccessChain %ptr_sampled %tex %k
)") + test::kIndexThroughParameterMain),
                                      {"NonUniform"});
  EXPECT_EQ(run.status, Pass::Status::SuccessWithChange) << run.messages;
}

// main passes the array variable itself (as glslang does for
// `fetch(albedo, i)`): the descriptor is selected in the callee, through the
// parameter %arr. The access chain and the loaded sampler there are
// decorated, the parameter (the whole array) not.
TEST(FixNonUniformTest, WholeArrayPassedToAFunctionThatIndexesIt) {
  const PassRun run = RunPassAndMatch("fix-nonuniform", FragmentModule(R"(
; CHECK: OpCapability ShaderNonUniform
; CHECK-NEXT: OpCapability SampledImageArrayNonUniformIndexing
; CHECK: OpDecorate %p NonUniform
; CHECK-NEXT: OpDecorate %t NonUniform
; CHECK: %p = OpAccessChain %ptr_sampled %arr %k
%fn_fetch = OpTypeFunction %v4float %ptr_tex_arr %int %v2float
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%r = OpFunctionCall %v4float %fetch %tex %i %c
OpStore %color %r
OpReturn
OpFunctionEnd
%fetch = OpFunction %v4float None %fn_fetch
%arr = OpFunctionParameter %ptr_tex_arr
%k = OpFunctionParameter %int
%x = OpFunctionParameter %v2float
%body = OpLabel
%p = OpAccessChain %ptr_sampled %arr %k
%t = OpLoad %sampled %p
%s = OpImageSampleImplicitLod %v4float %t %x
OpReturnValue %s
OpFunctionEnd
)"),
                                      {"NonUniform"});
  EXPECT_EQ(run.status, Pass::Status::SuccessWithChange) << run.messages;
}

TEST(FixNonUniformTest, IsIdempotentAndLeavesUniformAccessesAlone) {
  const SpirvBinary plain = Compile(Bindless(false));
  const PipelineRun once = RunPasses(plain, {"fix-nonuniform"});
  const PipelineRun twice = RunPasses(Rebinary(plain, once.words), {"fix-nonuniform"});
  EXPECT_TRUE(twice.log.empty());
  EXPECT_EQ(twice.words, once.words);

  // %tex indexed by a Uniform block member: nothing to decorate, nothing
  // to declare.
  const PassRun untouched = RunPassAndMatch("fix-nonuniform", FragmentModule(R"(
; CHECK-NOT: NonUniform
%main = OpFunction %void None %fn
%entry = OpLabel
%c = OpLoad %v2float %uv
%pp = OpAccessChain %ptr_Uniform_int %params %int_0
%u = OpLoad %int %pp
%tp = OpAccessChain %ptr_sampled %tex %u
%t = OpLoad %sampled %tp
%r = OpImageSampleImplicitLod %v4float %t %c
OpStore %color %r
OpReturn
OpFunctionEnd
)"));
  EXPECT_EQ(untouched.status, Pass::Status::SuccessWithoutChange) << untouched.messages;
  EXPECT_TRUE(untouched.log.empty());
}

// What glslang makes of `albedo[nonuniformEXT(material)]` and
// `tex[nonuniformEXT(pc.sky)]`: the index copy (%ni, %nu) and the
// descriptor values decorated. The uniform index %u (a Uniform block
// member) and everything of its access lose NonUniform; the varying %i's
// keep it, and so do the capabilities they need.
TEST(StripNonUniformTest, RemovesDecorationsOfUniformIndicesOnly) {
  const PassRun run = RunPassAndMatch("strip-nonuniform", FragmentModule(R"(
; CHECK: OpCapability ShaderNonUniform
; CHECK-NEXT: OpCapability SampledImageArrayNonUniformIndexing
; CHECK: OpDecorate %ni NonUniform
; CHECK-NEXT: OpDecorate %tp NonUniform
; CHECK-NEXT: OpDecorate %t NonUniform
OpCapability ShaderNonUniform
OpCapability SampledImageArrayNonUniformIndexing
OpDecorate %ni NonUniform
OpDecorate %tp NonUniform
OpDecorate %t NonUniform
OpDecorate %nu NonUniform
OpDecorate %up NonUniform
OpDecorate %ut NonUniform
%main = OpFunction %void None %fn
%entry = OpLabel
%c = OpLoad %v2float %uv
%i = OpLoad %int %idx
%ni = OpCopyObject %int %i
%tp = OpAccessChain %ptr_sampled %tex %ni
%t = OpLoad %sampled %tp
%r1 = OpImageSampleImplicitLod %v4float %t %c
%pp = OpAccessChain %ptr_Uniform_int %params %int_0
%u = OpLoad %int %pp
%nu = OpCopyObject %int %u
%up = OpAccessChain %ptr_sampled %tex %nu
%ut = OpLoad %sampled %up
%r2 = OpImageSampleImplicitLod %v4float %ut %c
%r = OpFAdd %v4float %r1 %r2
OpStore %color %r
OpReturn
OpFunctionEnd
)"),
                                      {"NonUniform"});
  EXPECT_EQ(run.status, Pass::Status::SuccessWithChange) << run.messages;
  ExpectIdempotent("strip-nonuniform", run);
}

// Only the access through the uniform index is decorated: every NonUniform
// goes, and with it ShaderNonUniform and SampledImageArrayNonUniformIndexing.
// The extension stays: RuntimeDescriptorArray needs it.
TEST(StripNonUniformTest, DropsCapabilitiesNothingNeeds) {
  const PassRun run = RunPassAndMatch("strip-nonuniform", FragmentModule(R"(
; CHECK-NOT: NonUniform
; CHECK: OpCapability RuntimeDescriptorArray
; CHECK: OpExtension "SPV_EXT_descriptor_indexing"
; CHECK-NOT: NonUniform
OpCapability ShaderNonUniform
OpCapability SampledImageArrayNonUniformIndexing
OpDecorate %nu NonUniform
OpDecorate %up NonUniform
OpDecorate %ut NonUniform
%main = OpFunction %void None %fn
%entry = OpLabel
%c = OpLoad %v2float %uv
%pp = OpAccessChain %ptr_Uniform_int %params %int_0
%u = OpLoad %int %pp
%nu = OpCopyObject %int %u
%up = OpAccessChain %ptr_sampled %tex %nu
%ut = OpLoad %sampled %up
%r = OpImageSampleImplicitLod %v4float %ut %c
OpStore %color %r
OpReturn
OpFunctionEnd
)"));
  std::set<std::string> removed;
  for (const PassChange& change : run.log) {
    if (change.action == "remove-capability") removed.insert(change.detail);
  }
  EXPECT_EQ(removed,
            (std::set<std::string>{"ShaderNonUniform", "SampledImageArrayNonUniformIndexing"}));
}

}  // namespace
}  // namespace test
}  // namespace spirv_conv
