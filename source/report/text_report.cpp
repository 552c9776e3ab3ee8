// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Compiler-style text:
//
//   shader.frag:16:5: error: explicit derivative OpDPdx in ... [derivative-divergent-cf]
//      16 |     float d = dFdx(v);
//         |               ^
//   shader.frag:13: note: control flow depends on 'cond'
//      13 |   if (cond) {
//         |   ^
//
// Further sites with the same cause (Finding::more_sites) follow the first,
// each as a note "and here, with the same cause" (with its message when it
// differs from the first's), before the explanation.

#include <sstream>

#include "report/module_position.h"
#include "spirv_conv/report.h"

namespace spirv_conv {
namespace {

// "file:line:col" with what is known; |input| when the module names no file.
std::string Position(const Location& at, const std::string& input) {
  std::string text = at.file.empty() ? input : at.file;
  if (at.line != 0) {
    text += ":" + std::to_string(at.line);
    if (at.column != 0) text += ":" + std::to_string(at.column);
  }
  return text;
}

// The source line and a caret under the column (the first non-blank
// character when the column is unknown); tabs are kept so the caret lines up.
void Snippet(const Location& at, std::ostream& out) {
  const std::string number = std::to_string(at.line);
  const std::string gutter(number.size() < 5 ? 5 - number.size() : 0, ' ');
  out << gutter << number << " | " << at.source_line << "\n";
  size_t column = at.column != 0 ? at.column - 1 : at.source_line.find_first_not_of(" \t");
  if (column == std::string::npos || column > at.source_line.size()) column = 0;
  std::string caret;
  for (size_t i = 0; i < column; ++i) caret += at.source_line[i] == '\t' ? '\t' : ' ';
  out << gutter << std::string(number.size(), ' ') << " | " << caret << "^\n";
}

// The source line, or where in the module when there is no line.
void Context(const Location& at, std::ostream& out) {
  if (at.line != 0 && !at.source_line.empty()) {
    Snippet(at, out);
    return;
  }
  if (at.line != 0) return;  // the position says it all
  const std::string where = report::ModulePosition(at);
  if (!where.empty()) out << "  " << where << "\n";
}

std::string Plural(size_t count, const char* word) {
  return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

}  // namespace

std::string RenderText(const std::vector<FileFindings>& files) {
  std::ostringstream out;
  size_t counts[3] = {0, 0, 0};
  size_t files_with_findings = 0;
  for (const FileFindings& file : files) {
    if (file.error || file.findings.empty()) continue;
    ++files_with_findings;
    for (const Finding& finding : file.findings) {
      ++counts[static_cast<int>(finding.severity)];
      out << Position(finding.location, file.file) << ": " << SeverityName(finding.severity) << ": "
          << finding.message << " [" << finding.rule << "]\n";
      Context(finding.location, out);
      // The other sites with the same cause, then the cause.
      for (const Note& site : finding.more_sites) {
        out << Position(site.location, file.file) << ": note: and here, with the same cause"
            << (site.message == finding.message ? "" : ": " + site.message) << "\n";
        Context(site.location, out);
      }
      const Location* shown =
          finding.more_sites.empty() ? &finding.location : &finding.more_sites.back().location;
      for (const Note& note : finding.notes) {
        out << Position(note.location, file.file) << ": note: " << note.message << "\n";
        // A line already shown right above is not repeated.
        const bool same_line = note.location.line != 0 && note.location.line == shown->line &&
                               note.location.file == shown->file;
        if (!same_line) Context(note.location, out);
        shown = &note.location;
      }
    }
  }
  if (files_with_findings != 0) {
    out << Plural(counts[2], "error") << ", " << Plural(counts[1], "warning") << " and "
        << Plural(counts[0], "note") << " in " << Plural(files_with_findings, "file") << "\n";
  }
  return out.str();
}

}  // namespace spirv_conv
