// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/module_index.h"

#include <algorithm>
#include <iterator>

namespace spirv_conv {
namespace analysis {

using spvtools::opt::Instruction;

namespace {

bool IsWholeDecoration(spv::Op op) {
  return op == spv::Op::OpDecorate || op == spv::Op::OpDecorateId ||
         op == spv::Op::OpDecorateString;
}

// Function has no size(); its block iterators are random access.
size_t BlockCount(const spvtools::opt::Function& function) {
  return static_cast<size_t>(function.end() - function.begin());
}

}  // namespace

void FunctionBody::Reserve(size_t blocks, size_t row_count) {
  rows.reserve(row_count);
  // Most instructions name one to three ids (a phi two per predecessor).
  in_ids.Reserve(row_count, 3 * row_count);
  block_start.reserve(blocks + 1);
}

void FunctionBody::Add(Instruction* inst, uint32_t result_id) {
  AddRow(inst, inst->opcode(), result_id, InOperandsBegin(*inst));
}

void FunctionBody::AddRow(Instruction* inst, spv::Op opcode, uint32_t result_id,
                          Instruction::const_iterator in_operands) {
  if (opcode == spv::Op::OpLabel) {
    block_start.push_back(static_cast<uint32_t>(rows.size()));
  } else if (result_id != 0) {
    ++values;
  }
  rows.push_back({inst, opcode, result_id});
  in_ids.StartList();
  ForEachIdFrom(*inst, in_operands, [&](uint32_t id) { in_ids.Add(id); });
}

void FunctionBody::Finish() {
  block_start.push_back(static_cast<uint32_t>(rows.size()));
  in_ids.Finish();
}

namespace {

// Calls |f(inst)| for each block's OpLabel and then its instructions, in
// order: what a FunctionBody holds.
template <typename F>
void ForEachBlockInstruction(spvtools::opt::Function& function, F&& f) {
  for (spvtools::opt::BasicBlock& block : function) {
    f(block.GetLabelInst());
    for (Instruction& inst : block) f(&inst);
  }
}

}  // namespace

FunctionBody RecordFunctionBody(spvtools::opt::Function& function) {
  FunctionBody body;
  ForEachBlockInstruction(function, [&](Instruction* inst) { body.Add(inst, ResultIdOf(*inst)); });
  body.Finish();
  return body;
}

ModuleIndex::ModuleIndex(spvtools::opt::IRContext* context, bool record_bodies)
    : context_(context) {
  spvtools::opt::Module& module = *context->module();
  defs_.assign(module.IdBound(), nullptr);
  flags_.assign(module.IdBound(), 0);
  // Types precede their values, so a value's type is classified by the time
  // the value is seen; OpTypeForwardPointer names a pointer type declared
  // after it.
  std::vector<char> pointer_type(module.IdBound(), 0);
  size_t ids_seen = 0;    // result ids visited so far
  uint32_t function = 0;  // the function whose body the walk is in
  // Returns the result id. With |body|, also appends the instruction's row
  // to it: one read of the instruction's operands serves both, the result
  // type and id read on the way to the first "in" operand (where
  // InOperandsBegin points; calling it and ResultIdOf/TypeIdOf instead reads
  // the operands again for each).
  auto visit = [&](const Instruction& inst, FunctionBody* body) {
    auto operand = inst.cbegin();
    const uint32_t type = inst.HasResultType() ? (operand++)->words[0] : 0;
    const uint32_t id = inst.HasResultId() ? (operand++)->words[0] : 0;
    if (id != 0 && id < defs_.size()) {
      defs_[id] = const_cast<Instruction*>(&inst);
      ++ids_seen;
    }
    const spv::Op op = inst.opcode();
    if (op == spv::Op::OpFunction) {
      function = id;
    } else if (op == spv::Op::OpFunctionCall) {
      calls_.emplace_back(function, InOperandWord(inst, 0));
    } else if (op == spv::Op::OpKill || op == spv::Op::OpTerminateInvocation) {
      if (killing_functions_.empty() || killing_functions_.back() != function) {
        killing_functions_.push_back(function);
      }
    }
    if (op == spv::Op::OpTypePointer && id < pointer_type.size()) {
      pointer_type[id] = 1;
    } else if (op == spv::Op::OpTypeForwardPointer) {
      const uint32_t pointer = InOperandWord(inst, 0);
      if (pointer < pointer_type.size()) pointer_type[pointer] = 1;
    }
    if (id != 0 && id < flags_.size()) {
      if (type < pointer_type.size() && pointer_type[type]) flags_[id] |= kPointerFlag;
      if (op == spv::Op::OpUndef) flags_[id] |= kUndefFlag;
    }
    if (body != nullptr) body->AddRow(const_cast<Instruction*>(&inst), op, id, operand);
    return id;
  };
  // What Module::ForEachInst visits (debug line instructions aside), in its
  // order, with plain loops: its std::function calls, three deep for each
  // instruction of a function, would cost more than the walk's work. The
  // sections before the functions that are left out (capabilities,
  // extensions, memory model, entry points, execution modes) define no ids.
  bool non_semantic = false;  // instructions of a NonSemantic set trail the functions
  for (const Instruction& inst : module.ext_inst_imports()) {
    visit(inst, nullptr);
    non_semantic |= inst.GetInOperand(0).AsString().rfind("NonSemantic.", 0) == 0;
  }
  for (const Instruction& inst : module.debugs1()) visit(inst, nullptr);
  for (const Instruction& inst : module.debugs2()) visit(inst, nullptr);
  for (const Instruction& inst : module.debugs3()) visit(inst, nullptr);
  for (const Instruction& inst : module.ext_inst_debuginfo()) visit(inst, nullptr);
  for (const Instruction& inst : module.annotations()) visit(inst, nullptr);
  for (const Instruction& inst : module.types_values()) visit(inst, nullptr);
  // Each body's rows, estimated before it is walked: the result ids the
  // sections above left over (an upper bound on the functions' values and
  // labels, when ids are dense) shared out by block count, plus the
  // instructions without a result (a terminator per block, stores, ...).
  size_t blocks_in_all = 0;
  if (record_bodies) {
    for (const spvtools::opt::Function& f : module) blocks_in_all += BlockCount(f);
    bodies_.reserve(std::distance(module.begin(), module.end()));
  }
  const size_t ids_left = module.IdBound() > ids_seen ? module.IdBound() - ids_seen : 0;
  for (spvtools::opt::Function& f : module) {
    FunctionBody* body = nullptr;
    if (record_bodies) {
      body_of_.emplace(&f, bodies_.size());
      body = &bodies_.emplace_back();
      const size_t blocks = BlockCount(f);
      body->Reserve(blocks,
                    (blocks_in_all == 0 ? 0 : ids_left * blocks / blocks_in_all) + 3 * blocks);
    }
    if (non_semantic) {
      // Function keeps the NonSemantic instructions after its end in a list
      // of its own with no accessor: ForEachInst visits them last. The rows
      // run from the first OpLabel to OpFunctionEnd.
      bool in_blocks = false;
      f.ForEachInst(
          [&](Instruction* inst) {
            const uint32_t id = visit(*inst, nullptr);
            if (inst->opcode() == spv::Op::OpLabel) in_blocks = true;
            if (inst->opcode() == spv::Op::OpFunctionEnd) in_blocks = false;
            if (in_blocks && body != nullptr) body->Add(inst, id);
          },
          /*run_on_debug_line_insts=*/false, /*run_on_non_semantic_insts=*/true);
    } else {
      visit(f.DefInst(), nullptr);
      f.ForEachParam([&](Instruction* param) { visit(*param, nullptr); });
      f.ForEachDebugInstructionsInHeader([&](Instruction* inst) { visit(*inst, nullptr); });
      ForEachBlockInstruction(f, [&](Instruction* inst) { visit(*inst, body); });
      if (f.EndInst() != nullptr) visit(*f.EndInst(), nullptr);
    }
    if (body != nullptr) body->Finish();
  }

  // (target, decoration) pairs; a group's decorations are handed to each
  // target of its OpGroupDecorate. OpGroupMemberDecorate is not expanded:
  // a member decoration the analysis misses only makes it more conservative
  // (NonWritable members are the only ones it reads).
  std::vector<std::pair<uint32_t, const Instruction*>> pairs;
  std::vector<std::pair<uint32_t, uint32_t>> group_targets;  // (group, target)
  for (const Instruction& d : module.annotations()) {
    const spv::Op op = d.opcode();
    if (IsWholeDecoration(op) || op == spv::Op::OpMemberDecorate) {
      pairs.emplace_back(d.GetSingleWordInOperand(0), &d);
    } else if (op == spv::Op::OpGroupDecorate) {
      for (uint32_t i = 1; i < d.NumInOperands(); ++i) {
        group_targets.emplace_back(d.GetSingleWordInOperand(0), d.GetSingleWordInOperand(i));
      }
    }
  }
  if (!group_targets.empty()) {
    std::vector<std::pair<uint32_t, const Instruction*>> by_group = pairs;
    std::sort(by_group.begin(), by_group.end());
    for (const auto& [group, target] : group_targets) {
      auto it = std::lower_bound(by_group.begin(), by_group.end(),
                                 std::make_pair(group, static_cast<const Instruction*>(nullptr)));
      for (; it != by_group.end() && it->first == group; ++it)
        pairs.emplace_back(target, it->second);
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [target, d] : pairs) {
    if (decorations_.empty() || decorations_.back().first != target) {
      decorations_.emplace_back(target, std::vector<const Instruction*>{});
    }
    decorations_.back().second.push_back(d);
    if (target < flags_.size()) flags_[target] |= kDecoratedFlag;
  }
}

const FunctionBody* ModuleIndex::Body(const spvtools::opt::Function* function) const {
  auto it = body_of_.find(function);
  return it == body_of_.end() ? nullptr : &bodies_[it->second];
}

const Instruction* ModuleIndex::TypeOf(uint32_t id) const {
  const Instruction* def = Def(id);
  return def == nullptr || def->type_id() == 0 ? nullptr : Def(def->type_id());
}

const std::vector<const Instruction*>& ModuleIndex::Decorations(uint32_t id) const {
  static const std::vector<const Instruction*> kNone;
  if (!MayBeDecorated(id)) return kNone;
  auto it = std::lower_bound(decorations_.begin(), decorations_.end(), id,
                             [](const auto& entry, uint32_t key) { return entry.first < key; });
  return it == decorations_.end() || it->first != id ? kNone : it->second;
}

bool ModuleIndex::HasDecoration(uint32_t id, spv::Decoration decoration) const {
  for (const Instruction* d : Decorations(id)) {
    if (IsWholeDecoration(d->opcode()) && d->GetSingleWordInOperand(1) == uint32_t(decoration)) {
      return true;
    }
  }
  return false;
}

bool ModuleIndex::HasDecoration(uint32_t id, spv::Decoration decoration,
                                uint32_t first_operand) const {
  for (const Instruction* d : Decorations(id)) {
    if (IsWholeDecoration(d->opcode()) && d->GetSingleWordInOperand(1) == uint32_t(decoration) &&
        d->NumInOperands() > 2 && d->GetSingleWordInOperand(2) == first_operand) {
      return true;
    }
  }
  return false;
}

bool ModuleIndex::DecorationOperand(uint32_t id, spv::Decoration decoration,
                                    uint32_t* operand) const {
  for (const Instruction* d : Decorations(id)) {
    if (IsWholeDecoration(d->opcode()) && d->GetSingleWordInOperand(1) == uint32_t(decoration) &&
        d->NumInOperands() > 2) {
      *operand = d->GetSingleWordInOperand(2);
      return true;
    }
  }
  return false;
}

bool ModuleIndex::IntegerConstant(uint32_t id, uint64_t* value) const {
  const Instruction* def = Def(id);
  if (def == nullptr) return false;
  const Instruction* type = Def(def->type_id());
  if (type == nullptr || type->opcode() != spv::Op::OpTypeInt) return false;
  if (def->opcode() == spv::Op::OpConstantNull) {
    *value = 0;
    return true;
  }
  if (def->opcode() != spv::Op::OpConstant) return false;
  const uint32_t width = type->GetSingleWordInOperand(0);
  const auto& words = def->GetInOperand(0).words;
  if (width > 64 || words.empty()) return false;
  uint64_t v = words[0];
  if (width > 32 && words.size() > 1) v |= uint64_t{words[1]} << 32;
  if (width < 32) v &= (uint64_t{1} << width) - 1;  // literal is sign-extended for signed types
  *value = v;
  return true;
}

}  // namespace analysis
}  // namespace spirv_conv
