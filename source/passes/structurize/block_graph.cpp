// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/structurize/block_graph.h"

#include <algorithm>
#include <set>
#include <utility>

#include "source/opt/constants.h"
#include "source/opt/decoration_manager.h"
#include "source/opt/type_manager.h"

namespace spirv_conv {
namespace structurize {

using spvtools::opt::BasicBlock;
using spvtools::opt::Instruction;
using spvtools::opt::Operand;

namespace {

std::unique_ptr<Instruction> MakeInstruction(spvtools::opt::IRContext* context, spv::Op op,
                                             uint32_t type, uint32_t result,
                                             std::initializer_list<uint32_t> ids) {
  Instruction::OperandList operands;
  for (uint32_t id : ids) operands.push_back(Operand(SPV_OPERAND_TYPE_ID, {id}));
  return std::make_unique<Instruction>(context, op, type, result, operands);
}

// Calls |f| on every branch-target operand of |terminator|.
template <typename F>
void ForEachTarget(Instruction* terminator, F f) {
  if (terminator == nullptr) return;
  switch (terminator->opcode()) {
    case spv::Op::OpBranch:
      f(terminator, 0u);
      break;
    case spv::Op::OpBranchConditional:
      f(terminator, 1u);
      f(terminator, 2u);
      break;
    case spv::Op::OpSwitch:  // selector, default, then (literal, label) pairs
      for (uint32_t i = 1; i < terminator->NumInOperands(); i += 2) f(terminator, i);
      break;
    default:
      break;
  }
}

}  // namespace

DebugLocation::DebugLocation(const Instruction* from) {
  if (from == nullptr || (from->dbg_line_insts().empty() &&
                          from->GetDebugScope().GetLexicalScope() == kNoDebugScope)) {
    return;
  }
  // A plain copy: the carrier is never part of the module, so no analysis
  // learns of it (ApplyTo makes the copies that are).
  auto carrier = std::make_shared<Instruction>(from->context(), spv::Op::OpNop);
  if (!from->dbg_line_insts().empty())
    carrier->dbg_line_insts().push_back(from->dbg_line_insts().back());
  carrier->SetDebugScope(from->GetDebugScope());
  carrier_ = std::move(carrier);
}

void DebugLocation::ApplyTo(Instruction* to) const {
  if (carrier_ != nullptr) to->UpdateDebugInfoFrom(carrier_.get());
}

BlockGraph::BlockGraph(spvtools::opt::IRContext* context, spvtools::opt::Function* function)
    : context_(context), function_(function) {
  for (auto it = function->begin(); it != function->end(); ++it) {
    blocks_.push_back(std::move(*it.Get()));
  }
  while (function->begin() != function->end()) function->begin().Erase();
  for (uint32_t n = 0; n < blocks_.size(); ++n) node_of_label_[blocks_[n]->id()] = n;
}

void BlockGraph::PutBack(const std::vector<uint32_t>& order) {
  std::vector<char> kept(blocks_.size(), 0);
  for (uint32_t n : order) kept[n] = 1;
  for (uint32_t n = 0; n < blocks_.size(); ++n) {
    if (kept[n]) continue;
    // A deleted block takes its names and decorations along.
    context_->KillNamesAndDecorates(blocks_[n]->id());
    blocks_[n]->ForEachInst([this](Instruction* inst) {
      if (inst->result_id() != 0) context_->KillNamesAndDecorates(inst->result_id());
    });
  }
  for (uint32_t n : order) {
    blocks_[n]->SetParent(function_);
    function_->AddBasicBlock(std::move(blocks_[n]));
  }
  blocks_.clear();
  node_of_label_.clear();
}

uint32_t BlockGraph::Node(uint32_t label) const {
  auto it = node_of_label_.find(label);
  return it == node_of_label_.end() ? kNone : it->second;
}

Instruction* BlockGraph::Terminator(uint32_t node) const {
  BasicBlock* b = blocks_[node].get();
  if (b->begin() == b->end()) return nullptr;
  Instruction* last = &*b->tail();
  return spvOpcodeIsBlockTerminator(last->opcode()) ? last : nullptr;
}

std::vector<uint32_t> BlockGraph::Successors(uint32_t node) const {
  std::vector<uint32_t> result;
  ForEachTarget(Terminator(node), [&](Instruction* t, uint32_t operand) {
    const uint32_t s = Node(t->GetSingleWordInOperand(operand));
    if (s != kNone && std::find(result.begin(), result.end(), s) == result.end()) {
      result.push_back(s);
    }
  });
  return result;
}

Cfg BlockGraph::ToCfg() const {
  Cfg cfg;
  cfg.successors.resize(size());
  for (uint32_t n = 0; n < size(); ++n) cfg.successors[n] = Successors(n);
  return cfg;
}

void BlockGraph::Retarget(uint32_t node, uint32_t from, uint32_t to) {
  RetargetLabel(node, label(from), label(to));
}

void BlockGraph::RetargetLabel(uint32_t node, uint32_t from_label, uint32_t to_label) {
  ForEachTarget(Terminator(node), [&](Instruction* t, uint32_t operand) {
    if (t->GetSingleWordInOperand(operand) == from_label) t->SetInOperand(operand, {to_label});
  });
}

void BlockGraph::ForEachLabelOperand(uint32_t node, const std::function<void(uint32_t*)>& f) {
  auto visit = [&](Instruction* inst, uint32_t operand) {
    uint32_t value = inst->GetSingleWordInOperand(operand);
    f(&value);
    inst->SetInOperand(operand, {value});
  };
  ForEachTarget(Terminator(node), visit);
  if (Instruction* merge = blocks_[node]->GetMergeInst()) {
    visit(merge, 0);
    if (merge->opcode() == spv::Op::OpLoopMerge) visit(merge, 1);
  }
}

uint32_t BlockGraph::TakeId() { return context_->TakeNextId(); }

uint32_t BlockGraph::NewBlock() {
  auto label = std::make_unique<Instruction>(context_, spv::Op::OpLabel, 0, TakeId(),
                                             Instruction::OperandList{});
  blocks_.push_back(std::make_unique<BasicBlock>(std::move(label)));
  blocks_.back()->SetParent(function_);
  const uint32_t node = size() - 1;
  node_of_label_[blocks_.back()->id()] = node;
  return node;
}

std::map<uint32_t, uint32_t> BlockGraph::CopyBlocks(const std::set<uint32_t>& nodes) {
  std::map<uint32_t, uint32_t> copy_of;
  for (uint32_t n : nodes) copy_of[n] = NewBlock();
  for (auto [original, copy] : copy_of) {
    std::unordered_map<uint32_t, uint32_t> fresh;  // the block's own values
    for (const Instruction& inst : *blocks_[original]) {
      std::unique_ptr<Instruction> clone(inst.Clone(context_));
      clone->ForEachInId([&](uint32_t* id) {
        auto it = fresh.find(*id);
        if (it != fresh.end()) *id = it->second;
      });
      if (inst.result_id() != 0) {
        const uint32_t id = TakeId();
        fresh[inst.result_id()] = id;
        clone->SetResultId(id);
        context_->get_decoration_mgr()->CloneDecorations(inst.result_id(), id);
      }
      blocks_[copy]->AddInstruction(std::move(clone));
    }
    ForEachLabelOperand(copy, [&](uint32_t* label) {
      auto target = copy_of.find(Node(*label));
      if (target != copy_of.end()) *label = blocks_[target->second]->id();
    });
  }
  return copy_of;
}

Instruction* BlockGraph::Add(uint32_t node, spv::Op op, uint32_t type, uint32_t result,
                             std::initializer_list<uint32_t> ids) {
  blocks_[node]->AddInstruction(MakeInstruction(context_, op, type, result, ids));
  location_.ApplyTo(&*blocks_[node]->tail());
  return &*blocks_[node]->tail();
}

Instruction* BlockGraph::Insert(uint32_t node, spv::Op op, uint32_t type, uint32_t result,
                                std::initializer_list<uint32_t> ids) {
  Instruction* before = Terminator(node);
  if (before == nullptr) return Add(node, op, type, result, ids);
  if (Instruction* merge = blocks_[node]->GetMergeInst()) before = merge;
  Instruction* inst = before->InsertBefore(MakeInstruction(context_, op, type, result, ids));
  location_.ApplyTo(inst);
  return inst;
}

void BlockGraph::AddBranch(uint32_t node, uint32_t target_node) {
  Add(node, spv::Op::OpBranch, 0, 0, {label(target_node)});
}

void BlockGraph::AddBranchToLabel(uint32_t node, uint32_t target_label) {
  Add(node, spv::Op::OpBranch, 0, 0, {target_label});
}

void BlockGraph::AddSelectionMerge(uint32_t node, uint32_t merge_label) {
  Instruction::OperandList operands{Operand(SPV_OPERAND_TYPE_ID, {merge_label}),
                                    Operand(SPV_OPERAND_TYPE_SELECTION_CONTROL, {0})};
  Instruction* terminator = Terminator(node);
  terminator->InsertBefore(
      std::make_unique<Instruction>(context_, spv::Op::OpSelectionMerge, 0, 0, operands));
  DebugLocation(terminator).ApplyTo(terminator->PreviousNode());
}

void BlockGraph::AddLoopMerge(uint32_t node, uint32_t merge_label, uint32_t continue_label) {
  Instruction::OperandList operands{Operand(SPV_OPERAND_TYPE_ID, {merge_label}),
                                    Operand(SPV_OPERAND_TYPE_ID, {continue_label}),
                                    Operand(SPV_OPERAND_TYPE_LOOP_CONTROL, {0})};
  Instruction* terminator = Terminator(node);
  terminator->InsertBefore(
      std::make_unique<Instruction>(context_, spv::Op::OpLoopMerge, 0, 0, operands));
  DebugLocation(terminator).ApplyTo(terminator->PreviousNode());
}

void BlockGraph::AddConditionalBranch(uint32_t node, uint32_t condition, uint32_t true_node,
                                      uint32_t false_node) {
  if (true_node == false_node) return AddBranch(node, true_node);
  Add(node, spv::Op::OpBranchConditional, 0, 0, {condition, label(true_node), label(false_node)});
}

uint32_t BlockGraph::AddIsOneOf(uint32_t node, uint32_t value,
                                const std::vector<uint32_t>& constants) {
  auto [known, fresh] = is_one_of_.emplace(std::make_tuple(node, value, constants), 0);
  if (!fresh) return known->second;
  uint32_t result = 0;
  for (uint32_t constant : constants) {
    const uint32_t is = TakeId();
    Add(node, spv::Op::OpIEqual, BoolType(), is, {value, UintConstant(constant)});
    if (result != 0) {
      const uint32_t either = TakeId();
      Add(node, spv::Op::OpLogicalOr, BoolType(), either, {result, is});
      result = either;
    } else {
      result = is;
    }
  }
  known->second = result;
  return result;
}

uint32_t BlockGraph::RemoveMergeInstruction(uint32_t node) {
  Instruction* merge = blocks_[node]->GetMergeInst();
  if (merge == nullptr) return kNone;
  const uint32_t named =
      merge->opcode() == spv::Op::OpSelectionMerge ? Node(merge->GetSingleWordInOperand(0)) : kNone;
  merge->RemoveFromList();
  delete merge;
  return named;
}

void BlockGraph::RemoveTerminator(uint32_t node) {
  Instruction* terminator = Terminator(node);
  if (terminator == nullptr) return;
  RemoveMergeInstruction(node);
  terminator->RemoveFromList();
  delete terminator;
}

void BlockGraph::SimplifyTerminator(uint32_t node) {
  Instruction* terminator = Terminator(node);
  if (terminator == nullptr || (terminator->opcode() != spv::Op::OpBranchConditional &&
                                terminator->opcode() != spv::Op::OpSwitch)) {
    return;
  }
  const std::vector<uint32_t> targets = Successors(node);
  if (targets.size() != 1) return;
  ScopedLocation at(this, terminator);
  RemoveTerminator(node);
  AddBranch(node, targets[0]);
}

uint32_t BlockGraph::BoolType() { return context_->get_type_mgr()->GetBoolTypeId(); }
uint32_t BlockGraph::UintType() { return context_->get_type_mgr()->GetUIntTypeId(); }
uint32_t BlockGraph::UintConstant(uint32_t value) {
  return context_->get_constant_mgr()->GetUIntConstId(value);
}

uint32_t BlockGraph::FunctionPointerType(uint32_t type) {
  // SPIRV-Tools 2023.1's type manager recurses without end when it rebuilds
  // a type that reaches itself through OpTypeForwardPointer (a buffer
  // reference to a struct that holds one), so such modules get their
  // pointer type without it: an existing one, else a new declaration (the
  // type manager is rebuilt from the module when next asked).
  bool forward_pointers = false;
  for (const Instruction& inst : context_->types_values()) {
    forward_pointers |= inst.opcode() == spv::Op::OpTypeForwardPointer;
  }
  if (!forward_pointers) {
    return context_->get_type_mgr()->FindPointerToType(type, spv::StorageClass::Function);
  }
  for (const Instruction& inst : context_->types_values()) {
    if (inst.opcode() == spv::Op::OpTypePointer &&
        inst.GetSingleWordInOperand(0) == uint32_t(spv::StorageClass::Function) &&
        inst.GetSingleWordInOperand(1) == type) {
      return inst.result_id();
    }
  }
  const uint32_t pointer = TakeId();
  context_->AddType(std::make_unique<Instruction>(
      context_, spv::Op::OpTypePointer, 0, pointer,
      Instruction::OperandList{
          Operand(SPV_OPERAND_TYPE_STORAGE_CLASS, {uint32_t(spv::StorageClass::Function)}),
          Operand(SPV_OPERAND_TYPE_ID, {type})}));
  context_->InvalidateAnalyses(spvtools::opt::IRContext::kAnalysisTypes);
  return pointer;
}

uint32_t BlockGraph::NewVariable(uint32_t type, uint32_t initializer) {
  const uint32_t pointer = FunctionPointerType(type);
  const uint32_t id = TakeId();
  Instruction::OperandList operands{
      Operand(SPV_OPERAND_TYPE_STORAGE_CLASS, {uint32_t(spv::StorageClass::Function)})};
  if (initializer != 0) operands.push_back(Operand(SPV_OPERAND_TYPE_ID, {initializer}));
  auto variable =
      std::make_unique<Instruction>(context_, spv::Op::OpVariable, pointer, id, operands);
  blocks_[0]->begin()->InsertBefore(std::move(variable));
  return id;
}

void EdgeStores::Materialize() {
  for (auto& [from, values] : stores_) {
    Instruction* terminator = graph_->Terminator(from);
    BlockGraph::ScopedLocation at(graph_, terminator);
    std::set<uint32_t> distinct;
    for (auto& [to, value] : values) distinct.insert(value);
    if (distinct.size() == 1 || terminator->opcode() == spv::Op::OpBranch) {
      graph_->Insert(from, spv::Op::OpStore, 0, 0, {variable_, *distinct.begin()});
    } else if (terminator->opcode() == spv::Op::OpBranchConditional) {
      const uint32_t t = graph_->Node(terminator->GetSingleWordInOperand(1));
      const uint32_t f = graph_->Node(terminator->GetSingleWordInOperand(2));
      const uint32_t condition = terminator->GetSingleWordInOperand(0);
      const uint32_t value = graph_->TakeId();
      graph_->Insert(from, spv::Op::OpSelect, type_, value,
                     {condition, values.at(t), values.at(f)});
      graph_->Insert(from, spv::Op::OpStore, 0, 0, {variable_, value});
    } else {  // OpSwitch with different values: one edge block per target
      for (auto& [to, value] : values) {
        const uint32_t edge = graph_->NewBlock();
        graph_->Add(edge, spv::Op::OpStore, 0, 0, {variable_, value});
        graph_->AddBranch(edge, to);
        graph_->Retarget(from, to, edge);
      }
    }
  }
  stores_.clear();
}

}  // namespace structurize
}  // namespace spirv_conv
