// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// structurize (docs/structurize.md) on hand-written unstructured compute
// shaders: every output passes spirv-val (StructurizeBinary validates it),
// and runs in the SIMT simulator to the same buffer as the input run under
// post-dominator reconvergence (the only model for unstructured code), on
// two subgroups of 8. Each case also checks a few output words computed by
// hand from the input program, so a run that is wrong in both modules fails.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sim/sim_test_util.h"
#include "spirv_conv/load.h"
#include "spirv_conv/pipeline.h"

namespace spirv_conv {
namespace {

// out[LocalInvocationIndex] is each case's result; 16 invocations.
constexpr char kPrefix[] = R"(; SPIR-V
; Version: 1.3
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 16 1 1
OpDecorate %lid BuiltIn LocalInvocationIndex
OpDecorate %rt ArrayStride 4
OpMemberDecorate %buf 0 Offset 0
OpDecorate %buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ptr_in_uint = OpTypePointer Input %uint
%lid = OpVariable %ptr_in_uint Input
%rt = OpTypeRuntimeArray %uint
%buf = OpTypeStruct %rt
%ptr_buf = OpTypePointer StorageBuffer %buf
%out = OpVariable %ptr_buf StorageBuffer
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u5 = OpConstant %uint 5
%u7 = OpConstant %uint 7
%u8 = OpConstant %uint 8
%u10 = OpConstant %uint 10
%u100 = OpConstant %uint 100
%u999 = OpConstant %uint 999
)";

struct Outcome {
  SpirvBinary output;
  StructurizeStats stats;
  std::vector<uint32_t> words;  // the output's buffer
};

size_t CountBlocks(const SpirvBinary& binary) {
  size_t labels = 0;
  for (size_t i = 5; i < binary.words.size(); i += binary.words[i] >> 16) {
    labels += (binary.words[i] & 0xffff) == static_cast<uint32_t>(spv::Op::OpLabel);
  }
  return labels;
}

// Structurizes |body|, checks the output against the input on the simulator
// and returns it.
Outcome Structurize(const std::string& body) {
  Outcome outcome;
  const SpirvBinary input = test::MustLoad("case.spvasm", std::string(kPrefix) + body);
  Expected<SpirvBinary> output = StructurizeBinary(input, ValidatorFlags(), false, &outcome.stats);
  EXPECT_TRUE(output) << output.error().message;
  if (!output) return outcome;
  outcome.output = *output;

  const sim::Buffer out = test::Zeros(0, 64);
  // Unstructured input only runs under ipdom, and spirv-val refuses it.
  Expected<sim::RunResult> before =
      test::RunBinary(input, {out}, test::Options(sim::Model::kIpdom, 8), false);
  EXPECT_TRUE(before) << before.error().message;
  for (sim::Model model : {sim::Model::kMaximal, sim::Model::kIpdom}) {
    Expected<sim::RunResult> after = test::RunBinary(*output, {out}, test::Options(model, 8));
    EXPECT_TRUE(after) << after.error().message;
    if (!before || !after) return outcome;
    outcome.words = test::WordsOf(*after, 0);
    EXPECT_EQ(test::WordsOf(*before, 0), outcome.words) << sim::ModelName(model);
  }
  return outcome;
}

// Blocks A and B form a cycle entered at both: irreducible.
//   even tid -> A, odd -> B; A: i+1, acc*3, to B while i < 5;
//   B: i+2, acc+7, to A while i < tid.
TEST(StructurizeTest, IrreducibleCycleGetsOneDispatchHeader) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%odd = OpBitwiseAnd %uint %tid %u1
%even = OpIEqual %bool %odd %u0
OpBranchConditional %even %A %B
%A = OpLabel
%ia = OpPhi %uint %u0 %entry %ib2 %B
%acc_a = OpPhi %uint %tid %entry %acc_b2 %B
%ia2 = OpIAdd %uint %ia %u1
%acc_a2 = OpIMul %uint %acc_a %u3
%da = OpULessThan %bool %ia2 %u5
OpBranchConditional %da %B %exit
%B = OpLabel
%ib = OpPhi %uint %u0 %entry %ia2 %A
%acc_b = OpPhi %uint %tid %entry %acc_a2 %A
%ib2 = OpIAdd %uint %ib %u2
%acc_b2 = OpIAdd %uint %acc_b %u7
%db = OpULessThan %bool %ib2 %tid
OpBranchConditional %db %A %exit
%exit = OpLabel
%r = OpPhi %uint %acc_a2 %A %acc_b2 %B
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)");
  EXPECT_EQ(o.stats.irreducible_cycles, 1u);
  ASSERT_EQ(o.words.size(), 64u);
  // tid 0: A (i 1, acc 0) -> B (i 3, acc 7), 3 < 0 fails: 7.
  EXPECT_EQ(o.words[0], 7u);
  // tid 1: B (i 2, acc 8), 2 < 1 fails: 8.
  EXPECT_EQ(o.words[1], 8u);
  // tid 3: B (2, 10) -> A (3, 30) -> B (5, 37), 5 < 3 fails: 37.
  EXPECT_EQ(o.words[3], 37u);
}

// A loop left at two places, with a value from inside it used after it
// (temporal divergence): exitA when the running sum passes tid, exitB after
// 10 iterations.
TEST(StructurizeTest, LoopWithTwoExitsLeavesThroughOneMerge) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
OpBranch %H
%H = OpLabel
%i = OpPhi %uint %u0 %entry %i2 %latch
%s = OpPhi %uint %u0 %entry %s2 %latch
%i2 = OpIAdd %uint %i %u1
%s2 = OpIAdd %uint %s %i
%over = OpUGreaterThan %bool %s2 %tid
OpBranchConditional %over %exitA %mid
%mid = OpLabel
%ten = OpIEqual %bool %i2 %u10
OpBranchConditional %ten %exitB %latch
%latch = OpLabel
OpBranch %H
%exitA = OpLabel
%ra = OpIMul %uint %s2 %u100
OpBranch %join
%exitB = OpLabel
OpBranch %join
%join = OpLabel
%r = OpPhi %uint %ra %exitA %i2 %exitB
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)");
  ASSERT_EQ(o.words.size(), 64u);
  // Sums after i2 = 1, 2, 3, ...: 0, 1, 3, 6, 10, 15, 21.
  EXPECT_EQ(o.words[0], 100u);    // 1 > 0
  EXPECT_EQ(o.words[5], 600u);    // 6 > 5
  EXPECT_EQ(o.words[15], 2100u);  // 21 > 15
}

// A branch out of two nested loops at once (goto found).
TEST(StructurizeTest, BreakOutOfTwoLoops) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
OpBranch %OH
%OH = OpLabel
%i = OpPhi %uint %u0 %entry %i2 %OL
OpBranch %IH
%IH = OpLabel
%j = OpPhi %uint %u0 %OH %j2 %IL
%j2 = OpIAdd %uint %j %u1
%i4 = OpIMul %uint %i %u4
%k = OpIAdd %uint %i4 %j2
%hit = OpIEqual %bool %k %tid
OpBranchConditional %hit %found %IL
%IL = OpLabel
%more = OpULessThan %bool %j2 %u4
OpBranchConditional %more %IH %OL
%OL = OpLabel
%i2 = OpIAdd %uint %i %u1
%again = OpULessThan %bool %i2 %u3
OpBranchConditional %again %OH %notfound
%found = OpLabel
%rf = OpIMul %uint %k %u10
OpBranch %end
%notfound = OpLabel
OpBranch %end
%end = OpLabel
%r = OpPhi %uint %rf %found %u999 %notfound
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)");
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[0], 999u);   // k runs over 1..12
  EXPECT_EQ(o.words[5], 50u);    // i 1, j2 1
  EXPECT_EQ(o.words[12], 120u);  // i 2, j2 4
  EXPECT_EQ(o.words[13], 999u);
}

// `if (even && tid < 8) r = 1; else r = 2;` without merges: Y is reached
// from two nested selections, so one branch to it leaves two constructs
// and goes through a cascade.
TEST(StructurizeTest, ShortCircuitBranchCascades) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%odd = OpBitwiseAnd %uint %tid %u1
%even = OpIEqual %bool %odd %u0
OpBranchConditional %even %x2 %Y
%x2 = OpLabel
%low = OpULessThan %bool %tid %u8
OpBranchConditional %low %X %Y
%X = OpLabel
OpBranch %M
%Y = OpLabel
OpBranch %M
%M = OpLabel
%r = OpPhi %uint %u1 %X %u2 %Y
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)");
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[0], 1u);
  EXPECT_EQ(o.words[1], 2u);
  EXPECT_EQ(o.words[6], 1u);
  EXPECT_EQ(o.words[10], 2u);
}

// Early returns from nested ifs inside a loop; every invocation writes
// before it returns.
TEST(StructurizeTest, EarlyReturnsInsideALoop) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpBranch %H
%H = OpLabel
%i = OpPhi %uint %u0 %entry %i2 %latch
%i2 = OpIAdd %uint %i %u1
%big = OpUGreaterThan %bool %i2 %u3
OpBranchConditional %big %check %latch
%check = OpLabel
%eq = OpIEqual %bool %i2 %tid
OpBranchConditional %eq %ret1 %latch2
%ret1 = OpLabel
OpStore %p %i2
OpReturn
%latch2 = OpLabel
%stop = OpUGreaterThan %bool %i2 %u10
OpBranchConditional %stop %ret2 %latch
%ret2 = OpLabel
OpStore %p %u999
OpReturn
%latch = OpLabel
OpBranch %H
OpFunctionEnd
)");
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[2], 999u);  // i2 never equals 2 after passing 3
  EXPECT_EQ(o.words[4], 4u);
  EXPECT_EQ(o.words[10], 10u);
  EXPECT_EQ(o.words[11], 11u);   // i2 = 11 is compared with tid before the stop test
  EXPECT_EQ(o.words[12], 999u);  // i2 = 11 > 10 stops the loop first
}

// A switch whose case falls through into the default.
TEST(StructurizeTest, SwitchWithFallThrough) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%sel = OpBitwiseAnd %uint %tid %u3
OpSwitch %sel %dflt 0 %c0 1 %c1
%c0 = OpLabel
%v0 = OpIAdd %uint %tid %u100
OpBranch %dflt
%c1 = OpLabel
OpBranch %end
%dflt = OpLabel
%d = OpPhi %uint %u7 %entry %v0 %c0
%vd = OpIMul %uint %d %u2
OpBranch %end
%end = OpLabel
%r = OpPhi %uint %u1 %c1 %vd %dflt
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)");
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[0], 200u);  // case 0 falls through: (0 + 100) * 2
  EXPECT_EQ(o.words[1], 1u);
  EXPECT_EQ(o.words[2], 14u);  // default: 7 * 2
  EXPECT_EQ(o.words[4], 208u);
}

// A diamond and a loop that only lack their merge instructions keep their
// blocks: nothing to predicate where control flow was already structured.
TEST(StructurizeTest, StructuredShapeWithoutMergesKeepsItsBlocks) {
  const std::string body = R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%odd = OpBitwiseAnd %uint %tid %u1
%even = OpIEqual %bool %odd %u0
OpBranchConditional %even %then %else
%then = OpLabel
%a = OpIAdd %uint %tid %u5
OpBranch %join
%else = OpLabel
%b = OpIMul %uint %tid %u3
OpBranch %join
%join = OpLabel
%v = OpPhi %uint %a %then %b %else
OpBranch %H
%H = OpLabel
%i = OpPhi %uint %u0 %join %i2 %body
%acc = OpPhi %uint %v %join %acc2 %body
%go = OpULessThan %bool %i %tid
OpBranchConditional %go %body %exit
%body = OpLabel
%acc2 = OpIAdd %uint %acc %i
%i2 = OpIAdd %uint %i %u1
OpBranch %H
%exit = OpLabel
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %acc
OpReturn
OpFunctionEnd
)";
  const Outcome o = Structurize(body);
  EXPECT_EQ(CountBlocks(o.output),
            CountBlocks(test::MustLoad("case.spvasm", std::string(kPrefix) + body)));
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[2], 8u);   // 2 + 5, + 0 + 1
  EXPECT_EQ(o.words[3], 12u);  // 3 * 3, + 0 + 1 + 2
}

// Input that breaks other rules than the structured ones is refused.
TEST(StructurizeTest, OtherValidationErrorsAreRefused) {
  Expected<SpirvBinary> input = LoadSpirvFromBytes("bad.spvasm", std::string(kPrefix) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIAdd %bool %u1 %u2
OpReturn
OpFunctionEnd
)",
                                                   LoadOptions());
  ASSERT_TRUE(input);
  Expected<SpirvBinary> output = StructurizeBinary(*input, ValidatorFlags(), false);
  ASSERT_FALSE(output);
  EXPECT_EQ(output.error().code, ExitCode::kBadInput);
  EXPECT_NE(output.error().message.find("bad.spvasm"), std::string::npos) << output.error().message;
}

}  // namespace
}  // namespace spirv_conv
