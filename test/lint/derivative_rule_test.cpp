// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// derivative-divergent-cf. Expected verdicts come from the Vulkan spec
// ("Derivative Operations"): explicit derivatives must be executed in
// control flow that is uniform within the derivative group (a quad), so one
// in non-uniform control flow is an error; implicit-LOD instructions may be
// executed there but their results are undefined: a warning. A fragment
// input (%in_val) varies per invocation, so a branch on it is divergent and
// the blocks only one side runs are not quad-uniform. A block every
// invocation reaches again (the exit of a loop whose exits reconverge, with
// nothing else diverged) is uniform.

#include "test/lint/lint_test_fixture.h"

namespace spirv_conv {
namespace {

using test::Expect;
using test::ExpectFindings;
using test::HasNote;
using test::LintShader;
using test::Shader;

constexpr char kRule[] = "derivative-divergent-cf";

// %main: branch on the input (divergent); the then-block runs |then_body|.
Shader DivergentIf(const std::string& then_body) {
  Shader shader;
  shader.names = "OpName %cond \"cond\"\nOpName %then \"then\"\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%cond = OpFOrdLessThan %bool %v %float_0_5
OpSelectionMerge %merge None
OpBranchConditional %cond %then %merge
%then = OpLabel
)" + then_body + R"(OpBranch %merge
%merge = OpLabel
OpStore %out_color %color_default
OpReturn
OpFunctionEnd
)";
  shader.globals =
      "%color_default = OpConstantComposite %v4float %float_0 %float_0 %float_0 %float_1\n";
  return shader;
}

// A combined image-sampler %tex at set 0, binding 0.
constexpr char kTextureGlobals[] = R"(%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%ptr_UC_simg = OpTypePointer UniformConstant %simg
%tex = OpVariable %ptr_UC_simg UniformConstant
)";
constexpr char kTextureAnnotations[] =
    "OpDecorate %tex DescriptorSet 0\nOpDecorate %tex Binding 0\n";

TEST(DerivativeRuleTest, ExplicitDerivativeInDivergentIfIsAnError) {
  Shader shader = DivergentIf("%dx = OpDPdx %float %v\n");
  shader.names += "OpName %dx \"dx\"\n";
  const std::vector<Finding> findings = LintShader(shader);
  ExpectFindings(findings, {{kRule, Severity::kError, "%dx = OpDPdx"}});
  if (findings.size() != 1) return;
  // The explanation: the branch on 'cond', computed from the input.
  EXPECT_TRUE(HasNote(findings[0], "control flow depends on 'cond'")) << test::Describe(findings);
  EXPECT_TRUE(HasNote(findings[0], "'in_val' is a shader input, which varies per invocation"))
      << test::Describe(findings);
  EXPECT_EQ(findings[0].location.function, "main");
  EXPECT_EQ(findings[0].location.block, "then");
}

TEST(DerivativeRuleTest, ImplicitLodInDivergentIfIsAWarningExplicitLodIsFine) {
  Shader shader = DivergentIf(R"(%t = OpLoad %simg %tex
%implicit = OpImageSampleImplicitLod %v4float %t %v2_half
%explicit = OpImageSampleExplicitLod %v4float %t %v2_half Lod %float_0
%lod = OpImageQueryLod %v2float %t %v2_half
)");
  shader.capabilities = "OpCapability ImageQuery\n";
  shader.names +=
      "OpName %implicit \"implicit\"\nOpName %explicit \"explicit\"\nOpName %lod \"lod\"\n";
  shader.annotations = kTextureAnnotations;
  shader.globals += kTextureGlobals;
  ExpectFindings(LintShader(shader), {{kRule, Severity::kWarning, "%implicit = OpImageSample"},
                                      {kRule, Severity::kWarning, "%lod = OpImageQueryLod"}});
}

// The two findings above share their explanation: Lint() reports them as
// one finding with a second site, unless grouping is off.
TEST(DerivativeRuleTest, FindingsWithOneCauseAreGrouped) {
  Shader shader = DivergentIf(R"(%t = OpLoad %simg %tex
%implicit = OpImageSampleImplicitLod %v4float %t %v2_half
%lod = OpImageQueryLod %v2float %t %v2_half
)");
  shader.capabilities = "OpCapability ImageQuery\n";
  shader.names += "OpName %implicit \"implicit\"\nOpName %lod \"lod\"\n";
  shader.annotations = kTextureAnnotations;
  shader.globals += kTextureGlobals;
  const std::vector<Finding> grouped = test::LintGrouped(shader);
  ASSERT_EQ(grouped.size(), 1u);
  ASSERT_EQ(grouped[0].more_sites.size(), 1u);
  EXPECT_EQ(grouped[0].more_sites[0].location.instruction.rfind("%lod = OpImageQueryLod", 0), 0u);
  LintOptions separate;
  separate.group_by_cause = false;
  const std::vector<Finding> each = test::LintGrouped(shader, separate);
  ASSERT_EQ(each.size(), 2u);
  EXPECT_EQ(each[0].notes.size(), each[1].notes.size());
  EXPECT_TRUE(each[1].more_sites.empty());
}

TEST(DerivativeRuleTest, NothingInUniformControlFlow) {
  // A branch on a constant: every invocation takes the same side.
  Shader shader = DivergentIf("%dx = OpDPdx %float %v\n");
  shader.functions.replace(shader.functions.find("%cond %then"), 5, "%true");
  ExpectFindings(LintShader(shader), {});
}

TEST(DerivativeRuleTest, NothingAfterALoopThatReconverges) {
  // Invocations leave the loop on different iterations (the break depends on
  // the input), but every invocation reaches %exit, and nothing else
  // diverged: the derivative there runs in uniform control flow.
  Shader shader;
  shader.names = "OpName %dx \"dx\"\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %next %latch
OpLoopMerge %exit %latch None
OpBranch %body
%body = OpLabel
%fi = OpConvertUToF %float %i
%leave = OpFOrdGreaterThan %bool %fi %v
OpBranchConditional %leave %exit %latch
%latch = OpLabel
%next = OpIAdd %uint %i %uint_1
%more = OpULessThan %bool %next %uint_4
OpBranchConditional %more %header %exit
%exit = OpLabel
%dx = OpDPdx %float %v
%c = OpCompositeConstruct %v4float %dx %dx %dx %dx
OpStore %out_color %c
OpReturn
OpFunctionEnd
)";
  ExpectFindings(LintShader(shader), {});
}

TEST(DerivativeRuleTest, InsideTheLoopBodyAfterADivergentBreak) {
  // In the same loop, the latch only runs for invocations that did not
  // leave: not quad-uniform.
  Shader shader;
  shader.names = "OpName %dx \"dx\"\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %next %latch
OpLoopMerge %exit %latch None
OpBranch %body
%body = OpLabel
%fi = OpConvertUToF %float %i
%leave = OpFOrdGreaterThan %bool %fi %v
OpBranchConditional %leave %exit %latch
%latch = OpLabel
%dx = OpDPdx %float %v
%next = OpIAdd %uint %i %uint_1
%more = OpULessThan %bool %next %uint_4
OpBranchConditional %more %header %exit
%exit = OpLabel
OpReturn
OpFunctionEnd
)";
  ExpectFindings(LintShader(shader), {{kRule, Severity::kError, "%dx = OpDPdx"}});
}

TEST(DerivativeRuleTest, HelperCalledFromADivergentBranch) {
  // The helper itself has no branch; its only call is in the then-block, so
  // it runs in divergent control flow.
  Shader shader = DivergentIf("%r = OpFunctionCall %float %helper %v\n");
  shader.names += "OpName %helper \"helper(f1;\"\nOpName %hdx \"hdx\"\n";
  shader.globals += "%fn_float_float = OpTypeFunction %float %float\n";
  shader.functions += R"(%helper = OpFunction %float None %fn_float_float
%x = OpFunctionParameter %float
%hentry = OpLabel
%hdx = OpDPdx %float %x
OpReturnValue %hdx
OpFunctionEnd
)";
  const std::vector<Finding> findings = LintShader(shader);
  ExpectFindings(findings, {{kRule, Severity::kError, "%hdx = OpDPdx"}});
  if (findings.size() != 1) return;
  EXPECT_EQ(findings[0].location.function, "helper");
  EXPECT_TRUE(HasNote(findings[0], "'helper' is called from 'main' in non-uniform control flow"))
      << test::Describe(findings);
  EXPECT_TRUE(HasNote(findings[0], "control flow depends on 'cond'")) << test::Describe(findings);
}

TEST(DerivativeRuleTest, AfterADivergentKill) {
  // Invocations that take %kill end; those left at %merge may not fill
  // their quads: derivative-after-discard's case (quad_rules_test.cpp),
  // not this rule's.
  Shader shader;
  shader.names = "OpName %dx \"dx\"\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%cond = OpFOrdLessThan %bool %v %float_0_5
OpSelectionMerge %merge None
OpBranchConditional %cond %kill %merge
%kill = OpLabel
OpKill
%merge = OpLabel
%dx = OpDPdx %float %v
OpReturn
OpFunctionEnd
)";
  ExpectFindings(LintShader(shader),
                 {{"derivative-after-discard", Severity::kError, "%dx = OpDPdx"}});
}

TEST(DerivativeRuleTest, AfterACallThatMayKill) {
  // %maybe_kill ends the invocations whose input is small; the derivative
  // after the call (same block) runs only in the others.
  Shader shader;
  shader.names = "OpName %maybe_kill \"maybe_kill(\"\nOpName %dx \"dx\"\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%call = OpFunctionCall %void %maybe_kill
%dx = OpDPdx %float %v
OpReturn
OpFunctionEnd
%maybe_kill = OpFunction %void None %fn_void
%kentry = OpLabel
%kv = OpLoad %float %in_val
%kc = OpFOrdLessThan %bool %kv %float_0_5
OpSelectionMerge %kmerge None
OpBranchConditional %kc %kkill %kmerge
%kkill = OpLabel
OpKill
%kmerge = OpLabel
OpReturn
OpFunctionEnd
)";
  const std::vector<Finding> findings = LintShader(shader);
  ExpectFindings(findings, {{"derivative-after-discard", Severity::kError, "%dx = OpDPdx"}});
  if (findings.size() != 1) return;
  EXPECT_TRUE(HasNote(findings[0], "'maybe_kill' may end invocations of the quad here"))
      << test::Describe(findings);
  EXPECT_TRUE(HasNote(findings[0], "some invocations may end in the call to 'maybe_kill'"))
      << test::Describe(findings);
}

TEST(DerivativeRuleTest, ComputeShaderWithDerivativeGroups) {
  // SPV_NV_compute_shader_derivatives: quads of the workgroup are derivative
  // groups; a branch on the local invocation id diverges within them.
  Shader shader;
  shader.model = "GLCompute";
  shader.capabilities =
      "OpCapability ComputeDerivativeGroupQuadsNV\n"
      "OpExtension \"SPV_NV_compute_shader_derivatives\"\n";
  shader.modes = "OpExecutionMode %main DerivativeGroupQuadsNV\n";
  shader.names = "OpName %dx \"dx\"\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%id = OpLoad %v3uint %lid
%x = OpCompositeExtract %uint %id 0
%fx = OpConvertUToF %float %x
%cond = OpULessThan %bool %x %uint_3
OpSelectionMerge %merge None
OpBranchConditional %cond %then %merge
%then = OpLabel
%dx = OpDPdx %float %fx
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)";
  ExpectFindings(LintShader(shader), {{kRule, Severity::kError, "%dx = OpDPdx"}});
}

TEST(DerivativeRuleTest, NotInComputeShadersWithoutDerivativeGroups) {
  // Without a derivative group mode a compute shader has no derivatives
  // (spirv-val rejects OpDPdx there; the lint only says nothing).
  Shader shader;
  shader.model = "GLCompute";
  shader.validate = false;
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%id = OpLoad %v3uint %lid
%x = OpCompositeExtract %uint %id 0
%fx = OpConvertUToF %float %x
%cond = OpULessThan %bool %x %uint_3
OpSelectionMerge %merge None
OpBranchConditional %cond %then %merge
%then = OpLabel
%dx = OpDPdx %float %fx
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)";
  ExpectFindings(LintShader(shader), {});
}

}  // namespace
}  // namespace spirv_conv
