// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the derivative, barrier and subgroup-operation rules share: find the
// instructions of one convergence class that run in control flow wider
// than their scope allows, and explain why.

#ifndef SOURCE_LINT_CONVERGENT_CHECK_H_
#define SOURCE_LINT_CONVERGENT_CHECK_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/convergence_classes.h"
#include "diagnostics/names.h"
#include "lint/rules.h"

namespace spirv_conv {
namespace lint {

// What a rule says about one offending instruction: its severity and
// message, and notes that come before the explanation of the control flow;
// or nullopt to say nothing.
struct Verdict {
  Severity severity;
  std::string message;
  std::vector<Note> notes = {};
};
using Judge = std::function<std::optional<Verdict>(const spvtools::opt::Instruction& inst,
                                                   const analysis::ConvergenceClass& cls,
                                                   Uniformity required)>;

// For every instruction with |flag| in a function |applies| accepts whose
// control-flow level is wider than its scope requires, a finding of |rule|
// with |judge|'s verdict and notes that explain the control flow.
void CheckConvergent(const LintContext& lint, const char* rule, analysis::ConvergenceFlag flag,
                     const std::function<bool(uint32_t function)>& applies, const Judge& judge,
                     Findings* out);

}  // namespace lint
}  // namespace spirv_conv

#endif  // SOURCE_LINT_CONVERGENT_CHECK_H_
