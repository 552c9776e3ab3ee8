// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// nonuniform-missing-decoration (docs/rules/nonuniform-missing-decoration.md):
// a descriptor selected by an index that is not subgroup-uniform, accessed
// through an operand without NonUniform (VUID-RuntimeSpirv-subgroupSize-10149).

#include "analysis/descriptor_access.h"
#include "lint/convergent_check.h"

namespace spirv_conv {
namespace lint {
namespace {

using spvtools::opt::Instruction;

// The value nearest to |id| on the way back to its descriptor that carries
// NonUniform (glslang decorates the load but not an OpSampledImage built
// from it), or null.
const Instruction* DecoratedSource(const LintContext& lint, uint32_t id) {
  const Instruction* inst = lint.index.Def(id);
  for (int depth = 0; inst != nullptr && depth < 16; ++depth) {
    // Straight back along the first operand; a phi or select may merge
    // values of which only some are decorated, so it ends the search.
    const std::vector<uint32_t> sources = analysis::DescriptorOperands(*inst);
    if (sources.empty() || inst->opcode() == spv::Op::OpPhi ||
        inst->opcode() == spv::Op::OpSelect) {
      return nullptr;
    }
    inst = lint.index.Def(sources[0]);
    if (inst != nullptr && analysis::IsDecoratedNonUniform(lint.index, inst->result_id())) {
      return inst;
    }
  }
  return nullptr;
}

}  // namespace

void CheckMissingNonUniform(const LintContext& lint, Findings* out) {
  for (const analysis::ResourceOperand& resource :
       analysis::FindResourceOperands(lint, lint.info)) {
    if (resource.chain == nullptr) continue;
    if (resource.index_level <= Uniformity::kSubgroup) continue;
    if (analysis::IsDecoratedNonUniform(lint.index, resource.id)) continue;
    const uint32_t index = resource.chain->GetSingleWordInOperand(resource.index_operand);
    const std::string array = lint.names.Describe(resource.variable->result_id());
    Finding finding;
    finding.rule = kMissingNonUniformRule;
    finding.severity = Severity::kError;
    finding.location = lint.locator.At(*resource.user);
    finding.message = diagnostics::OpcodeName(*resource.user) + " accesses " + array +
                      " with an index that is not subgroup-uniform, but its " +
                      analysis::OperandRole(lint.index, resource) + " operand " +
                      lint.names.IdName(resource.id) + " is not decorated NonUniform";
    finding.notes.push_back({"the descriptor is selected here by " + lint.names.Describe(index),
                             lint.locator.At(*resource.chain)});
    if (const Instruction* decorated = DecoratedSource(lint, resource.id)) {
      finding.notes.push_back(
          {lint.names.IdName(decorated->result_id()) +
               " is decorated NonUniform, but the decoration does not carry over to " +
               lint.names.IdName(resource.id) +
               ": the operand that accesses the resource must have it itself",
           lint.locator.At(*decorated)});
    }
    for (Note& note : lint.explainer.Use(*resource.chain, resource.index_operand)) {
      finding.notes.push_back(std::move(note));
    }
    out->push_back({resource.user, std::move(finding)});
  }
}

}  // namespace lint
}  // namespace spirv_conv
