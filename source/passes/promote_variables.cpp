// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/promote_variables.h"

#include <utility>

#include "source/opt/mem_pass.h"
#include "source/opt/ssa_rewrite_pass.h"

namespace spirv_conv {
namespace passes {

namespace {

using spvtools::opt::Function;
using spvtools::opt::Instruction;
using spvtools::opt::IRContext;

// SPIRV-Tools' SSA rewriter on chosen functions only.
class PromoteVariables : public spvtools::opt::MemPass {
 public:
  explicit PromoteVariables(std::vector<Function*> functions) : functions_(std::move(functions)) {}
  const char* name() const override { return "promote-variables"; }

 private:
  Status Process() override {
    Status status = Status::SuccessWithoutChange;
    for (Function* function : functions_) {
      if (HoldsPointers(function)) continue;
      status =
          CombineStatus(status, spvtools::opt::SSARewriter(this).RewriteFunctionIntoSSA(function));
      if (status == Status::Failure) break;
    }
    return status;
  }
  // A Function variable that holds a storage buffer or workgroup pointer
  // (SPV_KHR_variable_pointers; the structurizer makes them for such values
  // that cross blocks). The 2023.1 rewriter takes a load or store through a
  // pointer loaded from a variable for one of the variable itself
  // (MemPass::GetPtr); such a function keeps its variables, which is correct.
  bool HoldsPointers(Function* function) {
    auto* defs = context()->get_def_use_mgr();
    for (Instruction& inst : *function->entry()) {
      if (inst.opcode() != spv::Op::OpVariable) continue;
      const Instruction* type = defs->GetDef(inst.type_id());
      const Instruction* pointee = defs->GetDef(type->GetSingleWordInOperand(1));
      if (pointee->opcode() != spv::Op::OpTypePointer) continue;
      const auto storage = static_cast<spv::StorageClass>(pointee->GetSingleWordInOperand(0));
      if (storage == spv::StorageClass::StorageBuffer || storage == spv::StorageClass::Workgroup) {
        return true;
      }
    }
    return false;
  }

  std::vector<Function*> functions_;
};

// Deletes Function variables only stored to (and what only fed those
// stores) in |function|.
void DeleteDeadStores(IRContext* context, Function* function) {
  auto* defs = context->get_def_use_mgr();
  std::vector<Instruction*> variables;
  for (Instruction& inst : *function->entry()) {
    if (inst.opcode() == spv::Op::OpVariable) variables.push_back(&inst);
  }
  std::vector<uint32_t> maybe_dead;  // ids: a killed instruction is deleted
  for (Instruction* variable : variables) {
    bool only_stored = true;
    defs->ForEachUser(variable, [&](Instruction* user) {
      only_stored &= user->opcode() == spv::Op::OpStore || user->opcode() == spv::Op::OpName ||
                     spvOpcodeIsDecoration(user->opcode());
    });
    if (!only_stored) continue;
    std::vector<Instruction*> stores;
    defs->ForEachUser(variable, [&](Instruction* user) {
      if (user->opcode() == spv::Op::OpStore) stores.push_back(user);
    });
    for (Instruction* store : stores) {
      maybe_dead.push_back(store->GetSingleWordInOperand(1));
      context->KillInst(store);
    }
    context->KillNamesAndDecorates(variable);
    context->KillInst(variable);
  }
  while (!maybe_dead.empty()) {
    Instruction* inst = defs->GetDef(maybe_dead.back());
    maybe_dead.pop_back();
    if (inst == nullptr || !context->IsCombinatorInstruction(inst) ||
        context->get_instr_block(inst) == nullptr || defs->NumUses(inst) != 0) {
      continue;
    }
    inst->ForEachInId([&](uint32_t* id) { maybe_dead.push_back(*id); });
    context->KillInst(inst);
  }
}

}  // namespace

bool PromoteFunctionVariables(IRContext* context, const std::vector<Function*>& functions) {
  PromoteVariables promote(functions);
  if (promote.Run(context) == spvtools::opt::Pass::Status::Failure) return false;
  for (Function* function : functions) DeleteDeadStores(context, function);
  return true;
}

}  // namespace passes
}  // namespace spirv_conv
