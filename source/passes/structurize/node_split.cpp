// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/structurize/node_split.h"

#include <functional>
#include <map>
#include <unordered_map>

#include "analysis/convergence_classes.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace structurize {

using spvtools::opt::Instruction;

NodeSplitter::NodeSplitter(BlockGraph* graph) : graph_(graph) {
  uint32_t instructions = 0;
  for (uint32_t n = 0; n < graph->size(); ++n) instructions += BlockCost(n);
  budget_ = kBudgetBase + instructions / kBudgetDivisor;
}

uint32_t NodeSplitter::DispatchCost(uint32_t entries, uint32_t entering_edges) {
  return 2 + entering_edges + 3 * entries;
}

uint32_t NodeSplitter::BlockCost(uint32_t node) const {
  uint32_t cost = 1;  // the label
  for (const Instruction& inst : *graph_->block(node)) {
    cost += !inst.IsDebugLineInst() && !inst.IsNonSemanticInstruction();
  }
  return cost;
}

void NodeSplitter::IndexValues() {
  std::unordered_map<uint32_t, uint32_t> def_node;
  for (uint32_t n = 0; n < graph_->size(); ++n) {
    for (const Instruction& inst : *graph_->block(n)) {
      if (inst.result_id() != 0) def_node[inst.result_id()] = n;
    }
  }
  imports_.assign(graph_->size(), 0);
  exports_.assign(graph_->size(), 0);
  for (uint32_t n = 0; n < graph_->size(); ++n) {
    for (const Instruction& inst : *graph_->block(n)) {
      inst.ForEachInId([&](const uint32_t* id) {
        auto def = def_node.find(*id);
        if (def == def_node.end() || def->second == n) return;
        exports_[def->second] = 1;
        if (def->second != 0) imports_[n] = 1;  // entry values dominate every block
      });
    }
  }
}

bool NodeSplitter::Copyable(uint32_t node) const {
  if (node == 0 || imports_[node] || exports_[node] || graph_->Terminator(node) == nullptr) {
    return false;
  }
  for (const Instruction& inst : *graph_->block(node)) {
    switch (inst.opcode()) {
      case spv::Op::OpPhi:
      case spv::Op::OpVariable:
      case spv::Op::OpFunctionCall:  // the callee may hold anything below
      case spv::Op::OpSelectionMerge:
      case spv::Op::OpLoopMerge:
        return false;
      default:
        break;
    }
    if (analysis::ClassifyConvergence(inst).flags != 0) return false;
  }
  return true;
}

bool NodeSplitter::TrySplit(const Cycle& cycle) {
  const std::set<uint32_t> blocks(cycle.blocks().begin(), cycle.blocks().end());
  const Cfg cfg = graph_->ToCfg();
  const std::vector<std::vector<uint32_t>> preds = cfg.Predecessors();
  uint32_t entering_edges = 0;
  for (uint32_t e : cycle.entries()) entering_edges += static_cast<uint32_t>(preds[e].size());
  const uint32_t dispatch =
      DispatchCost(static_cast<uint32_t>(cycle.entries().size()), entering_edges);
  if (spent_ >= budget_) return false;
  IndexValues();

  std::set<uint32_t> best;
  uint32_t best_cost = ~0u;
  for (uint32_t kept : cycle.entries()) {
    // The other entries, and what they lead to in the cycle before |kept|.
    std::set<uint32_t> copied;
    std::vector<uint32_t> work;
    for (uint32_t e : cycle.entries()) {
      if (e != kept) work.push_back(e);
    }
    uint32_t cost = 0;
    bool ok = true;
    while (!work.empty() && ok) {
      const uint32_t n = work.back();
      work.pop_back();
      if (!copied.insert(n).second) continue;
      cost += BlockCost(n);
      ok = Copyable(n) && cost <= dispatch && spent_ + cost <= budget_ && cost < best_cost;
      for (uint32_t s : cfg.successors[n]) {
        if (s != kept && blocks.count(s)) work.push_back(s);
      }
    }
    if (!ok) continue;
    // The copies must not form a cycle of their own.
    std::map<uint32_t, int> state;  // 1 on the DFS stack, 2 done
    std::function<bool(uint32_t)> acyclic = [&](uint32_t n) {
      state[n] = 1;
      for (uint32_t s : cfg.successors[n]) {
        if (!copied.count(s)) continue;
        if (state[s] == 1 || (state[s] == 0 && !acyclic(s))) return false;
      }
      state[n] = 2;
      return true;
    };
    for (uint32_t n : copied) ok &= state[n] != 0 || acyclic(n);
    if (!ok) continue;
    best = copied;
    best_cost = cost;
  }
  if (best.empty()) return false;
  Split(blocks, best);
  spent_ += best_cost;
  return true;
}

void NodeSplitter::Split(const std::set<uint32_t>& cycle, const std::set<uint32_t>& copied) {
  const std::vector<std::vector<uint32_t>> preds = graph_->ToCfg().Predecessors();
  const std::map<uint32_t, uint32_t> copy_of = graph_->CopyBlocks(copied);
  for (auto [original, copy] : copy_of) {
    for (uint32_t p : preds[original]) {
      if (!cycle.count(p)) graph_->Retarget(p, original, copy);
    }
  }
}

}  // namespace structurize
}  // namespace spirv_conv
