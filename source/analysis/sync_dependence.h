// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Sync dependence: what a divergent branch does to the rest of the CFG.
//
// Threads that take different successors of a divergent branch B run on
// *diverged paths*. A block J reached from two successors of B by disjoint
// paths is a *join* of B: its phis choose between values from different
// paths, so they can differ between threads ("Convergence and Uniformity",
// section "Uniformity"). Joins are found the way SSA construction places
// phis: every successor of B defines a virtual variable anew, labels (the
// reaching definition) flow forward, and a block where two different labels
// meet is a join and defines the variable itself.
//
//          B (divergent)
//         / \            labels: S1 = S1, S2 = S2, J meets {S1, S2}: join.
//        S1  S2          X only sees J: not a join.
//         \  /
//          J -> X
//
// Inside cycles that contain B, edges back to a cycle's header end the
// propagation (the next execution of B is a new divergence), but they are
// remembered: when threads of different labels can leave a cycle and stay
// in it (or leave through different exits), the cycle has a *divergent
// exit* and uses outside it of values defined inside it see temporal
// divergence.
//
// Finally, joins inside irreducible cycles may make those cycles not
// m-converged: the diverged-entry criterion for a branch inside the cycle,
// diverged paths reaching different entries for a branch outside it.

#ifndef SOURCE_ANALYSIS_SYNC_DEPENDENCE_H_
#define SOURCE_ANALYSIS_SYNC_DEPENDENCE_H_

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/cfg_analyses.h"
#include "analysis/compressed_lists.h"

namespace spirv_conv {
namespace analysis {

struct BranchDivergence {
  std::vector<uint32_t> joins;  // sorted block indices
  // Per join (list k for joins[k]): the predecessors whose edges into it
  // lie on diverged paths (sorted). Threads converged at the join that
  // diverged at the branch came along these edges only, so a phi whose
  // incoming values on them are one value does not choose between paths.
  // (One array for all joins: a list each would be an allocation per join.)
  CompressedLists join_predecessors;
  // Cycles containing the branch that a diverged path leaves while another
  // comes back to the header (or leaves elsewhere): threads leave on
  // different iterations ("Convergence and Uniformity": temporal divergence),
  // and the ones that stay run the later iterations without those that left.
  std::vector<const Cycle*> divergent_exit_cycles;
  std::vector<const Cycle*> not_m_converged_cycles;  // outermost affected cycles
  // Computed with OpenView::kDefer and an irreducible cycle contains the
  // branch: not_m_converged_cycles lacks what OpenViewCycles() adds.
  bool open_view_deferred = false;
};

// The diverged-entry criterion needs a second propagation when an
// irreducible cycle contains the branch (the "open view", in which that
// cycle's header is not collapsed). It only ever adds cycles to
// not_m_converged_cycles, so a caller that already treats every cycle it
// could add as not m-converged may skip it (OpenViewCandidatesSettled).
enum class OpenView { kRun, kDefer };

// What sync dependence finds the same for every branch, kept per function:
// the joins of the exit edges of a cycle with a divergent exit (threads
// leaving on different iterations; they lie outside the cycle, where the
// view of the CFG is the same for every branch inside it, and a branch
// keeps those that its early leavers reach), the top-level
// cycles after each top-level cycle (OpenViewCandidatesSettled), and the
// order in which propagations label blocks.
class SyncDependenceCache {
 public:
  using Joins = std::vector<std::pair<uint32_t, std::vector<uint32_t>>>;  // join, predecessors
  // The joins of a cycle's exit edges, each edge its own definition, and
  // the blocks that propagation reached.
  struct ExitEdgeJoins {
    Joins joins;
    std::vector<uint32_t> region;
  };
  // The cached exit-edge joins of |cycle|, or null.
  const ExitEdgeJoins* ExitJoins(const Cycle* cycle) const;
  const ExitEdgeJoins& SetExitJoins(const Cycle* cycle, ExitEdgeJoins joins);

  // The irreducible top-level cycles other than |top| (a top-level cycle of
  // |graph|) that a path from |top| reaches before its acyclic
  // post-dominator; null if finding them would cost too much (the searches
  // of one function together visit at most a few times its blocks).
  const std::vector<const Cycle*>* SegmentCycles(const CfgAnalyses& graph, const Cycle* top);

  // True if |branch| strictly dominates every block that a path from its
  // successors reaches before |merge| (so no such path comes back to it);
  // false also if finding out would cost too much (with SegmentCycles, the
  // searches of one function together visit at most a few times its
  // blocks).
  bool DominatesUpTo(const CfgAnalyses& graph, uint32_t branch, uint32_t merge);

  // How propagations end: where the diverged paths have merged (the
  // shortcuts), or at the acyclic post-dominator with no shortcut (the
  // reference a test compares the shortcuts with).
  enum class Propagation { kStopWhenMerged, kReference };
  explicit SyncDependenceCache(Propagation propagation = Propagation::kStopWhenMerged)
      : stop_when_merged_(propagation == Propagation::kStopWhenMerged) {}

  // The order in which propagations label blocks, so that they can stop
  // where the diverged paths have merged; null for kReference, which also
  // turns off the shortcut for branches whose paths merge at their
  // immediate post-dominator (MergesAtOnce): those propagate like any
  // other.
  const std::vector<uint32_t>* ViewOrder(const CfgAnalyses& graph);
  bool stop_when_merged() const { return stop_when_merged_; }
  // How many branches took that shortcut (for tests).
  size_t merges_at_once() const { return merges_at_once_; }
  void CountMergeAtOnce() { ++merges_at_once_; }

 private:
  std::vector<std::unique_ptr<ExitEdgeJoins>> exit_joins_;  // by Cycle::index()
  struct Segment {
    bool computed = false;
    bool known = false;
    std::vector<const Cycle*> cycles;
  };
  std::vector<Segment> segments_;  // by Cycle::index()
  // A new search's mark for seen_, sized to |graph|; 0 once the searches
  // of the function have used up their budget of visits.
  uint32_t StartSearch(const CfgAnalyses& graph);
  bool Visit() { return ++visits_ <= budget_; }
  std::vector<uint32_t> seen_;    // per block: the search that last saw it
  std::vector<uint32_t> listed_;  // per cycle: the search that last listed it
  std::vector<uint32_t> work_;    // DominatesUpTo's (it runs for most branches)
  uint32_t searches_ = 0;
  size_t visits_ = 0;
  size_t budget_ = 0;
  bool stop_when_merged_;
  size_t merges_at_once_ = 0;
  std::vector<uint32_t> view_order_;  // by block; empty until needed
};

// What a divergent terminator in |branch_block| implies. |graph| must
// outlive the result (cycles are pointers into graph.cycles). |cache|, if
// given, must belong to |graph| and is used and filled.
BranchDivergence ComputeBranchDivergence(const CfgAnalyses& graph, uint32_t branch_block,
                                         SyncDependenceCache* cache = nullptr,
                                         OpenView open_view = OpenView::kRun);

// What the open view adds to |divergence| (computed for |branch_block| with
// OpenView::kDefer): the cycles ComputeBranchDivergence with OpenView::kRun
// would list after divergence.not_m_converged_cycles, in that order.
std::vector<const Cycle*> OpenViewCycles(const CfgAnalyses& graph, uint32_t branch_block,
                                         const BranchDivergence& divergence,
                                         SyncDependenceCache* cache = nullptr);

// A cycle around |branch_block| in which the open view has no join, or
// null: the outermost cycle Z around the branch B whose parent is reducible
// (or that has none) and that holds at most one successor of B. Joins need
// two labels, and inside Z there is only that successor's:
//
//      R  (reducible: collapsed in every view, so a path reaching its
//      |   header goes on at R's exits, outside R)
//      Z  (a cycle of R minus its header, so a maximal one: no path leaves
//      |   it and comes back without passing R's header)
//      B -> S1 in Z, S2 outside Z: S2's label never enters Z.
//
// Without R, Z is a maximal cycle of the whole CFG, with the same effect.
const Cycle* OpenViewSingleLabelCycle(const CfgAnalyses& graph, uint32_t branch_block);

// A cycle W around |branch_block| whose exit edges all lead to one block E
// (or that has none) and whose parent's header, if W has a parent,
// strictly dominates W's entries; the innermost such, or null. Outside W
// the open view has no join but E, and its joins inside W name cycles
// inside W only:
//
//      P (header p)        Labels leave W only through E (a successor of B
//      |                   outside W is an exit of W too), so every block
//      W: B -> ... -> E    reached outside W but E has its in-edges from
//           |              outside W or from E: E's label alone. Inside W,
//           '-> (in W)     the criterion widens from a cycle to its parent
//                          only while the parent's header does not dominate
// the join, and p dominates every block of W (every path into W passes an
// entry of W).
const Cycle* OpenViewOneExitCycle(const CfgAnalyses& graph, uint32_t branch_block);

// The cycles a join |join| of the divergent |branch_block| makes not
// m-converged (diverged paths reaching an irreducible cycle from outside, or
// the diverged-entry criterion).
std::vector<const Cycle*> CyclesNotMConvergedBy(const CfgAnalyses& graph, uint32_t branch_block,
                                                uint32_t join);

// True if |settled(cycle)| holds for every cycle OpenViewCycles could list
// for |branch_block|, so that a caller need not run it. It lists irreducible
// cycles only:
// - for the diverged-entry criterion, an irreducible cycle containing the
//   branch: the criterion starts from one and widens to its parent only
//   while the parent's header does not dominate the join, which the header
//   of a reducible parent always does;
// - the cycles that diverged paths reach from outside: children of a cycle
//   containing the branch, or top-level cycles after the outermost one
//   (SegmentCycles; unknown counts as unsettled).
// Neither kind can come from inside OpenViewSingleLabelCycle(), which has
// no join: the criterion needs a join in the cycle it names, and a child
// is named for a join inside it. Those cycles are not asked about. Around
// OpenViewOneExitCycle(), only what a join at its exit names is.
template <typename SettledFn>
bool OpenViewCandidatesSettled(const CfgAnalyses& graph, uint32_t branch_block,
                               SyncDependenceCache* cache, const SettledFn& settled) {
  const Cycle* single_label = OpenViewSingleLabelCycle(graph, branch_block);
  const Cycle* one_exit = OpenViewOneExitCycle(graph, branch_block);
  const Cycle* top = nullptr;
  for (const Cycle* c = graph.cycles.InnermostCycle(branch_block); c != nullptr; c = c->parent()) {
    top = c;
    if (single_label != nullptr) {
      // |c| is that cycle or lies in it, and so do its children.
      if (c == single_label) single_label = nullptr;
    } else {
      if (!c->IsReducible() && !settled(c)) return false;
      for (const Cycle* child : c->children()) {
        if (!child->IsReducible() && !child->Contains(branch_block) && !settled(child)) {
          return false;
        }
      }
    }
    if (c == one_exit) {
      for (uint32_t exit : c->exits()) {
        for (const Cycle* named : CyclesNotMConvergedBy(graph, branch_block, exit)) {
          if (!settled(named)) return false;
        }
      }
      return true;
    }
  }
  if (top == nullptr) return true;
  const std::vector<const Cycle*>* after = cache->SegmentCycles(graph, top);
  if (after == nullptr) return false;
  for (const Cycle* c : *after) {
    if (!settled(c)) return false;
  }
  return true;
}

// The sync dependence of one function's branches, each computed on first
// use with the function's SyncDependenceCache, which it owns: what the
// uniformity solver asks of the CFG. Queries are const; the caches are
// filled behind them (one solver uses a function's model at a time).
class SyncDependence {
 public:
  // |graph| must outlive this object.
  explicit SyncDependence(const CfgAnalyses& graph) : graph_(graph) {}

  // The divergence of |block|'s terminator, with the open view deferred.
  const BranchDivergence& Divergence(uint32_t block) const;
  // OpenViewCycles for |block| (whose Divergence() has open_view_deferred).
  const std::vector<const Cycle*>& OpenViewCycles(uint32_t block) const;
  // OpenViewCandidatesSettled for |block|.
  template <typename SettledFn>
  bool OpenViewSettled(uint32_t block, const SettledFn& settled) const {
    return OpenViewCandidatesSettled(graph_, block, &cache_, settled);
  }

 private:
  const CfgAnalyses& graph_;
  mutable SyncDependenceCache cache_;
  // Per block, once asked for (most functions have few divergent branches,
  // a large one many: a hash map costs a cache miss per lookup there).
  mutable std::vector<std::unique_ptr<BranchDivergence>> divergence_;
  mutable std::unordered_map<uint32_t, std::vector<const Cycle*>> open_view_;
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_SYNC_DEPENDENCE_H_
