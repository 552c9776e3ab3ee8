// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The text and JSON renderers of the finding model, on findings written by
// hand: the text format of docs/rules/README.md and the JSON contract of
// docs/json.md.

#include "spirv_conv/report.h"

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "spirv_conv/version.h"

namespace spirv_conv {
namespace {

// A finding with a source line and one note, and one without debug info.
std::vector<FileFindings> Batch() {
  Finding with_line;
  with_line.rule = "derivative-divergent-cf";
  with_line.severity = Severity::kError;
  with_line.message = "explicit derivative OpDPdx in non-uniform control flow";
  with_line.location = {
      "a.frag", 4, 15, "main", "then", "%dx = OpDPdx %float %v", "    float d = dFdx(v);"};
  with_line.notes.push_back(
      {"control flow depends on 'cond'",
       {"a.frag", 3, 0, "main", "%5", "OpBranchConditional %c %t %m", "  if (v < 0.5)"}});
  Finding without_line;
  without_line.rule = "nonuniform-redundant-decoration";
  without_line.severity = Severity::kNote;
  without_line.message = "not needed";
  without_line.location = {"", 0, 0, "", "%12", "%s = OpImageSampleExplicitLod %v4float %t %c", ""};
  FileFindings first{"a.spv", {with_line}, std::nullopt};
  FileFindings second{"b.spv", {without_line}, std::nullopt};
  FileFindings broken{"c.spv", {}, Error{ExitCode::kBadInput, "c.spv: wrong magic number"}};
  return {first, second, broken};
}

TEST(TextReportTest, CompilerStyle) {
  EXPECT_EQ(RenderText(Batch()),
            "a.frag:4:15: error: explicit derivative OpDPdx in non-uniform control flow "
            "[derivative-divergent-cf]\n"
            "    4 |     float d = dFdx(v);\n"
            "      |               ^\n"
            "a.frag:3: note: control flow depends on 'cond'\n"
            "    3 |   if (v < 0.5)\n"
            "      |   ^\n"
            "b.spv: note: not needed [nonuniform-redundant-decoration]\n"
            "  in block %12: %s = OpImageSampleExplicitLod %v4float %t %c\n"
            "1 error, 0 warnings and 1 note in 2 files\n");
}

TEST(TextReportTest, NothingWithoutFindings) {
  EXPECT_EQ(RenderText({FileFindings{"a.spv", {}, std::nullopt}}), "");
}

TEST(JsonReportTest, Contract) {
  const nlohmann::json report = nlohmann::json::parse(RenderJson(Batch()));
  EXPECT_EQ(report["tool"], "spirv-conv");
  EXPECT_EQ(report["version"], VersionNumber());
  ASSERT_EQ(report["files"].size(), 3u);
  const nlohmann::json& a = report["files"][0];
  EXPECT_EQ(a["file"], "a.spv");
  ASSERT_EQ(a["findings"].size(), 1u);
  const nlohmann::json& finding = a["findings"][0];
  EXPECT_EQ(finding["rule"], "derivative-divergent-cf");
  EXPECT_EQ(finding["severity"], "error");
  EXPECT_EQ(finding["message"], "explicit derivative OpDPdx in non-uniform control flow");
  EXPECT_EQ(finding["location"], nlohmann::json({{"file", "a.frag"},
                                                 {"line", 4},
                                                 {"column", 15},
                                                 {"function", "main"},
                                                 {"block", "then"},
                                                 {"instruction", "%dx = OpDPdx %float %v"}}));
  ASSERT_EQ(finding["notes"].size(), 1u);
  EXPECT_EQ(finding["notes"][0]["message"], "control flow depends on 'cond'");
  EXPECT_EQ(finding["notes"][0]["location"]["column"], nullptr);
  // Unknown parts are null.
  const nlohmann::json& b = report["files"][1]["findings"][0]["location"];
  EXPECT_EQ(b["file"], nullptr);
  EXPECT_EQ(b["line"], nullptr);
  EXPECT_EQ(b["function"], nullptr);
  EXPECT_EQ(b["block"], "%12");
  // A file that could not be linted keeps its place, with the error.
  EXPECT_EQ(report["files"][2]["findings"], nlohmann::json::array());
  EXPECT_EQ(report["files"][2]["error"], "c.spv: wrong magic number");
}

}  // namespace
}  // namespace spirv_conv
