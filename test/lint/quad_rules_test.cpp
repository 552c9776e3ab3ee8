// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The fragment-shader rules of SPV_KHR_quad_control, demote and helper
// invocations: derivative-after-discard (a quad incomplete only because of
// OpKill), quad-op-divergent-cf (quad votes outside quad-uniform control
// flow), subgroup-op-nonuniform-operand (a rotate's Delta, a broadcast's Id)
// and subgroup-op-helper-invocations (a subgroup result a derivative reads,
// or one computed after a demote). Each with the clean case beside it.

#include "test/lint/lint_test_fixture.h"

namespace spirv_conv {
namespace {

using test::ExpectFindings;
using test::HasNote;
using test::Shader;

// test::LintShader with every id of the functions named after itself, so
// that findings point at "%dx = OpDPdx".
std::vector<Finding> LintNamed(Shader shader) {
  shader.names += test::OpNamesOfUnnamedIds(shader.functions);
  return test::LintShader(shader);
}

constexpr char kAfterDiscard[] = "derivative-after-discard";
constexpr char kDerivative[] = "derivative-divergent-cf";
constexpr char kQuadOp[] = "quad-op-divergent-cf";
constexpr char kOperand[] = "subgroup-op-nonuniform-operand";
constexpr char kHelpers[] = "subgroup-op-helper-invocations";

constexpr char kQuadControl[] =
    "OpCapability GroupNonUniform\nOpCapability QuadControlKHR\n"
    "OpExtension \"SPV_KHR_quad_control\"\n";
constexpr char kDemote[] =
    "OpCapability DemoteToHelperInvocation\nOpExtension \"SPV_EXT_demote_to_helper_invocation\"\n";

// %main: `if (in_val < 0.5) <then>` then |after| at the merge.
std::string IfThen(const std::string& then_block, const std::string& after) {
  return R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%cond = OpFOrdLessThan %bool %v %float_0_5
OpSelectionMerge %merge None
OpBranchConditional %cond %then %merge
%then = OpLabel
)" + then_block +
         R"(%merge = OpLabel
)" + after +
         R"(OpReturn
OpFunctionEnd
)";
}

// %main: `if (subgroupQuadAny(in_val < 0.5)) dFdx(in_val)`.
constexpr char kQuadAnyThenDerivative[] = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%c = OpFOrdLessThan %bool %v %float_0_5
%any = OpGroupNonUniformQuadAnyKHR %bool %c
OpSelectionMerge %merge None
OpBranchConditional %any %then %merge
%then = OpLabel
%dx = OpDPdx %float %v
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)";

TEST(DerivativeAfterDiscardTest, ADerivativeAfterADivergentKill) {
  Shader shader;
  shader.functions = IfThen("OpKill\n", "%dx = OpDPdx %float %v\n");
  const std::vector<Finding> findings = LintNamed(shader);
  ExpectFindings(findings, {{kAfterDiscard, Severity::kError, "%dx = OpDPdx"}});
  if (findings.size() != 1) return;
  EXPECT_TRUE(HasNote(findings[0], "invocations of the quad may end here (OpKill"))
      << test::Describe(findings);
  EXPECT_NE(findings[0].message.find("`demote`"), std::string::npos) << findings[0].message;
  EXPECT_TRUE(HasNote(findings[0], "a shader input, which varies per invocation"))
      << test::Describe(findings);
}

TEST(DerivativeAfterDiscardTest, TerminateInvocationToo) {
  Shader shader;
  shader.version = "1.6";
  shader.functions = IfThen("OpTerminateInvocation\n", "%dx = OpDPdx %float %v\n");
  ExpectFindings(LintNamed(shader), {{kAfterDiscard, Severity::kError, "%dx = OpDPdx"}});
}

TEST(DerivativeAfterDiscardTest, ADerivativeBeforeTheKillInItsBranchIsDivergentCf) {
  // Inside the branch that discards, the quad is split by the branch itself.
  Shader shader;
  shader.functions = IfThen("%dx = OpDPdx %float %v\nOpKill\n", "");
  ExpectFindings(LintNamed(shader), {{kDerivative, Severity::kError, "%dx = OpDPdx"}});
}

TEST(DerivativeAfterDiscardTest, AnotherDivergentBranchStaysDivergentCf) {
  // After the discard, but also inside a divergent if: demote would not help.
  Shader shader;
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%cond = OpFOrdLessThan %bool %v %float_0_5
OpSelectionMerge %m1 None
OpBranchConditional %cond %kill %m1
%kill = OpLabel
OpKill
%m1 = OpLabel
%c2 = OpFOrdGreaterThan %bool %v %float_0
OpSelectionMerge %m2 None
OpBranchConditional %c2 %then %m2
%then = OpLabel
%dx = OpDPdx %float %v
OpBranch %m2
%m2 = OpLabel
OpReturn
OpFunctionEnd
)";
  ExpectFindings(LintNamed(shader), {{kDerivative, Severity::kError, "%dx = OpDPdx"}});
}

TEST(DerivativeAfterDiscardTest, DemoteIsClean) {
  Shader shader;
  shader.capabilities = kDemote;
  shader.functions =
      IfThen("OpDemoteToHelperInvocation\nOpBranch %merge\n", "%dx = OpDPdx %float %v\n");
  ExpectFindings(LintNamed(shader), {});
}

TEST(DerivativeAfterDiscardTest, AQuadOperationAfterAKill) {
  Shader shader;
  shader.capabilities = kQuadControl;
  shader.functions = IfThen("OpKill\n", "%any = OpGroupNonUniformQuadAnyKHR %bool %cond\n");
  ExpectFindings(LintNamed(shader),
                 {{kAfterDiscard, Severity::kWarning, "OpGroupNonUniformQuadAnyKHR"}});
}

TEST(QuadOpTest, AQuadVoteInDivergentControlFlow) {
  Shader shader;
  shader.capabilities = kQuadControl;
  shader.functions = IfThen("%any = OpGroupNonUniformQuadAnyKHR %bool %cond\nOpBranch %merge\n",
                            "%all = OpGroupNonUniformQuadAllKHR %bool %cond\n");
  ExpectFindings(LintNamed(shader), {{kQuadOp, Severity::kWarning, "OpGroupNonUniformQuadAnyKHR"}});
}

TEST(QuadOpTest, AQuadUniformBranchKeepsDerivativesLegal) {
  // if (subgroupQuadAny(c)) { dFdx } under QuadDerivativesKHR and maximal
  // reconvergence: the branch is uniform within the quad.
  Shader shader;
  shader.capabilities =
      std::string(kQuadControl) + "OpExtension \"SPV_KHR_maximal_reconvergence\"\n";
  shader.modes =
      "OpExecutionMode %main QuadDerivativesKHR\nOpExecutionMode %main MaximallyReconvergesKHR\n";
  shader.functions = kQuadAnyThenDerivative;
  ExpectFindings(LintNamed(shader), {});
}

// AQuadUniformBranchKeepsDerivativesLegal without its modes: the
// branch on a quad vote is uniform within the quad, not across the
// primitive, which is the derivative group without QuadDerivativesKHR.
TEST(QuadOpTest, WithoutQuadDerivativesTheDerivativeGroupIsThePrimitive) {
  Shader shader;
  shader.capabilities = kQuadControl;
  shader.functions = kQuadAnyThenDerivative;
  const std::vector<Finding> findings = LintNamed(shader);
  ExpectFindings(findings, {{kDerivative, Severity::kWarning, "%dx = OpDPdx"}});
  if (findings.size() != 1) return;
  EXPECT_NE(findings[0].message.find("without QuadDerivativesKHR"), std::string::npos)
      << findings[0].message;
}

TEST(QuadOpTest, ABranchOnAFlatInputIsUniformAcrossThePrimitive) {
  // A flat input is the provoking vertex's: the same in the whole primitive.
  Shader shader;
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%flat = OpLoad %uint %in_flat
%c = OpIEqual %bool %flat %uint_0
OpSelectionMerge %merge None
OpBranchConditional %c %then %merge
%then = OpLabel
%dx = OpDPdx %float %v
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)";
  ExpectFindings(LintNamed(shader), {});
}

TEST(NonUniformOperandTest, RotateDeltaMustBeUniform) {
  // Delta from the local invocation id: divergent; from SubgroupId: uniform
  // within the subgroup, which is the rotate's scope; a constant.
  Shader shader;
  shader.model = "GLCompute";
  shader.capabilities =
      "OpCapability GroupNonUniformRotateKHR\nOpExtension \"SPV_KHR_subgroup_rotate\"\n";
  shader.globals = "%subgroup = OpConstant %uint 3\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%id = OpLoad %v3uint %lid
%x = OpCompositeExtract %uint %id 0
%sg = OpLoad %uint %sgid
%bad = OpGroupNonUniformRotateKHR %uint %subgroup %x %x
%good = OpGroupNonUniformRotateKHR %uint %subgroup %x %sg
%also = OpGroupNonUniformRotateKHR %uint %subgroup %x %uint_1 %uint_4
OpReturn
OpFunctionEnd
)";
  const std::vector<Finding> findings = LintNamed(shader);
  ExpectFindings(findings, {{kOperand, Severity::kError, "%bad = OpGroupNonUniformRotateKHR"}});
  if (findings.size() != 1) return;
  EXPECT_NE(findings[0].message.find("the Delta operand"), std::string::npos)
      << findings[0].message;
  EXPECT_TRUE(HasNote(findings[0], "'lid'")) << test::Describe(findings);
}

TEST(NonUniformOperandTest, QuadBroadcastIndexMustBeQuadUniform) {
  Shader shader;
  shader.capabilities = "OpCapability GroupNonUniform\nOpCapability GroupNonUniformQuad\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%flat = OpLoad %uint %in_flat
%i = OpConvertFToU %uint %v
%bad = OpGroupNonUniformQuadBroadcast %float %uint_3 %v %i
%good = OpGroupNonUniformQuadBroadcast %float %uint_3 %v %uint_2
OpReturn
OpFunctionEnd
)";
  shader.version = "1.6";  // a non-constant Index needs SPIR-V 1.5
  ExpectFindings(LintNamed(shader),
                 {{kOperand, Severity::kError, "%bad = OpGroupNonUniformQuadBroadcast"}});
}

constexpr char kArithmetic[] =
    "OpCapability GroupNonUniform\nOpCapability GroupNonUniformArithmetic\n";

TEST(HelperInvocationsTest, ASubgroupResultADerivativeReads) {
  Shader shader;
  shader.capabilities = kArithmetic;
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%sum = OpGroupNonUniformFAdd %float %uint_3 Reduce %v
%scaled = OpFMul %float %sum %float_0_5
%dx = OpDPdx %float %scaled
%plain = OpGroupNonUniformFAdd %float %uint_3 Reduce %v
OpReturn
OpFunctionEnd
)";
  const std::vector<Finding> findings = LintNamed(shader);
  ExpectFindings(findings, {{kHelpers, Severity::kWarning, "%sum = OpGroupNonUniformFAdd"}});
  if (findings.size() != 1) return;
  EXPECT_TRUE(HasNote(findings[0], "the derivative that reads it")) << test::Describe(findings);
}

TEST(HelperInvocationsTest, FullQuadsWithMaximalReconvergenceAreClean) {
  Shader shader;
  shader.capabilities = std::string(kArithmetic) +
                        "OpCapability QuadControlKHR\nOpExtension \"SPV_KHR_quad_control\"\n"
                        "OpExtension \"SPV_KHR_maximal_reconvergence\"\n";
  shader.modes =
      "OpExecutionMode %main RequireFullQuadsKHR\nOpExecutionMode %main MaximallyReconvergesKHR\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%sum = OpGroupNonUniformFAdd %float %uint_3 Reduce %v
%dx = OpDPdx %float %sum
OpReturn
OpFunctionEnd
)";
  ExpectFindings(LintNamed(shader), {});
}

TEST(HelperInvocationsTest, ABallotAfterADemote) {
  // The ballot after the demote may count the demoted invocations; the one
  // under `if (!helperInvocationEXT())` leaves them out; the one before the
  // demote is clean.
  Shader shader;
  shader.capabilities = "OpCapability GroupNonUniformBallot\n" + std::string(kDemote);
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%before = OpGroupNonUniformBallot %v4uint %uint_3 %true
%cond = OpFOrdLessThan %bool %v %float_0_5
OpSelectionMerge %merge None
OpBranchConditional %cond %demote %merge
%demote = OpLabel
OpDemoteToHelperInvocation
OpBranch %merge
%merge = OpLabel
%after = OpGroupNonUniformBallot %v4uint %uint_3 %true
%helper = OpIsHelperInvocationEXT %bool
%visible = OpLogicalNot %bool %helper
OpSelectionMerge %m2 None
OpBranchConditional %visible %count %m2
%count = OpLabel
%only = OpGroupNonUniformBallot %v4uint %uint_3 %true
OpBranch %m2
%m2 = OpLabel
OpReturn
OpFunctionEnd
)";
  const std::vector<Finding> findings = LintNamed(shader);
  ExpectFindings(findings, {{kHelpers, Severity::kWarning, "%after = OpGroupNonUniformBallot"}});
  if (findings.empty()) return;
  EXPECT_TRUE(HasNote(findings[0], "invocations may become helpers here"))
      << test::Describe(findings);
}

}  // namespace
}  // namespace spirv_conv
