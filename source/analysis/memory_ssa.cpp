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

#include "analysis/compressed_lists.h"
#include "analysis/module_index.h"

namespace spirv_conv {
namespace analysis {
namespace {

using spvtools::opt::Instruction;

bool IsAccessChain(spv::Op op) {
  return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain;
}

// Per result id, the variable (index + 1; 0: none) a pointer is or points
// into: one array of the thread indexed by id, reset where a function set
// it, so the scans below look ids up without hashing.
class PointerVariables {
 public:
  PointerVariables() : state_(Scratch()) {}
  ~PointerVariables() {
    for (uint32_t id : state_.set) state_.variable[id] = 0;
    state_.set.clear();
  }
  PointerVariables(const PointerVariables&) = delete;
  PointerVariables& operator=(const PointerVariables&) = delete;

  // The variable index + 1 of |id|, or 0.
  uint32_t Get(uint32_t id) const { return id < state_.variable.size() ? state_.variable[id] : 0; }
  void Set(uint32_t id, uint32_t variable_plus_one) {
    if (id >= state_.variable.size()) {
      state_.variable.resize(std::max<size_t>(id + 1, 2 * state_.variable.size()), 0);
    }
    if (state_.variable[id] == 0) state_.set.push_back(id);
    state_.variable[id] = variable_plus_one;
  }
  // The ids set so far, in the order they were first set.
  const std::vector<uint32_t>& ids() const { return state_.set; }

 private:
  struct State {
    std::vector<uint32_t> variable;
    std::vector<uint32_t> set;
  };
  static State& Scratch() {
    thread_local State state;
    return state;
  }
  State& state_;
};

// The Function variables of |body| whose address never escapes: every
// use of it, and of every access chain derived from it, is the pointer of a
// load or store, the base of a further access chain, or debug information.
// Afterwards |pointers| maps each of them and their access chains (nested
// ones included) to the variable's index in the result + 1, and their
// access chains go to |chains| (chain -> variable). Two scans: the first
// finds the pointers (a chain's base dominates it, so it comes first in
// layout order), the second their uses (a phi may use a chain defined later
// in layout order). The second also lists the loads and stores through the
// pointers, with their block indices, in layout order in |accesses|, so
// that SSA construction need not walk the function again.
std::vector<Instruction*> PromotableVariables(
    const FunctionBody& body, PointerVariables* pointers,
    std::unordered_map<uint32_t, uint32_t>* chains,
    std::vector<std::pair<uint32_t, Instruction*>>* accesses) {
  std::vector<Instruction*> variables;  // the candidates
  if (body.blocks() == 0) return variables;
  for (uint32_t r = body.block_start[0] + 1; r < body.block_start[1]; ++r) {
    if (body.rows[r].opcode == spv::Op::OpVariable) {
      variables.push_back(body.rows[r].inst);
      pointers->Set(body.rows[r].result_id, static_cast<uint32_t>(variables.size()));
    }
  }
  if (variables.empty()) return variables;
  for (uint32_t r = 0; r < body.rows.size(); ++r) {
    if (!IsAccessChain(body.rows[r].opcode)) continue;
    const uint32_t base = pointers->Get(body.in_ids[r][0]);
    if (base != 0) pointers->Set(body.rows[r].result_id, base);
  }
  std::vector<char> escaped(variables.size(), 0);
  for (uint32_t b = 0; b < body.blocks(); ++b) {
    for (uint32_t r = body.block_start[b] + 1; r < body.block_start[b + 1]; ++r) {
      const spv::Op op = body.rows[r].opcode;
      if (op == spv::Op::OpExtInst && body.rows[r].inst->GetCommonDebugOpcode() != 0) continue;
      const CompressedLists::Range ids = body.in_ids[r];
      if ((op == spv::Op::OpLoad || op == spv::Op::OpStore) && pointers->Get(ids[0]) != 0) {
        accesses->emplace_back(b, body.rows[r].inst);
      }
      for (uint32_t i = 0; i < ids.size(); ++i) {
        const uint32_t variable = pointers->Get(ids[i]);
        if (variable == 0) continue;
        if (i == 0 && (op == spv::Op::OpLoad || op == spv::Op::OpStore || IsAccessChain(op))) {
          continue;
        }
        escaped[variable - 1] = 1;
      }
    }
  }
  std::vector<Instruction*> promoted;
  std::vector<uint32_t> promoted_index(variables.size(), 0);  // + 1; 0: escaped
  for (size_t v = 0; v < variables.size(); ++v) {
    if (escaped[v]) continue;
    promoted.push_back(variables[v]);
    promoted_index[v] = static_cast<uint32_t>(promoted.size());
  }
  const std::vector<uint32_t>& ids = pointers->ids();
  for (size_t i = 0; i < ids.size(); ++i) {
    const uint32_t pointer = ids[i];
    const uint32_t candidate = pointers->Get(pointer) - 1;
    const uint32_t index = promoted_index[candidate];
    pointers->Set(pointer, index);
    if (index != 0 && pointer != variables[candidate]->result_id()) {
      (*chains)[pointer] = variables[candidate]->result_id();
    }
  }
  return promoted;
}

}  // namespace

MemorySsa BuildMemorySsa(const FunctionBody& body, const FunctionCfg& fcfg,
                         const CfgAnalyses& graph) {
  MemorySsa ssa;
  const uint32_t n = fcfg.cfg.size();
  if (n == 0) return ssa;
  PointerVariables pointers;
  std::vector<std::pair<uint32_t, Instruction*>> accesses;  // (block, load or store)
  const std::vector<Instruction*> variables =
      PromotableVariables(body, &pointers, &ssa.chains, &accesses);
  for (const Instruction* v : variables) ssa.promoted.insert(v->result_id());
  if (variables.empty()) return ssa;

  // Dominance frontiers of the reachable blocks.
  const DominatorTree& dt = graph.dominators;
  CompressedLists frontier;
  {
    std::vector<std::pair<uint32_t, uint32_t>> pairs;  // (block, a block of its frontier)
    std::vector<uint32_t> last(n, ~0u);                // the block last added to a frontier
    for (uint32_t b = 0; b < n; ++b) {
      if (!dt.IsReachable(b) || graph.predecessors[b].size() < 2) continue;
      for (uint32_t p : graph.predecessors[b]) {
        if (!dt.IsReachable(p)) continue;
        for (uint32_t runner = p; runner != dt.Idom(b) && runner != DominatorTree::kNone;
             runner = dt.Idom(runner)) {
          if (last[runner] != b) last[runner] = b, pairs.emplace_back(runner, b);
        }
      }
    }
    frontier = CompressedLists::FromPairs(n, pairs);
  }

  // The variable (index) a pointer is the whole of or points into, and
  // whether it is the whole variable.
  constexpr size_t kNone = ~size_t{0};
  auto variable_of = [&](uint32_t pointer, bool* whole) -> size_t {
    const uint32_t v = pointers.Get(pointer);
    if (v == 0) return *whole = false, kNone;
    *whole = variables[v - 1]->result_id() == pointer;
    return v - 1;
  };
  // Phi placement per variable.
  std::vector<std::vector<uint32_t>> def_blocks(variables.size());
  std::vector<std::pair<uint32_t, uint32_t>> access_pairs;  // (block, index into accesses)
  size_t loads = 0;
  for (uint32_t i = 0; i < accesses.size(); ++i) {
    const auto [b, inst] = accesses[i];
    bool whole = false;
    const size_t v = variable_of(inst->GetSingleWordInOperand(0), &whole);
    if (v == kNone) continue;
    access_pairs.emplace_back(b, i);
    if (inst->opcode() == spv::Op::OpLoad) {
      ++loads;
      continue;
    }
    auto& d = def_blocks[v];
    if (d.empty() || d.back() != b) d.push_back(b);
  }
  // Per block, the loads and stores of promoted variables in it, in order.
  const CompressedLists access_at = CompressedLists::FromPairs(n, access_pairs);
  ssa.load_def.reserve(loads);
  // (block, phi index) pairs; the phis of a block in variable order.
  std::vector<std::pair<uint32_t, uint32_t>> phi_pairs;
  std::vector<uint32_t> phi_variable;  // per phi: the variable index
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
        phi_pairs.emplace_back(f, static_cast<uint32_t>(ssa.phis.size()));
        phi_variable.push_back(static_cast<uint32_t>(v));
        ssa.phis.push_back({variables[v]->result_id(), f, {}});
        if (queued[f] != v) queued[f] = static_cast<uint32_t>(v), work.push_back(f);
      }
    }
  }
  const CompressedLists phi_at = CompressedLists::FromPairs(n, phi_pairs);

  // Renaming: a preorder walk of the dominator tree with one definition
  // stack per variable.
  std::vector<std::pair<uint32_t, uint32_t>> tree_edges;  // (idom, block)
  for (uint32_t b = 0; b < n; ++b) {
    if (dt.IsReachable(b) && dt.Idom(b) != DominatorTree::kNone)
      tree_edges.emplace_back(dt.Idom(b), b);
  }
  const CompressedLists children = CompressedLists::FromPairs(n, tree_edges);
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
    uint32_t next_child;
    size_t pushed;  // where this block's entries in |pushed| start
  };
  std::vector<Frame> walk;
  std::vector<uint32_t> pushed;  // variables whose stacks the blocks on |walk| pushed
  auto enter = [&](uint32_t b) {
    walk.push_back({b, 0, pushed.size()});
    for (uint32_t phi : phi_at[b]) {
      const uint32_t v = phi_variable[phi];
      stacks[v].push_back({MemorySsa::Def::Kind::kPhi, phi});
      pushed.push_back(v);
    }
    for (uint32_t i : access_at[b]) {
      Instruction& inst = *accesses[i].second;
      bool whole = false;
      const size_t v = variable_of(inst.GetSingleWordInOperand(0), &whole);
      if (inst.opcode() == spv::Op::OpLoad) {
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
      pushed.push_back(static_cast<uint32_t>(v));
    }
    for (uint32_t s : fcfg.cfg.successors[b]) {
      for (uint32_t phi : phi_at[s]) {
        ssa.phis[phi].incoming.emplace_back(stacks[phi_variable[phi]].back(), b);
      }
    }
  };
  enter(fcfg.cfg.entry);
  while (!walk.empty()) {
    Frame& top = walk.back();
    const CompressedLists::Range next = children[top.block];
    if (top.next_child < next.size()) {
      enter(next.begin()[top.next_child++]);
      continue;
    }
    for (size_t i = top.pushed; i < pushed.size(); ++i) stacks[pushed[i]].pop_back();
    pushed.resize(top.pushed);
    walk.pop_back();
  }
  return ssa;
}

}  // namespace analysis
}  // namespace spirv_conv
