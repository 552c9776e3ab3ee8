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

namespace spirv_conv {
namespace analysis {
namespace {

using spvtools::opt::Instruction;

bool IsAccessChain(spv::Op op) {
  return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain;
}

// True if the address of |variable| never escapes: every use of it, and of
// every access chain derived from it, is a load or store through the
// pointer, a further access chain, or debug information. The access chains
// are appended to |chains|.
bool IsPromotable(spvtools::opt::IRContext* context, const Instruction& variable,
                  std::vector<uint32_t>* chains) {
  bool ok = true;
  std::vector<const Instruction*> pointers{&variable};
  while (ok && !pointers.empty()) {
    const Instruction* pointer = pointers.back();
    pointers.pop_back();
    context->get_def_use_mgr()->ForEachUse(pointer, [&](Instruction* user, uint32_t operand) {
      if (!ok) return;
      const spv::Op op = user->opcode();
      if (op == spv::Op::OpLoad && operand == 2) return;
      if (op == spv::Op::OpStore && operand == 0) return;
      if (IsAccessChain(op) && operand == 2) {  // the base, not an index
        chains->push_back(user->result_id());
        pointers.push_back(user);
        return;
      }
      if (op == spv::Op::OpName || spvOpcodeIsDecoration(op) || spvOpcodeIsDebug(op)) return;
      if (op == spv::Op::OpExtInst && user->GetCommonDebugOpcode() != 0) return;
      ok = false;
    });
  }
  return ok;
}

}  // namespace

MemorySsa BuildMemorySsa(spvtools::opt::IRContext* context, spvtools::opt::Function& function,
                         const FunctionCfg& fcfg, const CfgAnalyses& graph) {
  MemorySsa ssa;
  const uint32_t n = fcfg.cfg.size();
  if (n == 0) return ssa;
  std::vector<Instruction*> variables;
  for (Instruction& inst : *function.entry()) {
    if (inst.opcode() != spv::Op::OpVariable) continue;
    std::vector<uint32_t> chains;
    if (IsPromotable(context, inst, &chains)) {
      ssa.promoted.insert(inst.result_id());
      variables.push_back(&inst);
      for (uint32_t chain : chains) ssa.chains[chain] = inst.result_id();
    }
  }
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
  for (size_t v = 0; v < variables.size(); ++v) {
    std::vector<uint32_t> work = def_blocks[v];
    std::vector<char> queued(n, 0);
    for (uint32_t b : work) queued[b] = 1;
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      for (uint32_t f : frontier[b]) {
        if (has_phi[f] == v) continue;
        has_phi[f] = static_cast<uint32_t>(v);
        phi_at[f].emplace_back(v, static_cast<uint32_t>(ssa.phis.size()));
        ssa.phis.push_back({variables[v]->result_id(), f, {}});
        if (!queued[f]) queued[f] = 1, work.push_back(f);
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
