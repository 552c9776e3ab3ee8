// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lint/tangles.h"

#include <algorithm>

namespace spirv_conv {
namespace lint {

using spvtools::opt::BasicBlock;
using spvtools::opt::Function;
using spvtools::opt::Instruction;

namespace {

bool Returns(const BasicBlock& block) {
  const spv::Op opcode = block.ctail()->opcode();
  return opcode == spv::Op::OpReturn || opcode == spv::Op::OpReturnValue;
}

}  // namespace

Tangle Tangles::Of(const Instruction& inst, Uniformity scope) const {
  const BasicBlock* block = blocks_.Of(inst);
  if (block == nullptr) return {};
  if (!calls_.MaximallyReconverges(block->GetParent()->result_id())) {
    const Rejoins& rejoins = Find(scope);
    const Rejoin& before = rejoins.before_block[block->id()];
    if (before.kind != Rejoin::Kind::kNone) return {TangleCase::kAfterRejoin, before};
    const Rejoin returned = ReturnBefore(inst, rejoins);
    if (returned.kind != Rejoin::Kind::kNone) return {TangleCase::kAfterRejoin, returned};
  }
  // Relative to the function's entry; a call before |inst| that may end
  // some invocations makes it less uniform than its block.
  Uniformity in_function = info_.ControlFlowLevelInFunction(block->id());
  const Uniformity here = info_.ControlFlowLevel(inst);
  if (here > info_.ControlFlowLevel(block->id())) in_function = Join(in_function, here);
  if (in_function <= scope) return {TangleCase::kCallSites, {}};
  return {TangleCase::kPath, {}};
}

const Tangles::Rejoins& Tangles::Find(Uniformity scope) const {
  Rejoins& rejoins = by_scope_[static_cast<size_t>(scope)];
  if (rejoins.found) return rejoins;
  rejoins.found = true;
  rejoins.before_block.assign(context_.module()->IdBound(), Rejoin{});
  std::vector<const Function*> functions;
  for (const Function& function : *context_.module()) {
    if (!calls_.MaximallyReconverges(function.result_id())) functions.push_back(&function);
  }
  std::unordered_map<const Function*, Seeds> own;
  for (const Function* function : functions) own[function] = RejoinsIn(*function, scope);

  // Within each function first: what its own rejoins reach, and whether its
  // returns come after one. A function returning after a rejoin makes the
  // code after its calls come after one too, so this runs until no function
  // gains such a return (each round settles at least one more level of the
  // call graph).
  for (bool changed = true; changed;) {
    changed = false;
    for (const Function* function : functions) {
      Seeds seeds = own[function];
      const Seeds after = AfterReturns(*function, rejoins);
      seeds.insert(seeds.end(), after.begin(), after.end());
      Flood(seeds, scope, &rejoins.before_block);
      if (rejoins.after_return.count(function->result_id())) continue;
      for (const auto& block : *function) {
        if (!Returns(block)) continue;
        Rejoin before = rejoins.before_block[block.id()];
        if (before.kind == Rejoin::Kind::kNone) before = ReturnBefore(*block.ctail(), rejoins);
        if (before.kind == Rejoin::Kind::kNone) continue;
        rejoins.after_return[function->result_id()] = before;
        changed = true;
        break;
      }
    }
  }
  // Then across calls: a function called after a rejoin runs after it.
  // (Not the other way: what follows a call depends on the callee's own
  // returns only, found above, not on its other call sites.)
  for (bool changed = true; changed;) {
    changed = false;
    for (const Function* function : functions) {
      const BasicBlock& entry = *function->begin();
      if (rejoins.before_block[entry.id()].kind != Rejoin::Kind::kNone) continue;
      for (const Instruction* call : calls_.CallsOf(function->result_id())) {
        const BasicBlock* site = blocks_.Of(*call);
        if (site == nullptr || (rejoins.before_block[site->id()].kind == Rejoin::Kind::kNone &&
                                ReturnBefore(*call, rejoins).kind == Rejoin::Kind::kNone)) {
          continue;
        }
        changed |=
            Flood({{entry.id(), {Rejoin::Kind::kCallSite, call}}}, scope, &rejoins.before_block);
        break;
      }
    }
  }
  return rejoins;
}

Tangles::Seeds Tangles::RejoinsIn(const Function& function, Uniformity scope) const {
  Seeds seeds;
  for (const auto& block : function) {
    if (info_.BranchLevel(block.id()) <= scope || idioms_.Of(block) != BranchIdiom::kNone) {
      continue;
    }
    for (uint32_t join : info_.Joins(block.id())) {
      if (NotUniform(join, scope))
        seeds.push_back({join, {Rejoin::Kind::kBranch, &*block.ctail()}});
    }
  }
  // Invocations that leave a loop on different iterations reach the blocks
  // after it at different times; they leave through a divergent branch of
  // the loop or, for a structured loop, through one of its break blocks.
  for (const UniformityCycle& cycle : info_.Cycles(function.result_id())) {
    if (cycle.divergent_exit <= scope) continue;
    std::vector<uint32_t> inside = cycle.blocks;
    inside.insert(inside.end(), cycle.break_blocks.begin(), cycle.break_blocks.end());
    std::sort(inside.begin(), inside.end());
    const BasicBlock* exit_branch = blocks_.OfLabel(cycle.divergent_exit_branch);
    for (uint32_t label : inside) {
      const bool break_block = std::find(cycle.break_blocks.begin(), cycle.break_blocks.end(),
                                         label) != cycle.break_blocks.end();
      if (!break_block && info_.BranchLevel(label) <= scope) continue;
      const BasicBlock* block = blocks_.OfLabel(label);
      if (block == nullptr) continue;
      const Rejoin rejoin{Rejoin::Kind::kLoopExit,
                          &*(exit_branch != nullptr ? exit_branch : block)->ctail()};
      block->ForEachSuccessorLabel([&](uint32_t successor) {
        if (!std::binary_search(inside.begin(), inside.end(), successor) &&
            NotUniform(successor, scope)) {
          seeds.push_back({successor, rejoin});
        }
      });
    }
  }
  return seeds;
}

Tangles::Seeds Tangles::AfterReturns(const Function& function, const Rejoins& rejoins) const {
  Seeds seeds;
  for (const auto& block : function) {
    const Rejoin rejoin = ReturnBefore(*block.ctail(), rejoins);
    if (rejoin.kind == Rejoin::Kind::kNone) continue;
    block.ForEachSuccessorLabel([&](uint32_t successor) { seeds.push_back({successor, rejoin}); });
  }
  return seeds;
}

Rejoin Tangles::ReturnBefore(const Instruction& inst, const Rejoins& rejoins) const {
  if (blocks_.CallsBefore(inst) == 0) return {};
  for (const Instruction& earlier : *blocks_.Of(inst)) {
    if (&earlier == &inst) break;
    if (earlier.opcode() != spv::Op::OpFunctionCall) continue;
    if (rejoins.after_return.count(earlier.GetSingleWordInOperand(0))) {
      return {Rejoin::Kind::kReturn, &earlier};
    }
  }
  return {};
}

bool Tangles::Flood(const Seeds& seeds, Uniformity scope, std::vector<Rejoin>* before_block) const {
  bool marked = false;
  std::vector<std::pair<uint32_t, Rejoin>> work(seeds.rbegin(), seeds.rend());
  while (!work.empty()) {
    const auto [label, rejoin] = work.back();
    work.pop_back();
    if (label >= before_block->size() || (*before_block)[label].kind != Rejoin::Kind::kNone ||
        !NotUniform(label, scope)) {
      continue;
    }
    (*before_block)[label] = rejoin;
    marked = true;
    if (const BasicBlock* block = blocks_.OfLabel(label)) {
      block->ForEachSuccessorLabel([&, rejoin = rejoin](uint32_t successor) {
        work.push_back({successor, rejoin});
      });
    }
  }
  return marked;
}

}  // namespace lint
}  // namespace spirv_conv
