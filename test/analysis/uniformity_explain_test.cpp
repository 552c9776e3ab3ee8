// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Explanations that cross calls, and the branch named for a cycle's
// divergent exit: the chains a reader needs to find the source of
// non-uniformity from inside a helper function.

#include "test/analysis/uniformity_test_fixture.h"

namespace spirv_conv {
namespace test {
namespace {

using Kind = UniformityStep::Kind;

// main: x = the invocation id; if (x < 5) helper(x); then a loop whose trip
// count is x. helper(p): q = p + 1.
//
//   entry --(x < 5, divergent)--> then: call helper(x) --> end
//     \_______________________________________________/
//   end -> header <-> latch      header leaves on i < x (divergent exit)
//          header -> exit
constexpr char kCallAndLoop[] = R"(OpName %f "f"
%f = OpFunction %void None %fn0
%entry = OpLabel
%v = OpLoad %v3ulong %lid
%e = OpCompositeExtract %ulong %v 0
%x = OpUConvert %uint %e
%c = OpULessThan %bool %x %uint_5
OpBranchConditional %c %then %end
%then = OpLabel
%call = OpFunctionCall %void %helper %x
OpBranch %end
%end = OpLabel
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %end %inext %latch
%more = OpULessThan %bool %i %x
OpBranchConditional %more %latch %exit
%latch = OpLabel
%inext = OpIAdd %uint %i %uint_1
OpBranch %header
%exit = OpLabel
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %fn1
%p = OpFunctionParameter %uint
%hb = OpLabel
%q = OpIAdd %uint %p %uint_1
OpReturn
OpFunctionEnd
)";

// q is divergent because its parameter p is: the parameter step names the
// argument (x, in main) and the chain goes on from there to the invocation id.
TEST(UniformityExplainTest, ParameterStepNamesTheArgumentAndContinuesInTheCaller) {
  Kernel k("f", kCallAndLoop);
  ASSERT_TRUE(k.ok());
  const std::vector<UniformityStep> steps = k.info().ExplainValue(k.Id("q"));
  ASSERT_GE(steps.size(), 3u);
  EXPECT_EQ(steps[0].kind, Kind::kOperand);
  EXPECT_EQ(steps[0].cause, k.Id("p"));
  EXPECT_EQ(steps[1].subject, k.Id("p"));
  EXPECT_EQ(steps[1].kind, Kind::kCall);
  EXPECT_EQ(steps[1].cause, k.Id("x"));
  EXPECT_EQ(steps[2].subject, k.Id("x"));
  EXPECT_EQ(steps.back().kind, Kind::kSource);
}

// helper's body runs in non-uniform control flow because it is called under
// the divergent branch in entry: the call-site step names the call, and the
// chain continues with the control flow of the call's block.
TEST(UniformityExplainTest, CallSiteStepNamesTheCallAndContinuesInTheCaller) {
  Kernel k("f", kCallAndLoop);
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k.info().ControlFlowLevel(k.Id("hb")), kDivergent);
  const std::vector<UniformityStep> steps = k.info().ExplainControlFlow(k.Id("hb"));
  ASSERT_GE(steps.size(), 3u);
  EXPECT_EQ(steps[0].subject, k.Id("hb"));
  EXPECT_EQ(steps[0].kind, Kind::kCallSite);
  EXPECT_EQ(steps[0].cause, k.Id("call"));
  EXPECT_EQ(steps[1].subject, k.Id("then"));
  EXPECT_EQ(steps[1].kind, Kind::kControlFlow);
  EXPECT_EQ(steps[1].cause, k.Id("entry"));
  EXPECT_EQ(steps[2].subject, k.Id("c"));
}

// The loop's exit test compares with x: threads leave on different
// iterations, and the cycle names the header's branch as the reason.
TEST(UniformityExplainTest, CycleNamesTheBranchOfItsDivergentExit) {
  Kernel k("f", kCallAndLoop);
  ASSERT_TRUE(k.ok());
  const std::vector<UniformityCycle>& cycles = k.info().Cycles(k.Id("f"));
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(cycles[0].divergent_exit, kDivergent);
  EXPECT_EQ(cycles[0].divergent_exit_branch, k.Id("header"));
  EXPECT_EQ(cycles[0].assumed_divergent, kUniform);
  EXPECT_EQ(cycles[0].assumed_divergent_branch, 0u);
}

// The counter of a loop left on a divergent condition lives in a Function
// variable, as at glslang -O0: the load after the loop reads the variable's
// memory-SSA phi, which has no id. The temporal step names the variable, and
// the chain goes on to the condition of the branch that leaves the loop
// (a regression test: the walk must not read the node table at kNoNode
// here).
constexpr char kCounterInVariable[] = R"(OpName %f "f"
%ptr_Function_uint = OpTypePointer Function %uint
%f = OpFunction %void None %fn0
%entry = OpLabel
%n = OpVariable %ptr_Function_uint Function
%v = OpLoad %v3ulong %lid
%e = OpCompositeExtract %ulong %v 0
%x = OpUConvert %uint %e
OpStore %n %uint_0
OpBranch %header
%header = OpLabel
%i = OpLoad %uint %n
%more = OpULessThan %bool %i %x
OpBranchConditional %more %latch %exit
%latch = OpLabel
%inext = OpIAdd %uint %i %uint_1
OpStore %n %inext
OpBranch %header
%exit = OpLabel
%after = OpLoad %uint %n
%done = OpIEqual %bool %after %uint_5
OpReturn
OpFunctionEnd
)";

TEST(UniformityExplainTest, TemporalStepThroughAVariableNamesItAndTheLeavingBranch) {
  Kernel k("f", kCounterInVariable);
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k.info().ValueLevel(k.Id("after")), kDivergent);
  const std::vector<UniformityStep> steps = k.info().ExplainValue(k.Id("done"));
  ASSERT_GE(steps.size(), 4u);
  EXPECT_EQ(steps[0].kind, Kind::kOperand);
  EXPECT_EQ(steps[0].cause, k.Id("after"));
  EXPECT_EQ(steps[1].subject, k.Id("after"));
  EXPECT_EQ(steps[1].kind, Kind::kTemporal);
  EXPECT_EQ(steps[1].cause, k.Id("n"));
  EXPECT_EQ(steps[2].subject, k.Id("more"));
  EXPECT_EQ(steps.back().kind, Kind::kSource);
}

// Ids without a value: the queries answer without reading a node or block
// table out of range (found by analysis_fuzzer, which asks for every id).
TEST(UniformityExplainTest, QueriesOnIdsWithoutAValueAreUniformAndEmpty) {
  Kernel k("f", kCounterInVariable);
  ASSERT_TRUE(k.ok());
  for (const char* name : {"f", "header", "exit"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(k.info().ValueLevel(k.Id(name)), kUniform);
    EXPECT_TRUE(k.info().ExplainValue(k.Id(name)).empty());
  }
  for (const char* name : {"f", "n", "after"}) {  // not blocks
    SCOPED_TRACE(name);
    EXPECT_EQ(k.info().ControlFlowLevel(k.Id(name)), kUniform);
    EXPECT_EQ(k.info().BranchLevel(k.Id(name)), kUniform);
    EXPECT_TRUE(k.info().ExplainControlFlow(k.Id(name)).empty());
    EXPECT_TRUE(k.info().Joins(k.Id(name)).empty());
  }
}

}  // namespace
}  // namespace test
}  // namespace spirv_conv
