// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/ir_tables.h"

#include <algorithm>
#include <limits>

namespace spirv_conv {
namespace analysis {

using spvtools::opt::BasicBlock;
using spvtools::opt::Instruction;

BlockTable::BlockTable(spvtools::opt::IRContext& context, const ModuleIndex& index)
    : index_(index), by_id_(context.module()->IdBound()) {
  uint32_t position = 0;
  auto place = [&](uint32_t id, const Place& where) {
    if (id < by_id_.size()) by_id_[id] = where;
  };
  for (const spvtools::opt::Function& function : *context.module()) {
    for (const auto& block : function) {
      const auto b = static_cast<uint32_t>(blocks_.size());
      blocks_.push_back(&block);
      place(block.id(), {b, position++, 0});
      uint32_t calls = 0;
      for (const Instruction& inst : block) {
        const Place where{b, position++, calls};
        if (inst.result_id() != 0) {
          place(inst.result_id(), where);
        } else if (&inst == &*block.cbegin()) {
          first_.emplace(&inst, where);
        }
        calls += inst.opcode() == spv::Op::OpFunctionCall;
      }
    }
  }
}

BlockTable::Place BlockTable::Find(const Instruction& inst) const {
  // Back to the nearest instruction with a result (or the first of the
  // block): no calls in between, |steps| instructions further on.
  uint32_t steps = 0;
  for (const Instruction* i = &inst; i != nullptr; ++steps) {
    if (const uint32_t id = i->result_id()) {
      Place where = id < by_id_.size() ? by_id_[id] : Place{};
      if (where.block == kNoBlock || steps == 0) return where;
      where.position += steps;
      where.calls_before += i->opcode() == spv::Op::OpFunctionCall;
      return where;
    }
    auto first = first_.find(i);
    if (first != first_.end()) {
      Place where = first->second;
      where.position += steps;
      return where;
    }
    i = i->IsInAList() ? i->PreviousNode() : nullptr;
  }
  return Place{};
}

const BasicBlock* BlockTable::Of(const Instruction& inst) const {
  const Place where = Find(inst);
  return where.block == kNoBlock ? nullptr : blocks_[where.block];
}

const BasicBlock* BlockTable::OfLabel(uint32_t label) const {
  const Instruction* def = index_.Def(label);
  return def == nullptr || def->opcode() != spv::Op::OpLabel ? nullptr : Of(*def);
}

uint32_t BlockTable::FunctionOf(const Instruction& inst) const {
  const BasicBlock* block = Of(inst);
  return block == nullptr ? 0 : block->GetParent()->result_id();
}

size_t BlockTable::Position(const Instruction& inst) const {
  const Place where = Find(inst);
  return where.block == kNoBlock ? std::numeric_limits<size_t>::max() : where.position;
}

uint32_t BlockTable::CallsBefore(const Instruction& inst) const { return Find(inst).calls_before; }

std::vector<ConvergentInstruction> FindConvergentInstructions(spvtools::opt::IRContext& context) {
  std::vector<ConvergentInstruction> found;
  for (const spvtools::opt::Function& function : *context.module()) {
    for (const auto& block : function) {
      for (const Instruction& inst : block) {
        const ConvergenceClass cls = ClassifyConvergence(inst);
        if (cls.flags != 0) found.push_back({&inst, &block, cls});
      }
    }
  }
  return found;
}

UseTable::Range UseTable::UsesOf(uint32_t id) const {
  if (!built_) Build();
  if (id + 1 >= start_.size()) return {nullptr, nullptr};
  return {uses_.data() + start_[id], uses_.data() + start_[id + 1]};
}

void UseTable::Build() const {
  built_ = true;
  const uint32_t bound = context_.module()->IdBound();
  // One walk over the module lists every use, then a counting sort by id
  // lays them out in module order. (A second walk over SPIRV-Tools'
  // instruction lists, to count first, cost more than keeping the list.)
  std::vector<uint32_t> used_ids;
  std::vector<Use> found;
  used_ids.reserve(2 * static_cast<size_t>(bound));
  found.reserve(2 * static_cast<size_t>(bound));
  static_cast<const spvtools::opt::Module*>(context_.module())
      ->ForEachInst([&](const Instruction* inst) {
        const uint32_t skipped = inst->NumOperands() - inst->NumInOperands();
        for (uint32_t i = skipped; i < inst->NumOperands(); ++i) {
          const spvtools::opt::Operand& operand = inst->GetOperand(i);
          if (spvIsInIdType(operand.type) && operand.words[0] < bound) {
            used_ids.push_back(operand.words[0]);
            found.push_back(Use{inst, i - skipped});
          }
        }
      });
  start_.assign(static_cast<size_t>(bound) + 1, 0);
  for (uint32_t id : used_ids) ++start_[id + 1];
  for (size_t i = 1; i < start_.size(); ++i) start_[i] += start_[i - 1];
  uses_.resize(found.size());
  std::vector<uint32_t> next(start_.begin(), start_.end() - 1);
  for (size_t i = 0; i < found.size(); ++i) uses_[next[used_ids[i]]++] = found[i];
}

}  // namespace analysis
}  // namespace spirv_conv
