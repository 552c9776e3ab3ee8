// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Subgroup operations and the three reconvergence models. Ballots are stored
// so that the tangle each invocation was in shows; expectations are derived
// by hand from the model's rules (docs/simulator.md).

#include "sim/sim_test_util.h"

namespace spirv_conv {
namespace test {
namespace {

using sim::Model;

TEST(SimSubgroup, ReductionsScansAndBallotsInUniformControlFlow) {
  const char* glsl = R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
#extension GL_KHR_shader_subgroup_quad : enable
#extension GL_KHR_shader_subgroup_clustered : enable
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
  uint i = gl_SubgroupInvocationID;
  o[i * 8 + 0] = subgroupAdd(i + 1);               // 1 + ... + 8 = 36
  o[i * 8 + 1] = subgroupInclusiveAdd(i + 1);      // (i+1)(i+2)/2
  o[i * 8 + 2] = subgroupExclusiveMax(i);          // i - 1, and 0 (the identity) for lane 0
  o[i * 8 + 3] = subgroupBallot((i & 1) == 1).x;   // 0b10101010 = 170
  o[i * 8 + 4] = subgroupShuffleXor(i * 10, 3);    // (i ^ 3) * 10
  o[i * 8 + 5] = subgroupQuadSwapHorizontal(i);    // i ^ 1
  o[i * 8 + 6] = subgroupClusteredAdd(i, 4);       // 0+1+2+3 = 6 or 4+5+6+7 = 22
  o[i * 8 + 7] = subgroupBroadcast(i * 3, 5);      // 15
})";
  std::vector<uint32_t> expected;
  for (uint32_t i = 0; i < 8; ++i) {
    expected.insert(expected.end(), {36, (i + 1) * (i + 2) / 2, i == 0 ? 0 : i - 1, 170,
                                     (i ^ 3) * 10, i ^ 1, i < 4 ? 6u : 22u, 15});
  }
  EXPECT_EQ(RunGlsl(glsl, {Zeros(0, 64)}, Options(Model::kMaximal)), expected);
}

TEST(SimSubgroup, SubgroupAddDependsOnTheSubgroupSize) {
  const char* glsl = R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() { o[gl_LocalInvocationIndex] = subgroupAdd(1); }
)";
  EXPECT_EQ(RunGlsl(glsl, {Zeros(0, 16)}, Options(Model::kMaximal, 4)),
            std::vector<uint32_t>(16, 4));
  EXPECT_EQ(RunGlsl(glsl, {Zeros(0, 16)}, Options(Model::kMaximal, 16)),
            std::vector<uint32_t>(16, 16));
  // 16 invocations in a subgroup of 32: the absent lanes are not counted.
  EXPECT_EQ(RunGlsl(glsl, {Zeros(0, 16)}, Options(Model::kMaximal, 32)),
            std::vector<uint32_t>(16, 16));
}

TEST(SimReconvergence, BallotInsideAnIfSeesTheActiveTangle) {
  const char* glsl = R"(#version 450
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
  uint i = gl_SubgroupInvocationID;
  uint inside = 0;
  if (i < 3) inside = subgroupBallot(true).x;   // lanes 0..2: 0b111
  o[i * 2] = inside;
  o[i * 2 + 1] = subgroupBallot(true).x;        // after the merge: all 8, 0xFF
})";
  for (Model model : {Model::kMaximal, Model::kIpdom, Model::kAdversarial}) {
    EXPECT_EQ(
        RunGlsl(glsl, {Zeros(0, 16)}, Options(model)),
        (std::vector<uint32_t>{7, 255, 7, 255, 7, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255}))
        << sim::ModelName(model);
  }
}

// The selection `if (i < 4)` contains a break, so its merge block does not
// post-dominate its header:
//
//   loop header ─► H1 (i < 4) ──► H2 (i == 0) ── break ──► loop merge
//                   │              │
//                   │              r = 1 ─► M2 ─► M1
//                   └──────────────────────────► M1: ballot ─► continue ─► header
//
// maximal: lanes 1-3 and 4-7 meet at M1 (H1's merge): 0xFE for all of them.
// ipdom: H1's immediate post-dominator is the loop's exit, not M1; lanes 1-3
//        and 4-7 run the ballot apart: 0x0E and 0xF0.
// adversarial: H1 was entered by the whole subgroup but lane 0 escaped it, so
//        uniform control flow requires nothing at M1: 0x0E and 0xF0 too.
TEST(SimReconvergence, BreakOutOfASelectionSeparatesIpdomFromMaximal) {
  const char* glsl = R"(#version 450
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
  uint i = gl_SubgroupInvocationID;
  for (int it = 0; it < 1; ++it) {
    if (i < 4) {
      if (i == 0) break;
      o[8 + i] = 1;
    }
    o[i] = subgroupBallot(true).x;
  }
})";
  auto ballots = [&](Model model) {
    std::vector<uint32_t> words = RunGlsl(glsl, {Zeros(0, 16)}, Options(model));
    words.resize(8);
    return words;
  };
  EXPECT_EQ(ballots(Model::kMaximal),
            (std::vector<uint32_t>{0, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE}));
  EXPECT_EQ(ballots(Model::kIpdom),
            (std::vector<uint32_t>{0, 0x0E, 0x0E, 0x0E, 0xF0, 0xF0, 0xF0, 0xF0}));
  for (uint64_t seed : {1, 2, 3}) {
    sim::RunOptions options = Options(Model::kAdversarial);
    options.seed = seed;
    std::vector<uint32_t> words = RunGlsl(glsl, {Zeros(0, 16)}, options);
    words.resize(8);
    EXPECT_EQ(words, (std::vector<uint32_t>{0, 0x0E, 0x0E, 0x0E, 0xF0, 0xF0, 0xF0, 0xF0})) << seed;
  }
}

// A loop with a divergent trip count: lane i runs i + 1 iterations. Under
// maximal reconvergence the lanes still in the loop are converged at the
// start of every iteration, so in iteration k the ballot holds lanes k..7:
// 0xFF << k. Elected per iteration: the lowest lane still looping, k.
TEST(SimReconvergence, LoopWithDivergentTripCount) {
  const char* glsl = R"(#version 450
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
  uint i = gl_SubgroupInvocationID;
  for (uint k = 0; k <= i; ++k) {
    o[i * 8 + k] = subgroupBallot(true).x;
    if (subgroupElect()) o[64 + k] = i;
  }
  o[72 + i] = subgroupBallot(true).x;   // after the loop: 0xFF
})";
  std::vector<uint32_t> expected(80, 0);
  for (uint32_t i = 0; i < 8; ++i) {
    for (uint32_t k = 0; k <= i; ++k) expected[i * 8 + k] = (0xFFu << k) & 0xFF;
    expected[64 + i] = i;
    expected[72 + i] = 0xFF;
  }
  for (Model model : {Model::kMaximal, Model::kIpdom}) {
    EXPECT_EQ(RunGlsl(glsl, {Zeros(0, 80)}, Options(model)), expected) << sim::ModelName(model);
  }
}

// A switch on i % 3 with a call in each case: cases split the tangle, the
// call returns to its caller's tangle, and the merge reunites everyone.
TEST(SimReconvergence, SwitchAndCallsReconvergeAtTheMerge) {
  const char* glsl = R"(#version 450
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
uint lanes() { return subgroupBallot(true).x; }
void main() {
  uint i = gl_SubgroupInvocationID;
  uint b = 0;
  switch (i % 3) {
    case 0: b = lanes(); break;   // lanes 0, 3, 6: 0b01001001 = 0x49
    case 1: b = lanes(); break;   // lanes 1, 4, 7: 0x92
    default: b = lanes(); break;  // lanes 2, 5:    0x24
  }
  o[i] = b;
  o[8 + i] = lanes();             // 0xFF
})";
  const std::vector<uint32_t> expected = {0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92,
                                          0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  for (Model model : {Model::kMaximal, Model::kIpdom}) {
    EXPECT_EQ(RunGlsl(glsl, {Zeros(0, 16)}, Options(model)), expected) << sim::ModelName(model);
  }
}

// Regression: a switch every lane takes the same case of (a[0] == 1, not known
// to the compiler) with a `break` inside a divergent `if` in that case. The
// break is a branch to the switch's merge, so the lanes that break wait there
// for the others: the ballot after the switch is 0xFF in every model (maximal:
// a switch's merge; ipdom: the `if` header's post-dominator is the switch
// merge; adversarial: the switch was entered by the whole subgroup and every
// lane leaves it through its merge). Inside the case, after the `if`, only
// the lanes that did not break run: 0x0F (else breaks: lanes 0..3 stay) or
// 0xF0 (then breaks: lanes 4..7 stay); the others never write there (0).
// A simulator that pushed no record for a uniform switch would let the lanes
// that broke run the code after the switch alone (0xF0 and 0x0F).
TEST(SimReconvergence, BreakFromAnIfInAUniformSwitchReconvergesAtItsMerge) {
  const std::string head = R"(#version 450
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer In { uint a[]; };
void main() {
  uint i = gl_SubgroupInvocationID;
  switch (a[0]) {
    case 1u: {
)";
  const std::string tail = R"(
      o[8 + i] = subgroupBallot(true).x;
      break;
    }
  }
  o[i] = subgroupBallot(true).x;
})";
  struct Variant {
    const char* branch;
    uint32_t staying;  // the lanes that do not break
  };
  for (const Variant& v : {Variant{"if (i < 4u) { } else { break; }", 0x0F},
                           Variant{"if (i < 4u) { break; }", 0xF0}}) {
    std::vector<uint32_t> expected(16, 0xFF);
    for (uint32_t i = 0; i < 8; ++i) expected[8 + i] = (v.staying >> i & 1) ? v.staying : 0;
    for (Model model : {Model::kMaximal, Model::kIpdom, Model::kAdversarial}) {
      for (uint64_t seed : {1, 2, 3}) {
        sim::RunOptions options = Options(model);
        options.seed = seed;
        EXPECT_EQ(RunGlsl(head + v.branch + tail, {Zeros(0, 16), Words(1, {1})}, options), expected)
            << v.branch << ", " << sim::ModelName(model) << ", seed " << seed;
      }
    }
  }
}

// The same for a conditional branch: a selection every lane enters on the
// same side, left early by some lanes straight to its merge (GLSL cannot
// write it; structurized code does: docs/structurize.md). The lanes that
// leave wait at the merge for the rest, as SPV_KHR_maximal_reconvergence's
// selection construct requires, so the ballot there sees all 8 lanes; the
// ballot in %rest sees the even lanes only. ipdom: %merge post-dominates
// %split, the same. Before the record was pushed for uniform headers too,
// maximal refused the branch as unstructured.
TEST(SimReconvergence, EarlyExitFromAUniformSelectionReconvergesAtItsMerge) {
  const char* assembly = R"(; Version: 1.3
OpCapability Shader
OpCapability GroupNonUniformBallot
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %sid
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %sid BuiltIn SubgroupLocalInvocationId
OpDecorate %rt ArrayStride 4
OpMemberDecorate %buf 0 Offset 0
OpDecorate %buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%v4uint = OpTypeVector %uint 4
%ptr_in = OpTypePointer Input %uint
%sid = OpVariable %ptr_in Input
%rt = OpTypeRuntimeArray %uint
%buf = OpTypeStruct %rt
%ptr_buf = OpTypePointer StorageBuffer %buf
%out = OpVariable %ptr_buf StorageBuffer
%ptr_u = OpTypePointer StorageBuffer %uint
%true = OpConstantTrue %bool
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u3 = OpConstant %uint 3
%u8 = OpConstant %uint 8
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %uint %sid
OpSelectionMerge %merge None
OpBranchConditional %true %split %merge
%split = OpLabel
%bit = OpBitwiseAnd %uint %i %u1
%odd = OpIEqual %bool %bit %u1
OpBranchConditional %odd %merge %rest
%rest = OpLabel
%b1 = OpGroupNonUniformBallot %v4uint %u3 %true
%x1 = OpCompositeExtract %uint %b1 0
%i8 = OpIAdd %uint %i %u8
%p1 = OpAccessChain %ptr_u %out %u0 %i8
OpStore %p1 %x1
OpBranch %merge
%merge = OpLabel
%b2 = OpGroupNonUniformBallot %v4uint %u3 %true
%x2 = OpCompositeExtract %uint %b2 0
%p2 = OpAccessChain %ptr_u %out %u0 %i
OpStore %p2 %x2
OpReturn
OpFunctionEnd
)";
  std::vector<uint32_t> expected(16, 0xFF);
  for (uint32_t i = 0; i < 8; ++i) expected[8 + i] = i % 2 == 0 ? 0x55 : 0;
  for (Model model : {Model::kMaximal, Model::kIpdom}) {
    Expected<sim::RunResult> r =
        RunBinary(MustLoad("early_exit.spvasm", assembly), {Zeros(0, 16)}, Options(model));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(WordsOf(*r, 0), expected) << sim::ModelName(model);
  }
}

TEST(SimReconvergence, StatisticsCountActiveLanes) {
  // 8 lanes, one subgroup; the then-branch runs with 2 lanes.
  const char* glsl = R"(#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() { if (gl_LocalInvocationIndex < 2) o[0] = 1; }
)";
  Expected<sim::RunResult> r =
      RunBinary(MustLoad("stats.comp", glsl), {Zeros(0, 1)}, Options(Model::kMaximal));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const sim::Stats& s = r->stats;
  // Every issue has 8 lanes except those of the then-block, which have 2.
  uint64_t then_issues = 0;
  for (const sim::BlockStats& b : s.blocks) {
    if (b.active_lanes == 2 * b.issued) then_issues += b.issued;
    EXPECT_TRUE(b.active_lanes == 2 * b.issued || b.active_lanes == 8 * b.issued);
  }
  EXPECT_GT(then_issues, 0u);
  EXPECT_EQ(s.tangle_sizes[2], then_issues);
  EXPECT_EQ(s.tangle_sizes[8], s.issued - then_issues);
  EXPECT_EQ(s.active_lanes, 2 * then_issues + 8 * (s.issued - then_issues));
  EXPECT_DOUBLE_EQ(s.SimtEfficiency(), static_cast<double>(s.active_lanes) / (8.0 * s.issued));
  // Each block is entered by the lanes its issues have: 2 for the
  // then-block, 8 for the others, once per invocation, in one visit.
  for (const sim::BlockStats& b : s.blocks) {
    EXPECT_EQ(b.entries, b.active_lanes == 2 * b.issued ? 2u : 8u) << "block " << b.block;
    EXPECT_EQ(b.visits, 1u) << "block " << b.block;
  }
}

TEST(SimEquivalence, SameResultsAreEquivalentAndDifferencesAreDescribed) {
  const char* a = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() { o[gl_LocalInvocationIndex] = gl_LocalInvocationIndex * 2; }
)";
  const char* b = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() { uint i = gl_LocalInvocationIndex; o[i] = i + i; }
)";
  const char* c = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() { uint i = gl_LocalInvocationIndex; o[i] = i == 3 ? 7 : i + i; }
)";
  EXPECT_TRUE(Equivalent(MustLoad("a.comp", a), MustLoad("b.comp", b), {Zeros(0, 4)}));
  const Equivalence diff = Equivalent(MustLoad("a.comp", a), MustLoad("c.comp", c), {Zeros(0, 4)});
  EXPECT_FALSE(diff);
  EXPECT_EQ(diff.description, "buffer 0:0[0] word 3: 6 (a.comp) vs 7 (c.comp)\n");
}

}  // namespace
}  // namespace test
}  // namespace spirv_conv
