// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lint/convergent_check.h"

#include "diagnostics/names.h"

namespace spirv_conv {
namespace lint {

using spvtools::opt::Instruction;

void CheckConvergent(const LintContext& lint, const char* rule, analysis::ConvergenceFlag flag,
                     const std::function<bool(uint32_t function)>& applies, const Judge& judge,
                     Findings* out) {
  for (const analysis::ConvergentInstruction& c : lint.convergent) {
    if (!c.cls.Has(flag) || !applies(c.block->GetParent()->result_id())) continue;
    const Instruction& inst = *c.inst;
    const analysis::ConvergenceClass& cls = c.cls;
    // Uniform control flow satisfies every scope; the scope operand is only
    // looked up (RequiredControlFlow) otherwise.
    const Uniformity level = lint.info.ControlFlowLevel(inst);
    if (level == Uniformity::kUniform) continue;
    const Uniformity required = analysis::RequiredControlFlow(inst, cls, lint.index);
    if (level <= required) continue;
    std::optional<Verdict> verdict = judge(inst, cls, required);
    if (!verdict) continue;
    Finding finding;
    finding.rule = rule;
    finding.severity = verdict->severity;
    finding.location = lint.locator.At(inst);
    finding.message = std::move(verdict->message);
    finding.notes = std::move(verdict->notes);
    for (Note& note : lint.explainer.ControlFlowAt(inst)) finding.notes.push_back(std::move(note));
    out->push_back({&inst, std::move(finding)});
  }
}

}  // namespace lint
}  // namespace spirv_conv
