// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The finding model every checker reports in: the lint's rules
// (spirv_conv/lint.h) and the code-motion checker (spirv_conv/motion.h).
// A finding has a rule, a severity, a location and the chain of notes that
// explains it; the renderers (spirv_conv/report.h) print it as text, JSON
// or SARIF.

#ifndef INCLUDE_SPIRV_CONV_DIAGNOSTIC_H_
#define INCLUDE_SPIRV_CONV_DIAGNOSTIC_H_

#include <cstdint>
#include <string>
#include <vector>

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

// A rule of a checker: the lint's (LintRules) or the motion checker's
// (MotionRules).
struct RuleInfo {
  const char* id;
  Severity default_severity;  // the widest severity it reports by default
  const char* summary;        // one line
};

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_DIAGNOSTIC_H_
