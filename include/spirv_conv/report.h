// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Renderers of the lint's one finding model (include/spirv_conv/lint.h):
// compiler-style text and JSON (docs/json.md). Each renders a whole batch,
// one FileFindings per input, in input order.

#ifndef INCLUDE_SPIRV_CONV_REPORT_H_
#define INCLUDE_SPIRV_CONV_REPORT_H_

#include <string>
#include <vector>

#include "spirv_conv/lint.h"

namespace spirv_conv {

// "file:line:col: error: message [rule]", the source line with a caret when
// the text is available (else the function, block and instruction), the
// notes the same way, and a summary line. Inputs that could not be linted
// are left out (the command reports them on stderr).
std::string RenderText(const std::vector<FileFindings>& files);

// The JSON report of docs/json.md ("spirv-conv lint --format json").
std::string RenderJson(const std::vector<FileFindings>& files);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_REPORT_H_
