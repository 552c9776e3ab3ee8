// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// WaterfallPass (docs/passes.md, "waterfall"): each access whose descriptor
// index is not subgroup-uniform (%i = a flat fragment input: divergent) runs
// in a loop that broadcasts the first active invocation's index and lets
// the invocations with that index access the descriptor with it. Every
// expectation is the structure reasoned out in waterfall_pass.cpp's sketch:
// the broadcast of the original index in the loop, the access re-created
// inside the loop with the broadcast, its result stored to a Function
// variable there and loaded after the loop, implicit-LOD gradients taken
// before the loop. Every output passes spirv-val, a second run changes
// nothing, and the uniformity analysis sees every index as subgroup-uniform
// afterwards (the lint's nonuniform-missing-decoration has nothing left).

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
using test::LoopOf;
using test::Named;
using test::Operand;
using test::PassRun;
using test::RunPass;

constexpr char kPass[] = "waterfall";
constexpr uint32_t kGrad = static_cast<uint32_t>(spv::ImageOperandsMask::Grad);

// Checks what every waterfall shares, for a module whose loops broadcast
// |indices| indices in all: the broadcasts in loops, no image or sampler
// phi, the capability, and the uniformity of every index afterwards.
void ExpectWaterfall(const PassRun& run, size_t indices) {
  ASSERT_EQ(run.status, Pass::Status::SuccessWithChange) << run.messages;
  IRContext& context = *run.context;
  const auto broadcasts = FindAll(context, spv::Op::OpGroupNonUniformBroadcastFirst);
  EXPECT_EQ(broadcasts.size(), indices) << run.disassembly;
  for (const Instruction* broadcast : broadcasts) EXPECT_NE(LoopOf(context, broadcast), 0u);
  EXPECT_FALSE(test::HasOpaquePhi(context));
  EXPECT_TRUE(test::HasCapability(context, spv::Capability::GroupNonUniformBallot));
  EXPECT_LE(test::WidestIndexLevel(context), Uniformity::kSubgroup) << run.disassembly;
  ExpectIdempotent(kPass, run);
}

// The combined image sampler tex[i], sampled with an implicit LOD and a
// bias, the result written to the output.
TEST(WaterfallPass, CombinedImageSamplerWithBias) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
OpName %i "i"
OpName %c "c"
OpName %entry "entry"
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_sampled %tex %i
%t = OpLoad %sampled %p
%100 = OpImageSampleImplicitLod %v4float %t %c Bias %float_0_5
OpStore %color %100
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 1);
  IRContext& context = *run.context;
  const Instruction* broadcast = FindOne(context, spv::Op::OpGroupNonUniformBroadcastFirst);
  EXPECT_EQ(broadcast->GetSingleWordInOperand(1), Named(context, "i")->result_id());

  // The sample: explicit, with gradients and without Bias, inside the loop,
  // its descriptor loaded there through an access chain indexed by the
  // broadcast value.
  EXPECT_EQ(Count(context, spv::Op::OpImageSampleImplicitLod), 0u);
  const Instruction* sample = FindOne(context, spv::Op::OpImageSampleExplicitLod);
  ASSERT_NE(sample, nullptr);
  EXPECT_EQ(LoopOf(context, sample), LoopOf(context, broadcast));
  EXPECT_EQ(sample->GetSingleWordInOperand(2), kGrad);
  ASSERT_EQ(sample->NumInOperands(), 5u);
  const Instruction* handle = Operand(run, sample, 0);
  EXPECT_EQ(handle->opcode(), spv::Op::OpLoad);
  EXPECT_EQ(BlockOf(context, handle), BlockOf(context, sample));
  const Instruction* chain = Operand(run, handle, 0);
  EXPECT_EQ(chain->opcode(), spv::Op::OpAccessChain);
  EXPECT_EQ(chain->GetSingleWordInOperand(1), broadcast->result_id());

  // The gradients: taken in the original block before the loop, of the
  // coordinate, scaled by exp2(bias).
  const Instruction* dx = FindOne(context, spv::Op::OpDPdx);
  const Instruction* dy = FindOne(context, spv::Op::OpDPdy);
  for (const Instruction* derivative : {dx, dy}) {
    EXPECT_EQ(LoopOf(context, derivative), 0u);
    EXPECT_EQ(BlockOf(context, derivative)->id(), Named(context, "entry")->result_id());
    EXPECT_EQ(derivative->GetSingleWordInOperand(0), Named(context, "c")->result_id());
  }
  const Instruction* grad_x = Operand(run, sample, 3);
  EXPECT_EQ(grad_x->opcode(), spv::Op::OpVectorTimesScalar);
  EXPECT_EQ(grad_x->GetSingleWordInOperand(0), dx->result_id());
  const Instruction* scale = Operand(run, grad_x, 1);
  EXPECT_EQ(scale->opcode(), spv::Op::OpExtInst);
  EXPECT_EQ(scale->GetSingleWordInOperand(1), 29u);  // GLSL.std.450 Exp2
  EXPECT_EQ(Operand(run, sample, 4)->GetSingleWordInOperand(0), dy->result_id());

  // The result: stored to a Function variable in the loop, loaded after it.
  const Instruction* store = sample->NextNode();
  ASSERT_EQ(store->opcode(), spv::Op::OpStore);
  EXPECT_EQ(store->GetSingleWordInOperand(1), sample->result_id());
  const Instruction* variable = Operand(run, store, 0);
  EXPECT_EQ(variable->opcode(), spv::Op::OpVariable);
  EXPECT_EQ(variable->GetSingleWordInOperand(0), uint32_t(spv::StorageClass::Function));
  const Instruction* output = nullptr;
  for (const Instruction* candidate : FindAll(context, spv::Op::OpStore)) {
    if (candidate->GetSingleWordInOperand(0) == Named(context, "color")->result_id()) {
      output = candidate;
    }
  }
  ASSERT_NE(output, nullptr);
  const Instruction* result = Operand(run, output, 1);
  EXPECT_EQ(result->opcode(), spv::Op::OpLoad);
  EXPECT_EQ(result->GetSingleWordInOperand(0), variable->result_id());
  EXPECT_EQ(LoopOf(context, result), 0u);

  // The change log names the access and the array.
  ASSERT_FALSE(run.log.empty());
  bool logged = false;
  for (const PassChange& change : run.log) {
    if (change.action != "waterfall") continue;
    logged = true;
    EXPECT_EQ(change.pass, "waterfall");
    EXPECT_EQ(change.id, 100u);
    EXPECT_EQ(change.opcode, "OpImageSampleImplicitLod");
    EXPECT_EQ(change.detail, "descriptor array tex");
  }
  EXPECT_TRUE(logged);
}

// A separate texture array and sampler array, both indexed non-uniformly:
// one loop broadcasts both indices, and the invocations whose two indices
// both match access the pair.
TEST(WaterfallPass, SeparateImageAndSamplerBothNonUniform) {
  const PassRun run = RunPass(kPass, FragmentModule(kSeparateImageAndSamplerMain));
  ExpectWaterfall(run, 2);
  IRContext& context = *run.context;
  const auto broadcasts = FindAll(context, spv::Op::OpGroupNonUniformBroadcastFirst);
  ASSERT_EQ(broadcasts.size(), 2u);
  EXPECT_EQ(LoopOf(context, broadcasts[0]), LoopOf(context, broadcasts[1]));
  EXPECT_EQ(BlockOf(context, broadcasts[0]), BlockOf(context, broadcasts[1]));
  EXPECT_EQ(broadcasts[0]->GetSingleWordInOperand(1), Named(context, "i")->result_id());
  EXPECT_EQ(broadcasts[1]->GetSingleWordInOperand(1), Named(context, "j")->result_id());

  // Both comparisons, and'ed, decide the branch and the loop's exit.
  const Instruction* both = FindOne(context, spv::Op::OpLogicalAnd);
  ASSERT_NE(both, nullptr);
  size_t branches = 0;
  for (const Instruction* branch : FindAll(context, spv::Op::OpBranchConditional)) {
    if (branch->GetSingleWordInOperand(0) == both->result_id()) ++branches;
  }
  EXPECT_EQ(branches, 2u);

  // Inside: both chains with the broadcast values, the sampled image in the
  // block of the sample.
  const Instruction* sample = FindOne(context, spv::Op::OpImageSampleExplicitLod);
  ASSERT_NE(sample, nullptr);
  const Instruction* sampled = Operand(run, sample, 0);
  EXPECT_EQ(sampled->opcode(), spv::Op::OpSampledImage);
  EXPECT_EQ(BlockOf(context, sampled), BlockOf(context, sample));
  const Instruction* image_chain = Operand(run, Operand(run, sampled, 0), 0);
  const Instruction* sampler_chain = Operand(run, Operand(run, sampled, 1), 0);
  EXPECT_EQ(image_chain->GetSingleWordInOperand(1), broadcasts[0]->result_id());
  EXPECT_EQ(sampler_chain->GetSingleWordInOperand(1), broadcasts[1]->result_id());
  EXPECT_EQ(Count(context, spv::Op::OpSampledImage), 1u);  // the original is gone
}

// An atomic, a load and a store through ssbos[i] in one block: one loop,
// all three in its branch with what lies between them; the atomic's result
// is used inside, their sum after the loop (through a variable).
TEST(WaterfallPass, StorageBufferAtomicLoadStoreShareOneLoop) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
OpName %sum "sum"
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%pc = OpAccessChain %ptr_StorageBuffer_uint %ssbos %i %int_0
%old = OpAtomicIAdd %uint %pc %uint_1 %uint_0 %uint_1
%pd = OpAccessChain %ptr_StorageBuffer_uint %ssbos %i %int_1 %int_2
%v = OpLoad %uint %pd
%sum = OpIAdd %uint %old %v
OpStore %pd %sum
%f = OpConvertUToF %float %sum
%col = OpCompositeConstruct %v4float %f %f %f %f
OpStore %color %col
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 1);
  IRContext& context = *run.context;
  const uint32_t loop = LoopOf(context, FindOne(context, spv::Op::OpGroupNonUniformBroadcastFirst));
  const Instruction* atomic = FindOne(context, spv::Op::OpAtomicIAdd);
  const Instruction* add = FindOne(context, spv::Op::OpIAdd);
  ASSERT_NE(atomic, nullptr);
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(LoopOf(context, atomic), loop);
  EXPECT_EQ(BlockOf(context, add), BlockOf(context, atomic));
  size_t buffer_stores = 0;
  for (const Instruction* store : FindAll(context, spv::Op::OpStore)) {
    const Instruction* pointer = Operand(run, store, 0);
    if (pointer->opcode() != spv::Op::OpAccessChain) continue;
    ++buffer_stores;
    EXPECT_EQ(BlockOf(context, store), BlockOf(context, atomic));
  }
  EXPECT_EQ(buffer_stores, 1u);
  // The sum leaves through a variable: the conversion after the loop reads
  // the load of it (the name moved there with the uses).
  const Instruction* convert = FindOne(context, spv::Op::OpConvertUToF);
  EXPECT_EQ(LoopOf(context, convert), 0u);
  const Instruction* sum = Operand(run, convert, 0);
  EXPECT_EQ(sum->opcode(), spv::Op::OpLoad);
  EXPECT_EQ(sum, Named(context, "sum"));
  EXPECT_EQ(Operand(run, sum, 0)->opcode(), spv::Op::OpVariable);
}

// A uniform-buffer array read through a two-level access chain (the
// descriptor, then the member): the member index stays.
TEST(WaterfallPass, UniformBufferArrayRead) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%pv = OpAccessChain %ptr_Uniform_v4float %ubos %i %int_0
%v = OpLoad %v4float %pv
OpStore %color %v
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 1);
  IRContext& context = *run.context;
  const Instruction* broadcast = FindOne(context, spv::Op::OpGroupNonUniformBroadcastFirst);
  const auto chains = FindAll(context, spv::Op::OpAccessChain);
  ASSERT_EQ(chains.size(), 1u);
  EXPECT_EQ(chains[0]->GetSingleWordInOperand(1), broadcast->result_id());
  EXPECT_EQ(Def(run, chains[0]->GetSingleWordInOperand(2))->opcode(), spv::Op::OpConstant);
  EXPECT_EQ(LoopOf(context, chains[0]), LoopOf(context, broadcast));
}

// The index is a parameter of the function that accesses the array; main
// passes a divergent value: the loop is in the callee.
TEST(WaterfallPass, IndexThroughFunctionParameter) {
  const PassRun run = RunPass(kPass, FragmentModule(kIndexThroughParameterMain));
  ExpectWaterfall(run, 1);
  IRContext& context = *run.context;
  const Instruction* broadcast = FindOne(context, spv::Op::OpGroupNonUniformBroadcastFirst);
  EXPECT_EQ(BlockOf(context, broadcast)->GetParent()->result_id(),
            Named(context, "sample")->result_id());
  EXPECT_EQ(broadcast->GetSingleWordInOperand(1), Named(context, "k")->result_id());
  const Instruction* ret = FindOne(context, spv::Op::OpReturnValue);
  EXPECT_EQ(Operand(run, ret, 0)->opcode(), spv::Op::OpLoad);
  EXPECT_EQ(BlockOf(context, FindOne(context, spv::Op::OpDPdx))->GetParent()->result_id(),
            Named(context, "sample")->result_id());
}

// The descriptor itself (not its index) is a parameter: the index is chosen
// in the caller, and the access cannot be re-created in the callee.
TEST(WaterfallPass, DescriptorThroughPointerParameterFails) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_sampled %tex %i
%r = OpFunctionCall %v4float %sample %p %c
OpStore %color %r
OpReturn
OpFunctionEnd
%sample = OpFunction %v4float None %fn_sample_from
%q = OpFunctionParameter %ptr_sampled
%x = OpFunctionParameter %v2float
%body = OpLabel
%t = OpLoad %sampled %q
%s = OpImageSampleImplicitLod %v4float %t %x
OpReturnValue %s
OpFunctionEnd
)"));
  EXPECT_EQ(run.status, Pass::Status::Failure);
  EXPECT_NE(run.messages.find("waterfall: cannot rewrite OpImageSampleImplicitLod"),
            std::string::npos)
      << run.messages;
  EXPECT_NE(run.messages.find("comes through parameter"), std::string::npos) << run.messages;
  EXPECT_NE(run.messages.find("--inline-entry-points-exhaustive"), std::string::npos);
}

// Two samples of tex[i] in one block, with arithmetic between them, share
// one loop: both gradient pairs before it, both samples in its branch.
TEST(WaterfallPass, TwoAccessesWithTheSameIndexShareOneLoop) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%c2 = OpVectorTimesScalar %v2float %c %float_0_5
%p = OpAccessChain %ptr_sampled %tex %i
%t = OpLoad %sampled %p
%a = OpImageSampleImplicitLod %v4float %t %c
%a2 = OpVectorTimesScalar %v4float %a %float_0_5
%b = OpImageSampleImplicitLod %v4float %t %c2
%sum = OpFAdd %v4float %a2 %b
OpStore %color %sum
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 1);
  IRContext& context = *run.context;
  const auto samples = FindAll(context, spv::Op::OpImageSampleExplicitLod);
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(BlockOf(context, samples[0]), BlockOf(context, samples[1]));
  EXPECT_EQ(samples[0]->GetSingleWordInOperand(0), samples[1]->GetSingleWordInOperand(0));
  EXPECT_EQ(Count(context, spv::Op::OpDPdx), 2u);
  for (const Instruction* derivative : FindAll(context, spv::Op::OpDPdy)) {
    EXPECT_EQ(LoopOf(context, derivative), 0u);
  }
  // The sum is computed after the loop from what left it: only the last
  // value of the region (%sum) is used after it.
  EXPECT_EQ(LoopOf(context, FindOne(context, spv::Op::OpFAdd)), 0u);
}

// Between two accesses with the same index, a derivative: it must stay in
// the control flow it had, so the accesses get a loop each.
TEST(WaterfallPass, ADerivativeBetweenAccessesKeepsThemApart) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_Uniform_v4float %ubos %i %int_0
%a = OpLoad %v4float %p
%d = OpDPdx %v4float %a
%b = OpLoad %v4float %p
%sum = OpFAdd %v4float %d %b
OpStore %color %sum
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 2);
  IRContext& context = *run.context;
  EXPECT_EQ(Count(context, spv::Op::OpLoopMerge), 2u);
  EXPECT_EQ(LoopOf(context, FindOne(context, spv::Op::OpDPdx)), 0u);
}

// A coordinate computed between two samples cannot be differentiated before
// a loop that starts at the first: two loops.
TEST(WaterfallPass, ACoordinateComputedBetweenAccessesKeepsThemApart) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_sampled %tex %i
%t = OpLoad %sampled %p
%a = OpImageSampleImplicitLod %v4float %t %c
%c2 = OpVectorShuffle %v2float %a %a 0 1
%b = OpImageSampleImplicitLod %v4float %t %c2
OpStore %color %b
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 2);
  EXPECT_EQ(Count(*run.context, spv::Op::OpLoopMerge), 2u);
}

// The access is in the body of a loop whose trip count is uniform: the
// waterfall loop nests inside it, and the outer loop's phis still work.
TEST(WaterfallPass, AccessInALoopBody) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
OpName %header "header"
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
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
%k = OpIAdd %int %i %n
%p = OpAccessChain %ptr_sampled %tex %k
%t = OpLoad %sampled %p
%s = OpImageSampleExplicitLod %v4float %t %c Lod %float_0
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
  ExpectWaterfall(run, 1);
  IRContext& context = *run.context;
  const Instruction* broadcast = FindOne(context, spv::Op::OpGroupNonUniformBroadcastFirst);
  const uint32_t inner = LoopOf(context, broadcast);
  const uint32_t outer = Named(context, "header")->result_id();
  EXPECT_NE(inner, outer);
  EXPECT_EQ(context.GetStructuredCFGAnalysis()->ContainingLoop(inner), outer);
  const Instruction* sample = FindOne(context, spv::Op::OpImageSampleExplicitLod);
  EXPECT_EQ(LoopOf(context, sample), inner);
  EXPECT_EQ(sample->GetSingleWordInOperand(2),
            static_cast<uint32_t>(spv::ImageOperandsMask::Lod));  // explicit LOD: kept
}

// The access is in a loop header that computes the loop's condition (as
// spirv-opt leaves loops): the header keeps its phis and OpLoopMerge, and
// the code moves to a block after it.
TEST(WaterfallPass, AccessInALoopHeader) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
OpName %header "header"
OpName %exit "exit"
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
OpBranch %header
%header = OpLabel
%n = OpPhi %int %int_0 %entry %n1 %continue
%p = OpAccessChain %ptr_Uniform_v4float %ubos %i %int_0
%v = OpLoad %v4float %p
%x = OpCompositeExtract %float %v 0
%small = OpFOrdLessThan %bool %x %float_1
%few = OpSLessThan %bool %n %int_2
%more = OpLogicalAnd %bool %small %few
OpLoopMerge %exit %continue None
OpBranchConditional %more %continue %exit
%continue = OpLabel
%n1 = OpIAdd %int %n %int_1
OpBranch %header
%exit = OpLabel
OpStore %color %v
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 1);
  IRContext& context = *run.context;
  const Instruction* header = Named(context, "header");
  const spvtools::opt::BasicBlock* block = BlockOf(context, header);
  ASSERT_NE(block->GetLoopMergeInst(), nullptr);
  EXPECT_EQ(block->GetLoopMergeInst()->GetSingleWordInOperand(0),
            Named(context, "exit")->result_id());
  EXPECT_EQ(block->begin()->opcode(), spv::Op::OpPhi);
}

// The same in a one-block loop, whose header is its own continue target:
// the back edge now leaves from the block after the header, which becomes
// the continue target.
TEST(WaterfallPass, AccessInAOneBlockLoop) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
OpBranch %header
%header = OpLabel
%n = OpPhi %int %int_0 %entry %n1 %header
%p = OpAccessChain %ptr_Uniform_v4float %ubos %i %int_0
%v = OpLoad %v4float %p
%n1 = OpIAdd %int %n %int_1
%more = OpSLessThan %bool %n1 %int_2
OpLoopMerge %exit %header None
OpBranchConditional %more %header %exit
%exit = OpLabel
OpStore %color %v
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 1);
}

// An OpSampledImage of a uniform descriptor made before the rewritten
// access and used after it: the split would separate it from its user
// (spirv-val: OpSampledImage must be in its users' block), so it is made
// again next to the user.
TEST(WaterfallPass, SampledImageUsedAcrossTheSplitIsMadeAgain) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%ip0 = OpAccessChain %ptr_image %images %int_0
%img0 = OpLoad %image %ip0
%sp0 = OpAccessChain %ptr_sampler %samplers %int_0
%smp0 = OpLoad %sampler %sp0
%si0 = OpSampledImage %sampled %img0 %smp0
%ip = OpAccessChain %ptr_image %images %i
%img = OpLoad %image %ip
%si = OpSampledImage %sampled %img %smp0
%a = OpImageSampleExplicitLod %v4float %si %c Lod %float_0
%b = OpImageSampleExplicitLod %v4float %si0 %c Lod %float_0
%sum = OpFAdd %v4float %a %b
OpStore %color %sum
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 1);
  IRContext& context = *run.context;
  for (const Instruction* sampled : FindAll(context, spv::Op::OpSampledImage)) {
    for (const Instruction* sample : FindAll(context, spv::Op::OpImageSampleExplicitLod)) {
      if (sample->GetSingleWordInOperand(0) == sampled->result_id()) {
        EXPECT_EQ(BlockOf(context, sample), BlockOf(context, sampled));
      }
    }
  }
}

// Projective and depth-comparison samples: gradients of the projected
// coordinate (u/q, v/q), and each opcode's explicit twin.
TEST(WaterfallPass, ProjectiveAndDepthComparisonSamples) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%w = OpLoad %v4float %uvw
%c3 = OpVectorShuffle %v3float %w %w 0 1 3
%p = OpAccessChain %ptr_sampled %tex %i
%t = OpLoad %sampled %p
%a = OpImageSampleProjImplicitLod %v4float %t %c3 ConstOffset %v2int_1
%sp = OpAccessChain %ptr_shadow_sampled %shadows %i
%s = OpLoad %shadow_sampled %sp
%d = OpImageSampleDrefImplicitLod %float %s %c3 %float_0_5
%pd = OpImageSampleProjDrefImplicitLod %float %s %c3 %float_0_5
%dd = OpFAdd %float %d %pd
%col = OpVectorTimesScalar %v4float %a %dd
OpStore %color %col
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 1);
  IRContext& context = *run.context;
  EXPECT_EQ(Count(context, spv::Op::OpImageSampleProjExplicitLod), 1u);
  EXPECT_EQ(Count(context, spv::Op::OpImageSampleDrefExplicitLod), 1u);
  EXPECT_EQ(Count(context, spv::Op::OpImageSampleProjDrefExplicitLod), 1u);
  // Two projective samples divide by q before differentiating.
  EXPECT_EQ(Count(context, spv::Op::OpFDiv), 2u);
  for (const Instruction* derivative : FindAll(context, spv::Op::OpDPdx)) {
    EXPECT_EQ(LoopOf(context, derivative), 0u);
  }
  const Instruction* proj = FindOne(context, spv::Op::OpImageSampleProjExplicitLod);
  const uint32_t const_offset = static_cast<uint32_t>(spv::ImageOperandsMask::ConstOffset);
  EXPECT_EQ(proj->GetSingleWordInOperand(2), kGrad | const_offset);
  EXPECT_EQ(proj->NumInOperands(), 6u);  // ..., mask, dx, dy, offset
  EXPECT_EQ(Operand(run, proj, 3)->GetSingleWordInOperand(0),
            FindAll(context, spv::Op::OpFDiv)[0]->result_id());
  const Instruction* dref = FindOne(context, spv::Op::OpImageSampleDrefExplicitLod);
  EXPECT_EQ(dref->GetSingleWordInOperand(3), kGrad);
}

// An arrayed image: the gradients have the image's two coordinates, not the
// layer.
TEST(WaterfallPass, ArrayedImageGradientsLeaveOutTheLayer) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%w = OpLoad %v4float %uvw
%c3 = OpVectorShuffle %v3float %w %w 0 1 2
%p = OpAccessChain %ptr_layer_sampled %layers %i
%t = OpLoad %layer_sampled %p
%r = OpImageSampleImplicitLod %v4float %t %c3
OpStore %color %r
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 1);
  IRContext& context = *run.context;
  const Instruction* dx = FindOne(context, spv::Op::OpDPdx);
  const Instruction* type = Def(run, dx->type_id());
  EXPECT_EQ(type->opcode(), spv::Op::OpTypeVector);
  EXPECT_EQ(type->GetSingleWordInOperand(1), 2u);
}

// A runtime array (bindless) is fine for the waterfall: it needs no length.
TEST(WaterfallPass, RuntimeArray) {
  const PassRun run = RunPass(kPass, FragmentModule(kRuntimeArrayMain));
  ExpectWaterfall(run, 1);
}

// NonUniform on the original values, with the capabilities: the rewritten
// access needs neither, so they go (PruneNonUniformCapabilities).
TEST(WaterfallPass, NonUniformCapabilitiesNothingNeedsGo) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
OpCapability ShaderNonUniform
OpCapability SampledImageArrayNonUniformIndexing
OpDecorate %p NonUniform
OpDecorate %t NonUniform
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_sampled %tex %i
%t = OpLoad %sampled %p
%r = OpImageSampleImplicitLod %v4float %t %c
OpStore %color %r
OpReturn
OpFunctionEnd
)"));
  ExpectWaterfall(run, 1);
  IRContext& context = *run.context;
  EXPECT_FALSE(test::HasCapability(context, spv::Capability::SampledImageArrayNonUniformIndexing));
  EXPECT_FALSE(test::HasCapability(context, spv::Capability::ShaderNonUniform));
  bool logged = false;
  for (const PassChange& change : run.log) {
    logged |= change.action == "remove-capability" &&
              change.detail == "SampledImageArrayNonUniformIndexing";
  }
  EXPECT_TRUE(logged);
}

// Below SPIR-V 1.3 there is no OpGroupNonUniformBroadcastFirst: the loop
// uses SPV_KHR_shader_ballot's OpSubgroupFirstInvocationKHR, and the
// module's version stays.
TEST(WaterfallPass, SpirV10UsesTheKhrBallot) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%pv = OpAccessChain %ptr_Uniform_v4float %ubos %i %int_0
%v = OpLoad %v4float %pv
OpStore %color %v
OpReturn
OpFunctionEnd
)",
                                                    "1.0"));
  ASSERT_EQ(run.status, Pass::Status::SuccessWithChange) << run.messages;
  IRContext& context = *run.context;
  EXPECT_EQ(context.module()->version(), 0x00010000u);
  EXPECT_EQ(Count(context, spv::Op::OpGroupNonUniformBroadcastFirst), 0u);
  EXPECT_NE(LoopOf(context, FindOne(context, spv::Op::OpSubgroupFirstInvocationKHR)), 0u);
  EXPECT_TRUE(test::HasCapability(context, spv::Capability::SubgroupBallotKHR));
  EXPECT_FALSE(test::HasCapability(context, spv::Capability::GroupNonUniformBallot));
  EXPECT_LE(test::WidestIndexLevel(context), Uniformity::kSubgroup);
  ExpectIdempotent(kPass, run);
}

// Subgroup-uniform and constant indices need nothing: the module is left
// byte for byte as it was.
TEST(WaterfallPass, UniformAndConstantIndicesAreLeftAlone) {
  const std::string module = FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%pu = OpAccessChain %ptr_Uniform_int %params %int_0
%u = OpLoad %int %pu
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_sampled %tex %u
%t = OpLoad %sampled %p
%a = OpImageSampleImplicitLod %v4float %t %c
%p1 = OpAccessChain %ptr_sampled %tex %int_1
%t1 = OpLoad %sampled %p1
%b = OpImageSampleImplicitLod %v4float %t1 %c
%sum = OpFAdd %v4float %a %b
OpStore %color %sum
OpReturn
OpFunctionEnd
)");
  const PassRun run = RunPass(kPass, module);
  EXPECT_EQ(run.status, Pass::Status::SuccessWithoutChange) << run.messages;
  EXPECT_EQ(run.words, test::MustAssemble(module).words);
}

// Only the descriptor classes of the options: a sampled-image access is not
// rewritten when only storage buffers are asked for.
TEST(WaterfallPass, OnlyTheClassesAskedFor) {
  NonUniformPassOptions options;
  options.classes = DescriptorClassSet().set(Bit(DescriptorClass::kStorageBuffer));
  const PassRun run = RunPass(kPass, FragmentModule(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_sampled %tex %i
%t = OpLoad %sampled %p
%r = OpImageSampleImplicitLod %v4float %t %c
OpStore %color %r
OpReturn
OpFunctionEnd
)"),
                              options);
  EXPECT_EQ(run.status, Pass::Status::SuccessWithoutChange) << run.messages;
}

// OpImageQueryLod has no explicit-gradient form: with an index that is not
// quad-uniform (from a smooth varying) its derivatives inside the loop would
// be undefined.
TEST(WaterfallPass, QueryLodWithANonUniformIndexFails) {
  const PassRun run = RunPass(kPass, FragmentModule(R"(
OpCapability ImageQuery
%main = OpFunction %void None %fn
%entry = OpLabel
%c = OpLoad %v2float %uv
%cx = OpCompositeExtract %float %c 0
%i = OpConvertFToS %int %cx
%p = OpAccessChain %ptr_sampled %tex %i
%t = OpLoad %sampled %p
%l = OpImageQueryLod %v2float %t %c
%col = OpVectorShuffle %v4float %l %l 0 1 0 1
OpStore %color %col
OpReturn
OpFunctionEnd
)"));
  EXPECT_EQ(run.status, Pass::Status::Failure);
  EXPECT_NE(run.messages.find("no explicit-gradient form"), std::string::npos) << run.messages;
}

// glslang's own output for shaders/passes (every kind of access, as glslang
// -O0 emits it): one loop per access or run of accesses, every index
// subgroup-uniform afterwards.
TEST(WaterfallPass, GlslangShaders) {
  const PassRun textures = RunPass(kPass, test::PassShader("nonuniform_textures.frag"));
  // Eight accesses (glslang copies each nonuniformEXT index, so none share a
  // loop), two of them with a texture index and a sampler index.
  ExpectWaterfall(textures, 10);
  EXPECT_EQ(Count(*textures.context, spv::Op::OpLoopMerge), 8u);
  EXPECT_EQ(Count(*textures.context, spv::Op::OpImageSampleImplicitLod), 0u);
  const PassRun buffers = RunPass(kPass, test::PassShader("nonuniform_buffers.comp"));
  ASSERT_EQ(buffers.status, Pass::Status::SuccessWithChange) << buffers.messages;
  EXPECT_LE(test::WidestIndexLevel(*buffers.context), Uniformity::kSubgroup);
  ExpectIdempotent(kPass, buffers);
}

// Kernels have no descriptors.
TEST(WaterfallPass, KernelsAreLeftAlone) {
  const PassRun run = RunPass(kPass, test::MinimalKernel());
  EXPECT_EQ(run.status, Pass::Status::SuccessWithoutChange);
}

}  // namespace
}  // namespace spirv_conv
