// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The JSON report of docs/json.md ("spirv-conv lint --format json"). Field
// names are a contract other tools depend on: add, never rename.

#include "nlohmann/json.hpp"
#include "spirv_conv/report.h"
#include "spirv_conv/version.h"

namespace spirv_conv {
namespace {

using nlohmann::json;

json OrNull(const std::string& text) { return text.empty() ? json(nullptr) : json(text); }
json OrNull(uint32_t number) { return number == 0 ? json(nullptr) : json(number); }

json LocationJson(const Location& at) {
  return {{"file", OrNull(at.file)},     {"line", OrNull(at.line)},
          {"column", OrNull(at.column)}, {"function", OrNull(at.function)},
          {"block", OrNull(at.block)},   {"instruction", OrNull(at.instruction)}};
}

json FindingJson(const Finding& finding) {
  json notes = json::array();
  for (const Note& note : finding.notes) {
    notes.push_back({{"message", note.message}, {"location", LocationJson(note.location)}});
  }
  return {{"rule", finding.rule},
          {"severity", SeverityName(finding.severity)},
          {"message", finding.message},
          {"location", LocationJson(finding.location)},
          {"notes", notes}};
}

}  // namespace

std::string RenderJson(const std::vector<FileFindings>& files) {
  json entries = json::array();
  for (const FileFindings& file : files) {
    json findings = json::array();
    for (const Finding& finding : file.findings) findings.push_back(FindingJson(finding));
    json entry = {{"file", file.file}, {"findings", findings}};
    if (file.error) entry["error"] = file.error->message;
    entries.push_back(entry);
  }
  json report = {{"tool", "spirv-conv"}, {"version", VersionNumber()}, {"files", entries}};
  // glslang stores non-ASCII file names as raw bytes; replace what is not UTF-8.
  return report.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace spirv_conv
