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

#include "spirv_conv/load.h"
#include "spirv_conv/status.h"
#include "spirv_conv/uniformity.h"
#include "spirv_conv/validate.h"

namespace spvtools {
namespace opt {
class IRContext;
}  // namespace opt
}  // namespace spvtools

namespace spirv_conv {

enum class Severity : uint8_t { kNote = 0, kWarning = 1, kError = 2 };

// "note", "warning", "error".
const char* SeverityName(Severity severity);

// Where a finding or note points. Source positions come from OpLine or
// NonSemantic.Shader.DebugInfo.100 DebugLine; the rest from the IR.
struct Location {
  std::string file;      // source file named by the line instruction; empty if unknown
  uint32_t line = 0;     // 1-based; 0 = unknown
  uint32_t column = 0;   // 1-based; 0 = unknown
  std::string function;  // the function's OpName (without glslang's "(f1;" suffix); empty if none
  std::string block;     // the block's OpName, or "%<id>"
  std::string instruction;  // the instruction, disassembled with friendly names
  // The text of |line| in |file| when the source is available (OpSource text
  // in the module, or the file on disk); empty otherwise.
  std::string source_line;
};

struct Note {
  std::string message;
  Location location;
};

struct Finding {
  std::string rule;  // a rule id, e.g. "derivative-divergent-cf"
  Severity severity = Severity::kWarning;
  Location location;
  std::string message;
  std::vector<Note> notes;  // the explanation, from the finding back to a source
  // Further sites of the same rule and severity with the same explanation
  // (one root cause), each with its own message, in module order; empty
  // unless LintOptions::group_by_cause.
  std::vector<Note> more_sites;
};

// A rule of the lint.
struct RuleInfo {
  const char* id;
  Severity default_severity;  // the widest severity it reports by default
  const char* summary;        // one line
};

// Every rule, in documentation order.
const std::vector<RuleInfo>& LintRules();

struct LintOptions {
  // Per-rule severity overrides: nullopt turns the rule off.
  std::map<std::string, std::optional<Severity>> rule_levels;
  UniformityOptions uniformity;
  // The input the module came from: source files named by relative paths in
  // OpLine are also looked up next to it, to show the source line.
  std::string input_path;
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
  LoadOptions load;
  ValidatorFlags validator;
  bool skip_validation = false;  // analyse input spirv-val rejects
  // Directory inputs: also take ".glsl" files (they need LoadOptions::glsl.stage).
  bool glsl_files_without_stage = false;
};

// The findings for one input, or why it could not be linted.
struct FileFindings {
  std::string file;  // the path as given
  std::vector<Finding> findings;
  std::optional<Error> error;  // load, validation or analysis failure
};

// Load → validate → IR → uniformity → lint, for one file ("-": stdin).
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
