// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Classic SSA construction (Cytron et al.): phis at the iterated dominance
// frontier of the storing blocks, then renaming along the dominator tree.
// A store through an access chain is a definition like a whole store, but a
// weak one: it pushes a virtual insert that refers to the definition it
// updates.

#include "analysis/memory_ssa.h"

#include <algorithm>
#include <unordered_set>

#include "analysis/module_index.h"

namespace spirv_conv {
namespace analysis {
namespace {

using spvtools::opt::Instruction;

bool IsAccessChain(spv::Op op) {
  return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain;
}

// The Function variables of |function| whose address never escapes: every
// use of it, and of every access chain derived from it, is the pointer of a
// load or store, the base of a further access chain, or debug information.
// Their access chains (nested ones included) go to |chains| (chain ->
// variable). Two scans: the first finds the pointers (a chain's base
// dominates it, so it comes first in layout order), the second their uses
// (a phi may use a chain defined later in layout order).
std::vector<Instruction*> PromotableVariables(spvtools::opt::Function& function,
                                              std::unordered_map<uint32_t, uint32_t>* chains) {
  std::unordered_map<uint32_t, uint32_t> root_of;  // pointer -> variable
  std::vector<Instruction*> variables;
  for (Instruction& inst : *function.entry()) {
    if (inst.opcode() == spv::Op::OpVariable) {
      root_of[inst.result_id()] = inst.result_id();
      variables.push_back(&inst);
    }
  }
  if (variables.empty()) return variables;
  for (auto& block : function) {
    for (Instruction& inst : block) {
      if (!IsAccessChain(inst.opcode())) continue;
      auto base = root_of.find(inst.GetSingleWordInOperand(0));
      if (base != root_of.end()) root_of[inst.result_id()] = base->second;
    }
  }
  std::unordered_set<uint32_t> escaped;
  for (auto& block : function) {
    for (Instruction& inst : block) {
      const spv::Op op = inst.opcode();
      if (op == spv::Op::OpExtInst && inst.GetCommonDebugOpcode() != 0) continue;
      uint32_t in_index = 0;
      ForEachInIdOf(inst, [&](uint32_t id) {
        const uint32_t i = in_index++;
        auto it = root_of.find(id);
        if (it == root_of.end()) return;
        if (i == 0 && (op == spv::Op::OpLoad || op == spv::Op::OpStore || IsAccessChain(op))) {
          return;
        }
        escaped.insert(it->second);
      });
    }
  }
  std::vector<Instruction*> promoted;
  for (Instruction* v : variables) {
    if (!escaped.count(v->result_id())) promoted.push_back(v);
  }
  for (const auto& [pointer, variable] : root_of) {
    if (pointer != variable && !escaped.count(variable)) (*chains)[pointer] = variable;
  }
  return promoted;
}

}  // namespace

MemorySsa BuildMemorySsa(spvtools::opt::Function& function, const FunctionCfg& fcfg,
                         const CfgAnalyses& graph) {
  MemorySsa ssa;
  const uint32_t n = fcfg.cfg.size();
  if (n == 0) return ssa;
  const std::vector<Instruction*> variables = PromotableVariables(function, &ssa.chains);
  for (const Instruction* v : variables) ssa.promoted.insert(v->result_id());
  if (variables.empty()) return ssa;

  // Blocks by index, and dominance frontiers of the reachable blocks.
  std::vector<spvtools::opt::BasicBlock*> blocks;
  for (auto& block : function) blocks.push_back(&block);
  const DominatorTree& dt = graph.dominators;
  std::vector<std::vector<uint32_t>> frontier(n);
  for (uint32_t b = 0; b < n; ++b) {
    if (!dt.IsReachable(b) || graph.predecessors[b].size() < 2) continue;
    for (uint32_t p : graph.predecessors[b]) {
      if (!dt.IsReachable(p)) continue;
      for (uint32_t runner = p; runner != dt.Idom(b) && runner != DominatorTree::kNone;
           runner = dt.Idom(runner)) {
        auto& f = frontier[runner];
        if (f.empty() || f.back() != b) f.push_back(b);
      }
    }
  }

  // Phi placement per variable.
  std::unordered_map<uint32_t, size_t> variable_index;
  for (size_t i = 0; i < variables.size(); ++i) variable_index[variables[i]->result_id()] = i;
  // The variable (index) a pointer is the whole of or points into, and
  // whether it is the whole variable.
  constexpr size_t kNone = ~size_t{0};
  auto variable_of = [&](uint32_t pointer, bool* whole) -> size_t {
    auto it = variable_index.find(pointer);
    *whole = it != variable_index.end();
    if (*whole) return it->second;
    auto chain = ssa.chains.find(pointer);
    return chain == ssa.chains.end() ? kNone : variable_index.at(chain->second);
  };
  std::vector<std::vector<uint32_t>> def_blocks(variables.size());
  for (uint32_t b = 0; b < n; ++b) {
    for (Instruction& inst : *blocks[b]) {
      if (inst.opcode() != spv::Op::OpStore) continue;
      bool whole = false;
      const size_t v = variable_of(inst.GetSingleWordInOperand(0), &whole);
      if (v == kNone) continue;
      auto& d = def_blocks[v];
      if (d.empty() || d.back() != b) d.push_back(b);
    }
  }
  // phi_at[b] = (variable index, phi index) pairs.
  std::vector<std::vector<std::pair<size_t, uint32_t>>> phi_at(n);
  std::vector<uint32_t> has_phi(n, ~0u);
  std::vector<uint32_t> queued(n, ~0u);  // the variable that last queued the block
  for (size_t v = 0; v < variables.size(); ++v) {
    std::vector<uint32_t> work = def_blocks[v];
    for (uint32_t b : work) queued[b] = static_cast<uint32_t>(v);
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      for (uint32_t f : frontier[b]) {
        if (has_phi[f] == v) continue;
        has_phi[f] = static_cast<uint32_t>(v);
        phi_at[f].emplace_back(v, static_cast<uint32_t>(ssa.phis.size()));
        ssa.phis.push_back({variables[v]->result_id(), f, {}});
        if (queued[f] != v) queued[f] = static_cast<uint32_t>(v), work.push_back(f);
      }
    }
  }

  // Renaming: a preorder walk of the dominator tree with one definition
  // stack per variable.
  std::vector<std::vector<uint32_t>> children(n);
  for (uint32_t b = 0; b < n; ++b) {
    if (dt.IsReachable(b) && dt.Idom(b) != DominatorTree::kNone) children[dt.Idom(b)].push_back(b);
  }
  std::vector<std::vector<MemorySsa::Def>> stacks(variables.size());
  for (size_t v = 0; v < variables.size(); ++v) {
    MemorySsa::Def initial;
    if (variables[v]->NumInOperands() > 1) {
      initial = {MemorySsa::Def::Kind::kValue, variables[v]->GetSingleWordInOperand(1)};
    }
    stacks[v].push_back(initial);
  }
  struct Frame {
    uint32_t block;
    size_t next_child;
    std::vector<size_t> pushed;  // variables whose stacks this block pushed
  };
  std::vector<Frame> walk;
  auto enter = [&](uint32_t b) {
    Frame frame{b, 0, {}};
    for (auto [v, phi] : phi_at[b]) {
      stacks[v].push_back({MemorySsa::Def::Kind::kPhi, phi});
      frame.pushed.push_back(v);
    }
    for (Instruction& inst : *blocks[b]) {
      const spv::Op op = inst.opcode();
      if (op != spv::Op::OpLoad && op != spv::Op::OpStore) continue;
      bool whole = false;
      const size_t v = variable_of(inst.GetSingleWordInOperand(0), &whole);
      if (v == kNone) continue;
      if (op == spv::Op::OpLoad) {
        // A load of the whole variable or of a part: both read the
        // reaching definition (the model adds the part's indices).
        ssa.load_def[inst.result_id()] = stacks[v].back();
        continue;
      }
      const uint32_t value = inst.GetSingleWordInOperand(1);
      if (whole) {
        stacks[v].push_back({MemorySsa::Def::Kind::kValue, value});
      } else {
        const auto insert = static_cast<uint32_t>(ssa.inserts.size());
        ssa.inserts.push_back({variables[v]->result_id(), b, &inst, stacks[v].back(),
                               inst.GetSingleWordInOperand(0), value});
        stacks[v].push_back({MemorySsa::Def::Kind::kInsert, insert});
      }
      frame.pushed.push_back(v);
    }
    for (uint32_t s : fcfg.cfg.successors[b]) {
      for (auto [v, phi] : phi_at[s]) ssa.phis[phi].incoming.emplace_back(stacks[v].back(), b);
    }
    walk.push_back(std::move(frame));
  };
  enter(fcfg.cfg.entry);
  while (!walk.empty()) {
    Frame& top = walk.back();
    if (top.next_child < children[top.block].size()) {
      enter(children[top.block][top.next_child++]);
      continue;
    }
    for (size_t v : top.pushed) stacks[v].pop_back();
    walk.pop_back();
  }
  return ssa;
}

}  // namespace analysis
}  // namespace spirv_conv
