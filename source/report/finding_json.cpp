// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "report/finding_json.h"

namespace spirv_conv {
namespace report {

using nlohmann::json;

json OrNull(const std::string& text) { return text.empty() ? json(nullptr) : json(text); }
json OrNull(uint32_t number) { return number == 0 ? json(nullptr) : json(number); }

namespace {

json LocationJson(const Location& at) {
  return {{"file", OrNull(at.file)},     {"line", OrNull(at.line)},
          {"column", OrNull(at.column)}, {"function", OrNull(at.function)},
          {"block", OrNull(at.block)},   {"instruction", OrNull(at.instruction)}};
}

}  // namespace

json NoteJson(const Note& note) {
  return {{"message", note.message}, {"location", LocationJson(note.location)}};
}

json FindingJson(const Finding& finding) {
  json notes = json::array();
  for (const Note& note : finding.notes) notes.push_back(NoteJson(note));
  json more_sites = json::array();
  for (const Note& site : finding.more_sites) more_sites.push_back(NoteJson(site));
  return {{"rule", finding.rule},       {"severity", SeverityName(finding.severity)},
          {"message", finding.message}, {"location", LocationJson(finding.location)},
          {"more_sites", more_sites},   {"notes", notes}};
}

}  // namespace report
}  // namespace spirv_conv
