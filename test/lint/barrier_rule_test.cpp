// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// barrier-divergent-cf on compute shaders. Expected verdicts:
// OpControlBarrier requires every invocation of its execution scope to
// execute it (SPIR-V: "all invocations in Execution scope ... reach this
// point"), so a Workgroup barrier needs control flow uniform in the
// workgroup and a Subgroup barrier only in the subgroup. LocalInvocationId
// varies per invocation (divergent); SubgroupId is the same within a
// subgroup (so a branch on it is subgroup-uniform but not
// workgroup-uniform). The group-operation rules are in
// subgroup_op_rules_test.cpp.

#include "test/lint/lint_test_fixture.h"

namespace spirv_conv {
namespace {

using test::Expect;
using test::ExpectFindings;
using test::HasNote;
using test::LintShader;
using test::Shader;

constexpr char kBarrierRule[] = "barrier-divergent-cf";

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

}  // namespace
}  // namespace spirv_conv
