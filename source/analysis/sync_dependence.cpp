// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/sync_dependence.h"

#include <algorithm>
#include <map>
#include <tuple>

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

// The CFG as the propagation for one divergent branch sees it. The header
// of every cycle that contains the branch stands for the rest of its cycle:
// threads that come back to it run further iterations and leave the cycle
// through one of its exits later, so its successors are the cycle's exit
// blocks ("collapsed" header, as in LLVM's modified cycle post-order):
//
//        H <------.       B diverges inside the cycle {H, B, S1, S2}.
//        |        |       S1 -> H and S2 -> H bring two labels: H is a join
//        B        |       (findings 01-03 of the differential test). H's
//       / \       |       successors for the propagation are the cycle's
//      S1  S2 ----'       exits (X): threads that went around once more
//      |                  meet threads that left earlier there (seed 2799).
//      '--> X
class BranchView {
 public:
  BranchView(const CfgAnalyses& graph, uint32_t branch) : graph_(graph) {
    for (const Cycle* c = graph.cycles.InnermostCycle(branch); c != nullptr; c = c->parent()) {
      enclosing_.push_back(c);
      std::vector<std::pair<uint32_t, uint32_t>> exits;
      for (uint32_t b : c->blocks()) {
        for (uint32_t s : graph.cfg.successors[b]) {
          if (!c->Contains(s)) exits.emplace_back(b, s);
        }
      }
      std::sort(exits.begin(), exits.end(), [](auto x, auto y) { return x.second < y.second; });
      exit_edges_.push_back(std::move(exits));
    }
  }

  // Cycles containing the branch, innermost first.
  const std::vector<const Cycle*>& enclosing() const { return enclosing_; }
  // Index in enclosing() of the cycle |block| is the collapsed header of.
  int CollapsedIndex(uint32_t block) const {
    for (size_t i = 0; i < enclosing_.size(); ++i) {
      if (enclosing_[i]->header() == block) return static_cast<int>(i);
    }
    return -1;
  }
  // The edges leaving enclosing()[index], sorted by target.
  const std::vector<std::pair<uint32_t, uint32_t>>& ExitEdges(int index) const {
    return exit_edges_[index];
  }
  // Calls |visit(target)| for every successor of |block| in this view.
  template <typename Visit>
  void ForEachSuccessor(uint32_t block, const Visit& visit) const {
    const int collapsed = CollapsedIndex(block);
    if (collapsed < 0) {
      for (uint32_t s : graph_.cfg.successors[block]) visit(s);
      return;
    }
    uint32_t last = kNoLabel;
    for (auto [from, to] : exit_edges_[collapsed]) {
      if (to != last) visit(to);
      last = to;
    }
  }

 private:
  const CfgAnalyses& graph_;
  std::vector<const Cycle*> enclosing_;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> exit_edges_;
};

using JoinMap = std::map<uint32_t, std::vector<uint32_t>>;  // join -> labelled predecessors

// Per-block state of one label propagation. The arrays live as long as the
// thread and are reset only where a propagation touched them, so a branch
// whose region is small costs little in a large function.
class Propagation {
 public:
  struct InEdge {
    uint32_t from;
    bool seed;       // a seed edge: its target defines the virtual variable anew
    bool collapsed;  // from a collapsed header: threads that stayed in its cycle
  };

  explicit Propagation(size_t blocks) : state_(Scratch()) {
    if (state_.label.size() < blocks) {
      state_.label.resize(blocks, kNoLabel);
      state_.is_join.resize(blocks, 0);
      state_.in_edges.resize(blocks);
    }
  }
  ~Propagation() {
    for (uint32_t b : region_) {
      state_.label[b] = kNoLabel;
      state_.is_join[b] = 0;
      state_.in_edges[b].clear();
    }
  }
  Propagation(const Propagation&) = delete;
  Propagation& operator=(const Propagation&) = delete;

  // Propagates labels from |seeds| over |view| to a fixed point; edges for
  // which |ends| is true are not followed, |stop| is included but not
  // propagated past. Joins and their labelled predecessors go to |joins|.
  template <typename EndsFn>
  void Run(const CfgAnalyses& graph, const BranchView& view,
           const std::vector<std::pair<uint32_t, uint32_t>>& seeds, const EndsFn& ends,
           uint32_t stop, JoinMap* joins) {
    std::vector<uint32_t> work;
    auto reach = [&](uint32_t from, uint32_t to, bool seed) {
      std::vector<InEdge>& in = state_.in_edges[to];
      const bool first = in.empty();
      in.push_back({from, seed, !seed && view.CollapsedIndex(from) >= 0});
      if (first) region_.push_back(to), work.push_back(to);
    };
    for (auto [from, to] : seeds) {
      if (!ends(from, to)) reach(from, to, true);
    }
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      if (b == stop) continue;
      view.ForEachSuccessor(b, [&](uint32_t s) {
        if (!ends(b, s)) reach(b, s, false);
      });
    }
    std::sort(region_.begin(), region_.end(),
              [&](uint32_t a, uint32_t b) { return graph.rpo_index[a] < graph.rpo_index[b]; });
    // Where labels meet, the block defines its own label. It is a join when
    // labels meet on its real edges; a meet that needs a collapsed header's
    // edge is where threads that stayed in a cycle for more iterations meet
    // those that left earlier: a divergent cycle exit (temporal divergence,
    // and the exit-edge joins below), not a join of disjoint paths.
    constexpr char kMeet = 1;
    constexpr char kJoin = 2;
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t b : region_) {
        uint32_t first = kNoLabel;
        uint32_t first_real = kNoLabel;
        uint32_t seed_source = kNoLabel;
        char meets = state_.is_join[b];
        for (const InEdge& e : state_.in_edges[b]) {
          uint32_t l = kNoLabel;
          if (e.seed) {
            // Seed edges from two different blocks are two definitions.
            if (seed_source != kNoLabel && seed_source != e.from) meets = kJoin;
            seed_source = e.from;
            l = b;
          } else if (e.from != stop) {
            l = state_.label[e.from];
          }
          if (l == kNoLabel) continue;
          if (first == kNoLabel)
            first = l;
          else if (l != first)
            meets = std::max(meets, kMeet);
          if (e.collapsed) continue;
          if (first_real == kNoLabel)
            first_real = l;
          else if (l != first_real)
            meets = kJoin;
        }
        const uint32_t new_label = meets != 0 ? b : first;
        if (meets > state_.is_join[b]) state_.is_join[b] = meets, changed = true;
        if (new_label != state_.label[b]) state_.label[b] = new_label, changed = true;
      }
    }
    for (uint32_t b : region_) {
      if (state_.is_join[b] != kJoin) continue;
      std::vector<uint32_t>& preds = (*joins)[b];
      for (const InEdge& e : state_.in_edges[b]) {
        if (!e.seed && Label(e.from) == kNoLabel) continue;
        const int collapsed = e.seed ? -1 : view.CollapsedIndex(e.from);
        if (collapsed < 0) {
          preds.push_back(e.from);
          continue;
        }
        // Through a collapsed header: the cycle's blocks that exit to b.
        for (auto [from, to] : view.ExitEdges(collapsed)) {
          if (to == b) preds.push_back(from);
        }
      }
    }
  }

  const std::vector<uint32_t>& region() const { return region_; }
  uint32_t Label(uint32_t block) const { return state_.label[block]; }
  const std::vector<InEdge>& InEdges(uint32_t block) const { return state_.in_edges[block]; }

 private:
  struct State {
    std::vector<uint32_t> label;
    std::vector<char> is_join;
    std::vector<std::vector<InEdge>> in_edges;
  };
  static State& Scratch() {
    thread_local State state;
    return state;
  }
  State& state_;
  std::vector<uint32_t> region_;
};

}  // namespace

BranchDivergence ComputeBranchDivergence(const CfgAnalyses& graph, uint32_t branch) {
  const Cfg& cfg = graph.cfg;
  BranchDivergence result;
  const BranchView view(graph, branch);
  JoinMap joins;

  {
    // The region ends at the acyclic post-dominator: nothing beyond it can
    // be a join.
    std::vector<std::pair<uint32_t, uint32_t>> seeds;
    for (uint32_t s : cfg.successors[branch]) seeds.emplace_back(branch, s);
    std::sort(seeds.begin(), seeds.end());
    seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
    Propagation labels(cfg.size());
    labels.Run(
        graph, view, seeds, [](uint32_t, uint32_t) { return false; },
        AcyclicPostDominator(graph, branch), &joins);

    // Divergent exits: the labels on the edges leaving a cycle, and on the
    // edges into its header (threads staying). Two different ones, at least
    // one of them leaving, mean threads can leave on different iterations or
    // through different exits. The collapsed header's own edges stand for
    // threads that stayed: they are not counted as leaving; those of a
    // nested collapsed header are (threads that stayed in the inner cycle
    // and leave this one from there).
    for (const Cycle* c : view.enclosing()) {
      std::vector<uint32_t> leaving;
      std::vector<uint32_t> staying;
      for (uint32_t to : labels.region()) {
        const bool stays = to == c->header();
        for (const auto& e : labels.InEdges(to)) {
          if (!c->Contains(e.from)) continue;
          const uint32_t l = e.seed ? to : labels.Label(e.from);
          if (l == kNoLabel) continue;
          if (stays) {
            staying.push_back(l);
          } else if (!c->Contains(to) &&
                     (e.seed || e.from != c->header() || view.CollapsedIndex(e.from) < 0)) {
            leaving.push_back(l);
          }
        }
      }
      if (leaving.empty()) continue;
      bool differ = false;
      for (uint32_t l : leaving) differ |= l != leaving.front();
      for (uint32_t l : staying) differ |= l != leaving.front();
      if (differ) result.divergent_exit_cycles.push_back(c);
    }
  }

  // Threads leave a cycle with a divergent exit on different iterations:
  // each exit edge is its own definition, and where two of them meet (an
  // exit block entered by several exit edges, or a block after two exits)
  // is a join too, even when every incoming value is defined outside.
  for (const Cycle* c : result.divergent_exit_cycles) {
    const int index = static_cast<int>(
        std::find(view.enclosing().begin(), view.enclosing().end(), c) - view.enclosing().begin());
    Propagation exit_labels(cfg.size());
    exit_labels.Run(
        graph, view, view.ExitEdges(index), [&](uint32_t, uint32_t to) { return c->Contains(to); },
        AcyclicPostDominator(graph, c->header()), &joins);
  }
  for (auto& [join, preds] : joins) {
    std::sort(preds.begin(), preds.end());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    result.joins.push_back(join);
    result.join_predecessors.push_back(std::move(preds));
  }

  // Joins that break m-convergence.
  const DominatorTree& dt = graph.dominators;
  for (uint32_t join : result.joins) {
    const Cycle* join_cycle = graph.cycles.InnermostCycle(join);
    if (join_cycle != nullptr && !join_cycle->Contains(branch)) {
      // Diverged paths reaching a cycle from outside: harmless only when
      // the cycle has a single entry.
      const Cycle* outer = OutermostExcluding(join_cycle, branch);
      if (!outer->IsReducible()) InsertOnce(&result.not_m_converged_cycles, outer);
    }
    // Diverged-entry criterion (simplified, seed 000): a cycle containing
    // the branch and the join is fine if the branch or the cycle's header
    // strictly dominates the join, or the cycle is reducible. The join may
    // also lie in a child cycle that the branch is outside of (finding 04):
    //
    //    entry -> B, P        B (divergent) -> X -> J and B -> J, where J is
    //    B -> X -> J          the header of a child cycle {J, P}; P is a
    //    B -> J <-> P -> B    second entry of the outer cycle {B, X, J, P},
    //                         so neither B nor the header B dominates J.
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
