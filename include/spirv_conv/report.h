// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Renderers of the checkers' one finding model (spirv_conv/diagnostic.h):
// compiler-style text, JSON (docs/json.md) and SARIF 2.1.0 (docs/sarif.md).
// Each renders a whole batch, one FileFindings per input, in input order.

#ifndef INCLUDE_SPIRV_CONV_REPORT_H_
#define INCLUDE_SPIRV_CONV_REPORT_H_

#include <string>
#include <vector>

#include "spirv_conv/diagnostic.h"
#include "spirv_conv/lint.h"

namespace spirv_conv {

// "file:line:col: error: message [rule]", the source line with a caret when
// the text is available (else the function, block and instruction), the
// notes the same way, and a summary line. Inputs that could not be linted
// are left out (the command reports them on stderr).
std::string RenderText(const std::vector<FileFindings>& files);

// The JSON report of docs/json.md ("spirv-conv lint --format json").
std::string RenderJson(const std::vector<FileFindings>& files);

struct SarifOptions {
  // The absolute directory that relative artifact URIs are relative to (the
  // "%SRCROOT%" uriBaseId, recorded in run.originalUriBaseIds): relative
  // paths are resolved against it, and paths under it are written relative
  // to it; others become absolute file: URIs. Empty: relative paths are kept
  // relative to an unrecorded %SRCROOT%, absolute ones absolute.
  std::string source_root;
  // The rules of the run (tool.driver.rules, results' ruleIndex); null:
  // LintRules(). With other rules |rules_doc| names the document that
  // explains them (e.g. "docs/motion.md#the-rules" for MotionRules()).
  const std::vector<RuleInfo>* rules = nullptr;
  std::string rules_doc;
};

// The SARIF 2.1.0 log of docs/sarif.md ("spirv-conv lint --format sarif"):
// one run, the rules of LintRules() (or |options.rules|), one result per finding with its notes as
// related locations and as a code flow, and the inputs that could not be
// linted as tool execution notifications.
std::string RenderSarif(const std::vector<FileFindings>& files, const SarifOptions& options = {});

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_REPORT_H_
