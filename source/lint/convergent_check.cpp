// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lint/convergent_check.h"

#include "source/opcode.h"

namespace spirv_conv {
namespace lint {

using spvtools::opt::Instruction;

const char* ScopeWord(Uniformity required) {
  switch (required) {
    case Uniformity::kQuad:
      return "quad";
    case Uniformity::kSubgroup:
      return "subgroup";
    default:
      return "workgroup";
  }
}

std::string OpcodeName(const Instruction& inst) {
  return std::string("Op") + spvOpcodeString(inst.opcode());
}

void CheckConvergent(const LintContext& lint, const char* rule, analysis::ConvergenceFlag flag,
                     const std::function<bool(uint32_t function)>& applies, const Judge& judge,
                     Findings* out) {
  for (spvtools::opt::Function& function : *lint.ir.module()) {
    if (!applies(function.result_id())) continue;
    for (auto& block : function) {
      for (const Instruction& inst : block) {
        const analysis::ConvergenceClass cls = analysis::ClassifyConvergence(inst);
        if (!cls.Has(flag)) continue;
        const Uniformity required = analysis::RequiredControlFlow(inst, cls, &lint.ir);
        if (lint.info.ControlFlowLevel(inst) <= required) continue;
        std::optional<Verdict> verdict = judge(inst, cls, required);
        if (!verdict) continue;
        Finding finding;
        finding.rule = rule;
        finding.severity = verdict->severity;
        finding.location = lint.locator.At(inst);
        finding.message = std::move(verdict->message);
        finding.notes = lint.explainer.ControlFlowAt(inst);
        out->push_back({&inst, std::move(finding)});
      }
    }
  }
}

}  // namespace lint
}  // namespace spirv_conv
