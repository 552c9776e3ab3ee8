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
      {{kBarrierRule, Severity::kError,
        "OpControlBarrier in control flow that is not uniform at its execution scope"},
       CheckBarriers},
      {{kSubgroupOpRule, Severity::kWarning,
        "a group operation whose result depends on the active invocations, in control flow "
        "that is not uniform at its scope"},
       CheckSubgroupOperations},
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
