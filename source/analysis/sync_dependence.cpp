// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/sync_dependence.h"

#include <algorithm>

namespace spirv_conv {
namespace analysis {
namespace {

constexpr uint32_t kNoLabel = ~0u;

// The first post-dominator of |block| that lies in no cycle: every thread
// that executes |block| reaches it exactly once afterwards, with every
// diverged path merged, so nothing beyond it can be a join. kNoLabel if the
// only such post-dominator is the virtual exit.
uint32_t AcyclicPostDominator(const CfgAnalyses& graph, uint32_t block) {
  const DominatorTree& pdt = graph.post_dominators;
  for (uint32_t b = pdt.Idom(block); b != DominatorTree::kNone && b != pdt.root();
       b = pdt.Idom(b)) {
    if (graph.cycles.InnermostCycle(b) == nullptr) return b;
  }
  return kNoLabel;
}

// The outermost of |cycle| and its ancestors that does not contain |block|.
const Cycle* OutermostExcluding(const Cycle* cycle, uint32_t block) {
  while (cycle->parent() != nullptr && !cycle->parent()->Contains(block)) cycle = cycle->parent();
  return cycle;
}

void InsertOnce(std::vector<const Cycle*>* cycles, const Cycle* cycle) {
  if (std::find(cycles->begin(), cycles->end(), cycle) == cycles->end()) cycles->push_back(cycle);
}

// Label propagation from |seeds| (edges whose target defines the virtual
// variable anew) to a fixed point: returns the joins, and the labels in
// |label| (kNoLabel where none arrived). Edges for which |ends| is true are
// not followed; |stop| is included but not propagated past.
template <typename EndsFn>
std::vector<uint32_t> PropagateLabels(const CfgAnalyses& graph,
                                      const std::vector<std::pair<uint32_t, uint32_t>>& seeds,
                                      const EndsFn& ends, uint32_t stop,
                                      std::vector<uint32_t>* label, std::vector<char>* in_region) {
  const Cfg& cfg = graph.cfg;
  std::vector<uint32_t> region;
  label->assign(cfg.size(), kNoLabel);
  in_region->assign(cfg.size(), 0);
  std::vector<char> is_seed_edge_target(cfg.size(), 0);
  std::vector<uint32_t> work;
  for (auto [from, to] : seeds) {
    is_seed_edge_target[to] = 1;
    if (!(*in_region)[to]) (*in_region)[to] = 1, work.push_back(to);
  }
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    region.push_back(b);
    if (b == stop) continue;
    for (uint32_t s : cfg.successors[b]) {
      if (!(*in_region)[s] && !ends(b, s)) (*in_region)[s] = 1, work.push_back(s);
    }
  }
  std::sort(region.begin(), region.end(),
            [&](uint32_t a, uint32_t b) { return graph.rpo_index[a] < graph.rpo_index[b]; });
  auto is_seed = [&](uint32_t from, uint32_t to) {
    if (!is_seed_edge_target[to]) return false;
    for (auto [f, t] : seeds) {
      if (f == from && t == to) return true;
    }
    return false;
  };
  std::vector<char> is_join(cfg.size(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b : region) {
      uint32_t first = kNoLabel;
      bool meets = is_join[b] != 0;
      for (uint32_t p : graph.predecessors[b]) {
        uint32_t l = kNoLabel;
        if (is_seed(p, b)) {
          // Two seed edges into one block are two different definitions.
          if (first == b) meets = true;
          l = b;
        } else if (!ends(p, b) && (*in_region)[p] && p != stop) {
          l = (*label)[p];
        }
        if (l == kNoLabel) continue;
        if (first == kNoLabel)
          first = l;
        else if (l != first)
          meets = true;
      }
      const uint32_t new_label = meets ? b : first;
      if (meets && !is_join[b]) is_join[b] = 1, changed = true;
      if (new_label != (*label)[b]) (*label)[b] = new_label, changed = true;
    }
  }
  std::vector<uint32_t> joins;
  for (uint32_t b : region) {
    if (is_join[b]) joins.push_back(b);
  }
  return joins;
}

}  // namespace

BranchDivergence ComputeBranchDivergence(const CfgAnalyses& graph, uint32_t branch) {
  const Cfg& cfg = graph.cfg;
  BranchDivergence result;

  // Cycles containing the branch, innermost first. An edge into the header
  // of one of them from inside it is a back edge: it ends propagation.
  std::vector<const Cycle*> enclosing;
  for (const Cycle* c = graph.cycles.InnermostCycle(branch); c != nullptr; c = c->parent()) {
    enclosing.push_back(c);
  }
  auto is_back_edge = [&](uint32_t from, uint32_t to) {
    for (const Cycle* c : enclosing) {
      if (c->header() == to && c->Contains(from)) return true;
    }
    return false;
  };

  // The region ends at the acyclic post-dominator: nothing beyond it can
  // be a join.
  const uint32_t stop = AcyclicPostDominator(graph, branch);
  std::vector<std::pair<uint32_t, uint32_t>> seeds;
  for (uint32_t s : cfg.successors[branch]) {
    if (!is_back_edge(branch, s)) seeds.emplace_back(branch, s);
  }
  std::vector<uint32_t> label;
  std::vector<char> in_region;
  result.joins = PropagateLabels(graph, seeds, is_back_edge, stop, &label, &in_region);

  // Divergent exits: the labels on the edges leaving a cycle and on its back
  // edges. Two different ones, at least one of them leaving, mean threads
  // can leave on different iterations or through different exits.
  for (const Cycle* c : enclosing) {
    std::vector<uint32_t> leaving;
    std::vector<uint32_t> staying;
    auto consider = [&](uint32_t from) {
      if (from != branch && (!in_region[from] || from == stop)) return;
      for (uint32_t to : cfg.successors[from]) {
        const uint32_t l = from == branch ? to : label[from];
        if (l == kNoLabel) continue;
        if (!c->Contains(to))
          leaving.push_back(l);
        else if (to == c->header())
          staying.push_back(l);
      }
    };
    consider(branch);
    for (uint32_t b : c->blocks()) {
      if (b != branch) consider(b);
    }
    if (leaving.empty()) continue;
    bool differ = false;
    for (uint32_t l : leaving) differ |= l != leaving.front();
    for (uint32_t l : staying) differ |= l != leaving.front();
    if (differ) result.divergent_exit_cycles.push_back(c);
  }

  // Threads leave a cycle with a divergent exit on different iterations:
  // each exit edge is its own definition, and where two of them meet (an
  // exit block entered by several exit edges, or a block after two exits)
  // is a join too, even when every incoming value is defined outside.
  for (const Cycle* c : result.divergent_exit_cycles) {
    std::vector<std::pair<uint32_t, uint32_t>> exit_edges;
    for (uint32_t b : c->blocks()) {
      for (uint32_t s : cfg.successors[b]) {
        if (!c->Contains(s)) exit_edges.emplace_back(b, s);
      }
    }
    auto reenters = [&](uint32_t from, uint32_t to) {
      return c->Contains(to) || is_back_edge(from, to);
    };
    std::vector<uint32_t> exit_label;
    std::vector<char> exit_region;
    for (uint32_t j :
         PropagateLabels(graph, exit_edges, reenters, AcyclicPostDominator(graph, c->header()),
                         &exit_label, &exit_region)) {
      result.joins.push_back(j);
    }
  }
  std::sort(result.joins.begin(), result.joins.end());
  result.joins.erase(std::unique(result.joins.begin(), result.joins.end()), result.joins.end());

  // Joins that break m-convergence.
  const DominatorTree& dt = graph.dominators;
  for (uint32_t join : result.joins) {
    const Cycle* join_cycle = graph.cycles.InnermostCycle(join);
    if (join_cycle != nullptr && !join_cycle->Contains(branch)) {
      // Diverged paths reaching a cycle from outside: harmless only when
      // the cycle has a single entry.
      const Cycle* outer = OutermostExcluding(join_cycle, branch);
      if (!outer->IsReducible()) InsertOnce(&result.not_m_converged_cycles, outer);
      continue;
    }
    // Diverged-entry criterion (simplified, seed 000): a cycle containing
    // the branch and the join is fine if the branch or the cycle's header
    // strictly dominates the join, or the cycle is reducible.
    const Cycle* c = graph.cycles.SmallestCommonCycle(branch, join);
    if (c == nullptr || dt.StrictlyDominates(branch, join) || c->IsReducible() ||
        dt.StrictlyDominates(c->header(), join)) {
      continue;
    }
    while (c->parent() != nullptr && !dt.StrictlyDominates(c->parent()->header(), join)) {
      c = c->parent();
    }
    InsertOnce(&result.not_m_converged_cycles, c);
  }
  return result;
}

}  // namespace analysis
}  // namespace spirv_conv
