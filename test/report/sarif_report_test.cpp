// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The SARIF renderer on findings written by hand. The expected objects follow
// SARIF 2.1.0 (OASIS): sarifLog §3.13, run §3.14, toolComponent §3.19,
// reportingDescriptor §3.49, result §3.27, location §3.28, physicalLocation
// §3.29, region §3.30, logicalLocation §3.33, codeFlow §3.36, invocation
// §3.20, notification §3.58; artifactLocation and uriBaseId §3.4 and §3.14.14.
// test/report/sarif_schema_test.py checks the command's output against the
// schema itself.

#include <cctype>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "report/sarif_artifact.h"
#include "spirv_conv/report.h"
#include "spirv_conv/version.h"

namespace spirv_conv {
namespace {

using nlohmann::json;

size_t RuleIndex(const std::string& id) {
  for (size_t i = 0; i < LintRules().size(); ++i) {
    if (LintRules()[i].id == id) return i;
  }
  ADD_FAILURE() << "no rule " << id;
  return 0;
}

Finding WithLine() {
  Finding finding;
  finding.rule = "derivative-divergent-cf";
  finding.severity = Severity::kError;
  finding.message = "explicit derivative OpDPdx in non-uniform control flow";
  finding.location = {
      "a.frag", 4, 15, "main", "then", "%dx = OpDPdx %float %v", "    float d = dFdx(v);"};
  finding.notes.push_back(
      {"control flow depends on 'cond'",
       {"a.frag", 3, 0, "main", "%5", "OpBranchConditional %c %t %m", "  if (v < 0.5)"}});
  finding.notes.push_back(
      {"'v' is a shader input", {"a.frag", 2, 0, "main", "%5", "%v = OpLoad %float %in", ""}});
  return finding;
}

Finding WithoutLine() {
  Finding finding;
  finding.rule = "nonuniform-redundant-decoration";
  finding.severity = Severity::kNote;
  finding.message = "not needed";
  finding.location = {"", 0, 0, "", "%12", "%s = OpImageSampleExplicitLod %v4float %t %c", ""};
  return finding;
}

json Render(const std::vector<FileFindings>& files, const std::string& root = "") {
  SarifOptions options;
  options.source_root = root;
  return json::parse(RenderSarif(files, options));
}

const json kARelative = {{"uri", "a.frag"}, {"uriBaseId", "%SRCROOT%"}};

TEST(SarifReportTest, LogRunAndTool) {
  const json log = Render({});
  EXPECT_EQ(log["version"], "2.1.0");
  EXPECT_EQ(log["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_EQ(log["runs"].size(), 1u);
  const json& run = log["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "spirv-conv");
  EXPECT_EQ(run["tool"]["driver"]["version"], VersionNumber());
  // A log of an actual scan has a results array, even an empty one (§3.14.23).
  EXPECT_EQ(run["results"], json::array());
  // Without a source root, %SRCROOT% is left to the consumer.
  EXPECT_FALSE(run.contains("originalUriBaseIds"));
  EXPECT_EQ(run["invocations"], json::array({{{"executionSuccessful", true}}}));
}

TEST(SarifReportTest, EveryRuleWithHelp) {
  const json rules = Render({})["runs"][0]["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), LintRules().size());
  for (size_t i = 0; i < rules.size(); ++i) {
    const RuleInfo& info = LintRules()[i];
    const std::string doc = "docs/rules/" + std::string(info.id) + ".md";
    EXPECT_EQ(rules[i]["id"], info.id);
    EXPECT_EQ(rules[i]["defaultConfiguration"],
              json({{"level", SeverityName(info.default_severity)}}));
    std::string sentence = info.summary;  // as a sentence
    sentence[0] = static_cast<char>(std::toupper(sentence[0]));
    EXPECT_EQ(rules[i]["shortDescription"], json({{"text", sentence + "."}}));
    EXPECT_FALSE(rules[i]["fullDescription"]["text"].get<std::string>().empty());
    EXPECT_NE(rules[i]["help"]["text"].get<std::string>().find(doc), std::string::npos);
    EXPECT_NE(rules[i]["help"]["markdown"].get<std::string>().find(doc), std::string::npos);
  }
  EXPECT_EQ(rules[RuleIndex("derivative-divergent-cf")]["name"], "DerivativeDivergentCf");
}

TEST(SarifReportTest, ResultAtSourceLine) {
  const json results = Render({{"a.spv", {WithLine()}, std::nullopt}})["runs"][0]["results"];
  ASSERT_EQ(results.size(), 1u);
  const json& result = results[0];
  EXPECT_EQ(result["ruleId"], "derivative-divergent-cf");
  EXPECT_EQ(result["ruleIndex"], RuleIndex("derivative-divergent-cf"));
  EXPECT_EQ(result["level"], "error");
  // With a source line the message is the finding's own.
  EXPECT_EQ(result["message"], json({{"text", WithLine().message}}));
  EXPECT_EQ(result["analysisTarget"], json({{"uri", "a.spv"}, {"uriBaseId", "%SRCROOT%"}}));
  ASSERT_EQ(result["locations"].size(), 1u);
  const json& physical = result["locations"][0]["physicalLocation"];
  EXPECT_EQ(physical["artifactLocation"], kARelative);
  // The region runs from the column to the end of the line; the snippet is that text.
  EXPECT_EQ(physical["region"],
            json({{"startLine", 4}, {"startColumn", 15}, {"snippet", {{"text", "dFdx(v);"}}}}));
  EXPECT_EQ(result["locations"][0]["logicalLocations"],
            json::array({{{"kind", "function"},
                          {"name", "main"},
                          {"properties",
                           {{"block", "then"}, {"instruction", "%dx = OpDPdx %float %v"}}}}}));
}

TEST(SarifReportTest, NotesAsRelatedLocationsAndCodeFlow) {
  const json result = Render({{"a.spv", {WithLine()}, std::nullopt}})["runs"][0]["results"][0];
  const json& related = result["relatedLocations"];
  ASSERT_EQ(related.size(), 2u);
  EXPECT_EQ(related[0]["id"], 1);
  EXPECT_EQ(related[0]["message"], json({{"text", "control flow depends on 'cond'"}}));
  EXPECT_EQ(related[0]["physicalLocation"]["artifactLocation"], kARelative);
  // No column: the region is the whole line.
  EXPECT_EQ(related[0]["physicalLocation"]["region"],
            json({{"startLine", 3}, {"snippet", {{"text", "  if (v < 0.5)"}}}}));
  EXPECT_EQ(related[1]["id"], 2);
  EXPECT_EQ(related[1]["physicalLocation"]["region"], json({{"startLine", 2}}));

  // One thread flow in execution order: from the source of non-uniformity
  // (the last note) to the finding.
  ASSERT_EQ(result["codeFlows"].size(), 1u);
  ASSERT_EQ(result["codeFlows"][0]["threadFlows"].size(), 1u);
  const json& steps = result["codeFlows"][0]["threadFlows"][0]["locations"];
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0]["location"]["message"]["text"], "'v' is a shader input");
  EXPECT_EQ(steps[0]["location"]["physicalLocation"]["region"]["startLine"], 2);
  EXPECT_EQ(steps[1]["location"]["message"]["text"], "control flow depends on 'cond'");
  EXPECT_EQ(steps[2]["location"]["message"]["text"], WithLine().message);
  EXPECT_EQ(steps[2]["location"]["physicalLocation"]["region"]["startLine"], 4);
}

TEST(SarifReportTest, WithoutDebugInfoTheModuleAndALogicalLocation) {
  const json result = Render({{"b.spv", {WithoutLine()}, std::nullopt}})["runs"][0]["results"][0];
  EXPECT_EQ(result["level"], "note");
  EXPECT_EQ(result["ruleIndex"], RuleIndex("nonuniform-redundant-decoration"));
  EXPECT_EQ(result["message"]["text"],
            "not needed (in block %12: %s = OpImageSampleExplicitLod %v4float %t %c)");
  // The whole SPIR-V file: no region (§3.29.4).
  EXPECT_EQ(result["locations"][0]["physicalLocation"],
            json({{"artifactLocation", {{"uri", "b.spv"}, {"uriBaseId", "%SRCROOT%"}}}}));
  EXPECT_EQ(result["locations"][0]["logicalLocations"],
            json::array({{{"kind", "function"},
                          {"properties",
                           {{"block", "%12"},
                            {"instruction", "%s = OpImageSampleExplicitLod %v4float %t %c"}}}}}));
  EXPECT_FALSE(result.contains("relatedLocations"));
  EXPECT_FALSE(result.contains("codeFlows"));
}

TEST(SarifReportTest, StandardInputHasNoArtifact) {
  const json result = Render({{"-", {WithoutLine()}, std::nullopt}})["runs"][0]["results"][0];
  EXPECT_FALSE(result["locations"][0].contains("physicalLocation"));
  EXPECT_TRUE(result["locations"][0].contains("logicalLocations"));
  EXPECT_FALSE(result.contains("analysisTarget"));
}

TEST(SarifReportTest, InputErrorsAreNotifications) {
  const json run =
      Render({{"a.spv", {WithLine()}, std::nullopt},
              {"c.spv", {}, Error{ExitCode::kBadInput, "c.spv: wrong magic number"}}})["runs"][0];
  EXPECT_EQ(run["results"].size(), 1u);
  ASSERT_EQ(run["invocations"].size(), 1u);
  const json& invocation = run["invocations"][0];
  EXPECT_EQ(invocation["executionSuccessful"], false);
  EXPECT_EQ(
      invocation["toolExecutionNotifications"],
      json::array({{{"level", "error"},
                    {"message", {{"text", "c.spv: wrong magic number"}}},
                    {"locations",
                     json::array({{{"physicalLocation",
                                    {{"artifactLocation",
                                      {{"uri", "c.spv"}, {"uriBaseId", "%SRCROOT%"}}}}}}})}}}));
}

TEST(SarifReportTest, SourceRootMakesPathsRelative) {
  Finding finding = WithLine();
  finding.location.file = "/src/proj/shaders/a.frag";
  finding.notes[0].location.file = "/usr/include/common.glsl";
  const json run = Render({{"shaders/a.spv", {finding}, std::nullopt}}, "/src/proj")["runs"][0];
  EXPECT_EQ(run["originalUriBaseIds"], json({{"%SRCROOT%", {{"uri", "file:///src/proj/"}}}}));
  const json& result = run["results"][0];
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["artifactLocation"],
            json({{"uri", "shaders/a.frag"}, {"uriBaseId", "%SRCROOT%"}}));
  EXPECT_EQ(result["relatedLocations"][0]["physicalLocation"]["artifactLocation"],
            json({{"uri", "file:///usr/include/common.glsl"}}));
  EXPECT_EQ(result["analysisTarget"], json({{"uri", "shaders/a.spv"}, {"uriBaseId", "%SRCROOT%"}}));
}

TEST(SarifReportTest, UnknownRuleHasNoIndex) {
  Finding finding = WithoutLine();
  finding.rule = "no-such-rule";
  const json result = Render({{"b.spv", {finding}, std::nullopt}})["runs"][0]["results"][0];
  EXPECT_EQ(result["ruleId"], "no-such-rule");
  EXPECT_FALSE(result.contains("ruleIndex"));
}

TEST(SarifReportTest, InvalidUtf8IsReplaced) {
  // glslang 12 writes non-ASCII file names into OpString with 0xFF bytes.
  Finding finding = WithLine();
  finding.location.file = "x\xC3\xFF.frag";
  finding.message = "bad \xFF byte";
  const json result = Render({{"a.spv", {finding}, std::nullopt}})["runs"][0]["results"][0];
  EXPECT_EQ(result["message"]["text"], "bad \xEF\xBF\xBD byte");  // U+FFFD
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "x%C3%FF.frag");
}

TEST(SarifArtifactTest, EscapesEverythingButUnreservedAndSlash) {
  EXPECT_EQ(report::EscapeUriPath("a-b_c.d~/E9.frag"), "a-b_c.d~/E9.frag");
  EXPECT_EQ(report::EscapeUriPath("dir with space/#1%?.frag"),
            "dir%20with%20space/%231%25%3F.frag");
  // A colon would make the first segment a scheme; UTF-8 is escaped byte by byte.
  EXPECT_EQ(report::EscapeUriPath("c:x/\xC3\xA4.frag"), "c%3Ax/%C3%A4.frag");
}

TEST(SarifArtifactTest, DirectoryUriEndsWithSlash) {
  EXPECT_EQ(report::DirectoryUri("/src/proj"), "file:///src/proj/");
  EXPECT_EQ(report::DirectoryUri("/src/proj/"), "file:///src/proj/");
  EXPECT_EQ(report::DirectoryUri("/src/my proj"), "file:///src/my%20proj/");
  EXPECT_EQ(report::DirectoryUri("/"), "file:///");
}

TEST(SarifArtifactTest, RelativeToTheSourceRootWherePossible) {
  const json relative = {{"uri", "shaders/a.frag"}, {"uriBaseId", "%SRCROOT%"}};
  EXPECT_EQ(report::ArtifactLocation("./shaders/x/../a.frag", ""), relative);
  EXPECT_EQ(report::ArtifactLocation("shaders/a.frag", "/src/proj"), relative);
  EXPECT_EQ(report::ArtifactLocation("/src/proj/shaders/a.frag", "/src/proj"), relative);
  EXPECT_EQ(report::ArtifactLocation("/src/proj/shaders/a.frag", "/src/proj/"), relative);
  // Outside the root: an absolute file URI.
  EXPECT_EQ(report::ArtifactLocation("/src/other/a.frag", "/src/proj"),
            json({{"uri", "file:///src/other/a.frag"}}));
  EXPECT_EQ(report::ArtifactLocation("../other/a.frag", "/src/proj"),
            json({{"uri", "file:///src/other/a.frag"}}));
  EXPECT_EQ(report::ArtifactLocation("/src/project/a.frag", "/src/proj"),
            json({{"uri", "file:///src/project/a.frag"}}));
  // No root to resolve against: absolute stays absolute, relative relative.
  EXPECT_EQ(report::ArtifactLocation("/a b.frag", ""), json({{"uri", "file:///a%20b.frag"}}));
  EXPECT_EQ(report::ArtifactLocation("../a.frag", ""),
            json({{"uri", "../a.frag"}, {"uriBaseId", "%SRCROOT%"}}));
}

}  // namespace
}  // namespace spirv_conv
