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
};

// What ComputeBranchDivergence finds the same for every branch, kept per
// function: the joins of the exit edges of a cycle with a divergent exit
// (threads leaving on different iterations). They lie outside the cycle,
// where the view of the CFG is the same for every branch inside it.
class SyncDependenceCache {
 public:
  using Joins = std::vector<std::pair<uint32_t, std::vector<uint32_t>>>;  // join, predecessors
  // The cached joins of |cycle|'s exits, or null.
  const Joins* ExitJoins(const Cycle* cycle) const;
  const Joins& SetExitJoins(const Cycle* cycle, Joins joins);

 private:
  std::vector<std::unique_ptr<Joins>> exit_joins_;  // by Cycle::index()
};

// What a divergent terminator in |branch_block| implies. |graph| must
// outlive the result (cycles are pointers into graph.cycles). |cache|, if
// given, must belong to |graph| and is used and filled.
BranchDivergence ComputeBranchDivergence(const CfgAnalyses& graph, uint32_t branch_block,
                                         SyncDependenceCache* cache = nullptr);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_SYNC_DEPENDENCE_H_
