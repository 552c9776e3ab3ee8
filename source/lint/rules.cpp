// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lint/rules.h"

namespace spirv_conv {
namespace lint {

const std::vector<Rule>& AllRules() {
  static const std::vector<Rule> kRules = {
      {{kDerivativeRule, Severity::kError,
        "derivatives and implicit-LOD sampling in control flow that is not uniform within the "
        "quad"},
       CheckDerivatives},
      {{kDerivativeAfterDiscardRule, Severity::kError,
        "derivatives, implicit-LOD sampling and quad operations after a discard (OpKill, "
        "OpTerminateInvocation) that may have ended other invocations of the quad; demote "
        "keeps them as helpers"},
       CheckDerivativesAfterDiscard},
      {{kBarrierRule, Severity::kError,
        "OpControlBarrier in control flow that is not uniform at its execution scope"},
       CheckBarriers},
      {{kSubgroupOpRule, Severity::kNote,
        "a subgroup operation inside divergent control flow: its result covers the "
        "invocations that took the same path (ballots in an if, elect-then-atomic, waterfall "
        "loops)"},
       CheckSubgroupOperations},
      {{kSubgroupAfterRejoinRule, Severity::kWarning,
        "a subgroup operation after divergent paths rejoin inside control flow that is still "
        "not uniform, where SPIR-V does not promise that the invocations run together again"},
       CheckSubgroupAfterRejoin},
      {{kSubgroupDivergentCallRule, Severity::kWarning,
        "a subgroup operation in a function called in control flow that is not uniform: its "
        "result covers only the invocations that made the call together"},
       CheckSubgroupDivergentCalls},
      {{kSubgroupInactiveRule, Severity::kWarning,
        "a shuffle, rotate or broadcast that reads another invocation in control flow that is "
        "not uniform at its scope, where that invocation may be inactive"},
       CheckSubgroupInactiveInvocations},
      {{kQuadOpRule, Severity::kWarning,
        "a quad vote (OpGroupNonUniformQuadAllKHR, OpGroupNonUniformQuadAnyKHR) in control flow "
        "that is not uniform within the quad: it covers only the quad's invocations that took "
        "the same path"},
       CheckQuadOperations},
      {{kHelperInvocationsRule, Severity::kWarning,
        "a subgroup operation whose result depends on whether helper invocations take part: "
        "its result feeds a derivative, or it runs after a demote"},
       CheckHelperInvocations},
      {{kNonUniformOperandRule, Severity::kError,
        "an operand that must be dynamically uniform (the Id of a broadcast, the Index of a quad "
        "broadcast, the Delta of a rotate) that is not uniform at its scope"},
       CheckNonUniformOperands},
      {{kGroupOpRule, Severity::kError,
        "a group operation without NonUniform (OpGroupIAdd, OpGroupAll, ...) in control flow "
        "that is not uniform at its scope"},
       CheckGroupOperations},
      {{kMissingNonUniformRule, Severity::kError,
        "a descriptor selected by an index that is not subgroup-uniform, accessed through an "
        "operand without NonUniform"},
       CheckMissingNonUniform},
      {{kRedundantNonUniformRule, Severity::kNote,
        "NonUniform on the operand of a descriptor access whose index is uniform"},
       CheckRedundantNonUniform},
  };
  return kRules;
}

}  // namespace lint

const std::vector<RuleInfo>& LintRules() {
  static const std::vector<RuleInfo> kInfos = [] {
    std::vector<RuleInfo> infos;
    for (const lint::Rule& rule : lint::AllRules()) infos.push_back(rule.info);
    return infos;
  }();
  return kInfos;
}

}  // namespace spirv_conv
