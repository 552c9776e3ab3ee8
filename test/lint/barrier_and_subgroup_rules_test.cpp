// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// barrier-divergent-cf and subgroup-op-divergent-cf on compute and fragment
// shaders. Expected verdicts: OpControlBarrier requires every invocation of
// its execution scope to execute it (SPIR-V: "all invocations in Execution
// scope ... reach this point"), so a Workgroup barrier needs control flow
// uniform in the workgroup and a Subgroup barrier only in the subgroup.
// LocalInvocationId varies per invocation (divergent); SubgroupId is the
// same within a subgroup (so a branch on it is subgroup-uniform but not
// workgroup-uniform). A ballot's result is the set of active invocations,
// so in divergent control flow it depends on which are active (a warning).

#include "test/lint/lint_test_fixture.h"

namespace spirv_conv {
namespace {

using test::Expect;
using test::ExpectFindings;
using test::HasNote;
using test::LintShader;
using test::Shader;

constexpr char kBarrierRule[] = "barrier-divergent-cf";
constexpr char kSubgroupRule[] = "subgroup-op-divergent-cf";

// Two branches: %lane_branch on LocalInvocationId.x < 4 (divergent) and
// %group_branch on SubgroupId == 0 (subgroup-uniform), each running its
// body; the blocks are named so findings can be told apart.
Shader ComputeBranches(const std::string& lane_body, const std::string& group_body) {
  Shader shader;
  shader.model = "GLCompute";
  shader.names = "OpName %lane_branch \"lane_branch\"\nOpName %group_branch \"group_branch\"\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%id = OpLoad %v3uint %lid
%x = OpCompositeExtract %uint %id 0
%low = OpULessThan %bool %x %uint_4
OpSelectionMerge %mid None
OpBranchConditional %low %lane_branch %mid
%lane_branch = OpLabel
)" + lane_body + R"(OpBranch %mid
%mid = OpLabel
%sg = OpLoad %uint %sgid
%first = OpIEqual %bool %sg %uint_0
OpSelectionMerge %end None
OpBranchConditional %first %group_branch %end
%group_branch = OpLabel
)" + group_body + R"(OpBranch %end
%end = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_264
OpReturn
OpFunctionEnd
)";
  return shader;
}

constexpr char kWorkgroupBarrier[] = "OpControlBarrier %uint_2 %uint_2 %uint_264\n";
constexpr char kSubgroupBarrier[] = "OpControlBarrier %uint_3 %uint_3 %uint_264\n";

TEST(BarrierRuleTest, WorkgroupBarrierInDivergentControlFlowIsAnError) {
  const std::vector<Finding> findings = LintShader(ComputeBranches(kWorkgroupBarrier, ""));
  ExpectFindings(findings, {{kBarrierRule, Severity::kError, "OpControlBarrier %uint_2"}});
  if (findings.size() != 1) return;
  EXPECT_EQ(findings[0].location.block, "lane_branch");
  EXPECT_TRUE(HasNote(findings[0], "'lid' is the built-in LocalInvocationId"))
      << test::Describe(findings);
}

TEST(BarrierRuleTest, SubgroupBarrierUnderASubgroupUniformBranchIsFine) {
  // The same branch on SubgroupId: fine for a Subgroup barrier, not for a
  // Workgroup one (subgroups of the workgroup take different sides).
  const std::vector<Finding> findings =
      LintShader(ComputeBranches("", std::string(kSubgroupBarrier) + kWorkgroupBarrier));
  ExpectFindings(findings, {{kBarrierRule, Severity::kError, "OpControlBarrier %uint_2"}});
  if (findings.size() != 1) return;
  EXPECT_EQ(findings[0].location.block, "group_branch");
}

TEST(BarrierRuleTest, SubgroupBarrierInDivergentControlFlowIsAnError) {
  ExpectFindings(LintShader(ComputeBranches(kSubgroupBarrier, "")),
                 {{kBarrierRule, Severity::kError, "OpControlBarrier %uint_3"}});
}

constexpr char kBallotCapabilities[] = "OpCapability GroupNonUniformBallot\n";

TEST(SubgroupOpRuleTest, BallotInDivergentControlFlowIsAWarning) {
  Shader shader =
      ComputeBranches("%lane_ballot = OpGroupNonUniformBallot %v4uint %uint_3 %true\n",
                      "%group_ballot = OpGroupNonUniformBallot %v4uint %uint_3 %true\n");
  shader.capabilities = kBallotCapabilities;
  shader.names += "OpName %lane_ballot \"lane_ballot\"\nOpName %group_ballot \"group_ballot\"\n";
  // Only the ballot under the divergent branch: the other runs in
  // subgroup-uniform control flow, where every invocation of its subgroup
  // is active.
  ExpectFindings(LintShader(shader),
                 {{kSubgroupRule, Severity::kWarning, "%lane_ballot = OpGroupNonUniformBallot"}});
}

TEST(SubgroupOpRuleTest, NotReportedUnderMaximallyReconvergesKHR) {
  // With SPV_KHR_maximal_reconvergence the active set at the ballot is
  // defined (the invocations that took the branch together), so the shader
  // asks for it on purpose (docs/rules/subgroup-op-divergent-cf.md). The
  // barrier rule is not affected.
  Shader shader = ComputeBranches("%lane_ballot = OpGroupNonUniformBallot %v4uint %uint_3 %true\n" +
                                      std::string(kWorkgroupBarrier),
                                  "");
  shader.capabilities =
      std::string(kBallotCapabilities) + "OpExtension \"SPV_KHR_maximal_reconvergence\"\n";
  shader.modes = "OpExecutionMode %main MaximallyReconvergesKHR\n";
  ExpectFindings(LintShader(shader), {{kBarrierRule, Severity::kError, "OpControlBarrier"}});
}

TEST(SubgroupOpRuleTest, PureBallotFunctionsAreNotReported) {
  // BallotBitCount of a ballot value does not depend on the active set.
  Shader shader = ComputeBranches(
      "%count = OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %ballot\n", "");
  shader.capabilities = kBallotCapabilities;
  shader.functions.replace(shader.functions.find("%id = OpLoad"), 0,
                           "%ballot = OpGroupNonUniformBallot %v4uint %uint_3 %true\n");
  ExpectFindings(LintShader(shader), {});
}

TEST(SubgroupOpRuleTest, InFragmentShaders) {
  Shader shader;
  shader.capabilities = "OpCapability GroupNonUniform\nOpCapability GroupNonUniformArithmetic\n";
  shader.names = "OpName %sum \"sum\"\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%all = OpGroupNonUniformFAdd %float %uint_3 Reduce %v
%cond = OpFOrdLessThan %bool %v %float_0_5
OpSelectionMerge %merge None
OpBranchConditional %cond %then %merge
%then = OpLabel
%sum = OpGroupNonUniformFAdd %float %uint_3 Reduce %v
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)";
  ExpectFindings(LintShader(shader),
                 {{kSubgroupRule, Severity::kWarning, "%sum = OpGroupNonUniformFAdd"}});
}

}  // namespace
}  // namespace spirv_conv
