// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// --reconverge (docs/structurize.md#reconverge) on hand-written unstructured
// compute shaders whose every subgroup takes every path (the conditions test
// the low bits of LocalInvocationIndex, subgroups of 8): the case the cost
// model prices. Each output computes what the input computes
// (RunControlFlowTransform), and the simulator's issue counts judge the cost
// model's choice.

#include <algorithm>
#include <functional>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "passes/control_flow_test_util.h"
#include "passes/issue_cost.h"
#include "sim/sim_test_util.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/pipeline.h"
#include "spirv_conv/reconverge_pass.h"
#include "spirv_conv/uniformity.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {
namespace {

using Outcome = test::TransformOutcome;

// Instructions the simulator issues running |binary| (maximal
// reconvergence, subgroups of 8).
uint64_t Issued(const SpirvBinary& binary) {
  Expected<sim::RunResult> run =
      test::RunBinary(binary, {test::Zeros(0, 64)}, test::Options(sim::Model::kMaximal, 8));
  EXPECT_TRUE(run) << run.error().message;
  return run ? run->stats.issued : 0;
}

Outcome Reconverge(const std::string& body, ReconvergePolicy policy) {
  return test::RunControlFlowTransform(
      test::kControlFlowPrefix + body, [policy](const SpirvBinary& input, Outcome* outcome) {
        return ReconvergeBinary(input, ValidatorFlags(), false, &outcome->reconverge,
                                &outcome->stats, policy);
      });
}

// The three forms of |body| and what they issue.
struct Measured {
  Outcome chosen, everywhere, structurized;
  uint64_t chosen_issued = 0, everywhere_issued = 0, structurized_issued = 0;
};

Measured Measure(const std::string& body) {
  Measured m;
  m.chosen = Reconverge(body, ReconvergePolicy::kWhereItPays);
  m.everywhere = Reconverge(body, ReconvergePolicy::kEverywhere);
  m.structurized = test::RunStructurize(test::kControlFlowPrefix + body);
  m.chosen_issued = Issued(m.chosen.output);
  m.everywhere_issued = Issued(m.everywhere.output);
  m.structurized_issued = Issued(m.structurized.output);
  return m;
}

// Seed 001's multi_exit shape: two early returns from nested ifs, the
// exits sharing only the store.
//
//   entry -(bit 0 clear)-> A -(bit 1 clear)-> R1: out = tid + 1; return
//     |                    |
//     +--------------------+--> M -(bit 2 clear)-> R2: out = tid + 2; return
//                                 `-> L: out = tid * 3; return
//
// One exit block would run one store for the subgroup instead of three, and
// the returning invocations would wait at guards on the way: R1's cascade
// leaves A's selection and the entry's, R2's leaves M's, and the normal path
// tests all of them. Those tests cost more than the two stores saved, so
// --reconverge keeps --structurize's form (the simulator agrees).
// The CFG, each exit computing its value %x<n> and then |finish|(n), which
// ends with the store of it (and OpReturn follows).
std::string ThreeExits(const std::function<std::string(const std::string& n)>& finish) {
  return R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
%b0 = OpBitwiseAnd %uint %tid %u1
%c0 = OpIEqual %bool %b0 %u0
OpBranchConditional %c0 %A %M
%A = OpLabel
%b1 = OpBitwiseAnd %uint %tid %u2
%c1 = OpIEqual %bool %b1 %u0
OpBranchConditional %c1 %R1 %M
%R1 = OpLabel
%x1 = OpIAdd %uint %tid %u1
)" + finish("1") +
         R"(OpReturn
%M = OpLabel
%b2 = OpBitwiseAnd %uint %tid %u4
%c2 = OpIEqual %bool %b2 %u0
OpBranchConditional %c2 %R2 %L
%R2 = OpLabel
%x2 = OpIAdd %uint %tid %u2
)" + finish("2") +
         R"(OpReturn
%L = OpLabel
%x3 = OpIMul %uint %tid %u3
)" + finish("3") +
         R"(OpReturn
OpFunctionEnd
)";
}

// Seed 001's multi_exit shape: two early returns from nested ifs, the
// exits sharing only the store.
//
//   entry -(bit 0 clear)-> A -(bit 1 clear)-> R1: out = tid + 1; return
//     |                    |
//     +--------------------+--> M -(bit 2 clear)-> R2: out = tid + 2; return
//                                 `-> L: out = tid * 3; return
//
// One exit block would run one store for the subgroup instead of three, and
// the returning invocations would wait at guards on the way: R1's cascade
// leaves A's selection and the entry's, R2's leaves M's, and the normal path
// tests all of them. Those tests cost more than the two stores saved, so
// --reconverge keeps --structurize's form (the simulator agrees).
const std::string kExitsShareAStore =
    ThreeExits([](const std::string& n) { return "OpStore %p %x" + n + "\n"; });

// The same CFG, every exit finishing its value with the same hash
// (h = x ^ (x >> 10); m = h * 5; y = m ^ (m >> 4)) before the store: five
// shared instructions more per exit, which pay for the guards.
std::string HashAndStore(const std::string& n) {
  return "%s" + n + " = OpShiftRightLogical %uint %x" + n + " %u10\n" +  //
         "%h" + n + " = OpBitwiseXor %uint %x" + n + " %s" + n + "\n" +  //
         "%m" + n + " = OpIMul %uint %h" + n + " %u5\n" +                //
         "%t" + n + " = OpShiftRightLogical %uint %m" + n + " %u4\n" +   //
         "%y" + n + " = OpBitwiseXor %uint %m" + n + " %t" + n + "\n" +  //
         "OpStore %p %y" + n + "\n";
}
const std::string kExitsShareAHash = ThreeExits(HashAndStore);

TEST(ReconvergeTest, ExitsSharingOnlyAStoreKeepTheirReturns) {
  const Measured m = Measure(kExitsShareAStore);
  ASSERT_EQ(m.chosen.reconverge.decisions.size(), 1u);
  const ReconvergeStats::Decision& decision = m.chosen.reconverge.decisions[0];
  EXPECT_FALSE(decision.applied);
  EXPECT_GT(decision.reconverged_cost, decision.structurized_cost);
  EXPECT_EQ(m.chosen.output.words, m.structurized.output.words);
  // The simulator: one exit would issue more.
  EXPECT_GT(m.everywhere_issued, m.structurized_issued);
  EXPECT_EQ(m.chosen_issued, std::min(m.everywhere_issued, m.structurized_issued));
}

TEST(ReconvergeTest, ExitsSharingAHashShareOneExit) {
  const Measured m = Measure(kExitsShareAHash);
  ASSERT_EQ(m.chosen.reconverge.decisions.size(), 1u);
  const ReconvergeStats::Decision& decision = m.chosen.reconverge.decisions[0];
  EXPECT_TRUE(decision.applied);
  EXPECT_LT(decision.reconverged_cost, decision.structurized_cost);
  EXPECT_EQ(m.chosen.reconverge.unified_exits, 1u);
  // The whole hash runs once: its two shifts, not three times two (each
  // operand used twice, x and m, is one phi, so what feeds it sinks too).
  EXPECT_EQ(test::CountOpcode(m.chosen.output, spv::Op::OpShiftRightLogical), 2u);
  EXPECT_EQ(test::CountOpcode(m.chosen.output, spv::Op::OpStore), 1u);
  // The simulator: fewer issues than the returns.
  EXPECT_LT(m.chosen_issued, m.structurized_issued);
  EXPECT_EQ(m.chosen_issued, std::min(m.everywhere_issued, m.structurized_issued));
}

// Three returns, two of them ending with the same hash and store, the
// third storing nothing (bit 3 set: those invocations leave first):
//
//   entry -(bit 3 set)-> Q: return
//     `-> the CFG of ThreeExits, its exits hashing
//
// The hashing returns share one exit block; Q stays a return (it has no
// tail to share, and making it wait would only add guards). Issued
// instructions: fewer than with every return kept.
TEST(ReconvergeTest, ReturnsSharingATailShareAnExitOthersStay) {
  std::string body = kExitsShareAHash;
  const std::string entry_branch = "OpBranchConditional %c0 %A %M\n";
  body.replace(body.find(entry_branch), entry_branch.size(),
               "%b3 = OpBitwiseAnd %uint %tid %u8\n"
               "%c3 = OpIEqual %bool %b3 %u0\n"
               "OpBranchConditional %c3 %E %Q\n"
               "%Q = OpLabel\n"
               "OpReturn\n"
               "%E = OpLabel\n" +
                   entry_branch);
  const Measured m = Measure(body);
  ASSERT_EQ(m.chosen.reconverge.decisions.size(), 1u);
  EXPECT_TRUE(m.chosen.reconverge.decisions[0].applied);
  EXPECT_EQ(m.chosen.reconverge.unified_exits, 1u);
  EXPECT_EQ(test::CountOpcode(m.chosen.output, spv::Op::OpShiftRightLogical), 2u);
  EXPECT_EQ(test::CountOpcode(m.chosen.output, spv::Op::OpReturn), 2u);  // Q's and the exit's
  ASSERT_EQ(m.chosen.words.size(), 64u);
  EXPECT_EQ(m.chosen.words[8], 0u);  // bit 3 set: nothing stored
  EXPECT_LT(m.chosen_issued, m.structurized_issued);
}

// A divergent switch whose cases 0 and 1 end with the same hash and store
// and whose default stores nothing: the two cases get a join of their own
// in front of the switch's (SplitJoin), and the hash runs once for both.
TEST(ReconvergeTest, CasesSharingATailGetAJoinOfTheirOwn) {
  const std::string body = R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
%sel = OpBitwiseAnd %uint %tid %u3
OpSwitch %sel %D 0 %C0 1 %C1
%C0 = OpLabel
%x0 = OpIAdd %uint %tid %u1
)" + HashAndStore("0") + R"(OpBranch %J
%C1 = OpLabel
%x1 = OpIMul %uint %tid %u3
)" + HashAndStore("1") + R"(OpBranch %J
%D = OpLabel
OpBranch %J
%J = OpLabel
OpReturn
OpFunctionEnd
)";
  const Measured m = Measure(body);
  ASSERT_EQ(m.chosen.reconverge.decisions.size(), 1u);
  EXPECT_TRUE(m.chosen.reconverge.decisions[0].applied);
  EXPECT_EQ(m.chosen.reconverge.split_joins, 1u);
  EXPECT_EQ(test::CountOpcode(m.chosen.output, spv::Op::OpShiftRightLogical), 2u);
  ASSERT_EQ(m.chosen.words.size(), 64u);
  EXPECT_EQ(m.chosen.words[2], 0u);  // the default stores nothing
  EXPECT_LT(m.chosen_issued, m.structurized_issued);
}

// The same switch with the cases storing to two Private variables: the
// stores are alike, but one store in a join cannot stand for both (a phi of
// pointers is not allowed), so SplitJoin's block is undone and the module
// comes out as --structurize makes it.
TEST(ReconvergeTest, SplitJoinIsUndoneWhenNothingSinks) {
  const std::string body = R"(
%ptr_private = OpTypePointer Private %uint
%g0 = OpVariable %ptr_private Private %u0
%g1 = OpVariable %ptr_private Private %u0
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
%sel = OpBitwiseAnd %uint %tid %u3
OpSwitch %sel %D 0 %C0 1 %C1
%C0 = OpLabel
%x0 = OpIAdd %uint %tid %u1
OpStore %g0 %x0
OpBranch %J
%C1 = OpLabel
%x1 = OpIMul %uint %tid %u3
OpStore %g1 %x1
OpBranch %J
%D = OpLabel
OpBranch %J
%J = OpLabel
%l0 = OpLoad %uint %g0
%l1 = OpLoad %uint %g1
%sum = OpIAdd %uint %l0 %l1
OpStore %p %sum
OpReturn
OpFunctionEnd
)";
  // The pass alone: the split block is gone again, the join's phis (none
  // here) and branches are as they were.
  const SpirvBinary input = test::MustLoad("case.spvasm", test::kControlFlowPrefix + body);
  auto context = BuildIrContext(input);
  ASSERT_TRUE(context.ok());
  ReconvergePass pass;
  ASSERT_NE(pass.Run(context->get()), spvtools::opt::Pass::Status::Failure);
  EXPECT_EQ(pass.stats().split_joins, 0u);
  EXPECT_EQ(pass.stats().sunk, 0u);
  SpirvBinary after = input;
  after.words = EmitBinary(**context);
  EXPECT_EQ(test::CountBlocks(after), test::CountBlocks(input));

  const Measured m = Measure(body);
  EXPECT_TRUE(m.chosen.reconverge.decisions.empty());
  EXPECT_EQ(m.chosen.output.words, m.structurized.output.words);
  ASSERT_EQ(m.chosen.words.size(), 64u);
  EXPECT_EQ(m.chosen.words[5], 15u);  // case 1: g1 = 5 * 3, g0 keeps its 0
}

// ExpectedIssues of |body| (a valid structured function after the prefix).
double Estimate(const std::string& body) {
  const SpirvBinary binary = test::MustLoad("case.spvasm", test::kControlFlowPrefix + body);
  EXPECT_TRUE(ValidateSpirv(binary.words, binary.target_env, ValidatorFlags(), binary.name,
                            ExitCode::kBadInput));
  auto context = BuildIrContext(binary);
  EXPECT_TRUE(context.ok());
  if (!context.ok()) return 0;
  Expected<std::unique_ptr<UniformityInfo>> uniformity = UniformityInfo::Compute(context->get());
  EXPECT_TRUE(uniformity);
  if (!uniformity) return 0;
  return passes::ExpectedIssues(context->get(), &*(*context)->module()->begin(), **uniformity);
}

// The estimate, counted by hand: a loop's blocks kLoopTrips (4) times;
// phis, merge instructions and labels are not issued.
TEST(ReconvergeTest, ExpectedIssuesCountLoopBlocksPerTrip) {
  EXPECT_EQ(Estimate(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpBranch %H
%H = OpLabel
%i = OpPhi %uint %u0 %entry %i2 %body
%go = OpULessThan %bool %i %tid
OpLoopMerge %exit %body None
OpBranchConditional %go %body %exit
%body = OpLabel
%i2 = OpIAdd %uint %i %u1
OpBranch %H
%exit = OpLabel
OpStore %p %i
OpReturn
OpFunctionEnd
)"),
            // entry: load, chain, branch; H 4 x (compare, branch);
            // body 4 x (add, branch); exit: store, return
            3.0 + 4 * 2 + 4 * 2 + 2);
}

// A branch on a uniform value (the constant 5 < 8) sends the subgroup one
// way, each side counted at half; one on LocalInvocationIndex sends it both
// ways, each side counted in full.
std::string Diamond(const char* left, const char* right) {
  return std::string(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
%c = OpULessThan %bool )") +
         left + " " + right + R"(
OpSelectionMerge %join None
OpBranchConditional %c %then %else
%then = OpLabel
%a = OpIAdd %uint %tid %u1
%b = OpIAdd %uint %a %u1
OpBranch %join
%else = OpLabel
%d = OpIMul %uint %tid %u3
OpBranch %join
%join = OpLabel
%v = OpPhi %uint %b %then %d %else
OpStore %p %v
OpReturn
OpFunctionEnd
)";
}

TEST(ReconvergeTest, ExpectedIssuesCountOneSideOfAUniformBranch) {
  // entry: load, chain, compare, branch; then: 2 adds, branch; else: mul,
  // branch; join: store, return.
  EXPECT_EQ(Estimate(Diamond("%u5", "%u8")), 4.0 + 0.5 * 3 + 0.5 * 2 + 2);
  EXPECT_EQ(Estimate(Diamond("%tid", "%u8")), 4.0 + 3 + 2 + 2);
}

}  // namespace
}  // namespace spirv_conv
