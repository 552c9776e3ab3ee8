// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/structurize/demote_ssa.h"

#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "passes/value_types.h"
#include "source/opt/def_use_manager.h"
#include "source/opt/feature_manager.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace structurize {

using spvtools::opt::Instruction;
using spvtools::opt::Operand;

namespace {

// Definitions that may be recomputed in another block.
bool IsRecomputable(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain:
    case spv::Op::OpCopyObject:
    case spv::Op::OpSampledImage:
    case spv::Op::OpImage:
    case spv::Op::OpLoad:                                // only of an opaque handle, see below
    case spv::Op::OpConvertUToAccelerationStructureKHR:  // of a 64-bit address
      return true;
    default:
      return false;
  }
}

// A pointer a Function variable may hold: under SPV_KHR_variable_pointers,
// one into a storage buffer (VariablePointersStorageBuffer) or into workgroup
// memory (VariablePointers). Such a value is demoted like any other.
bool IsStorablePointerType(spvtools::opt::IRContext* context, uint32_t type_id) {
  const Instruction* type = context->get_def_use_mgr()->GetDef(type_id);
  if (type == nullptr || type->opcode() != spv::Op::OpTypePointer) return false;
  const auto* features = context->get_feature_mgr();
  const bool variable_pointers = features->HasCapability(spv::Capability::VariablePointers);
  switch (static_cast<spv::StorageClass>(type->GetSingleWordInOperand(0))) {
    case spv::StorageClass::StorageBuffer:
      return variable_pointers ||
             features->HasCapability(spv::Capability::VariablePointersStorageBuffer);
    case spv::StorageClass::Workgroup:
      return variable_pointers;
    default:
      return false;
  }
}

class Demoter {
 public:
  explicit Demoter(BlockGraph* graph) : graph_(graph) {}

  bool Run(std::string* error) {
    ReplacePhis();
    IndexDefinitions();
    struct Use {
      Instruction* user;
      uint32_t operand;
      uint32_t node;
    };
    std::vector<Use> uses;
    for (uint32_t n = 0; n < graph_->size(); ++n) {
      graph_->block(n)->ForEachInst([&](Instruction* inst) {
        for (uint32_t i = 0; i < inst->NumOperands(); ++i) {
          if (!spvIsInIdType(inst->GetOperand(i).type)) continue;
          const uint32_t id = inst->GetSingleWordOperand(i);
          auto def = def_node_.find(id);
          if (def != def_node_.end() && def->second != n && def->second != 0) {
            uses.push_back({inst, i, n});
          }
        }
      });
    }
    for (const Use& use : uses) {
      const uint32_t id = use.user->GetSingleWordOperand(use.operand);
      const uint32_t local = Available(use.node, id, use.user, error);
      if (local == 0) return false;
      use.user->SetOperand(use.operand, {local});
    }
    return true;
  }

 private:
  // Each phi: a variable, a store at the end of every predecessor, and a
  // load in the phi's place (keeping its result id).
  void ReplacePhis() {
    for (uint32_t n = 0; n < graph_->size(); ++n) {
      for (Instruction& inst : *graph_->block(n)) {
        if (inst.opcode() != spv::Op::OpPhi) break;
        const uint32_t variable = graph_->NewVariable(inst.type_id());
        const BlockGraph::ScopedLocation at(graph_, &inst);
        for (uint32_t i = 0; i + 1 < inst.NumInOperands(); i += 2) {
          const uint32_t pred = graph_->Node(inst.GetSingleWordInOperand(i + 1));
          if (pred == BlockGraph::kNone) continue;
          graph_->Insert(pred, spv::Op::OpStore, 0, 0, {variable, inst.GetSingleWordInOperand(i)});
        }
        inst.SetOpcode(spv::Op::OpLoad);
        inst.SetInOperands({Operand(SPV_OPERAND_TYPE_ID, {variable})});
      }
    }
  }

  void IndexDefinitions() {
    for (uint32_t n = 0; n < graph_->size(); ++n) {
      graph_->block(n)->ForEachInst([&](Instruction* inst) {
        if (inst->result_id() != 0 && inst->opcode() != spv::Op::OpLabel) {
          def_node_[inst->result_id()] = n;
          def_inst_[inst->result_id()] = inst;
        }
      });
    }
  }

  // The id that holds |id|'s value in block |node|, before |before|: a load of
  // the value's variable, or a recomputation. 0 on error.
  uint32_t Available(uint32_t node, uint32_t id, Instruction* before, std::string* error) {
    auto def = def_node_.find(id);
    if (def == def_node_.end() || def->second == node || def->second == 0) return id;
    auto known = local_.find({node, id});
    if (known != local_.end()) return known->second;
    Instruction* definition = def_inst_.at(id);
    uint32_t result = 0;
    if (!passes::IsPointerOrOpaqueType(graph_->context(), definition->type_id()) ||
        IsStorablePointerType(graph_->context(), definition->type_id())) {
      auto [slot, fresh] = variable_.emplace(id, 0);
      if (fresh) {
        slot->second = graph_->NewVariable(definition->type_id());
        Instruction::OperandList operands{Operand(SPV_OPERAND_TYPE_ID, {slot->second}),
                                          Operand(SPV_OPERAND_TYPE_ID, {id})};
        // After the definition: before the instruction that follows it.
        DebugLocation(definition)
            .ApplyTo(definition->NextNode()->InsertBefore(std::make_unique<Instruction>(
                graph_->context(), spv::Op::OpStore, 0, 0, operands)));
      }
      result = graph_->TakeId();
      DebugLocation(before).ApplyTo(before->InsertBefore(std::make_unique<Instruction>(
          graph_->context(), spv::Op::OpLoad, definition->type_id(), result,
          Instruction::OperandList{Operand(SPV_OPERAND_TYPE_ID, {slot->second})})));
    } else {
      const bool opaque_load =
          definition->opcode() == spv::Op::OpLoad &&
          passes::TypeOpcode(graph_->context(), definition->type_id()) != spv::Op::OpTypePointer;
      if (!IsRecomputable(definition->opcode()) ||
          (definition->opcode() == spv::Op::OpLoad && !opaque_load)) {
        *error = "%" + std::to_string(id) + " (" +
                 std::string(spvOpcodeString(definition->opcode())) +
                 ") is a pointer or opaque value used outside its block; it can be neither "
                 "stored in a variable nor recomputed there";
        return 0;
      }
      std::unique_ptr<Instruction> copy(definition->Clone(graph_->context()));
      result = graph_->TakeId();
      copy->SetResultId(result);
      Instruction* placed = before->InsertBefore(std::move(copy));
      for (uint32_t i = 0; i < placed->NumOperands(); ++i) {
        if (!spvIsInIdType(placed->GetOperand(i).type)) continue;
        const uint32_t operand = Available(node, placed->GetSingleWordOperand(i), placed, error);
        if (operand == 0) return 0;
        placed->SetOperand(i, {operand});
      }
      def_node_[result] = node;
      def_inst_[result] = placed;
    }
    local_[{node, id}] = result;
    return result;
  }

  BlockGraph* graph_;
  std::unordered_map<uint32_t, uint32_t> def_node_;
  std::unordered_map<uint32_t, Instruction*> def_inst_;
  std::unordered_map<uint32_t, uint32_t> variable_;          // value -> its variable
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> local_;  // (node, value) -> id there
};

}  // namespace

bool DemoteSsa(BlockGraph* graph, std::string* error) { return Demoter(graph).Run(error); }

}  // namespace structurize
}  // namespace spirv_conv
