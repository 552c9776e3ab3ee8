// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The lint of one editor document, run in a child process: a front end or
// analysis that crashes or runs away ends the child, not the server, and
// the memory a compilation takes is returned when the child exits.

#ifndef SOURCE_LSP_LINT_JOB_H_
#define SOURCE_LSP_LINT_JOB_H_

#include <sys/types.h>

#include <string>

#include "nlohmann/json.hpp"
#include "spirv_conv/lint.h"

namespace spirv_conv {
namespace lsp {

struct LintRequest {
  std::string path;  // the document's absolute path: its name in the module's line info
  std::string text;  // the document's text
  LintInputOptions input;
  LintOptions lint;
};

// The lint of |request| in this process, as JSON:
//   {"error": message or null, "source_files": [absolute paths],
//    "findings": [the lint's JSON findings (docs/json.md)],
//    "values": [{"kind", "name", "location", "level", "explanation"}],
//    "hoists": [{"sample", "before_line", "coordinate_components",
//                "gradient_components"}]}
nlohmann::json RunLint(const LintRequest& request);

// RunLint in a forked child. The parent polls fd() and calls Read() until
// it returns true, then Finish().
class LintProcess {
 public:
  // Starts the child; a failed fork or pipe runs the lint in this process
  // (done() at once).
  explicit LintProcess(const LintRequest& request);
  ~LintProcess();
  LintProcess(const LintProcess&) = delete;
  LintProcess& operator=(const LintProcess&) = delete;

  int fd() const { return fd_; }
  bool done() const { return fd_ < 0; }
  // Reads what the child has written; true when it has written everything.
  bool Read();
  // The child's result once Read() returned true: RunLint's JSON, or an
  // error naming how the child ended.
  nlohmann::json Finish();
  // Ends the child (a newer text supersedes it, or it ran too long).
  void Kill();

 private:
  pid_t child_ = -1;
  int fd_ = -1;
  std::string bytes_;
  std::string path_;
  nlohmann::json in_process_;  // the result when no child could be started
};

}  // namespace lsp
}  // namespace spirv_conv

#endif  // SOURCE_LSP_LINT_JOB_H_
