// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The convergence lint: rules over the uniformity analysis that find
// derivatives, barriers and subgroup operations in non-uniform control flow
// and descriptor accesses whose NonUniform decoration is missing or
// redundant. Every finding carries a source location and a chain of notes
// that explains it back to a source of non-uniformity. One finding model,
// rendered as text or JSON (include/spirv_conv/report.h).
//
// Rule ids are a public contract; each is documented in docs/rules/<id>.md.

#ifndef INCLUDE_SPIRV_CONV_LINT_H_
#define INCLUDE_SPIRV_CONV_LINT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spirv_conv/diagnostic.h"
#include "spirv_conv/load.h"
#include "spirv_conv/module.h"
#include "spirv_conv/status.h"
#include "spirv_conv/uniformity.h"
#include "spirv_conv/validate.h"

namespace spvtools {
namespace opt {
class IRContext;
}  // namespace opt
}  // namespace spvtools

namespace spirv_conv {

// Every rule, in documentation order.
const std::vector<RuleInfo>& LintRules();

struct LintOptions {
  // Per-rule severity overrides: nullopt turns the rule off.
  std::map<std::string, std::optional<Severity>> rule_levels;
  UniformityOptions uniformity;
  // The input the module came from: source files named by relative paths in
  // OpLine are also looked up next to it, to show the source line.
  std::string input_path;
  // Source texts that stand in for files on disk (an editor's buffers), for
  // the source lines findings show and the suppression comments they hold.
  UnsavedFiles unsaved_files;
  // One finding per root cause: findings of one rule and severity whose
  // notes are the same become the first one's |more_sites|.
  bool group_by_cause = true;
};

// Merges findings of one rule and severity with the same notes into the
// first of them (Finding::more_sites), keeping module order.
std::vector<Finding> GroupByCause(std::vector<Finding> findings);

// Parses "ID=LEVEL" (LEVEL: off, note, warning, error) into |options|.
// Unknown rules and levels are usage errors (ExitCode::kBadInput).
Status ParseRuleLevel(const std::string& setting, LintOptions* options);

// Lints a module whose uniformity |info| was computed on |context|.
// Findings come in module order; suppressed ones (docs/rules/README.md,
// "Suppressing a finding") and those of rules turned off are left out.
// Reads |context| through its own tables (no SPIRV-Tools def-use or
// instruction-to-block analysis is built); instructions are not changed.
std::vector<Finding> Lint(spvtools::opt::IRContext& context, const UniformityInfo& info,
                          const LintOptions& options);

// What the lint of one file needs besides the lint options.
struct LintInputOptions {
  ModuleOptions module;  // how each file is loaded (LoadModule)
  // Directory inputs: also take ".glsl" files and ".hlsl" files whose name
  // names no stage (they need --stage, or -T for HLSL).
  bool sources_without_stage = false;
};

// The findings for one input, or why it could not be linted.
struct FileFindings {
  std::string file;  // the path as given
  std::vector<Finding> findings;
  std::optional<Error> error;  // load, validation or analysis failure
  // GLSL and HLSL: the files compiled, the input and its #includes.
  std::vector<std::string> source_files;
};

// LoadModule → uniformity → lint, for one file ("-": stdin).
FileFindings LintFile(const std::string& path, const LintInputOptions& input,
                      const LintOptions& options);

// Expands directories (recursively, sorted) into the SPIR-V binaries
// (.spv, .spirv), assembly (.spvasm, .spvas) and GLSL stage files they hold;
// files are kept as given. A path that does not exist is kept too, so that
// loading it reports the error.
std::vector<std::string> ExpandLintInputs(const std::vector<std::string>& paths,
                                          const LintInputOptions& input);

// Lints every file on up to |jobs| threads; results come in input order and
// do not depend on |jobs|. |progress| (may be empty) is called after each
// file with the number of files done so far, one call at a time (under a
// lock, from the thread that finished the file).
std::vector<FileFindings> LintFiles(const std::vector<std::string>& files,
                                    const LintInputOptions& input, const LintOptions& options,
                                    unsigned jobs,
                                    const std::function<void(size_t done, size_t total)>& progress);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_LINT_H_
