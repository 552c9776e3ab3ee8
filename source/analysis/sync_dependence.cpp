// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/sync_dependence.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "analysis/scc.h"
#include "source/util/small_vector.h"

namespace spirv_conv {
namespace analysis {
namespace {

constexpr uint32_t kNoLabel = ~0u;

// The outermost of |cycle| and its ancestors that does not contain |block|.
const Cycle* OutermostExcluding(const Cycle* cycle, uint32_t block) {
  while (cycle->parent() != nullptr && !cycle->parent()->Contains(block)) cycle = cycle->parent();
  return cycle;
}

void InsertOnce(std::vector<const Cycle*>* cycles, const Cycle* cycle) {
  if (std::find(cycles->begin(), cycles->end(), cycle) == cycles->end()) cycles->push_back(cycle);
}

// The CFG as the propagation for one divergent branch sees it: a cycle
// whose header stands for all of it ("collapsed"), its successors being the
// cycle's exit blocks, as in LLVM's modified cycle post-order.
//
// - Every reducible cycle that contains the branch. Threads that come back
//   to its header run further iterations and leave through one of its exits
//   later:
//
//        H <------.       B diverges inside the cycle {H, B, S1, S2}.
//        |        |       S1 -> H and S2 -> H bring two labels: H is a join
//        B        |       (HeaderReachedThroughTwoBackEdgesIsAJoin). H's
//       / \       |       successors for the propagation are the cycle's
//      S1  S2 ----'       exits (X): threads that went around once more
//      |                  meet threads that left earlier there
//      '--> X             (ExitEdgesJoinOnlyWhereEarlyLeaversArrive).
//
// - Every reducible cycle that does not contain the branch. Diverged paths
//   enter it only through its header, so nothing inside but the header can
//   be a join, and what leaves it carries the header's label. Collapsing it
//   also leaves no cycle in the view for stale labels to circle in, except
//   inside irreducible cycles.
//
// Irreducible cycles that contain the branch are collapsed for the joins
// whose phis the branch taints (threads passing the header are on another
// iteration). The diverged-entry criterion is about paths in the CFG,
// whatever the hierarchy, so it is checked on a second view in which they
// are not: a diverged path may pass through their header to a join inside
// (the closed path P -> Q -> R -> S of "Convergence and Uniformity", with
// header R: Q -> R -> S and Q -> S meet at S, and the entry R on the first
// path makes the cycle not m-converged). Propagation does not continue past
// the branch itself when it comes round to it again, as in LLVM.
class BranchView {
 public:
  // |collapse_irreducible|: also collapse irreducible cycles that contain
  // the branch.
  // |order|: ComputeViewOrder's, to stop where the paths merge; null: go on
  // to the stop block.
  BranchView(const CfgAnalyses& graph, uint32_t branch, bool collapse_irreducible,
             const std::vector<uint32_t>* order)
      : graph_(graph), branch_(branch), collapse_irreducible_(collapse_irreducible), order_(order) {
    for (const Cycle* c = graph.cycles.InnermostCycle(branch); c != nullptr; c = c->parent()) {
      enclosing_.push_back(c);
    }
  }

  uint32_t branch() const { return branch_; }
  const std::vector<uint32_t>* order() const { return order_; }
  // Cycles containing the branch, innermost first.
  using Enclosing = spvtools::utils::SmallVector<const Cycle*, 8>;
  const Enclosing& enclosing() const { return enclosing_; }
  // O(1): the cycles around the branch are those that contain it.
  bool Encloses(const Cycle* cycle) const { return cycle->Contains(branch_); }
  // True if the view collapses every cycle around the branch.
  bool CollapsesEnclosing() const { return collapse_irreducible_; }
  bool Collapses(const Cycle* cycle) const {
    return cycle->IsReducible() || (collapse_irreducible_ && Encloses(cycle));
  }
  // The cycle |block| is the collapsed header of, or null.
  const Cycle* CollapsedCycle(uint32_t block) const {
    const Cycle* c = graph_.cycles.InnermostCycle(block);
    if (c == nullptr || c->header() != block) return nullptr;
    return Collapses(c) ? c : nullptr;
  }
  // The outermost cycle that this view keeps (does not collapse) and that
  // contains |block|, or null.
  const Cycle* OutermostKeptCycle(uint32_t block) const {
    const Cycle* kept = nullptr;
    for (const Cycle* c = graph_.cycles.InnermostCycle(block); c != nullptr; c = c->parent()) {
      if (!Collapses(c)) kept = c;
    }
    return kept;
  }
  // Calls |visit(target, via)| for every successor of |block| in this
  // view; |via| is the cycle |block| is the collapsed header of (whose exits
  // are its successors), or null.
  template <typename Visit>
  void ForEachSuccessor(uint32_t block, const Visit& visit) const {
    const Cycle* collapsed = CollapsedCycle(block);
    if (collapsed == nullptr) {
      for (uint32_t s : graph_.cfg.successors[block]) visit(s, collapsed);
      return;
    }
    uint32_t last = kNoLabel;
    for (auto [from, to] : collapsed->exit_edges()) {
      if (to != last) visit(to, collapsed);
      last = to;
    }
  }

 private:
  const CfgAnalyses& graph_;
  uint32_t branch_;
  bool collapse_irreducible_;
  const std::vector<uint32_t>* order_;
  Enclosing enclosing_;  // in place up to 8 deep: no allocation per branch
};

// Joins as (join, predecessor on a diverged path) pairs, in any order and
// possibly repeated; a join listed with kNoLabel alone has no such
// predecessor known (GroupJoins sorts them out).
using JoinEdges = std::vector<std::pair<uint32_t, uint32_t>>;
using Edges = std::vector<std::pair<uint32_t, uint32_t>>;

// The lists one divergent branch's computation fills and drops, kept per
// thread so that they allocate nothing once they have grown (the
// propagation keeps its own, Propagation::State). Each list has one user:
// ComputeBranchDivergence's lists are still in use while it calls
// SeedEdges, GroupJoins and OpenViewCycles.
struct BranchScratch {
  // Per cycle around the branch: the labels on the edges staying in it or
  // leaving it (ComputeBranchDivergence's divergent-exit scan).
  struct ExitLabels {
    uint32_t first = kNoLabel;
    bool mixed = false;
    bool leaving = false;
    uint32_t staying = kNoLabel;  // the first label on an edge into the header
    bool staying_mixed = false;
  };
  // A label on an edge leaving the cycle enclosing()[cycle] into |exit|.
  struct LeavingLabel {
    uint32_t cycle;
    uint32_t label;
    uint32_t exit;
  };
  Edges seeds;                          // SeedEdges'
  JoinEdges joins;                      // ComputeBranchDivergence's
  JoinEdges open_joins;                 // OpenViewCycles'
  std::vector<ExitLabels> exit_labels;  // ComputeBranchDivergence's
  std::vector<LeavingLabel> leaving;    // ComputeBranchDivergence's
  // ComputeBranchDivergence's: (enclosing()'s index of a temporal cycle,
  // an exit block that threads leaving on an earlier iteration reach).
  std::vector<std::pair<uint32_t, uint32_t>> temporal_exits;
  std::vector<uint32_t> predecessors;  // GroupJoins'
  // MarkReached's, per block: reach_query if the last query reached it,
  // reach_query - 1 if it lies in that query's region and was not reached.
  std::vector<uint32_t> reach_marks;
  uint32_t reach_query = 0;
  std::vector<uint32_t> reach_work;  // MarkReached's
  // ComputeBranchDivergence's: the joins and their predecessors on
  // diverged paths, before they are copied into the result.
  std::vector<uint32_t> found_joins;
  CompressedLists found_predecessors;
};

BranchScratch& ThreadScratch() {
  thread_local BranchScratch scratch;
  return scratch;
}

// Calls |f(join, predecessors)| for each join of |edges| in block order,
// with its distinct predecessors, sorted; sorts |edges|. |f| must not call
// GroupJoins (the predecessor list is the thread's scratch).
template <typename F>
void GroupJoins(JoinEdges* edges, const F& f) {
  std::sort(edges->begin(), edges->end());
  std::vector<uint32_t>& predecessors = ThreadScratch().predecessors;
  for (size_t i = 0; i < edges->size();) {
    const uint32_t join = (*edges)[i].first;
    predecessors.clear();
    for (; i < edges->size() && (*edges)[i].first == join; ++i) {
      const uint32_t p = (*edges)[i].second;
      if (p != kNoLabel && (predecessors.empty() || predecessors.back() != p)) {
        predecessors.push_back(p);
      }
    }
    f(join, predecessors);
  }
}

// One label propagation over a BranchView, to a fixed point of the label
// equations: a block reached by one label carries it on, a block where two
// different labels meet defines its own. The labels are recomputed on every
// sweep rather than accumulated, and a block ignores its own label coming
// round a cycle through it; otherwise a label that changed upstream (a
// block found to be a meet only on a later sweep) would leave its old value
// circling in a cycle further on, and the stale label would look like a
// second path:
//
//    B -> X -> L <-.     X becomes a meet on the second sweep; L's self loop
//         ^   \__/|     still carries X's first label: not a join of B.
//         '--------'
//
// The per-block arrays live as long as the thread and are reset only where
// a propagation touched them, so a branch whose region is small costs
// little in a large function.
class Propagation {
 public:
  static constexpr uint32_t kNoEdge = ~0u;
  struct InEdge {
    const Cycle* via;  // from a collapsed header: the cycle's exits stand behind it
    uint32_t from;
    uint32_t next;  // the target's next in-edge (they are listed newest first), or kNoEdge
    bool seed;      // a seed edge: its target defines the virtual variable anew
    // |via| contains the branch: threads that stayed in it for more
    // iterations (a meet through such an edge is a divergent exit).
    bool temporal;
  };
  // A block's in-edges, a list threaded through the propagation's edges,
  // newest first. Nothing depends on the order: a block's meet kind and
  // label ask whether two of its edges carry different labels, and its
  // predecessors on diverged paths are sorted (GroupJoins).
  class InEdgeList {
   public:
    class Iterator {
     public:
      Iterator(const std::vector<InEdge>* edges, uint32_t at) : edges_(edges), at_(at) {}
      const InEdge& operator*() const { return (*edges_)[at_]; }
      Iterator& operator++() {
        at_ = (*edges_)[at_].next;
        return *this;
      }
      bool operator!=(const Iterator& other) const { return at_ != other.at_; }

     private:
      const std::vector<InEdge>* edges_;
      uint32_t at_;
    };
    InEdgeList(const std::vector<InEdge>* edges, uint32_t first) : edges_(edges), first_(first) {}
    Iterator begin() const { return {edges_, first_}; }
    Iterator end() const { return {edges_, kNoEdge}; }

   private:
    const std::vector<InEdge>* edges_;
    uint32_t first_;
  };

  Propagation(const CfgAnalyses& graph, const BranchView& view)
      : graph_(graph), view_(view), state_(Scratch()), region_(state_.region) {
    const size_t blocks = graph.cfg.size();
    if (state_.block.size() < blocks) {
      state_.block.resize(blocks);
      state_.components.Reserve(blocks);
    }
  }
  ~Propagation() { Reset(); }
  Propagation(const Propagation&) = delete;
  Propagation& operator=(const Propagation&) = delete;

  // Propagates labels from |seeds| to a fixed point; edges for which |ends|
  // is true are not followed, |stop| is included but not propagated past.
  // RunUntilMerged first: it may stop earlier; else the whole region up to
  // |stop|, swept by strongly connected components.
  template <typename EndsFn>
  void Run(const Edges& seeds, const EndsFn& ends, uint32_t stop) {
    stop_ = stop;
    settled_ = true;
    if (RunUntilMerged(seeds, ends)) return;
    std::vector<uint32_t>& work = state_.work;
    work.clear();
    auto reach = [&](uint32_t from, uint32_t to, bool seed, const Cycle* via) {
      if (AddEdge(from, to, seed, via)) work.push_back(to);
    };
    for (auto [from, to] : seeds) {
      if (!ends(from, to)) reach(from, to, true, nullptr);
    }
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      if (GoesNoFurther(b)) continue;
      view_.ForEachSuccessor(b, [&](uint32_t s, const Cycle* via) {
        if (!ends(b, s)) reach(b, s, false, via);
      });
    }
    SortInReversePostOrder(region_.data(), region_.data() + region_.size());
    // Where labels meet, the block defines its own label. It is a join when
    // labels meet on its real edges; a meet that needs a collapsed header's
    // edge is where threads that stayed in a cycle for more iterations meet
    // those that left earlier: a divergent cycle exit (temporal divergence,
    // and the exit-edge joins), not a join of disjoint paths.
    //
    // The view has cycles only inside the irreducible cycles it keeps; the
    // region is then labelled by strongly connected components
    // (SweepComponents).
    if (IsAcyclic()) {
      // Reverse post-order is a topological order: one sweep settles all.
      for (uint32_t b : region_) SetLabel(b);
      return;
    }
    SweepComponents(region_);
  }

  // Whether the labels reached a fixed point within the sweep limit.
  bool settled() const { return settled_; }

  // Adds the joins and, per join, the predecessors on diverged paths.
  void CollectJoins(JoinEdges* joins) const {
    for (uint32_t b : region_) {
      if (state_.block[b].meet != kJoin) continue;
      joins->emplace_back(b, kNoLabel);
      for (const InEdge& e : InEdges(b)) {
        if (EdgeLabel(e, b, stop_) == kNoLabel) continue;
        if (e.via == nullptr) {
          joins->emplace_back(b, e.from);
          continue;
        }
        // Through a collapsed header: the cycle's blocks that exit to b.
        for (auto [from, to] : e.via->exit_edges()) {
          if (to == b) joins->emplace_back(b, from);
        }
      }
    }
  }

  // Treats every block reached by two or more edges as a join (used only if
  // the labels do not settle, which no test has seen).
  void CollectAllAsJoins(JoinEdges* joins) const {
    for (uint32_t b : region_) {
      const uint32_t first = state_.block[b].first_edge;
      if (state_.edges[first].next == kNoEdge) continue;  // fewer than two
      for (uint32_t p : graph_.predecessors[b]) joins->emplace_back(b, p);
    }
  }

  // The blocks reached, in no particular order (what reads them does not
  // depend on it: GroupJoins sorts the joins).
  const std::vector<uint32_t>& region() const { return region_; }
  InEdgeList InEdges(uint32_t block) const {
    return {&state_.edges, state_.block[block].first_edge};
  }
  // The label |e| carries into |to|.
  // Labels are block indices (a meet defines its own), and seed labels
  // past them (a seed edge defines a label for its target).
  uint32_t EdgeLabel(const InEdge& e, uint32_t to, uint32_t stop) const {
    if (e.seed) return static_cast<uint32_t>(graph_.cfg.size()) + to;
    if (e.from == stop) return kNoLabel;
    return state_.block[e.from].label;
  }
  uint32_t stop() const { return stop_; }

 private:
  static constexpr char kNone = 0;
  static constexpr char kMeet = 1;
  static constexpr char kJoin = 2;
  // What a propagation keeps per block, together: on a large function the
  // blocks it touches are scattered, and each costs one cache miss.
  struct BlockState {
    uint32_t label = kNoLabel;
    uint32_t first_edge = kNoEdge;  // its newest in-edge
    char meet = kNone;
    char stale = 0;  // SweepComponents'
  };
  // A thread runs one propagation at a time (none starts another), so the
  // lists below serve each in turn and keep their capacity.
  struct State {
    std::vector<BlockState> block;
    std::vector<InEdge> edges;     // the propagation's, in the order it found them
    std::vector<uint32_t> region;  // the blocks reached, in the order reached
    std::vector<uint32_t> queue;   // RunUntilMerged's
    std::vector<uint32_t> unit;    // RunUntilMerged's: the reached blocks of a kept cycle
    std::vector<uint32_t> work;    // Run's
    SccScratch components;         // ForEachComponentInTopologicalOrder's
  };
  static State& Scratch() {
    thread_local State state;
    return state;
  }
  const CfgAnalyses& graph_;
  const BranchView& view_;
  State& state_;
  std::vector<uint32_t>& region_;  // state_.region
  uint32_t stop_ = kNoLabel;
  bool settled_ = false;

  // Labels the blocks in the view order (ComputeViewOrder) as they are
  // reached and stops as soon as a single block D is left to visit, unless
  // D lies in a cycle the view keeps: every path still going then passes
  // D. After D the view goes forward in that order except around the
  // cycles it keeps, which all lie after D, so no edge after D leads back
  // to a block labelled before it: every edge after D carries D's label and
  // no block after D can be a meet. (LLVM stops at one fresh label
  // likewise, in its modified post-order.)
  //
  //      B            B diverges; S1 and S2 are reached; S1's successor J
  //     / \           and S2's successor J leave J alone in the queue: J
  //    S1  S2         is labelled (a join) and the propagation ends there,
  //     \  /          not at the far post-dominator beyond X.
  //      J -> X ...
  //
  // A cycle the view keeps is labelled as one unit when the first of its
  // blocks comes up (LabelKeptCycle). Its blocks are consecutive in the
  // order, after every block with an edge into it, so the labels coming in
  // are final by then. Gives up, leaving no trace, on any other edge that
  // goes backward in the order (not expected), which the sweeps of Run
  // handle. True if it labelled the region.
  template <typename EndsFn>
  bool RunUntilMerged(const Edges& seeds, const EndsFn& ends) {
    if (view_.order() == nullptr) return false;
    const std::vector<uint32_t>& key = *view_.order();
    auto later = [&](uint32_t a, uint32_t b) { return key[a] > key[b]; };
    std::vector<uint32_t>& queue = state_.queue;  // a min-heap by the view order
    queue.clear();
    bool forward = true;
    auto reach = [&](uint32_t from, uint32_t to, bool seed, const Cycle* via) {
      if (key[to] == kNoLabel || (!seed && key[to] <= key[from])) forward = false;
      if (AddEdge(from, to, seed, via)) {
        queue.push_back(to);
        std::push_heap(queue.begin(), queue.end(), later);
      }
    };
    for (auto [from, to] : seeds) {
      if (!ends(from, to)) reach(from, to, true, nullptr);
    }
    auto pop = [&] {
      std::pop_heap(queue.begin(), queue.end(), later);
      const uint32_t b = queue.back();
      queue.pop_back();
      return b;
    };
    std::vector<uint32_t>& unit = state_.unit;
    while (forward && !queue.empty()) {
      const bool last = queue.size() == 1;
      const uint32_t b = pop();
      if (const Cycle* kept = view_.OutermostKeptCycle(b)) {
        // The cycle's blocks waiting in the queue come next in the order.
        unit.assign(1, b);
        while (!queue.empty() && kept->Contains(queue.front())) unit.push_back(pop());
        LabelKeptCycle(kept, ends, reach, &unit);
        continue;
      }
      SetLabel(b);
      if (GoesNoFurther(b)) continue;
      if (last) break;
      view_.ForEachSuccessor(b, [&](uint32_t s, const Cycle* via) {
        if (!ends(b, s)) reach(b, s, false, via);
      });
    }
    if (forward) return true;  // (the region is left in the order reached)
    Reset();
    return false;
  }

  // Labels the blocks of |kept| (a cycle the view keeps) reached from
  // |unit|, the ones reached so far: follows the view's edges inside the
  // cycle to every block they reach, hands edges leaving it to
  // |reach_outside|, and sweeps the reached blocks by their strongly
  // connected components as Run does. Neither the branch nor the stop
  // block is followed, as in Run.
  //
  //        B            B diverges outside the irreducible cycle {P, Q},
  //       / \           entered at P (from S) and at Q (from B). In the
  //      S   |          order S comes before the cycle and X after it, so
  //      |   |          when the first of P and Q comes up the other waits
  //      P<->Q          in the queue: the unit is {P, Q}; P <-> Q are
  //       \ /           followed inside it, the edges to X are queued, and
  //        X            P and Q are swept to a fixed point before X.
  template <typename EndsFn, typename ReachFn>
  void LabelKeptCycle(const Cycle* kept, const EndsFn& ends, const ReachFn& reach_outside,
                      std::vector<uint32_t>* unit) {
    for (size_t i = 0; i < unit->size(); ++i) {
      const uint32_t b = (*unit)[i];
      if (GoesNoFurther(b)) continue;
      view_.ForEachSuccessor(b, [&](uint32_t s, const Cycle* via) {
        if (ends(b, s)) return;
        if (!kept->Contains(s)) {
          reach_outside(b, s, false, via);
        } else if (AddEdge(b, s, false, via)) {
          unit->push_back(s);
        }
      });
    }
    if (view_.CollapsesEnclosing()) {
      // The unit is one strongly connected component: it holds neither the
      // branch (the view collapses the cycles around it) nor the stop block
      // (which lies in no cycle), so every block of |kept| the view shows
      // is reached and followed, and they reach each other as in the CFG
      // (a collapsed cycle inside |kept| is passed from its header to its
      // exits). No need to look for components.
      SweepComponent(unit->data(), unit->data() + unit->size());
      return;
    }
    SweepComponents(*unit);
  }

  void SortInReversePostOrder(uint32_t* first, uint32_t* last) const {
    std::sort(first, last,
              [&](uint32_t a, uint32_t b) { return graph_.rpo_index[a] < graph_.rpo_index[b]; });
  }

  // True if the propagation does not follow |b|'s edges: |b| is the stop
  // block, or the branch itself come round again (unless the view collapses
  // a cycle onto it, whose exits are followed).
  bool GoesNoFurther(uint32_t b) const {
    return b == stop_ || (b == view_.branch() && view_.CollapsedCycle(b) == nullptr);
  }

  // Records the edge |from| -> |to| (a seed edge if |seed|) among |to|'s
  // in-edges; true if it is the first, |to| joining the region. |via|: the
  // cycle |from| is the collapsed header of (ForEachSuccessor's), null for
  // a seed edge.
  bool AddEdge(uint32_t from, uint32_t to, bool seed, const Cycle* via) {
    uint32_t& list = state_.block[to].first_edge;
    const bool first = list == kNoEdge;
    const auto e = static_cast<uint32_t>(state_.edges.size());
    state_.edges.push_back({via, from, list, seed, via != nullptr && view_.Encloses(via)});
    list = e;
    if (first) region_.push_back(to);
    return first;
  }

  // Clears what this propagation wrote to the thread's arrays.
  void Reset() {
    for (uint32_t b : region_) state_.block[b] = BlockState();
    region_.clear();
    state_.edges.clear();
  }

  // Sets |b|'s meet kind and label from its in-edges; true if the label changed.
  bool SetLabel(uint32_t b) {
    uint32_t first = kNoLabel;
    const char meet = Meet(b, &first);
    const uint32_t label = meet != kNone ? b : first;
    state_.block[b].meet = meet;
    if (label == state_.block[b].label) return false;
    state_.block[b].label = label;
    return true;
  }

  // True if every edge of the region (the non-seed in-edges) goes forward
  // in reverse post-order, so the region has no cycle. Collapsed reducible
  // headers dominate their cycle, so their exit edges go forward too; only
  // irreducible cycles the view keeps can fail this (the common case is
  // the cheap one).
  bool IsAcyclic() const {
    for (uint32_t b : region_) {
      for (const InEdge& e : InEdges(b)) {
        if (e.seed || e.from == stop_) continue;
        if (graph_.rpo_index[e.from] >= graph_.rpo_index[b]) return false;
      }
    }
    return true;
  }

  // Labels |blocks| (reached blocks whose in-edges from outside them are
  // labelled already) by their strongly connected components in
  // topological order, so every label coming into a component is final;
  // inside one, sweeps in reverse post-order repeat until nothing changes
  // (SweepComponent).
  void SweepComponents(const std::vector<uint32_t>& blocks) {
    ForEachComponentInTopologicalOrder(
        blocks, [&](uint32_t* first, uint32_t* last) { SweepComponent(first, last); });
  }

  // Labels the strongly connected component [first, last) (reordered) by
  // sweeps in reverse post-order until nothing changes. A block's label
  // depends on its in-edges' labels alone, so a sweep passes over a block
  // none of whose predecessors changed since it was last labelled (|stale|
  // marks the others): the labels after each sweep are those of a full
  // sweep, for a fraction of the work once most of the component has
  // settled.
  void SweepComponent(uint32_t* first, uint32_t* last) {
    std::vector<BlockState>& state = state_.block;
    const size_t size = static_cast<size_t>(last - first);
    if (size == 1) {
      SetLabel(*first);
      return;
    }
    SortInReversePostOrder(first, last);
    for (const uint32_t* b = first; b != last; ++b) state[*b].stale = 1;
    const size_t limit = 4 * size + 16;
    bool changed = true;
    for (size_t sweep = 0; changed && sweep < limit; ++sweep) {
      changed = false;
      for (const uint32_t* b = first; b != last; ++b) {
        if (!state[*b].stale) continue;
        state[*b].stale = 0;
        if (!SetLabel(*b)) continue;
        changed = true;
        MarkSuccessorsStale(*b);
      }
    }
    if (changed) settled_ = false;
    // Left marked: blocks of components after this one (each marks its own
    // before its first sweep) and, if the limit cut the sweeps short, of
    // this one; Reset clears them.
  }

  // Marks the region's blocks that |b|'s label flows into as stale.
  void MarkSuccessorsStale(uint32_t b) {
    if (GoesNoFurther(b)) return;
    view_.ForEachSuccessor(b, [&](uint32_t s, const Cycle*) {
      if (state_.block[s].first_edge != kNoEdge) state_.block[s].stale = 1;
    });
  }

  // Calls |sweep(first, last)| for each strongly connected component of
  // |blocks| (edges: the non-seed in-edges among them), predecessors'
  // components first; [first, last) are the component's blocks, in no
  // particular order.
  //
  // Tarjan's algorithm on the reversed region, which is what the in-edge
  // lists are: it completes a component only after every component it
  // reaches, i.e. (reversed) after every component that reaches it, so the
  // components come out in topological order of the region and each can be
  // swept as soon as it is complete. On the thread's scratch arrays: no
  // allocation once they have grown.
  template <typename SweepFn>
  void ForEachComponentInTopologicalOrder(const std::vector<uint32_t>& blocks,
                                          const SweepFn& sweep) const {
    ForEachComponent(
        blocks,
        [&](uint32_t b, uint32_t* cursor) {
          // |*cursor|: 0 before b's first in-edge, kNoEdge after its last,
          // else 1 + the next one's index.
          if (*cursor == kNoEdge) return kNoMoreEdges;
          const uint32_t at = *cursor == 0 ? state_.block[b].first_edge : *cursor - 1;
          if (at == kNoEdge) return kNoMoreEdges;  // b has no in-edge
          const InEdge& e = state_.edges[at];
          *cursor = e.next == kNoEdge ? kNoEdge : e.next + 1;
          return e.seed || e.from == stop_ ? SccScratch::kOutside : e.from;
        },
        &state_.components, sweep);
  }

  // The meet kind of |b| under the current labels of its in-edges; sets
  // |*first| to the label of its first labelled in-edge (not b's own), the
  // label b carries on if it is no meet.
  char Meet(uint32_t b, uint32_t* first_label) const {
    uint32_t first = kNoLabel;
    uint32_t first_real = kNoLabel;
    uint32_t seed_source = kNoLabel;
    char meet = kNone;
    for (const InEdge& e : InEdges(b)) {
      if (e.seed) {
        // Seed edges from two different blocks are two definitions.
        if (seed_source != kNoLabel && seed_source != e.from) meet = kJoin;
        seed_source = e.from;
      }
      const uint32_t l = EdgeLabel(e, b, stop_);
      // b's own label coming round a cycle through b is no new path.
      if (l == kNoLabel || l == b) continue;
      if (first == kNoLabel)
        first = l;
      else if (l != first)
        meet = std::max(meet, kMeet);
      if (e.temporal) continue;
      if (first_real == kNoLabel)
        first_real = l;
      else if (l != first_real)
        meet = kJoin;
    }
    *first_label = first;
    return meet;
  }
};

// Runs one Propagation, adds its joins (all blocks reached twice if the
// labels did not settle) and calls |use| with it.
template <typename EndsFn, typename UseFn>
void Propagate(const CfgAnalyses& graph, const BranchView& view, const Edges& seeds,
               const EndsFn& ends, uint32_t stop, JoinEdges* joins, const UseFn& use) {
  Propagation labels(graph, view);
  labels.Run(seeds, ends, stop);
  if (labels.settled())
    labels.CollectJoins(joins);
  else
    labels.CollectAllAsJoins(joins);
  use(labels);
}

// Marks the blocks of |region| (a cycle's exit-edge propagation's, which
// stops at |stop|) that a path of |view| reaches from the exit blocks
// |exits|[first, last).second; Reached() then tells. A path from an exit to
// a join of that propagation stays in its region: the region holds every
// block the propagation reached, up to the block where the labels merged,
// after which there is no join.
void MarkReached(const CfgAnalyses& graph, const BranchView& view, uint32_t stop,
                 const std::vector<uint32_t>& region,
                 const std::vector<std::pair<uint32_t, uint32_t>>& exits, size_t first,
                 size_t last) {
  BranchScratch& scratch = ThreadScratch();
  std::vector<uint32_t>& marks = scratch.reach_marks;
  if (marks.size() < graph.cfg.size()) marks.resize(graph.cfg.size(), 0);
  if (scratch.reach_query >= ~0u - 2) {
    std::fill(marks.begin(), marks.end(), 0);
    scratch.reach_query = 0;
  }
  const uint32_t inside = ++scratch.reach_query;
  const uint32_t reached = ++scratch.reach_query;
  for (uint32_t b : region) marks[b] = inside;
  std::vector<uint32_t>& work = scratch.reach_work;
  work.clear();
  auto reach = [&](uint32_t b) {
    if (marks[b] == inside) marks[b] = reached, work.push_back(b);
  };
  for (size_t k = first; k < last; ++k) reach(exits[k].second);
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    if (b != stop) view.ForEachSuccessor(b, [&](uint32_t s, const Cycle*) { reach(s); });
  }
}

bool Reached(uint32_t block) {
  const BranchScratch& scratch = ThreadScratch();
  return scratch.reach_marks[block] == scratch.reach_query;
}

// Adds to |cycles| (once each) the cycles that the joins |joins| (any range
// of block indices) of the divergent |branch| make not m-converged.
template <typename Joins>
void AddNotMConvergedCycles(const CfgAnalyses& graph, uint32_t branch, const Joins& joins,
                            std::vector<const Cycle*>* cycles) {
  const DominatorTree& dt = graph.dominators;
  for (uint32_t join : joins) {
    const Cycle* join_cycle = graph.cycles.InnermostCycle(join);
    if (join_cycle != nullptr && !join_cycle->Contains(branch)) {
      // Diverged paths reaching a cycle from outside: harmless only when
      // the cycle has a single entry.
      const Cycle* outer = OutermostExcluding(join_cycle, branch);
      if (!outer->IsReducible()) InsertOnce(cycles, outer);
    }
    // Diverged-entry criterion (simplified from "Convergence and
    // Uniformity"): a cycle containing the branch and the join is fine if
    // the branch or the cycle's header strictly dominates the join, or the
    // cycle is reducible. The join may also lie in a child cycle that the
    // branch is outside of:
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
    InsertOnce(cycles, c);
  }
}

// The edges from |branch| to its distinct successors, sorted, in the
// thread's scratch, which the next call overwrites.
const Edges& SeedEdges(const Cfg& cfg, uint32_t branch) {
  Edges& seeds = ThreadScratch().seeds;
  seeds.clear();
  for (uint32_t s : cfg.successors[branch]) seeds.emplace_back(branch, s);
  std::sort(seeds.begin(), seeds.end());
  seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
  return seeds;
}

}  // namespace

const SyncDependenceCache::ExitEdgeJoins* SyncDependenceCache::ExitJoins(const Cycle* cycle) const {
  return cycle->index() < exit_joins_.size() ? exit_joins_[cycle->index()].get() : nullptr;
}

const SyncDependenceCache::ExitEdgeJoins& SyncDependenceCache::SetExitJoins(const Cycle* cycle,
                                                                            ExitEdgeJoins joins) {
  if (exit_joins_.size() <= cycle->index()) exit_joins_.resize(cycle->index() + 1);
  exit_joins_[cycle->index()] = std::make_unique<ExitEdgeJoins>(std::move(joins));
  return *exit_joins_[cycle->index()];
}

BranchDivergence ComputeBranchDivergence(const CfgAnalyses& graph, uint32_t branch,
                                         SyncDependenceCache* cache, OpenView open_view) {
  const Cfg& cfg = graph.cfg;
  BranchDivergence result;
  std::optional<SyncDependenceCache> local_cache;  // made only for a caller without one
  if (cache == nullptr) cache = &local_cache.emplace();
  SyncShortcuts& shortcuts = cache->shortcuts();
  if (shortcuts.MergesAtOnce(graph, branch, &result)) return result;
  const BranchView view(graph, branch, /*collapse_irreducible=*/true, shortcuts.ViewOrder(graph));
  JoinEdges& joins = ThreadScratch().joins;
  joins.clear();
  std::vector<std::pair<uint32_t, uint32_t>>& temporal_exits = ThreadScratch().temporal_exits;
  temporal_exits.clear();

  // The region ends at the acyclic post-dominator, nothing beyond it can
  // be a join, or earlier where the diverged paths merge (RunUntilMerged).
  Propagate(
      graph, view, SeedEdges(cfg, branch), [](uint32_t, uint32_t) { return false; },
      AcyclicPostDominator(graph, branch), &joins,
      [&](const Propagation& labels) {
        // Divergent exits: the labels on the edges leaving a cycle, and on
        // the edges into its header (threads staying). Two different ones,
        // at least one of them leaving, mean threads can leave on different
        // iterations or through different exits. The collapsed header's own
        // edges stand for threads that stayed: they are not counted as
        // leaving; those of a nested collapsed header are (threads that
        // stayed in the inner cycle and leave this one from there).
        //
        // The enclosing cycles are nested, so the ones containing a block
        // are those from the innermost that does (|depth|) outwards: one
        // pass over the region's edges serves every cycle.
        const BranchView::Enclosing& enclosing = view.enclosing();
        const uint32_t count = static_cast<uint32_t>(enclosing.size());
        if (count == 0) return;
        auto depth = [&](uint32_t block) {
          uint32_t k = 0;
          while (k < count && !enclosing[k]->Contains(block)) ++k;
          return k;
        };
        using Labels = BranchScratch::ExitLabels;
        BranchScratch& scratch = ThreadScratch();
        std::vector<Labels>& seen = scratch.exit_labels;
        seen.assign(count, Labels{});
        scratch.leaving.clear();
        for (uint32_t to : labels.region()) {
          const uint32_t to_depth = depth(to);
          for (const auto& e : labels.InEdges(to)) {
            const uint32_t l = labels.EdgeLabel(e, to, labels.stop());
            if (l == kNoLabel) continue;
            for (uint32_t k = e.from == branch ? 0 : depth(e.from); k < count; ++k) {
              const Cycle* c = enclosing[k];
              const bool staying = to == c->header();
              const bool leaving = !staying && k < to_depth && e.via != c;
              if (!staying && !leaving) continue;
              Labels& s = seen[k];
              s.leaving |= leaving;
              if (s.first == kNoLabel)
                s.first = l;
              else
                s.mixed |= l != s.first;
              if (leaving) {
                scratch.leaving.push_back({k, l, to});
              } else if (s.staying == kNoLabel) {
                s.staying = l;
              } else {
                s.staying_mixed |= l != s.staying;
              }
            }
          }
        }
        // If the propagation stopped where the paths merged, at D, the
        // edges after D would not change this: in the view order a cycle's
        // header and exits come after every block inside it, so no edge
        // staying in or leaving a cycle that contains D was followed before
        // D was the last block left, and all those after D carry D's label
        // (one label: never mixed). A cycle around the branch that does not
        // contain D lies wholly before it.
        for (uint32_t k = 0; k < count; ++k) {
          if (seen[k].leaving && seen[k].mixed)
            result.divergent_exit_cycles.push_back(enclosing[k]);
        }
        // Temporal divergence: threads on a label that leaves, and threads
        // on another label that comes back to the header, leave on
        // different iterations. (After D, where the propagation may have
        // stopped, every edge carries D's label: no such pair.)
        for (const BranchScratch::LeavingLabel& leaving : scratch.leaving) {
          const Labels& s = seen[leaving.cycle];
          if (s.staying_mixed || (s.staying != kNoLabel && s.staying != leaving.label)) {
            temporal_exits.emplace_back(leaving.cycle, leaving.exit);
          }
        }
        std::sort(temporal_exits.begin(), temporal_exits.end());
        temporal_exits.erase(std::unique(temporal_exits.begin(), temporal_exits.end()),
                             temporal_exits.end());
      });

  // Temporal divergence: threads that leave on an earlier iteration may
  // meet the ones that stayed, which leave later through any exit edge, at
  // a block after the cycle. Each exit edge is then its own definition, and
  // where two of them meet (an exit block entered by several exit edges, or
  // a block after two exits) is a join too, even when every incoming value
  // is defined outside; but only where the early leavers arrive, from the
  // exit blocks they reach (UniformMultiExitCyclePhi: leaving early to a
  // return makes no join at the exit the others take together). The
  // region lies outside the cycle, where every branch inside it sees the
  // same view (the cycles around it are collapsed, being reducible or
  // enclosing the branch; others only if reducible), so the joins of the
  // exit edges are computed once per cycle.
  for (size_t i = 0; i < temporal_exits.size();) {
    const uint32_t k = temporal_exits[i].first;
    const Cycle* c = view.enclosing()[k];
    const size_t first = i;
    while (i < temporal_exits.size() && temporal_exits[i].first == k) ++i;
    const uint32_t stop = AcyclicPostDominator(graph, c->header());
    const SyncDependenceCache::ExitEdgeJoins* exit_joins = cache->ExitJoins(c);
    if (exit_joins == nullptr) {
      JoinEdges found;
      SyncDependenceCache::ExitEdgeJoins computed;
      Propagate(
          graph, view, c->exit_edges(), [&](uint32_t, uint32_t to) { return c->Contains(to); },
          stop, &found, [&](const Propagation& labels) { computed.region = labels.region(); });
      GroupJoins(&found, [&](uint32_t join, const std::vector<uint32_t>& preds) {
        computed.joins.emplace_back(join, preds);
      });
      exit_joins = &cache->SetExitJoins(c, std::move(computed));
    }
    const bool every_exit = i - first == c->exits().size();
    if (!every_exit) MarkReached(graph, view, stop, exit_joins->region, temporal_exits, first, i);
    for (const auto& [join, preds] : exit_joins->joins) {
      if (!every_exit && !Reached(join)) continue;
      joins.emplace_back(join, kNoLabel);
      for (uint32_t p : preds) joins.emplace_back(join, p);
    }
  }
  // Grouped in the thread's lists, then copied: one allocation per array
  // of the result, instead of one per doubling as they grow.
  BranchScratch& scratch = ThreadScratch();
  scratch.found_joins.clear();
  scratch.found_predecessors.Clear();
  GroupJoins(&joins, [&](uint32_t join, const std::vector<uint32_t>& preds) {
    scratch.found_joins.push_back(join);
    scratch.found_predecessors.AddList(preds);
  });
  if (!scratch.found_joins.empty()) {
    scratch.found_predecessors.Finish();
    result.joins = scratch.found_joins;
    result.join_predecessors = scratch.found_predecessors;
  }

  // Joins that break m-convergence: those above and, when an irreducible
  // cycle contains the branch, the joins of paths through its header (the
  // open view, now or on request).
  AddNotMConvergedCycles(graph, branch, result.joins, &result.not_m_converged_cycles);
  if (std::any_of(view.enclosing().begin(), view.enclosing().end(),
                  [](const Cycle* c) { return !c->IsReducible(); }) &&
      !shortcuts.OpenViewFindsTheseJoins(graph, branch)) {
    if (open_view == OpenView::kRun) {
      for (const Cycle* c : OpenViewCycles(graph, branch, result, cache)) {
        result.not_m_converged_cycles.push_back(c);
      }
    } else {
      result.open_view_deferred = true;
    }
  }
  return result;
}

// The joins of paths through the header of an irreducible cycle that
// contains the branch, on a view in which such cycles are not collapsed.
std::vector<const Cycle*> OpenViewCycles(const CfgAnalyses& graph, uint32_t branch,
                                         const BranchDivergence& divergence,
                                         SyncDependenceCache* cache) {
  std::optional<SyncDependenceCache> local_cache;  // made only for a caller without one
  if (cache == nullptr) cache = &local_cache.emplace();
  const BranchView open_view(graph, branch, /*collapse_irreducible=*/false,
                             cache->shortcuts().ViewOrder(graph));
  JoinEdges& open_joins = ThreadScratch().open_joins;
  open_joins.clear();
  Propagate(
      graph, open_view, SeedEdges(graph.cfg, branch), [](uint32_t, uint32_t) { return false; },
      AcyclicPostDominator(graph, branch), &open_joins, [](const Propagation&) {});
  std::vector<uint32_t> joins;
  GroupJoins(&open_joins,
             [&](uint32_t join, const std::vector<uint32_t>&) { joins.push_back(join); });
  std::vector<const Cycle*> cycles = divergence.not_m_converged_cycles;
  const size_t known = cycles.size();
  AddNotMConvergedCycles(graph, branch, joins, &cycles);
  cycles.erase(cycles.begin(), cycles.begin() + static_cast<std::ptrdiff_t>(known));
  return cycles;
}

std::vector<const Cycle*> CyclesNotMConvergedBy(const CfgAnalyses& graph, uint32_t branch,
                                                uint32_t join) {
  std::vector<const Cycle*> cycles;
  const uint32_t joins[] = {join};  // (a list of one would be an allocation per call)
  AddNotMConvergedCycles(graph, branch, joins, &cycles);
  return cycles;
}

const BranchDivergence& SyncDependence::Divergence(uint32_t block) const {
  if (divergence_.empty()) divergence_.resize(graph_.cfg.size());
  std::unique_ptr<BranchDivergence>& slot = divergence_[block];
  if (!slot) {
    slot = std::make_unique<BranchDivergence>(
        ComputeBranchDivergence(graph_, block, &cache_, OpenView::kDefer));
  }
  return *slot;
}

const std::vector<const Cycle*>& SyncDependence::OpenViewCycles(uint32_t block) const {
  auto it = open_view_.find(block);
  if (it == open_view_.end()) {
    it = open_view_
             .emplace(block, analysis::OpenViewCycles(graph_, block, Divergence(block), &cache_))
             .first;
  }
  return it->second;
}

}  // namespace analysis
}  // namespace spirv_conv
