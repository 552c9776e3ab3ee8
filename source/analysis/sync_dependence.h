// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Sync dependence: what a divergent branch does to the rest of the CFG.
//
// Threads that take different successors of a divergent branch B run on
// *diverged paths*. A block J reached from two successors of B by disjoint
// paths is a *join* of B: its phis choose between values from different
// paths, so they can differ between threads (seed 000, "Uniformity"). Joins
// are found the way SSA construction places phis: every successor of B
// defines a virtual variable anew, labels (the reaching definition) flow
// forward, and a block where two different labels meet is a join and
// defines the variable itself.
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
#include <utility>
#include <vector>

#include "analysis/cfg_analyses.h"

namespace spirv_conv {
namespace analysis {

struct BranchDivergence {
  std::vector<uint32_t> joins;  // sorted block indices
  // Per join: the predecessors whose edges into it lie on diverged paths
  // (sorted). Threads converged at the join that diverged at the branch
  // came along these edges only, so a phi whose incoming values on them
  // are one value does not choose between paths.
  std::vector<std::vector<uint32_t>> join_predecessors;
  std::vector<const Cycle*> divergent_exit_cycles;   // cycles containing the branch
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
// view of the CFG is the same for every branch inside it), the top-level
// cycles after each top-level cycle (OpenViewCandidatesSettled), and the
// order in which propagations label blocks.
class SyncDependenceCache {
 public:
  using Joins = std::vector<std::pair<uint32_t, std::vector<uint32_t>>>;  // join, predecessors
  // The cached joins of |cycle|'s exits, or null.
  const Joins* ExitJoins(const Cycle* cycle) const;
  const Joins& SetExitJoins(const Cycle* cycle, Joins joins);

  // The irreducible top-level cycles other than |top| (a top-level cycle of
  // |graph|) that a path from |top| reaches before its acyclic
  // post-dominator; null if finding them would cost too much (the searches
  // of one function together visit at most a few times its blocks).
  const std::vector<const Cycle*>* SegmentCycles(const CfgAnalyses& graph, const Cycle* top);

  // The order in which propagations label blocks, so that they can stop
  // where the diverged paths have merged; null if they are not to stop
  // there (set_stop_when_merged(false): a test compares both).
  const std::vector<uint32_t>* ViewOrder(const CfgAnalyses& graph);
  void set_stop_when_merged(bool stop) { stop_when_merged_ = stop; }

 private:
  std::vector<std::unique_ptr<Joins>> exit_joins_;  // by Cycle::index()
  struct Segment {
    bool computed = false;
    bool known = false;
    std::vector<const Cycle*> cycles;
  };
  std::vector<Segment> segments_;  // by Cycle::index()
  std::vector<uint32_t> seen_;     // per block: the search that last saw it
  std::vector<uint32_t> listed_;   // per cycle: the search that last listed it
  uint32_t searches_ = 0;
  size_t visits_ = 0;
  bool stop_when_merged_ = true;
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
template <typename SettledFn>
bool OpenViewCandidatesSettled(const CfgAnalyses& graph, uint32_t branch_block,
                               SyncDependenceCache* cache, const SettledFn& settled) {
  const Cycle* top = nullptr;
  for (const Cycle* c = graph.cycles.InnermostCycle(branch_block); c != nullptr; c = c->parent()) {
    if (!c->IsReducible() && !settled(c)) return false;
    for (const Cycle* child : c->children()) {
      if (!child->IsReducible() && !child->Contains(branch_block) && !settled(child)) return false;
    }
    top = c;
  }
  if (top == nullptr) return true;
  const std::vector<const Cycle*>* after = cache->SegmentCycles(graph, top);
  if (after == nullptr) return false;
  for (const Cycle* c : *after) {
    if (!settled(c)) return false;
  }
  return true;
}

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_SYNC_DEPENDENCE_H_
