// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/cfg_analyses.h"

#include <algorithm>
#include <utility>

namespace spirv_conv {
namespace analysis {

CycleTree::CycleTree(const CycleInfo& cycles, uint32_t blocks) : innermost(blocks, kNone) {
  const std::vector<const Cycle*> all = cycles.AllCycles();
  const auto count = static_cast<uint32_t>(all.size());
  parent.assign(count, kNone);
  end.assign(count, 0);
  depth.assign(count, 0);
  for (uint32_t ci = 0; ci < count; ++ci) {
    if (all[ci]->parent() != nullptr) parent[ci] = all[ci]->parent()->index();
    end[ci] = all[ci]->subtree_end();
    depth[ci] = all[ci]->depth();
  }
  for (uint32_t b = 0; b < blocks; ++b) {
    const Cycle* c = cycles.InnermostCycle(b);
    if (c != nullptr) innermost[b] = c->index();
  }
}

CfgAnalyses::CfgAnalyses(Cfg graph, const std::vector<char>& also_exit)
    : CfgAnalyses(std::move(graph), nullptr, also_exit) {}

CfgAnalyses::CfgAnalyses(const Cfg* graph, const std::vector<char>& also_exit)
    : CfgAnalyses(Cfg{}, graph, also_exit) {}

CfgAnalyses::CfgAnalyses(Cfg owned, const Cfg* borrowed, const std::vector<char>& also_exit)
    : owned_(std::move(owned)),
      cfg(borrowed != nullptr ? *borrowed : owned_),
      predecessors(CompressedPredecessors(cfg)),
      rpo_index(cfg.size(), ~0u),
      cycles(cfg, predecessors, &rpo),  // sets |rpo| too: one search for both
      cycle_tree(cycles, cfg.size()),
      dominators(cfg, predecessors, rpo),
      post_dominators(cfg, predecessors, /*post=*/true, also_exit) {
  for (uint32_t i = 0; i < rpo.size(); ++i) rpo_index[rpo[i]] = i;
}

uint32_t AcyclicPostDominator(const CfgAnalyses& graph, uint32_t block) {
  const DominatorTree& pdt = graph.post_dominators;
  for (uint32_t b = pdt.Idom(block); b != DominatorTree::kNone && b != pdt.root();
       b = pdt.Idom(b)) {
    if (graph.cycles.InnermostCycle(b) == nullptr) return b;
  }
  return ~0u;
}

}  // namespace analysis
}  // namespace spirv_conv
