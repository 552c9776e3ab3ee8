// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// nonuniform-redundant-decoration (docs/rules/nonuniform-redundant-decoration.md):
// NonUniform on the operand of a descriptor access whose index is uniform in
// the invocation group. An index that is only subgroup-uniform still needs
// the decoration where the effective subgroup size is 1
// (VUID-RuntimeSpirv-None-10148), so it is never called redundant.

#include <set>
#include <vector>

#include "analysis/descriptor_access.h"
#include "analysis/uniformity_sources.h"
#include "lint/convergent_check.h"
#include "source/opcode.h"

namespace spirv_conv {
namespace lint {
namespace {

// Whether index |id| may be an undefined value: computed (through pure
// instructions) from OpUndef or from a Function variable nothing stores to.
// The analysis calls undefined values uniform, which is sound for every rule
// that asks "may this differ?"; this rule asks "is the decoration surely not
// needed?", which an undefined value cannot promise (glslang's
// spv.nonuniform.frag: `nonuniformEXT ivec4 v;` read before any write).
// Whether anything but loads (through access chains) uses |pointer|.
bool MayBeWritten(const LintContext& lint, uint32_t pointer, int depth = 0) {
  for (const analysis::UseTable::Use& use : lint.uses.UsesOf(pointer)) {
    const spv::Op op = use.user->opcode();
    if (op == spv::Op::OpLoad || spvOpcodeIsDecoration(op) || spvOpcodeIsDebug(op)) continue;
    if ((op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain) && depth < 8 &&
        !MayBeWritten(lint, use.user->result_id(), depth + 1)) {
      continue;
    }
    return true;  // a store, a call, or a chain that is written
  }
  return false;
}

bool MayBeUndefined(const LintContext& lint, uint32_t id) {
  std::vector<uint32_t> work{id};
  std::set<uint32_t> seen;
  while (!work.empty() && seen.size() < 256) {
    const uint32_t v = work.back();
    work.pop_back();
    if (!seen.insert(v).second) continue;
    const spvtools::opt::Instruction* def = lint.index.Def(v);
    if (def == nullptr) continue;
    switch (def->opcode()) {
      case spv::Op::OpUndef:
        return true;
      case spv::Op::OpLoad: {
        const spvtools::opt::Instruction* variable =
            lint.names.RootVariable(def->GetSingleWordInOperand(0));
        if (variable == nullptr || variable->opcode() != spv::Op::OpVariable ||
            variable->GetSingleWordInOperand(0) != uint32_t(spv::StorageClass::Function) ||
            variable->NumInOperands() > 1) {
          continue;  // not a local, or one with an initializer
        }
        if (!MayBeWritten(lint, variable->result_id())) return true;
        continue;
      }
      default: {
        // Through what the analysis reads as a function of its operands.
        const analysis::Rule rule = analysis::ClassifyInstruction(*def, lint.index).rule;
        if (rule == analysis::Rule::kFollow || rule == analysis::Rule::kPhi) {
          def->ForEachInId([&](const uint32_t* operand) { work.push_back(*operand); });
        }
        continue;
      }
    }
  }
  return false;
}

}  // namespace

void CheckRedundantNonUniform(const LintContext& lint, Findings* out) {
  for (const analysis::ResourceOperand& resource :
       analysis::FindResourceOperands(lint, lint.info)) {
    if (resource.chain == nullptr) continue;
    if (resource.index_level != Uniformity::kUniform) continue;
    if (!analysis::IsDecoratedNonUniform(lint.index, resource.id)) continue;
    const uint32_t index = resource.chain->GetSingleWordInOperand(resource.index_operand);
    if (MayBeUndefined(lint, index)) continue;
    Finding finding;
    finding.rule = kRedundantNonUniformRule;
    finding.severity = Severity::kNote;
    finding.location = lint.locator.At(*resource.user);
    finding.message =
        diagnostics::OpcodeName(*resource.user) + " accesses " +
        lint.names.Describe(resource.variable->result_id()) + " with a uniform index, but its " +
        analysis::OperandRole(lint.index, resource) + " operand " + lint.names.IdName(resource.id) +
        " is decorated NonUniform: the decoration is not needed and may cost "
        "performance";
    finding.notes.push_back(
        {"the descriptor is selected here by " + lint.names.Describe(index) + ", which is uniform",
         lint.locator.At(*resource.chain)});
    out->push_back({resource.user, std::move(finding)});
  }
}

}  // namespace lint
}  // namespace spirv_conv
