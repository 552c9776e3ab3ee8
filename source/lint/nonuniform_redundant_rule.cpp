// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// nonuniform-redundant-decoration (docs/rules/nonuniform-redundant-decoration.md):
// NonUniform on the operand of a descriptor access whose index is uniform in
// the invocation group. An index that is only subgroup-uniform still needs
// the decoration where the effective subgroup size is 1
// (VUID-RuntimeSpirv-None-10148), so it is never called redundant.

#include "analysis/descriptor_access.h"
#include "lint/convergent_check.h"

namespace spirv_conv {
namespace lint {

void CheckRedundantNonUniform(const LintContext& lint, Findings* out) {
  for (const analysis::ResourceOperand& resource :
       analysis::FindResourceOperands(lint, lint.levels)) {
    if (resource.chain == nullptr) continue;
    if (resource.index_level != Uniformity::kUniform) continue;
    if (!analysis::IsDecoratedNonUniform(lint.index, resource.id)) continue;
    Finding finding;
    finding.rule = kRedundantNonUniformRule;
    finding.severity = Severity::kNote;
    finding.location = lint.locator.At(*resource.user);
    finding.message =
        OpcodeName(*resource.user) + " accesses " +
        lint.names.Describe(resource.variable->result_id()) + " with a uniform index, but its " +
        analysis::OperandRole(lint.index, resource) + " operand " + lint.names.IdName(resource.id) +
        " is decorated NonUniform: the decoration is not needed and may cost "
        "performance";
    const uint32_t index = resource.chain->GetSingleWordInOperand(resource.index_operand);
    finding.notes.push_back(
        {"the descriptor is selected here by " + lint.names.Describe(index) + ", which is uniform",
         lint.locator.At(*resource.chain)});
    out->push_back({resource.user, std::move(finding)});
  }
}

}  // namespace lint
}  // namespace spirv_conv
