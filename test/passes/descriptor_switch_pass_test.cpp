// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// DescriptorSwitchPass (docs/passes.md, "descriptor-switch"): each access
// whose descriptor index is not a constant -- uniform or not -- becomes an
// OpSwitch over the array's elements, each case re-creating the access with
// a constant index; an index out of range takes case 0. Expectations follow
// the sketch in descriptor_switch_pass.cpp: the cases' constant indices,
// implicit-LOD gradients taken before the switch and explicit gradients in
// the cases (where spirv-opt's --replace-desc-array-access-using-var-index
// samples with implicit derivatives in divergent control flow), results
// through a Function variable. Every output passes spirv-val, and a second
// run changes nothing (every index is a constant).

#include <set>
#include <string>

#include "gtest/gtest.h"
#include "test/passes/lowering_test_util.h"

namespace spirv_conv {
namespace {

using spvtools::opt::Instruction;
using spvtools::opt::IRContext;
using spvtools::opt::Pass;
using test::BlockOf;
using test::Count;
using test::Def;
using test::ExpectIdempotent;
using test::FindAll;
using test::FindOne;
using test::FragmentModule;
using test::kIndexThroughParameterMain;
using test::kRuntimeArrayMain;
using test::kSeparateImageAndSamplerMain;
using test::Named;
using test::Operand;
using test::PassRun;
using test::RunPass;

constexpr char kPass[] = "descriptor-switch";
constexpr uint32_t kGrad = static_cast<uint32_t>(spv::ImageOperandsMask::Grad);

// The value of the integer constant |id|.
uint32_t ConstantValue(const PassRun& run, uint32_t id) {
  const Instruction* constant = Def(run, id);
  EXPECT_EQ(constant->opcode(), spv::Op::OpConstant);
  return constant->GetSingleWordInOperand(0);
}

// The OpSwitch on |selector|: its literal -> target pairs, and its default.
struct Switch {
  const Instruction* inst = nullptr;
  std::vector<std::pair<uint32_t, uint32_t>> cases;
  uint32_t default_target = 0;
};

std::vector<Switch> SwitchesOn(IRContext& context, uint32_t selector) {
  std::vector<Switch> found;
  for (const Instruction* inst : FindAll(context, spv::Op::OpSwitch)) {
    if (inst->GetSingleWordInOperand(0) != selector) continue;
    Switch s;
    s.inst = inst;
    s.default_target = inst->GetSingleWordInOperand(1);
    for (uint32_t k = 2; k + 1 < inst->NumInOperands(); k += 2) {
      s.cases.emplace_back(inst->GetSingleWordInOperand(k), inst->GetSingleWordInOperand(k + 1));
    }
    found.push_back(s);
  }
  return found;
}

void ExpectLowered(const PassRun& run) {
  ASSERT_EQ(run.status, Pass::Status::SuccessWithChange) << run.messages;
  EXPECT_FALSE(test::HasOpaquePhi(*run.context));
  EXPECT_EQ(test::WidestIndexLevel(*run.context), Uniformity::kUniform) << run.disassembly;
  ExpectIdempotent(kPass, run);
}

// tex[i] (4 elements), sampled with an implicit LOD: a switch over 0..3,
// case k samples tex[k] with the gradients taken before the switch.
TEST(DescriptorSwitchPass, CombinedImageSampler) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
OpName %i "i"
OpName %c "c"
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_sampled %tex %i
%t = OpLoad %sampled %p
%100 = OpImageSampleImplicitLod %v4float %t %c
OpStore %color %100
OpReturn
OpFunctionEnd
)"));
  ExpectLowered(run);
  IRContext& context = *run.context;
  const auto switches = SwitchesOn(context, Named(context, "i")->result_id());
  ASSERT_EQ(switches.size(), 1u);
  const Switch& s = switches[0];
  ASSERT_EQ(s.cases.size(), 4u);
  // Out of range: as element 0.
  EXPECT_EQ(s.default_target, s.cases[0].second);
  EXPECT_EQ(BlockOf(context, s.inst)->GetMergeInst()->opcode(), spv::Op::OpSelectionMerge);

  EXPECT_EQ(Count(context, spv::Op::OpImageSampleImplicitLod), 0u);
  const auto samples = FindAll(context, spv::Op::OpImageSampleExplicitLod);
  ASSERT_EQ(samples.size(), 4u);
  const Instruction* dx = FindOne(context, spv::Op::OpDPdx);
  const Instruction* dy = FindOne(context, spv::Op::OpDPdy);
  EXPECT_EQ(dx->GetSingleWordInOperand(0), Named(context, "c")->result_id());
  std::set<uint32_t> indices;
  for (uint32_t k = 0; k < 4; ++k) {
    const Instruction* sample = samples[k];
    // Each case block holds its own access.
    EXPECT_EQ(BlockOf(context, sample)->id(), s.cases[k].second);
    EXPECT_EQ(sample->GetSingleWordInOperand(2), kGrad);
    EXPECT_EQ(sample->GetSingleWordInOperand(3), dx->result_id());
    EXPECT_EQ(sample->GetSingleWordInOperand(4), dy->result_id());
    const Instruction* chain = Operand(run, Operand(run, sample, 0), 0);
    EXPECT_EQ(ConstantValue(run, chain->GetSingleWordInOperand(1)), s.cases[k].first);
    indices.insert(ConstantValue(run, chain->GetSingleWordInOperand(1)));
    const Instruction* store = sample->NextNode();
    ASSERT_EQ(store->opcode(), spv::Op::OpStore);
    EXPECT_EQ(Operand(run, store, 0)->opcode(), spv::Op::OpVariable);
  }
  EXPECT_EQ(indices, (std::set<uint32_t>{0, 1, 2, 3}));
  // The gradients come before the switch, in the block that branches to it.
  EXPECT_NE(BlockOf(context, dx), BlockOf(context, s.inst));
  EXPECT_EQ(BlockOf(context, dx)->tail()->GetSingleWordInOperand(0),
            BlockOf(context, s.inst)->id());

  bool logged = false;
  for (const PassChange& change : run.log) {
    if (change.action != "descriptor-switch") continue;
    logged = true;
    EXPECT_EQ(change.id, 100u);
    EXPECT_EQ(change.detail, "descriptor array tex");
  }
  EXPECT_TRUE(logged);
}

// images[i] (3) with samplers[j] (2), both dynamic: a switch on i whose
// cases each switch on j: 3 x 2 samples, each with its pair of constants.
TEST(DescriptorSwitchPass, SeparateImageAndSamplerNest) {
  const PassRun run = RunPass(kPass, FragmentModule(kSeparateImageAndSamplerMain));
  ExpectLowered(run);
  IRContext& context = *run.context;
  const auto outer = SwitchesOn(context, Named(context, "i")->result_id());
  const auto inner = SwitchesOn(context, Named(context, "j")->result_id());
  ASSERT_EQ(outer.size(), 1u);
  ASSERT_EQ(inner.size(), 3u);
  EXPECT_EQ(outer[0].cases.size(), 3u);
  for (size_t k = 0; k < inner.size(); ++k) {
    EXPECT_EQ(BlockOf(context, inner[k].inst)->id(), outer[0].cases[k].second);
    EXPECT_EQ(inner[k].cases.size(), 2u);
  }
  const auto samples = FindAll(context, spv::Op::OpImageSampleExplicitLod);
  ASSERT_EQ(samples.size(), 6u);
  std::set<std::pair<uint32_t, uint32_t>> pairs;
  for (const Instruction* sample : samples) {
    const Instruction* sampled = Operand(run, sample, 0);
    ASSERT_EQ(sampled->opcode(), spv::Op::OpSampledImage);
    EXPECT_EQ(BlockOf(context, sampled), BlockOf(context, sample));
    const Instruction* image_chain = Operand(run, Operand(run, sampled, 0), 0);
    const Instruction* sampler_chain = Operand(run, Operand(run, sampled, 1), 0);
    pairs.emplace(ConstantValue(run, image_chain->GetSingleWordInOperand(1)),
                  ConstantValue(run, sampler_chain->GetSingleWordInOperand(1)));
  }
  EXPECT_EQ(pairs.size(), 6u);
}

// One index for an image array of 3 and a sampler array of 2: one switch,
// over the shorter array (beyond it the original access was out of bounds).
TEST(DescriptorSwitchPass, OneIndexForTwoArraysSwitchesOnceOverTheShorter) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
OpName %i "i"
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%ip = OpAccessChain %ptr_image %images %i
%img = OpLoad %image %ip
%sp = OpAccessChain %ptr_sampler %samplers %i
%smp = OpLoad %sampler %sp
%si = OpSampledImage %sampled %img %smp
%r = OpImageSampleExplicitLod %v4float %si %c Lod %float_0
OpStore %color %r
OpReturn
OpFunctionEnd
)"));
  ExpectLowered(run);
  IRContext& context = *run.context;
  EXPECT_EQ(Count(context, spv::Op::OpSwitch), 1u);
  const auto switches = SwitchesOn(context, Named(context, "i")->result_id());
  ASSERT_EQ(switches.size(), 1u);
  EXPECT_EQ(switches[0].cases.size(), 2u);
  EXPECT_EQ(Count(context, spv::Op::OpDPdx), 0u);  // explicit LOD: no gradients
}

// A dynamically uniform index is still not a constant: rewritten.
TEST(DescriptorSwitchPass, UniformButDynamicIndex) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%pu = OpAccessChain %ptr_Uniform_int %params %int_0
%u = OpLoad %int %pu
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_sampled %tex %u
%t = OpLoad %sampled %p
%r = OpImageSampleImplicitLod %v4float %t %c
OpStore %color %r
OpReturn
OpFunctionEnd
)"));
  ExpectLowered(run);
  EXPECT_EQ(Count(*run.context, spv::Op::OpImageSampleExplicitLod), 4u);
}

// Buffers: a uniform-buffer read and a storage-buffer atomic whose result
// is used after the switch.
TEST(DescriptorSwitchPass, UniformBufferReadAndStorageBufferAtomic) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
OpName %i "i"
OpName %old "old"
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%pv = OpAccessChain %ptr_Uniform_v4float %ubos %i %int_0
%v = OpLoad %v4float %pv
%pc = OpAccessChain %ptr_StorageBuffer_uint %ssbos %i %int_0
%old = OpAtomicIAdd %uint %pc %uint_1 %uint_0 %uint_1
%f = OpConvertUToF %float %old
%col = OpVectorTimesScalar %v4float %v %f
OpStore %color %col
OpReturn
OpFunctionEnd
)"));
  ExpectLowered(run);
  IRContext& context = *run.context;
  // Same index, one block, nothing between: one switch over the shorter
  // array (ssbos: 4, ubos: 8).
  const auto switches = SwitchesOn(context, Named(context, "i")->result_id());
  ASSERT_EQ(switches.size(), 1u);
  EXPECT_EQ(switches[0].cases.size(), 4u);
  EXPECT_EQ(Count(context, spv::Op::OpAtomicIAdd), 4u);
  const Instruction* convert = FindOne(context, spv::Op::OpConvertUToF);
  const Instruction* old = Operand(run, convert, 0);
  EXPECT_EQ(old->opcode(), spv::Op::OpLoad);
  EXPECT_EQ(Operand(run, old, 0)->opcode(), spv::Op::OpVariable);
}

// A store through a dynamically indexed storage buffer: no result; each
// case stores to its element.
TEST(DescriptorSwitchPass, StorageBufferStore) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%pd = OpAccessChain %ptr_StorageBuffer_uint %ssbos %i %int_1 %int_2
OpStore %pd %uint_3
OpStore %color %v4float_0
OpReturn
OpFunctionEnd
)"));
  ExpectLowered(run);
  IRContext& context = *run.context;
  std::set<uint32_t> elements;
  for (const Instruction* store : FindAll(context, spv::Op::OpStore)) {
    const Instruction* pointer = Operand(run, store, 0);
    if (pointer->opcode() != spv::Op::OpAccessChain) continue;
    elements.insert(ConstantValue(run, pointer->GetSingleWordInOperand(1)));
    EXPECT_EQ(ConstantValue(run, pointer->GetSingleWordInOperand(3)), 2u);
  }
  EXPECT_EQ(elements, (std::set<uint32_t>{0, 1, 2, 3}));
}

// The index is a parameter of the accessing function: the switch is there.
TEST(DescriptorSwitchPass, IndexThroughFunctionParameter) {
  const PassRun run = RunPass(kPass, FragmentModule(kIndexThroughParameterMain));
  ExpectLowered(run);
  IRContext& context = *run.context;
  const Instruction* s = FindOne(context, spv::Op::OpSwitch);
  EXPECT_EQ(BlockOf(context, s)->GetParent()->result_id(), Named(context, "sample")->result_id());
}

// Two samples of tex[i] in one block share one switch: each case has both.
TEST(DescriptorSwitchPass, TwoAccessesWithTheSameIndexShareOneSwitch) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%c2 = OpVectorTimesScalar %v2float %c %float_0_5
%p = OpAccessChain %ptr_sampled %tex %i
%t = OpLoad %sampled %p
%a = OpImageSampleImplicitLod %v4float %t %c
%b = OpImageSampleImplicitLod %v4float %t %c2 Bias %float_1
%sum = OpFAdd %v4float %a %b
OpStore %color %sum
OpReturn
OpFunctionEnd
)"));
  ExpectLowered(run);
  IRContext& context = *run.context;
  EXPECT_EQ(Count(context, spv::Op::OpSwitch), 1u);
  const auto samples = FindAll(context, spv::Op::OpImageSampleExplicitLod);
  ASSERT_EQ(samples.size(), 8u);
  for (size_t k = 0; k < samples.size(); k += 2) {
    EXPECT_EQ(BlockOf(context, samples[k]), BlockOf(context, samples[k + 1]));
  }
  EXPECT_EQ(Count(context, spv::Op::OpDPdx), 2u);
  EXPECT_EQ(Count(context, spv::Op::OpExtInst), 1u);  // exp2 of the one bias
}

// An access in a loop body, its index changing per iteration.
TEST(DescriptorSwitchPass, AccessInALoopBody) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%c = OpLoad %v2float %uv
OpBranch %header
%header = OpLabel
%n = OpPhi %int %int_0 %entry %n1 %continue
%acc = OpPhi %v4float %v4float_0 %entry %acc1 %continue
OpLoopMerge %exit %continue None
OpBranch %cond
%cond = OpLabel
%more = OpSLessThan %bool %n %int_2
OpBranchConditional %more %body %exit
%body = OpLabel
%p = OpAccessChain %ptr_sampled %tex %n
%t = OpLoad %sampled %p
%s = OpImageSampleImplicitLod %v4float %t %c
%acc1 = OpFAdd %v4float %acc %s
OpBranch %continue
%continue = OpLabel
%n1 = OpIAdd %int %n %int_1
OpBranch %header
%exit = OpLabel
OpStore %color %acc
OpReturn
OpFunctionEnd
)"));
  ExpectLowered(run);
  EXPECT_EQ(Count(*run.context, spv::Op::OpImageSampleExplicitLod), 4u);
}

// A runtime array has no element count to switch over.
TEST(DescriptorSwitchPass, RuntimeArrayFails) {
  const PassRun run = RunPass(kPass, FragmentModule(kRuntimeArrayMain));
  EXPECT_EQ(run.status, Pass::Status::Failure);
  EXPECT_NE(run.messages.find("descriptor-switch: cannot rewrite OpImageSampleImplicitLod"),
            std::string::npos)
      << run.messages;
  EXPECT_NE(run.messages.find("bindless has no element count known at compile time"),
            std::string::npos)
      << run.messages;
}

// OpImageQueryLod has no explicit form, but with a uniform index the switch
// is uniform control flow and its derivatives stay defined: rewritten; with
// an index from a smooth varying (not quad-uniform, as a flat one would be):
// refused.
TEST(DescriptorSwitchPass, QueryLodOnlyWithAQuadUniformIndex) {
  const std::string body = R"(
OpCapability ImageQuery
%main = OpFunction %void None %fn
%entry = OpLabel
%pu = OpAccessChain %ptr_Uniform_int %params %int_0
%u = OpLoad %int %pu
%c = OpLoad %v2float %uv
%cx = OpCompositeExtract %float %c 0
%i = OpConvertFToS %int %cx
%p = OpAccessChain %ptr_sampled %tex %INDEX
%t = OpLoad %sampled %p
%l = OpImageQueryLod %v2float %t %c
%col = OpVectorShuffle %v4float %l %l 0 1 0 1
OpStore %color %col
OpReturn
OpFunctionEnd
)";
  auto with = [&](const std::string& index) {
    std::string text = body;
    text.replace(text.find("INDEX"), 5, index);
    return FragmentModule(text);
  };
  const PassRun uniform = RunPass(kPass, with("u"));
  ExpectLowered(uniform);
  EXPECT_EQ(Count(*uniform.context, spv::Op::OpImageQueryLod), 4u);
  const PassRun divergent = RunPass(kPass, with("i"));
  EXPECT_EQ(divergent.status, Pass::Status::Failure);
  EXPECT_NE(divergent.messages.find("no explicit-gradient form"), std::string::npos)
      << divergent.messages;
}

// Only the classes asked for: with sampled images only, the uniform-buffer
// access keeps its dynamic index.
TEST(DescriptorSwitchPass, OnlyTheClassesAskedFor) {
  NonUniformPassOptions options;
  options.classes = DescriptorClassSet().set(Bit(DescriptorClass::kSampledImage));
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_sampled %tex %i
%t = OpLoad %sampled %p
%r = OpImageSampleImplicitLod %v4float %t %c
%pv = OpAccessChain %ptr_Uniform_v4float %ubos %i %int_0
%v = OpLoad %v4float %pv
%sum = OpFAdd %v4float %r %v
OpStore %color %sum
OpReturn
OpFunctionEnd
)"),
                              options);
  ASSERT_EQ(run.status, Pass::Status::SuccessWithChange) << run.messages;
  IRContext& context = *run.context;
  EXPECT_EQ(Count(context, spv::Op::OpImageSampleExplicitLod), 4u);
  size_t dynamic_buffer_chains = 0;
  for (const Instruction* chain : FindAll(context, spv::Op::OpAccessChain)) {
    if (Operand(run, chain, 0)->result_id() == Named(context, "ubos")->result_id()) {
      ++dynamic_buffer_chains;
      EXPECT_EQ(Operand(run, chain, 1)->opcode(), spv::Op::OpLoad);
    }
  }
  EXPECT_EQ(dynamic_buffer_chains, 1u);
  ExpectIdempotent(kPass, run, options);
}

// Constant indices: nothing to do, the module is left as it was.
TEST(DescriptorSwitchPass, ConstantIndicesAreLeftAlone) {
  const std::string module = FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_sampled %tex %int_2
%t = OpLoad %sampled %p
%r = OpImageSampleImplicitLod %v4float %t %c
OpStore %color %r
OpReturn
OpFunctionEnd
)");
  const PassRun run = RunPass(kPass, module);
  EXPECT_EQ(run.status, Pass::Status::SuccessWithoutChange) << run.messages;
  EXPECT_EQ(run.words, test::MustAssemble(module).words);
}

// glslang's own output for shaders/passes: every index a constant afterwards.
// (ssbos' data[] is a runtime array inside a block: the blocks themselves
// are an array of 4, which is what is switched over.)
TEST(DescriptorSwitchPass, GlslangShaders) {
  for (const char* name : {"nonuniform_textures.frag", "nonuniform_buffers.comp"}) {
    SCOPED_TRACE(name);
    const PassRun run = RunPass(kPass, test::PassShader(name));
    ExpectLowered(run);
    EXPECT_EQ(Count(*run.context, spv::Op::OpImageSampleImplicitLod), 0u);
  }
}

TEST(DescriptorSwitchPass, KernelsAreLeftAlone) {
  const PassRun run = RunPass(kPass, test::MinimalKernel());
  EXPECT_EQ(run.status, Pass::Status::SuccessWithoutChange);
}

}  // namespace
}  // namespace spirv_conv
