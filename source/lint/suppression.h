// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Source-level suppression: a comment "spirv-conv: allow(rule-id, ...)" on
// the line a finding points at, or alone on the line before it, allows
// those rules there (docs/rules/README.md). It needs the source text: glslang
// -g embeds it in OpSource, or the file is found on disk.

#ifndef SOURCE_LINT_SUPPRESSION_H_
#define SOURCE_LINT_SUPPRESSION_H_

#include <string>

namespace spirv_conv {
namespace lint {

// |rule| is allowed by a comment in |line|, or in |previous_line| when that
// line holds nothing but a comment.
bool IsAllowed(const std::string& rule, const std::string& line, const std::string& previous_line);

}  // namespace lint
}  // namespace spirv_conv

#endif  // SOURCE_LINT_SUPPRESSION_H_
