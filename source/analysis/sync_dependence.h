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
#include "analysis/sync_shortcuts.h"

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
// keeps those that its early leavers reach), and the proved shortcuts
// (sync_shortcuts.h) with what they remember.
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

  // How propagations run: with the proved shortcuts, or as the reference
  // label propagation alone (what a test compares the shortcuts with).
  enum class Propagation { kShortcuts, kReference };
  explicit SyncDependenceCache(Propagation propagation = Propagation::kShortcuts)
      : shortcuts_(propagation == Propagation::kShortcuts) {}
  SyncShortcuts& shortcuts() { return shortcuts_; }

 private:
  std::vector<std::unique_ptr<ExitEdgeJoins>> exit_joins_;  // by Cycle::index()
  SyncShortcuts shortcuts_;
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
    return cache_.shortcuts().OpenViewCandidatesSettled(graph_, block, settled);
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
