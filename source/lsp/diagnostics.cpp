// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Lint results as LSP diagnostics: one per site of a finding, its notes as
// related information, and compiler errors at the lines they name.

#include <regex>

#include "lsp/features.h"
#include "lsp/text.h"
#include "spirv_conv/load.h"

namespace spirv_conv {
namespace lsp {

using nlohmann::json;

namespace {

// LSP DiagnosticSeverity.
int SeverityOf(const std::string& severity) {
  if (severity == "error") return 1;
  if (severity == "warning") return 2;
  return 3;  // a note: Information
}

uint32_t LineOf(const json& location) {
  const json& line = location.value("line", json());
  return line.is_number_unsigned() ? line.get<uint32_t>() : 0;
}

json LocationOf(const json& location, const FeatureContext& context) {
  const std::string path = FileKey(location.value("file", json()));
  return {{"uri", UriOfPath(path)}, {"range", CodeRange(context.lines_of(path), LineOf(location))}};
}

// glslang's message lines: "ERROR: /path/a.frag:12: 'x' : undeclared identifier".
const std::regex& CompilerLine() {
  static const std::regex kLine(R"(^\s*(ERROR|WARNING): (.+?):([0-9]+): (.*)$)");
  return kLine;
}

}  // namespace

std::string FileKey(const json& file) {
  return file.is_string() ? UnsavedFileKey(file.get<std::string>()) : std::string();
}

std::vector<Site> SitesOf(const json& result) {
  std::vector<Site> sites;
  for (const json& finding : result.at("findings")) {
    sites.push_back({&finding, finding.at("message").get<std::string>(), &finding.at("location")});
    for (const json& site : finding.at("more_sites")) {
      sites.push_back({&finding, site.at("message").get<std::string>(), &site.at("location")});
    }
  }
  return sites;
}

json DiagnosticOf(const Site& site, const FeatureContext& context) {
  const json& finding = *site.finding;
  const std::string rule = finding.at("rule").get<std::string>();
  const std::string path = FileKey(site.location->value("file", json()));
  json diagnostic = {{"range", CodeRange(context.lines_of(path), LineOf(*site.location))},
                     {"severity", SeverityOf(finding.at("severity").get<std::string>())},
                     {"code", rule},
                     {"source", "spirv-conv"},
                     {"message", site.message}};
  if (!context.rule_docs.empty()) {
    diagnostic["codeDescription"] = {{"href", context.rule_docs + rule + ".md"}};
  }
  json related = json::array();
  for (const json& note : finding.at("notes")) {
    const json& at = note.at("location");
    // A note without a source line points at the finding.
    related.push_back({{"location", LocationOf(LineOf(at) != 0 ? at : *site.location, context)},
                       {"message", note.at("message")}});
  }
  if (!related.empty()) diagnostic["relatedInformation"] = std::move(related);
  return diagnostic;
}

std::map<std::string, json> DiagnosticsByFile(const json& result, const std::string& main_path,
                                              const FeatureContext& context) {
  std::map<std::string, json> by_file;
  auto add = [&](const std::string& path, json diagnostic) {
    json& list = by_file[path.empty() ? main_path : path];
    if (list.is_null()) list = json::array();
    list.push_back(std::move(diagnostic));
  };
  for (const Site& site : SitesOf(result)) {
    add(FileKey(site.location->value("file", json())), DiagnosticOf(site, context));
  }
  const json& error = result.value("error", json());
  if (!error.is_string()) return by_file;
  // "<path>: <what failed>:" then glslang's lines, or one line.
  std::string message = error.get<std::string>();
  if (message.rfind(main_path + ": ", 0) == 0) message = message.substr(main_path.size() + 2);
  bool placed = false;
  size_t start = 0;
  std::string summary;
  while (start <= message.size()) {
    size_t end = message.find('\n', start);
    if (end == std::string::npos) end = message.size();
    const std::string line = message.substr(start, end - start);
    if (start == 0) summary = line;
    std::smatch match;
    if (std::regex_match(line, match, CompilerLine())) {
      const std::string path = UnsavedFileKey(match[2].str());
      const uint32_t number = static_cast<uint32_t>(std::stoul(match[3].str()));
      add(path, {{"range", CodeRange(context.lines_of(path), number)},
                 {"severity", match[1].str() == "ERROR" ? 1 : 2},
                 {"source", "glslang"},
                 {"message", match[4].str()}});
      placed = true;
    }
    start = end + 1;
  }
  if (!placed) {
    add(main_path, {{"range", CodeRange(context.lines_of(main_path), 0)},
                    {"severity", 1},
                    {"source", "spirv-conv"},
                    {"message", message.empty() ? summary : message}});
  }
  return by_file;
}

}  // namespace lsp
}  // namespace spirv_conv
