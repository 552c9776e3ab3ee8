// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "optimizer_log.h"

#include <cstdio>

#include "spirv_conv/report.h"

namespace spirv_conv {
namespace cli {
namespace {

using Outcome = OptimizerPassResult::Outcome;

// "  [ 3/45] --merge-return                    kept         0.4 ms pass   1.2 ms check"
std::string PassLine(size_t index, size_t count, const OptimizerPassResult& pass) {
  char line[256];
  std::snprintf(line, sizeof(line), "  [%2zu/%zu] %-40s %-12s %8.2f ms pass %8.2f ms check\n",
                index + 1, count, pass.flag.c_str(), OutcomeName(pass.outcome), pass.pass_ms,
                pass.check_ms);
  return line;
}

// The findings of a rolled-back pass: they were prevented, so warnings.
std::string RenderFindings(const std::string& name, const OptimizerPassResult& pass) {
  FileFindings file{name + " (after " + pass.flag + ", discarded)", pass.findings, std::nullopt};
  for (Finding& finding : file.findings) finding.severity = Severity::kWarning;
  return RenderText({file});
}

}  // namespace

std::string OptimizerSummary(const std::vector<OptimizerPassResult>& passes) {
  if (passes.empty()) return "";
  if (passes.front().outcome == Outcome::kApplied) {
    return ", spirv-opt: " + std::to_string(passes.size()) +
           " passes run as one sequence and checked as a whole, rolled back: none";
  }
  size_t kept = 0;
  std::string rolled_back;
  for (const OptimizerPassResult& pass : passes) {
    kept += pass.outcome == Outcome::kKept;
    if (pass.outcome == Outcome::kRolledBack) {
      rolled_back += (rolled_back.empty() ? "" : " ") + pass.flag;
    }
  }
  return ", spirv-opt: " + std::to_string(kept) + " of " + std::to_string(passes.size()) +
         " passes changed it, rolled back: " + (rolled_back.empty() ? "none" : rolled_back);
}

std::string RenderOptimizerLog(const std::string& name,
                               const std::vector<OptimizerPassResult>& passes, bool verbose) {
  std::string log;
  if (verbose && !passes.empty()) {
    log += name + (passes.front().outcome == Outcome::kApplied
                       ? ": spirv-opt passes, run as one sequence and checked as a whole:\n"
                       : ": spirv-opt passes, each checked:\n");
  }
  for (size_t i = 0; i < passes.size(); ++i) {
    const OptimizerPassResult& pass = passes[i];
    if (verbose) log += PassLine(i, passes.size(), pass);
    if (pass.outcome != Outcome::kRolledBack) continue;
    log += "spirv-conv: warning: " + name + ": rolled back spirv-opt pass " + pass.flag +
           " (pass " + std::to_string(i + 1) + " of " + std::to_string(passes.size()) +
           "): " + pass.reason + "\n";
    if (!pass.findings.empty()) log += RenderFindings(name, pass);
  }
  return log;
}

}  // namespace cli
}  // namespace spirv_conv
