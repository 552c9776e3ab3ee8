// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// derivative-divergent-cf (docs/rules/derivative-divergent-cf.md): explicit
// derivatives (error) and implicit-LOD instructions (warning) executed where
// the invocations of a quad (the derivative group) may not run together.

#include "lint/convergent_check.h"

namespace spirv_conv {
namespace lint {

void CheckDerivatives(const LintContext& lint, Findings* out) {
  CheckConvergent(
      lint, kDerivativeRule, analysis::kDerivative,
      [&](uint32_t function) { return lint.calls.HasDerivativeGroups(function); },
      [](const spvtools::opt::Instruction& inst, const analysis::ConvergenceClass& cls,
         Uniformity) -> std::optional<Verdict> {
        if (cls.derivative == analysis::DerivativeKind::kExplicit) {
          return Verdict{Severity::kError,
                         "explicit derivative " + diagnostics::OpcodeName(inst) +
                             " in control flow that is not uniform within the quad (the "
                             "derivative group)"};
        }
        return Verdict{Severity::kWarning,
                       diagnostics::OpcodeName(inst) +
                           " computes an implicit level of detail in control flow that is not "
                           "uniform within the quad (the derivative group): its result is "
                           "undefined"};
      },
      out);
}

}  // namespace lint
}  // namespace spirv_conv
