// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// derivative-after-discard (docs/rules/derivative-after-discard.md):
// derivatives, implicit-LOD sampling and quad operations whose quad is
// incomplete only because invocations were discarded (OpKill,
// OpTerminateInvocation, a call that may execute one): with the discards
// read as demotes (UniformityOptions::kills_as_demotes) their control flow
// would be uniform within the quad. derivative-divergent-cf and the
// subgroup rules leave these to this rule.

#include "lint/convergent_check.h"

namespace spirv_conv {
namespace lint {
namespace {

using spvtools::opt::Instruction;

bool IsQuadOperation(const analysis::ConvergenceClass& cls) {
  return cls.Has(analysis::kGroupOperation) && cls.scope_operand == analysis::kNoOperand &&
         cls.implied_scope == Uniformity::kQuad;
}

// The discard to point at: the last OpKill / OpTerminateInvocation, or call
// of a function that may execute one, before |inst| in its function's
// layout, else the first after it; null when the function has none (the
// discard is in a caller).
const Instruction* DiscardBefore(const LintContext& lint, const Instruction& inst) {
  const spvtools::opt::BasicBlock* block = lint.blocks.Of(inst);
  if (block == nullptr) return nullptr;
  const Instruction* before = nullptr;
  const Instruction* after = nullptr;
  bool passed = false;
  for (const spvtools::opt::BasicBlock& b : *block->GetParent()) {
    for (const Instruction& i : b) {
      if (&i == &inst) passed = true;
      const bool ends = i.opcode() == spv::Op::OpKill ||
                        i.opcode() == spv::Op::OpTerminateInvocation ||
                        (i.opcode() == spv::Op::OpFunctionCall &&
                         lint.calls.InvocationEnd(i.GetSingleWordInOperand(0)) != nullptr);
      if (!ends) continue;
      if (!passed) {
        before = &i;
      } else if (after == nullptr) {
        after = &i;
      }
    }
  }
  return before != nullptr ? before : after;
}

Note DiscardNote(const LintContext& lint, const Instruction& end) {
  if (end.opcode() == spv::Op::OpFunctionCall) {
    return {"'" + lint.names.Function(end.GetSingleWordInOperand(0)) +
                "' may end invocations of the quad here (it executes OpKill or "
                "OpTerminateInvocation)",
            lint.locator.At(end)};
  }
  return {"invocations of the quad may end here (" + diagnostics::OpcodeName(end) +
              ", GLSL `discard`): the quad is incomplete after it",
          lint.locator.At(end)};
}

}  // namespace

void CheckDerivativesAfterDiscard(const LintContext& lint, Findings* out) {
  CheckConvergent(
      lint, kDerivativeAfterDiscardRule, analysis::kConvergent,
      [&](uint32_t function) { return lint.calls.HasDerivativeGroups(function); },
      [&](const Instruction& inst, const analysis::ConvergenceClass& cls,
          Uniformity required) -> std::optional<Verdict> {
        const bool derivative = cls.Has(analysis::kDerivative);
        if (!derivative && !IsQuadOperation(cls)) return std::nullopt;
        if (!lint.OnlyDiscardsLeftOut(inst, required)) return std::nullopt;
        const std::string advice =
            "; `demote` (GL_EXT_demote_to_helper_invocation, OpDemoteToHelperInvocation) keeps "
            "the invocations running as helpers, so the quad stays complete";
        std::string message;
        Severity severity = Severity::kWarning;
        if (cls.derivative == analysis::DerivativeKind::kExplicit) {
          severity = Severity::kError;
          message = "explicit derivative " + diagnostics::OpcodeName(inst) +
                    " after a discard that may have ended other invocations of its quad (the "
                    "derivative group): it differences against invocations that are gone";
        } else if (derivative) {
          message = diagnostics::OpcodeName(inst) +
                    " computes an implicit level of detail after a discard that may have ended "
                    "other invocations of its quad: its result is undefined";
        } else {
          message = diagnostics::OpcodeName(inst) +
                    " after a discard that may have ended other invocations of its quad: it "
                    "reads or votes over invocations that are gone";
        }
        Verdict verdict{severity, message + advice};
        if (const Instruction* end = DiscardBefore(lint, inst)) {
          verdict.notes.push_back(DiscardNote(lint, *end));
        }
        return verdict;
      },
      out);
}

}  // namespace lint
}  // namespace spirv_conv
