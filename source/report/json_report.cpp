// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The JSON report of docs/json.md ("spirv-conv lint --format json"). Field
// names are a contract other tools depend on: add, never rename.

#include <utility>

#include "nlohmann/json.hpp"
#include "report/finding_json.h"
#include "spirv_conv/report.h"
#include "spirv_conv/version.h"

namespace spirv_conv {

using nlohmann::json;
using report::FindingJson;

std::string RenderJson(const std::vector<FileFindings>& files) {
  json entries = json::array();
  for (const FileFindings& file : files) {
    json findings = json::array();
    for (const Finding& finding : file.findings) findings.push_back(FindingJson(finding));
    json entry = {{"file", file.file}, {"findings", std::move(findings)}};
    if (file.error) entry["error"] = file.error->message;
    entries.push_back(std::move(entry));
  }
  json report = {
      {"tool", "spirv-conv"}, {"version", VersionNumber()}, {"files", std::move(entries)}};
  // glslang stores non-ASCII file names as raw bytes; replace what is not UTF-8.
  return report.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace spirv_conv
