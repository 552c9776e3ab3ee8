// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What applies to every rule: --rule level overrides, source-level
// suppression comments, source locations from OpLine and OpSource text, and
// the rule table.

#include <set>

#include "test/lint/lint_test_fixture.h"

namespace spirv_conv {
namespace {

using test::ExpectFindings;
using test::LintShader;
using test::Shader;

constexpr char kRule[] = "derivative-divergent-cf";

// A fragment shader with debug info: shader.frag, whose line 4 holds the
// derivative (in a branch on the input, line 3) and whose text is in
// OpSource. |line3| and |line4| replace those source lines.
Shader WithSource(const std::string& line3, const std::string& line4) {
  Shader shader;
  shader.sources =
      "%file = OpString \"shader.frag\"\nOpSource GLSL 450 %file \"#version 450\n"
      "void main() {\n" +
      line3 + "\n" + line4 + "\n}\n\"\n";
  shader.names =
      "OpName %v \"v\"\nOpName %cond \"cond\"\nOpName %then \"then\"\nOpName %dx \"dx\"\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
OpLine %file 3 7
%v = OpLoad %float %in_val
%cond = OpFOrdLessThan %bool %v %float_0_5
OpSelectionMerge %merge None
OpBranchConditional %cond %then %merge
%then = OpLabel
OpLine %file 4 15
%dx = OpDPdx %float %v
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)";
  return shader;
}

constexpr char kIf[] = "  if (v < 0.5)";
constexpr char kDerivative[] = "    float d = dFdx(v);";

TEST(LintOptionsTest, RuleLevelOverride) {
  const Shader shader = WithSource(kIf, kDerivative);
  ExpectFindings(LintShader(shader), {{kRule, Severity::kError, "%dx = OpDPdx"}});
  LintOptions options;
  ASSERT_TRUE(ParseRuleLevel("derivative-divergent-cf=warning", &options).ok());
  ExpectFindings(LintShader(shader, options), {{kRule, Severity::kWarning, "%dx = OpDPdx"}});
  ASSERT_TRUE(ParseRuleLevel("derivative-divergent-cf=off", &options).ok());
  ExpectFindings(LintShader(shader, options), {});
}

TEST(LintOptionsTest, BadRuleSettingsAreUsageErrors) {
  LintOptions options;
  for (const char* setting :
       {"no-such-rule=error", "derivative-divergent-cf=loud", "derivative-divergent-cf"}) {
    const Status status = ParseRuleLevel(setting, &options);
    ASSERT_FALSE(status.ok()) << setting;
    EXPECT_EQ(status.error().code, ExitCode::kBadInput) << setting;
  }
  EXPECT_TRUE(options.rule_levels.empty());
}

TEST(LintOptionsTest, LocationFromOpLineAndSourceText) {
  const std::vector<Finding> findings = LintShader(WithSource(kIf, kDerivative));
  ASSERT_EQ(findings.size(), 1u);
  const Location& at = findings[0].location;
  EXPECT_EQ(at.file, "shader.frag");
  EXPECT_EQ(at.line, 4u);
  EXPECT_EQ(at.column, 15u);
  EXPECT_EQ(at.source_line, kDerivative);
  EXPECT_EQ(at.function, "main");
  EXPECT_EQ(at.instruction, "%dx = OpDPdx %float %v");
  // The branch it depends on is on line 3.
  ASSERT_FALSE(findings[0].notes.empty());
  EXPECT_EQ(findings[0].notes[0].message, "control flow depends on 'cond'");
  EXPECT_EQ(findings[0].notes[0].location.line, 3u);
  EXPECT_EQ(findings[0].notes[0].location.source_line, kIf);
}

TEST(LintOptionsTest, WithoutDebugInfoTheInstructionLocates) {
  Shader shader = WithSource(kIf, kDerivative);
  shader.sources.clear();
  for (const std::string line : {"OpLine %file 3 7\n", "OpLine %file 4 15\n"}) {
    shader.functions.erase(shader.functions.find(line), line.size());
  }
  const std::vector<Finding> findings = LintShader(shader);
  ASSERT_EQ(findings.size(), 1u);
  const Location& at = findings[0].location;
  EXPECT_EQ(at.file, "");
  EXPECT_EQ(at.line, 0u);
  EXPECT_EQ(at.block, "then");
  EXPECT_EQ(at.instruction, "%dx = OpDPdx %float %v");
}

TEST(LintOptionsTest, SuppressedOnItsLine) {
  ExpectFindings(LintShader(WithSource(kIf, std::string(kDerivative) +
                                                " // spirv-conv: allow(derivative-divergent-cf)")),
                 {});
  ExpectFindings(LintShader(WithSource(kIf, std::string(kDerivative) +
                                                " // spirv-conv: allow(barrier-divergent-cf, "
                                                "derivative-divergent-cf)")),
                 {});
}

TEST(LintOptionsTest, SuppressedByACommentLineBefore) {
  // Line 3 holds nothing but the comment (the branch's OpLine then points
  // at it, which does not matter here).
  ExpectFindings(
      LintShader(WithSource("  // spirv-conv: allow(derivative-divergent-cf)", kDerivative)), {});
}

TEST(LintOptionsTest, NotSuppressedByOtherRulesOrCodeLines) {
  ExpectFindings(LintShader(WithSource(kIf, std::string(kDerivative) +
                                                " // spirv-conv: allow(barrier-divergent-cf)")),
                 {{kRule, Severity::kError, "%dx = OpDPdx"}});
  // A comment at the end of the line before applies to that line only.
  ExpectFindings(
      LintShader(WithSource(std::string(kIf) + " // spirv-conv: allow(derivative-divergent-cf)",
                            kDerivative)),
      {{kRule, Severity::kError, "%dx = OpDPdx"}});
}

TEST(LintOptionsTest, RuleTable) {
  std::set<std::string> ids;
  for (const RuleInfo& rule : LintRules()) ids.insert(rule.id);
  EXPECT_EQ(ids, (std::set<std::string>{
                     "derivative-divergent-cf", "derivative-after-discard", "barrier-divergent-cf",
                     "subgroup-op-divergent-cf", "subgroup-op-after-rejoin",
                     "subgroup-op-divergent-call", "subgroup-op-inactive-invocation",
                     "quad-op-divergent-cf", "subgroup-op-helper-invocations",
                     "subgroup-op-nonuniform-operand", "group-op-divergent-cf",
                     "nonuniform-missing-decoration", "nonuniform-redundant-decoration"}));
}

}  // namespace
}  // namespace spirv_conv
