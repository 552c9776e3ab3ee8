// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The JSON pieces the JSON reports share (docs/json.md, docs/passes.md#report):
// null for an unknown field, a finding with its location and notes.

#ifndef SOURCE_REPORT_FINDING_JSON_H_
#define SOURCE_REPORT_FINDING_JSON_H_

#include <cstdint>
#include <string>

#include "nlohmann/json.hpp"
#include "spirv_conv/lint.h"

namespace spirv_conv {
namespace report {

// |text| or null when it is empty; |number| or null when it is 0.
nlohmann::json OrNull(const std::string& text);
nlohmann::json OrNull(uint32_t number);

// {"message", "location"}: a note or a further site of a finding.
nlohmann::json NoteJson(const Note& note);

// {"rule", "severity", "message", "location", "notes"} (docs/json.md).
nlohmann::json FindingJson(const Finding& finding);

}  // namespace report
}  // namespace spirv_conv

#endif  // SOURCE_REPORT_FINDING_JSON_H_
