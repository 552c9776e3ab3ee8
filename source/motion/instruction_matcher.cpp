// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "motion/instruction_matcher.h"

#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

namespace spirv_conv {
namespace motion {
namespace {

using spvtools::opt::Instruction;

// The deepest structural comparison, and the weakest match accepted: the
// same opcode, result type and literal operands (every id a wildcard).
constexpr int kDeepest = 3;
constexpr int kWeakest = -1;

bool Matchable(const Instruction& inst) {
  switch (inst.opcode()) {
    case spv::Op::OpLabel:
    case spv::Op::OpFunction:
    case spv::Op::OpFunctionEnd:
    case spv::Op::OpLine:
    case spv::Op::OpNoLine:
      return false;
    default:
      return true;
  }
}

// Calls |visit| with every matchable instruction of |context|'s functions,
// its function's id and its position among those of its depth-1 key there.
template <typename Visit>
void ForEachBodyInstruction(spvtools::opt::IRContext& context, Visit visit) {
  for (spvtools::opt::Function& function : *context.module()) {
    const uint32_t function_id = function.result_id();
    function.ForEachInst(
        [&](Instruction* inst) {
          if (Matchable(*inst)) visit(*inst, function_id);
        },
        /*run_for_debug_line_insts=*/false);
  }
}

// Function id -> itself and every function it calls, transitively.
std::unordered_map<uint32_t, std::unordered_set<uint32_t>> CallClosure(
    spvtools::opt::IRContext& context) {
  std::unordered_map<uint32_t, std::vector<uint32_t>> callees;
  for (spvtools::opt::Function& function : *context.module()) {
    std::vector<uint32_t>& called = callees[function.result_id()];
    function.ForEachInst([&called](Instruction* inst) {
      if (inst->opcode() == spv::Op::OpFunctionCall) {
        called.push_back(inst->GetSingleWordInOperand(0));
      }
    });
  }
  std::unordered_map<uint32_t, std::unordered_set<uint32_t>> closure;
  for (const auto& entry : callees) {
    std::unordered_set<uint32_t>& runs = closure[entry.first];
    std::vector<uint32_t> work = {entry.first};
    while (!work.empty()) {
      const uint32_t f = work.back();
      work.pop_back();
      if (!runs.insert(f).second) continue;
      auto found = callees.find(f);
      if (found != callees.end())
        work.insert(work.end(), found->second.begin(), found->second.end());
    }
  }
  return closure;
}

}  // namespace

InstructionMatcher::InstructionMatcher(StructuralKeys& before, StructuralKeys& after,
                                       spvtools::opt::IRContext& before_context,
                                       spvtools::opt::IRContext& after_context,
                                       const std::function<bool(const Instruction&)>& wanted,
                                       const std::function<bool(uint32_t)>& runs_before)
    : before_(before),
      after_(after),
      before_runs_in_(CallClosure(before_context)),
      after_runs_in_(CallClosure(after_context)) {
  auto indexer = [](StructuralKeys& keys,
                    std::unordered_map<std::string, std::vector<Candidate>>* index) {
    return [&keys, index](const Instruction& inst, uint32_t function) {
      std::vector<Candidate>& list = (*index)[keys.Local(inst, kWeakest)];
      uint32_t position = 0;
      for (const Candidate& other : list) position += other.function == function ? 1 : 0;
      list.push_back({&inst, function, position});
    };
  };
  ForEachBodyInstruction(before_context, indexer(before_, &before_by_key_));
  ForEachBodyInstruction(after_context, indexer(after_, &after_by_key_));
  ForEachBodyInstruction(before_context, [this](const Instruction& inst, uint32_t) {
    if (inst.HasResultId()) before_defs_[inst.result_id()] = &inst;
  });
  MatchAfter(after_context, wanted);
  FindMerges(before_context, wanted, runs_before);
}

void InstructionMatcher::MatchAfter(spvtools::opt::IRContext& after_context,
                                    const std::function<bool(const Instruction&)>& wanted) {
  // Structural matching is for the checked instructions and for the branch
  // conditions (BeforeId maps AFTER's branches to BEFORE's); other values
  // only need their id, and matching all of them is quadratic in the number
  // of look-alikes (every OpFAdd of a float) after inlining renumbers them.
  std::unordered_set<uint32_t> conditions;
  for (spvtools::opt::Function& function : *after_context.module()) {
    for (spvtools::opt::BasicBlock& block : function) {
      const Instruction* terminator = block.terminator();
      if (terminator->opcode() == spv::Op::OpBranchConditional ||
          terminator->opcode() == spv::Op::OpSwitch) {
        conditions.insert(terminator->GetSingleWordInOperand(0));
      }
    }
  }
  std::unordered_map<std::string, uint32_t> positions;  // per function and key
  ForEachBodyInstruction(after_context, [&](const Instruction& inst, uint32_t function) {
    const uint32_t position =
        positions[std::to_string(function) + "/" + after_.Local(inst, kWeakest)]++;
    std::vector<Origin>& origins = origins_[&inst];
    if (inst.HasResultId()) after_defs_[inst.result_id()] = &inst;
    if (inst.HasResultId()) {
      auto same = before_defs_.find(inst.result_id());
      if (same != before_defs_.end() && same->second->opcode() == inst.opcode() &&
          (inst.type_id() == 0 ||
           before_.Global(same->second->type_id()) == after_.Global(inst.type_id()))) {
        origins.push_back({same->second, MatchKind::kId});
      }
    } else if (!wanted(inst)) {
      return;
    }
    if (origins.empty() && (wanted(inst) || conditions.count(inst.result_id()))) {
      for (const Instruction* candidate :
           Best(after_, inst, function, position, &before_by_key_, before_, before_runs_in_)) {
        origins.push_back({candidate, MatchKind::kStructural});
      }
    }
    for (const Origin& origin : origins) before_has_image_[origin.before] = true;
    if (inst.HasResultId() && !origins.empty()) {
      before_ids_[inst.result_id()] = origins.front().before->result_id();
    }
  });
}

void InstructionMatcher::FindMerges(spvtools::opt::IRContext& before_context,
                                    const std::function<bool(const Instruction&)>& wanted,
                                    const std::function<bool(uint32_t)>& runs_before) {
  // Per BEFORE value, its users. A merged value's users survive (same
  // result id in AFTER) and use the twin now, or were themselves folded
  // into it (a phi or select of the merged values, as if-conversion does); a
  // value deleted because it was dead (ADCE) took its users with it.
  std::unordered_map<uint32_t, std::vector<const Instruction*>> users;
  ForEachBodyInstruction(before_context, [&](const Instruction& inst, uint32_t) {
    inst.ForEachInId([&](const uint32_t* id) { users[*id].push_back(&inst); });
  });
  std::function<bool(uint32_t, int)> users_survive = [&](uint32_t id, int depth) {
    auto found = users.find(id);
    if (found == users.end()) return false;
    for (const Instruction* user : found->second) {
      if (!user->HasResultId() || after_defs_.count(user->result_id())) return true;
      const bool folds = user->opcode() == spv::Op::OpPhi || user->opcode() == spv::Op::OpSelect;
      if (folds && depth < 2 && users_survive(user->result_id(), depth + 1)) return true;
    }
    return false;
  };
  // The twin a surviving user names now where it named |inst| before
  // (redundancy elimination rewrites the uses to the kept instruction).
  auto named_twin = [&](const Instruction& inst) -> const Instruction* {
    auto found = users.find(inst.result_id());
    if (found == users.end()) return nullptr;
    for (const Instruction* user : found->second) {
      if (!user->HasResultId()) continue;
      auto now = after_defs_.find(user->result_id());
      if (now == after_defs_.end() || now->second->opcode() != user->opcode() ||
          now->second->NumInOperands() != user->NumInOperands()) {
        continue;
      }
      for (uint32_t k = 0; k < user->NumInOperands(); ++k) {
        if (user->GetInOperand(k).words != std::vector<uint32_t>{inst.result_id()}) continue;
        const uint32_t id = now->second->GetSingleWordInOperand(k);
        auto twin = after_defs_.find(id);
        if (id != inst.result_id() && twin != after_defs_.end() &&
            twin->second->opcode() == inst.opcode()) {
          return twin->second;
        }
      }
    }
    return nullptr;
  };
  std::unordered_map<std::string, uint32_t> positions;
  ForEachBodyInstruction(before_context, [&](const Instruction& inst, uint32_t function) {
    const uint32_t position =
        positions[std::to_string(function) + "/" + before_.Local(inst, kWeakest)]++;
    if (before_has_image_.count(&inst) || !inst.HasResultId() || !wanted(inst) ||
        !users_survive(inst.result_id(), 0) || !runs_before(function)) {
      return;
    }
    if (const Instruction* twin = named_twin(inst)) {
      origins_[twin].push_back({&inst, MatchKind::kMerged});
      return;
    }
    for (const Instruction* twin :
         Best(before_, inst, function, position, &after_by_key_, after_, after_runs_in_)) {
      origins_[twin].push_back({&inst, MatchKind::kMerged});
    }
  });
}

std::vector<const Instruction*> InstructionMatcher::Best(
    StructuralKeys& keys, const Instruction& inst, uint32_t function, uint32_t position,
    std::unordered_map<std::string, std::vector<Candidate>>* index, StructuralKeys& other_keys,
    const RunsIn& runs_in) {
  auto found = index->find(keys.Local(inst, kWeakest));
  if (found == index->end()) return {};
  std::vector<Candidate> candidates = found->second;
  auto narrow = [&candidates](const std::function<bool(const Candidate&)>& keep) {
    std::vector<Candidate> kept;
    std::copy_if(candidates.begin(), candidates.end(), std::back_inserter(kept), keep);
    if (!kept.empty()) candidates = std::move(kept);
  };
  for (int depth = kDeepest; depth > kWeakest; --depth) {
    const std::string key = keys.Local(inst, depth);
    narrow([&](const Candidate& c) { return other_keys.Local(*c.inst, depth) == key; });
  }
  const std::string line = keys.Line(inst);
  if (!line.empty()) {
    narrow([&](const Candidate& c) { return other_keys.Line(*c.inst) == line; });
  }
  auto runs = runs_in.find(function);
  narrow([&](const Candidate& c) {
    return c.function == function || (runs != runs_in.end() && runs->second.count(c.function));
  });
  const bool one_function =
      std::all_of(candidates.begin(), candidates.end(),
                  [&](const Candidate& c) { return c.function == candidates.front().function; });
  if (candidates.size() > 1 && one_function) {
    narrow([&](const Candidate& c) { return c.position == position; });
  }
  std::vector<const Instruction*> best;
  for (const Candidate& candidate : candidates) best.push_back(candidate.inst);
  return best;
}

const std::vector<Origin>& InstructionMatcher::OriginsOf(const Instruction& after) const {
  static const std::vector<Origin> kNone;
  auto found = origins_.find(&after);
  return found == origins_.end() ? kNone : found->second;
}

uint32_t InstructionMatcher::BeforeId(uint32_t after_id) const {
  auto found = before_ids_.find(after_id);
  return found == before_ids_.end() ? 0 : found->second;
}

}  // namespace motion
}  // namespace spirv_conv
