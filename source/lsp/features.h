// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the server answers from one lint result (lsp/lint_job.h): the
// diagnostics of every file it concerns, code actions and hover. Pure
// functions of the result and the texts, so that they are tested without a
// client.

#ifndef SOURCE_LSP_FEATURES_H_
#define SOURCE_LSP_FEATURES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace spirv_conv {
namespace lsp {

// The lines of a file: its editor buffer when open, else the file on disk
// (empty when it cannot be read). Paths are as UnsavedFileKey makes them.
using LinesOf = std::function<const std::vector<std::string>&(const std::string& path)>;

struct FeatureContext {
  LinesOf lines_of;
  // Prefix of a rule's documentation URI; the rule id and ".md" follow.
  // Empty: diagnostics carry no codeDescription.
  std::string rule_docs;
};

// One place a finding reports: the finding's own location, or one of its
// more_sites, with the finding's rule, severity and notes.
struct Site {
  const nlohmann::json* finding;
  std::string message;
  const nlohmann::json* location;
};
std::vector<Site> SitesOf(const nlohmann::json& result);

// The LSP Diagnostic for |site|.
nlohmann::json DiagnosticOf(const Site& site, const FeatureContext& context);

// Every diagnostic of |result| (the lint of |main_path|), by file path:
// one per site, and the compiler's errors at their lines. A file the
// result names no diagnostic in has no entry.
std::map<std::string, nlohmann::json> DiagnosticsByFile(const nlohmann::json& result,
                                                        const std::string& main_path,
                                                        const FeatureContext& context);

// The code actions for the findings of |result| at lines |first_line| to
// |last_line| (0-based) of |path|, the document linted as |main_path|:
// NonUniform qualification of a descriptor index, the gradient hoist and
// the suppression comment (docs/editor.md).
nlohmann::json CodeActions(const nlohmann::json& result, const std::string& main_path,
                           const std::string& path, uint32_t first_line, uint32_t last_line,
                           const FeatureContext& context);

// The hover at 0-based |line|, UTF-16 |character| of |path|: the uniformity
// of the variable or condition there and the start of its explanation; null
// when there is nothing to say.
nlohmann::json Hover(const nlohmann::json& result, const std::string& path, uint32_t line,
                     uint32_t character, const FeatureContext& context);

// The path of a file a lint result names (a location's "file"), as the
// server keys files: absolute and lexically normal.
std::string FileKey(const nlohmann::json& file);

}  // namespace lsp
}  // namespace spirv_conv

#endif  // SOURCE_LSP_FEATURES_H_
