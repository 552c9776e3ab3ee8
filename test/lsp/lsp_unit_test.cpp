// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The language server's parts without a client: the base protocol's
// framing, URIs and UTF-16 columns, and the features computed from a lint
// result (compile errors placed at their lines, HLSL's quick fixes).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lsp/features.h"
#include "lsp/json_rpc.h"
#include "lsp/text.h"

namespace spirv_conv {
namespace lsp {
namespace {

using nlohmann::json;

TEST(LspFraming, MessagesSplitAcrossReadsAndSharingOne) {
  const std::string one = Frame({{"id", 1}});
  const std::string two = Frame({{"id", 2}});
  MessageReader reader;
  reader.Append(one.data(), 5);
  EXPECT_FALSE(reader.Next().has_value());
  const std::string rest = one.substr(5) + two;
  reader.Append(rest.data(), rest.size());
  std::optional<Incoming> first = reader.Next();
  ASSERT_TRUE(first && first->message);
  EXPECT_EQ((*first->message)["id"], 1);
  std::optional<Incoming> second = reader.Next();
  ASSERT_TRUE(second && second->message);
  EXPECT_EQ((*second->message)["id"], 2);
  EXPECT_FALSE(reader.Next().has_value());
  EXPECT_EQ(reader.Pending(), 0u);
}

TEST(LspFraming, HeaderNamesAreCaseInsensitiveAndOtherHeadersIgnored) {
  const std::string text =
      "content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH: 2\r\n\r\n{}";
  MessageReader reader;
  reader.Append(text.data(), text.size());
  std::optional<Incoming> message = reader.Next();
  ASSERT_TRUE(message && message->message);
  EXPECT_TRUE(message->message->is_object());
}

TEST(LspFraming, BadHeadersAndBodiesAreErrorsAndReadingGoesOn) {
  const std::string text = std::string("Content-Length: x\r\n\r\n") +
                           "Content-Length: 3\r\n\r\n{x}" + Frame({{"id", 3}});
  MessageReader reader;
  reader.Append(text.data(), text.size());
  std::optional<Incoming> header = reader.Next();
  ASSERT_TRUE(header);
  EXPECT_FALSE(header->message);
  EXPECT_NE(header->error.find("Content-Length"), std::string::npos);
  std::optional<Incoming> body = reader.Next();
  ASSERT_TRUE(body);
  EXPECT_FALSE(body->message);
  EXPECT_NE(body->error.find("not valid JSON"), std::string::npos);
  std::optional<Incoming> good = reader.Next();
  ASSERT_TRUE(good && good->message);
  EXPECT_EQ((*good->message)["id"], 3);
}

TEST(LspFraming, OversizedBodyIsSkipped) {
  MessageReader reader;
  const std::string header =
      "Content-Length: " + std::to_string(MessageReader::kMaxBodyBytes + 1) + "\r\n\r\n";
  reader.Append(header.data(), header.size());
  std::optional<Incoming> error = reader.Next();
  ASSERT_TRUE(error);
  EXPECT_FALSE(error->message);
  const std::string body(MessageReader::kMaxBodyBytes + 1, ' ');
  reader.Append(body.data(), body.size());
  EXPECT_FALSE(reader.Next().has_value());
  const std::string next = Frame({{"id", 4}});
  reader.Append(next.data(), next.size());
  std::optional<Incoming> good = reader.Next();
  ASSERT_TRUE(good && good->message);
  EXPECT_EQ((*good->message)["id"], 4);
}

TEST(LspText, UrisRoundTripWithEncodedCharacters) {
  const std::string path = "/work/my shaders/a%b+c.frag";
  const std::string uri = UriOfPath(path);
  EXPECT_EQ(uri, "file:///work/my%20shaders/a%25b%2Bc.frag");
  EXPECT_EQ(PathOfUri(uri), path);
  EXPECT_EQ(PathOfUri("file://localhost/a.frag"), "/a.frag");
  EXPECT_FALSE(PathOfUri("untitled:Untitled-1").has_value());
  EXPECT_FALSE(PathOfUri("file://server/share/a.frag").has_value());
}

TEST(LspText, ColumnsCountUtf16CodeUnits) {
  // "é" is two UTF-8 bytes and one UTF-16 unit; U+1F600 four bytes, two units.
  const std::string line = "a\xC3\xA9 \xF0\x9F\x98\x80x";
  EXPECT_EQ(Utf16Column(line, 3), 2u);            // after "é"
  EXPECT_EQ(Utf16Column(line, line.size()), 6u);  // a é space 😀(2) x
  EXPECT_EQ(ByteOfUtf16Column(line, 2), 3u);
  EXPECT_EQ(ByteOfUtf16Column(line, 5), 8u);  // x
  EXPECT_EQ(ByteOfUtf16Column(line, 99), line.size());
}

TEST(LspText, CodeRangeLeavesOutIndentationAndTrailingComment) {
  const std::vector<std::string> lines = {"void main() {", "    x = dFdx(v);  // why", "}"};
  const json range = CodeRange(lines, 2);
  EXPECT_EQ(range["start"]["line"], 1);
  EXPECT_EQ(range["start"]["character"], 4);
  EXPECT_EQ(range["end"]["character"], 16);
  EXPECT_EQ(CodeRange(lines, 0)["start"]["line"], 0);
  EXPECT_EQ(CodeRange(lines, 9)["end"]["character"], 0);
}

TEST(LspText, WordAtFindsTheIdentifierAroundAByte) {
  EXPECT_EQ(WordAt("if (matIdx > 2)", 6), "matIdx");
  EXPECT_EQ(WordAt("if (matIdx > 2)", 4), "matIdx");
  EXPECT_EQ(WordAt("a + b", 2), "");
}

// A lint result as RunLint writes it, with one finding.
json ResultWith(const std::string& file, uint32_t line, const std::string& rule,
                const std::string& message) {
  const json at = {{"file", file}, {"line", line}, {"column", nullptr}};
  return {{"error", nullptr},
          {"source_files", json::array({file})},
          {"findings", json::array({{{"rule", rule},
                                     {"severity", "error"},
                                     {"message", message},
                                     {"location", at},
                                     {"more_sites", json::array()},
                                     {"notes", json::array()}}})},
          {"values", json::array()},
          {"hoists", json::array()}};
}

FeatureContext ContextOf(const std::vector<std::string>& lines) {
  FeatureContext context;
  context.lines_of = [lines](const std::string&) -> const std::vector<std::string>& {
    static std::vector<std::string> copy;
    copy = lines;
    return copy;
  };
  context.rule_docs = "https://example.org/rules/";
  return context;
}

TEST(LspFeatures, CompilerErrorsAreDiagnosticsAtTheirFilesAndLines) {
  const json result = {{"error",
                        "/w/a.frag: GLSL compilation failed:\n  ERROR: /w/a.frag:3: 'x' : "
                        "undeclared identifier\n  ERROR: /w/inc/b.glsl:1: '' : syntax error"},
                       {"source_files", json::array()},
                       {"findings", json::array()},
                       {"values", json::array()},
                       {"hoists", json::array()}};
  const auto by_file = DiagnosticsByFile(result, "/w/a.frag", ContextOf({"a", "b", "  c", "d"}));
  ASSERT_EQ(by_file.size(), 2u);
  const json& main = by_file.at("/w/a.frag");
  ASSERT_EQ(main.size(), 1u);
  EXPECT_EQ(main[0]["range"]["start"]["line"], 2);
  EXPECT_EQ(main[0]["message"], "'x' : undeclared identifier");
  EXPECT_EQ(main[0]["source"], "glslang");
  EXPECT_EQ(by_file.at("/w/inc/b.glsl")[0]["range"]["start"]["line"], 0);
}

TEST(LspFeatures, ErrorsWithoutALineGoAtTheStartOfTheDocument) {
  json result = ResultWith("/w/a.frag", 1, "x", "y");
  result["findings"] = json::array();
  result["error"] = "/w/a.frag: invalid module: OpFoo is not allowed";
  const auto by_file = DiagnosticsByFile(result, "/w/a.frag", ContextOf({"void main() {}"}));
  const json& main = by_file.at("/w/a.frag");
  ASSERT_EQ(main.size(), 1u);
  EXPECT_EQ(main[0]["message"], "invalid module: OpFoo is not allowed");
  EXPECT_EQ(main[0]["range"]["start"]["line"], 0);
}

TEST(LspFeatures, DiagnosticsLinkTheirRule) {
  const json result = ResultWith("/w/a.frag", 1, "derivative-divergent-cf", "m");
  const auto by_file = DiagnosticsByFile(result, "/w/a.frag", ContextOf({"x = dFdx(v);"}));
  const json& d = by_file.at("/w/a.frag")[0];
  EXPECT_EQ(d["code"], "derivative-divergent-cf");
  EXPECT_EQ(d["codeDescription"]["href"], "https://example.org/rules/derivative-divergent-cf.md");
  EXPECT_EQ(d["severity"], 1);
}

// The text a code action's one edit of |path| makes of |lines|.
std::string Applied(const json& action, const std::string& path,
                    const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  json edits = action["edit"]["changes"][UriOfPath(path)];
  // Apply from the end so that earlier offsets stay valid.
  std::vector<json> sorted(edits.begin(), edits.end());
  auto offset = [&](const json& position) {
    size_t at = 0;
    for (uint32_t l = 0; l < position["line"].get<uint32_t>(); ++l) at += lines[l].size() + 1;
    return at + position["character"].get<size_t>();
  };
  std::sort(sorted.begin(), sorted.end(), [&](const json& a, const json& b) {
    return offset(a["range"]["start"]) > offset(b["range"]["start"]);
  });
  for (const json& edit : sorted) {
    const size_t begin = offset(edit["range"]["start"]);
    const size_t end = offset(edit["range"]["end"]);
    text.replace(begin, end - begin, edit["newText"].get<std::string>());
  }
  return text;
}

TEST(LspFeatures, HlslIndexIsQualifiedWithNonUniformResourceIndex) {
  const std::string path = "/w/m.ps.hlsl";
  const std::vector<std::string> lines = {"float4 main(uint id : ID) : SV_Target {",
                                          "  return textures[id + 1].Sample(s, uv);", "}"};
  const json result = ResultWith(path, 2, "nonuniform-missing-decoration",
                                 "OpImageSampleImplicitLod accesses 'textures' with an index");
  const json actions = CodeActions(result, path, path, 1, 1, ContextOf(lines));
  ASSERT_EQ(actions.size(), 2u);  // the qualifier, then the allow comment
  EXPECT_EQ(actions[0]["isPreferred"], true);
  EXPECT_EQ(Applied(actions[0], path, lines),
            "float4 main(uint id : ID) : SV_Target {\n"
            "  return textures[NonUniformResourceIndex(id + 1)].Sample(s, uv);\n}\n");
  EXPECT_EQ(Applied(actions[1], path, lines),
            "float4 main(uint id : ID) : SV_Target {\n"
            "  // spirv-conv: allow(nonuniform-missing-decoration)\n"
            "  return textures[id + 1].Sample(s, uv);\n}\n");
}

TEST(LspFeatures, HlslGradientsAreHoistedIntoSampleGrad) {
  const std::string path = "/w/g.ps.hlsl";
  const std::vector<std::string> lines = {"  float2 uv = input.uv;",
                                          "  [branch] if (input.x > 0) {",
                                          "    c = tex.Sample(s, uv * 2);", "  }"};
  json result = ResultWith(path, 3, "derivative-divergent-cf", "m");
  result["hoists"] = json::array({{{"sample", {{"file", path}, {"line", 3}}},
                                   {"before_line", 2},
                                   {"coordinate_components", 2},
                                   {"gradient_components", 2}}});
  const json actions = CodeActions(result, path, path, 2, 2, ContextOf(lines));
  ASSERT_EQ(actions.size(), 2u);
  EXPECT_EQ(Applied(actions[0], path, lines),
            "  float2 uv = input.uv;\n"
            "  float2 coord_dx = ddx((uv * 2));\n"
            "  float2 coord_dy = ddy((uv * 2));\n"
            "  [branch] if (input.x > 0) {\n"
            "    c = tex.SampleGrad(s, uv * 2, coord_dx, coord_dy);\n  }\n");
}

TEST(LspFeatures, NoHoistWhenTheStatementLineIsNotAStatementStart) {
  const std::string path = "/w/g.frag";
  const std::vector<std::string> lines = {"  if (a) {", "  } else if (b) {",
                                          "    c = texture(s, uv);", "  }"};
  json result = ResultWith(path, 3, "derivative-divergent-cf", "m");
  result["hoists"] = json::array({{{"sample", {{"file", path}, {"line", 3}}},
                                   {"before_line", 2},
                                   {"coordinate_components", 2},
                                   {"gradient_components", 2}}});
  const json actions = CodeActions(result, path, path, 2, 2, ContextOf(lines));
  ASSERT_EQ(actions.size(), 1u);  // only the allow comment
  EXPECT_NE(actions[0]["title"].get<std::string>().find("Allow"), std::string::npos);
}

TEST(LspFeatures, NoHoistWhenTheCoordinateIsDeclaredOrAssignedInsideTheStatement) {
  const std::string path = "/w/g.ps.hlsl";
  for (const std::string inside :
       {"    float2 uv = input.uv * 8;", "    uv.x += 1;", "    ++uv;"}) {
    const std::vector<std::string> lines = {"  if (input.x > 0) {", inside,
                                            "    c = tex.Sample(s, uv);", "  }"};
    json result = ResultWith(path, 3, "derivative-divergent-cf", "m");
    result["hoists"] = json::array({{{"sample", {{"file", path}, {"line", 3}}},
                                     {"before_line", 1},
                                     {"coordinate_components", 2},
                                     {"gradient_components", 2}}});
    const json actions = CodeActions(result, path, path, 2, 2, ContextOf(lines));
    ASSERT_EQ(actions.size(), 1u) << inside;  // only the allow comment
  }
}

}  // namespace
}  // namespace lsp
}  // namespace spirv_conv
