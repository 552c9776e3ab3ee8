// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The rules: one check function per rule (one file each; the rules on group
// operations share subgroup_op_rules.cpp, as they split one classification),
// and the table that names them. A check reports findings at their default
// severity; the linter applies --rule overrides and suppressions.

#ifndef SOURCE_LINT_RULES_H_
#define SOURCE_LINT_RULES_H_

#include <vector>

#include "lint/lint_context.h"
#include "spirv_conv/lint.h"

namespace spirv_conv {
namespace lint {

constexpr char kDerivativeRule[] = "derivative-divergent-cf";
constexpr char kDerivativeAfterDiscardRule[] = "derivative-after-discard";
constexpr char kBarrierRule[] = "barrier-divergent-cf";
constexpr char kSubgroupOpRule[] = "subgroup-op-divergent-cf";
constexpr char kSubgroupAfterRejoinRule[] = "subgroup-op-after-rejoin";
constexpr char kSubgroupDivergentCallRule[] = "subgroup-op-divergent-call";
constexpr char kSubgroupInactiveRule[] = "subgroup-op-inactive-invocation";
constexpr char kQuadOpRule[] = "quad-op-divergent-cf";
constexpr char kHelperInvocationsRule[] = "subgroup-op-helper-invocations";
constexpr char kNonUniformOperandRule[] = "subgroup-op-nonuniform-operand";
constexpr char kGroupOpRule[] = "group-op-divergent-cf";
constexpr char kMissingNonUniformRule[] = "nonuniform-missing-decoration";
constexpr char kRedundantNonUniformRule[] = "nonuniform-redundant-decoration";

// A finding and the instruction it is about (which orders the findings).
struct RuleFinding {
  const spvtools::opt::Instruction* at = nullptr;
  Finding finding;
};
using Findings = std::vector<RuleFinding>;

void CheckDerivatives(const LintContext& lint, Findings* out);
void CheckDerivativesAfterDiscard(const LintContext& lint, Findings* out);
void CheckQuadOperations(const LintContext& lint, Findings* out);
void CheckHelperInvocations(const LintContext& lint, Findings* out);
void CheckNonUniformOperands(const LintContext& lint, Findings* out);
void CheckBarriers(const LintContext& lint, Findings* out);
void CheckSubgroupOperations(const LintContext& lint, Findings* out);
void CheckSubgroupAfterRejoin(const LintContext& lint, Findings* out);
void CheckSubgroupDivergentCalls(const LintContext& lint, Findings* out);
void CheckSubgroupInactiveInvocations(const LintContext& lint, Findings* out);
void CheckGroupOperations(const LintContext& lint, Findings* out);
void CheckMissingNonUniform(const LintContext& lint, Findings* out);
void CheckRedundantNonUniform(const LintContext& lint, Findings* out);

struct Rule {
  RuleInfo info;
  void (*check)(const LintContext& lint, Findings* out);
};

// Every rule, in documentation order.
const std::vector<Rule>& AllRules();

}  // namespace lint
}  // namespace spirv_conv

#endif  // SOURCE_LINT_RULES_H_
