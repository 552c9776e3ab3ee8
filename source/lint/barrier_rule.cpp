// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// barrier-divergent-cf (docs/rules/barrier-divergent-cf.md): OpControlBarrier
// where the invocations of its execution scope may not all reach it together.

#include "lint/convergent_check.h"

namespace spirv_conv {
namespace lint {

void CheckBarriers(const LintContext& lint, Findings* out) {
  CheckConvergent(
      lint, kBarrierRule, analysis::kBarrier, [](uint32_t) { return true; },
      [](const spvtools::opt::Instruction& inst, const analysis::ConvergenceClass&,
         Uniformity required) -> std::optional<Verdict> {
        const std::string scope = diagnostics::ScopeWord(required);
        return Verdict{Severity::kError, diagnostics::OpcodeName(inst) + " with " + scope +
                                             " execution scope in control flow that is not "
                                             "uniform within the " +
                                             scope + ": not every invocation reaches it"};
      },
      out);
}

}  // namespace lint
}  // namespace spirv_conv
