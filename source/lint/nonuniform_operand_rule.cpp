// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// subgroup-op-nonuniform-operand (docs/rules/subgroup-op-nonuniform-operand.md):
// the operand of a group operation that must be dynamically uniform (the
// convergence table's uniform operand: the Id of OpGroupNonUniformBroadcast,
// the Index of OpGroupNonUniformQuadBroadcast and OpSubgroupReadInvocationKHR,
// the LocalId of OpGroupBroadcast, the Delta of OpGroupNonUniformRotateKHR)
// where the analysis cannot show it uniform at the required scope.

#include "lint/convergent_check.h"

namespace spirv_conv {
namespace lint {
namespace {

using spvtools::opt::Instruction;

// The operand's name in the SPIR-V specification.
const char* OperandName(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpGroupNonUniformBroadcast:
      return "Id";
    case spv::Op::OpGroupBroadcast:
      return "LocalId";
    case spv::Op::OpGroupNonUniformRotateKHR:
      return "Delta";
    default:
      return "Index";
  }
}

}  // namespace

void CheckNonUniformOperands(const LintContext& lint, Findings* out) {
  for (const analysis::ConvergentInstruction& c : lint.convergent) {
    const analysis::ConvergenceClass& cls = c.cls;
    const Instruction& inst = *c.inst;
    if (cls.uniform_operand == analysis::kNoOperand ||
        cls.uniform_operand >= inst.NumInOperands()) {
      continue;
    }
    const Uniformity level = lint.info.UseLevel(inst, cls.uniform_operand);
    if (level == Uniformity::kUniform) continue;
    const Uniformity required = analysis::RequiredOperandUniformity(inst, cls, lint.index);
    if (level <= required) continue;
    Finding finding;
    finding.rule = kNonUniformOperandRule;
    finding.severity = Severity::kError;
    finding.location = lint.locator.At(inst);
    const std::string here =
        level == Uniformity::kDivergent
            ? "it is not uniform here"
            : std::string("here it is uniform only within the ") + diagnostics::ScopeWord(level);
    finding.message = std::string("the ") + OperandName(inst.opcode()) + " operand of " +
                      diagnostics::OpcodeName(inst) + " must be dynamically uniform within the " +
                      diagnostics::ScopeWord(required) + ", and " + here +
                      ": the result is undefined";
    finding.notes = lint.explainer.Use(inst, cls.uniform_operand);
    out->push_back({&inst, std::move(finding)});
  }
}

}  // namespace lint
}  // namespace spirv_conv
