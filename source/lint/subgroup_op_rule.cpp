// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// subgroup-op-divergent-cf (docs/rules/subgroup-op-divergent-cf.md): a group
// operation whose result depends on the active invocations, executed in
// control flow that is not uniform at its scope. The non-uniform group
// operations are defined on whichever invocations are active, so this is a
// warning; the classic OpGroup* operations (OpGroupAll, OpGroupIAdd, ...)
// are undefined there, so those are errors. Quiet in entry points that
// declare MaximallyReconvergesKHR: they ask for the active sets on purpose.

#include "lint/convergent_check.h"

namespace spirv_conv {
namespace lint {
namespace {

// Defined on the active invocations: OpGroupNonUniform*, the AMD
// OpGroup*NonUniformAMD and the OpSubgroup* extension instructions.
bool DefinedOnActiveInvocations(const std::string& opcode) {
  return opcode.rfind("OpGroupNonUniform", 0) == 0 || opcode.rfind("OpSubgroup", 0) == 0 ||
         opcode.find("NonUniformAMD") != std::string::npos;
}

}  // namespace

void CheckSubgroupOperations(const LintContext& lint, Findings* out) {
  CheckConvergent(
      lint, kSubgroupOpRule, analysis::kCoConvergent,
      [&](uint32_t function) { return !lint.calls.MaximallyReconverges(function); },
      [](const spvtools::opt::Instruction& inst, const analysis::ConvergenceClass&,
         Uniformity required) -> std::optional<Verdict> {
        const std::string opcode = OpcodeName(inst);
        const std::string where =
            opcode + " in control flow that is not uniform within the " + ScopeWord(required);
        if (DefinedOnActiveInvocations(opcode)) {
          return Verdict{Severity::kWarning,
                         where + ": its result depends on which invocations are active"};
        }
        return Verdict{Severity::kError,
                       where + ": every invocation of the scope must execute it together"};
      },
      out);
}

}  // namespace lint
}  // namespace spirv_conv
