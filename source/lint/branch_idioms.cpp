// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lint/branch_idioms.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "analysis/convergence_classes.h"
#include "source/opcode.h"

namespace spirv_conv {
namespace lint {

using spv::Op;
using spvtools::opt::BasicBlock;
using spvtools::opt::Instruction;

namespace {

// Larger selections are not looked into (they are not counted as idioms).
constexpr size_t kMaxSelectionBlocks = 256;

bool IsEquality(Op opcode) {
  switch (opcode) {
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpFOrdEqual:
    case Op::OpFOrdNotEqual:
    case Op::OpFUnordEqual:
    case Op::OpFUnordNotEqual:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
      return true;
    default:
      return false;
  }
}

// The value operand of a broadcast of the first active invocation, or 0.
uint32_t FirstActiveValue(const Instruction* inst) {
  if (inst == nullptr) return 0;
  if (inst->opcode() == Op::OpGroupNonUniformBroadcastFirst && inst->NumInOperands() == 2) {
    return inst->GetSingleWordInOperand(1);
  }
  if (inst->opcode() == Op::OpSubgroupFirstInvocationKHR && inst->NumInOperands() == 1) {
    return inst->GetSingleWordInOperand(0);
  }
  return 0;
}

// An idempotent reduction (min, max, and, or) over the active invocations,
// with GroupOperation Reduce.
bool IsIdempotentReduction(const Instruction* inst) {
  return inst != nullptr && inst->NumInOperands() == 3 &&
         analysis::GroupArithmeticOf(inst->opcode()).Idempotent() &&
         inst->GetSingleWordInOperand(1) == static_cast<uint32_t>(spv::GroupOperation::Reduce);
}

bool IsElect(const Instruction* inst) {
  return inst != nullptr && inst->opcode() == Op::OpGroupNonUniformElect;
}

}  // namespace

std::optional<std::vector<const Instruction*>> PlainLocalStores(const analysis::ModuleIndex& index,
                                                                const analysis::UseTable& uses,
                                                                uint32_t pointer) {
  const Instruction* variable = index.Def(pointer);
  if (variable == nullptr || variable->opcode() != Op::OpVariable ||
      variable->GetSingleWordInOperand(0) != static_cast<uint32_t>(spv::StorageClass::Function)) {
    return std::nullopt;
  }
  std::vector<const Instruction*> stores;
  for (const analysis::UseTable::Use& use : uses.UsesOf(pointer)) {
    const Op opcode = use.user->opcode();
    if (opcode == Op::OpStore && use.operand == 0) {
      stores.push_back(use.user);
    } else if (!(opcode == Op::OpLoad && use.operand == 0) && !spvOpcodeIsDebug(opcode) &&
               !spvOpcodeIsDecoration(opcode) && !use.user->IsNonSemanticInstruction()) {
      return std::nullopt;  // passed to a call, chained into, copied
    }
  }
  return stores;
}

BranchIdiom BranchIdioms::Of(const BasicBlock& block) const {
  auto known = idioms_.find(block.id());
  if (known != idioms_.end()) return known->second;
  BranchIdiom idiom = BranchIdiom::kNone;
  const Instruction& terminator = *block.ctail();
  if (TestsFirstActiveInvocation(terminator)) {
    idiom = BranchIdiom::kFirstActiveTest;
  } else if (IsSelectionWithoutEffects(block)) {
    idiom = BranchIdiom::kSelectionWithoutEffects;
  }
  idioms_.emplace(block.id(), idiom);
  return idiom;
}

bool BranchIdioms::TestsFirstActiveInvocation(const Instruction& branch) const {
  if (branch.opcode() != Op::OpBranchConditional) return false;
  const Instruction* condition = index_.Def(Origin(branch.GetSingleWordInOperand(0)));
  // `!subgroupElect()` splits the invocations the same way.
  if (condition != nullptr && condition->opcode() == Op::OpLogicalNot) {
    condition = index_.Def(Origin(condition->GetSingleWordInOperand(0)));
  }
  return IsElect(condition) || IsFirstActiveTest(condition);
}

bool BranchIdioms::IsFirstActiveTest(const Instruction* equality) const {
  if (equality == nullptr || !IsEquality(equality->opcode())) return false;
  const uint32_t a = Origin(equality->GetSingleWordInOperand(0));
  const uint32_t b = Origin(equality->GetSingleWordInOperand(1));
  const uint32_t first_of_a = FirstActiveValue(index_.Def(a));
  const uint32_t first_of_b = FirstActiveValue(index_.Def(b));
  return (first_of_a != 0 && SameValue(first_of_a, b)) ||
         (first_of_b != 0 && SameValue(first_of_b, a));
}

bool BranchIdioms::SameValue(uint32_t a, uint32_t b) const {
  a = Origin(a);
  b = Origin(b);
  if (a == b) return true;
  const Instruction* load_a = index_.Def(a);
  const Instruction* load_b = index_.Def(b);
  if (load_a == nullptr || load_b == nullptr || load_a->opcode() != Op::OpLoad ||
      load_b->opcode() != Op::OpLoad) {
    return false;
  }
  const uint32_t pointer = load_a->GetSingleWordInOperand(0);
  // Chained into or passed on, the variable may be written anywhere.
  if (pointer != load_b->GetSingleWordInOperand(0) || !PlainLocalStores(pointer)) return false;
  const BasicBlock* block = blocks_.Of(*load_a);
  if (block == nullptr || block != blocks_.Of(*load_b)) return false;
  bool between = false;
  for (const Instruction& inst : *block) {
    const bool endpoint = &inst == load_a || &inst == load_b;
    if (endpoint && between) return true;
    if (endpoint) between = true;
    if (between && inst.opcode() == Op::OpStore && inst.GetSingleWordInOperand(0) == pointer) {
      return false;
    }
  }
  return false;
}

bool BranchIdioms::IsSetAgnostic(const Instruction& inst) const {
  if (const uint32_t value = FirstActiveValue(&inst)) {
    return IsIdempotentReduction(index_.Def(value)) || ComparedWithItsValue(inst);
  }
  if (IsBallotOfFirstActiveTest(inst)) return true;
  if (!IsIdempotentReduction(&inst)) return false;
  bool used = false;
  for (const analysis::UseTable::Use& use : uses_.UsesOf(inst.result_id())) {
    if (spvOpcodeIsDebug(use.user->opcode()) || use.user->IsNonSemanticInstruction()) continue;
    if (FirstActiveValue(use.user) != inst.result_id()) return false;
    used = true;
  }
  return used;
}

bool BranchIdioms::ComparedWithItsValue(const Instruction& first) const {
  const uint32_t value = FirstActiveValue(&first);
  // The ids holding the broadcast's result: copies, and loads of a Function
  // variable it is the only value stored to.
  std::vector<uint32_t> holders{first.result_id()};
  for (size_t i = 0; i < holders.size() && i < 64; ++i) {
    for (const analysis::UseTable::Use& use : uses_.UsesOf(holders[i])) {
      const Instruction& user = *use.user;
      if (user.opcode() == Op::OpCopyObject) {
        holders.push_back(user.result_id());
      } else if (user.opcode() == Op::OpStore && use.operand == 1) {
        const uint32_t pointer = user.GetSingleWordInOperand(0);
        if (OnlyStoredValue(pointer) != holders[i]) continue;
        for (const analysis::UseTable::Use& load : uses_.UsesOf(pointer)) {
          if (load.user->opcode() == Op::OpLoad) holders.push_back(load.user->result_id());
        }
      } else if (IsEquality(user.opcode())) {
        const uint32_t other = user.GetSingleWordInOperand(use.operand == 0 ? 1 : 0);
        if (SameValue(other, value)) return true;
      }
    }
  }
  return false;
}

bool BranchIdioms::IsBallotOfFirstActiveTest(const Instruction& inst) const {
  if (inst.opcode() != Op::OpGroupNonUniformBallot || inst.NumInOperands() != 2) return false;
  return IsFirstActiveTest(index_.Def(Origin(inst.GetSingleWordInOperand(1))));
}

bool BranchIdioms::IsSelectionWithoutEffects(const BasicBlock& header) const {
  const uint32_t merge = header.MergeBlockIdIfAny();
  const Instruction* merge_inst = header.GetMergeInst();
  if (merge == 0 || merge_inst == nullptr || merge_inst->opcode() != Op::OpSelectionMerge) {
    return false;
  }
  // The blocks from the header's successors up to the merge. A path that
  // leaves the construct otherwise (a break, a continue, a return) meets a
  // loop header, a return or the end of the invocation before it could come
  // back, and those are effects.
  std::vector<uint32_t> work;
  std::vector<uint32_t> seen;
  header.ForEachSuccessorLabel([&](uint32_t label) { work.push_back(label); });
  while (!work.empty()) {
    const uint32_t label = work.back();
    work.pop_back();
    if (label == merge || std::find(seen.begin(), seen.end(), label) != seen.end()) continue;
    seen.push_back(label);
    const BasicBlock* block = blocks_.OfLabel(label);
    if (block == nullptr || seen.size() > kMaxSelectionBlocks) return false;
    for (const Instruction& inst : *block) {
      if (!HasNoEffect(inst)) return false;
    }
    block->ForEachSuccessorLabel([&](uint32_t successor) { work.push_back(successor); });
  }
  return true;
}

bool BranchIdioms::HasNoEffect(const Instruction& inst) const {
  switch (inst.opcode()) {
    case Op::OpLabel:
    case Op::OpSelectionMerge:
    case Op::OpBranch:
    case Op::OpBranchConditional:
    case Op::OpSwitch:
    case Op::OpLine:
    case Op::OpNoLine:
      return true;
    case Op::OpStore: {
      // Into the function's own memory: only this invocation sees it.
      const Instruction* type = index_.TypeOf(inst.GetSingleWordInOperand(0));
      return type != nullptr && type->opcode() == Op::OpTypePointer &&
             type->GetSingleWordInOperand(0) == static_cast<uint32_t>(spv::StorageClass::Function);
    }
    case Op::OpExtInst: {
      const Instruction* set = index_.Def(inst.GetSingleWordInOperand(0));
      if (set != nullptr &&
          set->GetInOperand(0).AsString().rfind("NonSemantic.Shader.DebugInfo", 0) == 0) {
        return true;
      }
      break;
    }
    default:
      break;
  }
  // Pure instructions (SPIRV-Tools' combinators: arithmetic, loads, access
  // chains, selects, the listed GLSL.std.450 functions), unless tangled
  // (implicit-LOD sampling is a combinator too).
  return context_.IsCombinatorInstruction(&inst) && analysis::ClassifyConvergence(inst).flags == 0;
}

uint32_t BranchIdioms::Origin(uint32_t id) const {
  // A chain of copies and variables is short; the bound only guards cycles.
  for (int step = 0; step < 16; ++step) {
    const Instruction* def = index_.Def(id);
    if (def == nullptr) return id;
    uint32_t next = 0;
    if (def->opcode() == Op::OpCopyObject) {
      next = def->GetSingleWordInOperand(0);
    } else if (def->opcode() == Op::OpLoad) {
      next = OnlyStoredValue(def->GetSingleWordInOperand(0));
    }
    if (next == 0) return id;
    id = next;
  }
  return id;
}

std::optional<std::vector<uint32_t>> BranchIdioms::PlainLocalStores(uint32_t pointer) const {
  const auto stores = lint::PlainLocalStores(index_, uses_, pointer);
  if (!stores) return std::nullopt;
  std::vector<uint32_t> stored;
  for (const Instruction* store : *stores) stored.push_back(store->GetSingleWordInOperand(1));
  return stored;
}

uint32_t BranchIdioms::OnlyStoredValue(uint32_t pointer) const {
  const std::optional<std::vector<uint32_t>> stored = PlainLocalStores(pointer);
  return stored && stored->size() == 1 ? stored->front() : 0;
}

}  // namespace lint
}  // namespace spirv_conv
