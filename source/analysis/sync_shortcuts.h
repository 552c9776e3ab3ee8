// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The proved shortcuts of sync dependence (sync_dependence.h). The label
// propagation there is the reference: run to the acyclic post-dominator
// with both views, it finds every join, divergent exit and cycle that is
// not m-converged. Each shortcut gives the same answer on the shapes its
// comment proves it for, with less work:
//
//   MergesAtOnce             an if/else or if-then with nothing nested: the
//                            joins without a propagation;
//   ViewOrder                the order that lets a propagation stop where
//                            the diverged paths have merged;
//   OpenViewFindsTheseJoins  the open view would add nothing, so it is not
//                            run;
//   OpenViewCandidatesSettled  every cycle the open view could add is
//                            already known not m-converged.
//
// A SyncShortcuts made disabled takes none of them: the reference instance
// tests compare with (SyncDependenceTest.ShortcutsMatchTheReference...).

#ifndef SOURCE_ANALYSIS_SYNC_SHORTCUTS_H_
#define SOURCE_ANALYSIS_SYNC_SHORTCUTS_H_

#include <cstdint>
#include <vector>

#include "analysis/cfg_analyses.h"

namespace spirv_conv {
namespace analysis {

struct BranchDivergence;

// The cycles a join |join| of the divergent |branch_block| makes not
// m-converged (diverged paths reaching an irreducible cycle from outside, or
// the diverged-entry criterion); defined with the propagation.
std::vector<const Cycle*> CyclesNotMConvergedBy(const CfgAnalyses& graph, uint32_t branch_block,
                                                uint32_t join);

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

class SyncShortcuts {
 public:
  explicit SyncShortcuts(bool enabled) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }

  // True if the diverged paths of |branch| merge at once (see the proof in
  // sync_shortcuts.cpp); then |result| holds what the propagation finds.
  bool MergesAtOnce(const CfgAnalyses& graph, uint32_t branch, BranchDivergence* result);
  // How many branches took that shortcut (for tests).
  size_t merges_at_once() const { return merges_at_once_; }

  // The order in which propagations label blocks, so that they can stop
  // where the diverged paths have merged; null when disabled (propagations
  // then go on to the acyclic post-dominator).
  const std::vector<uint32_t>* ViewOrder(const CfgAnalyses& graph);

  // True if the open view (OpenViewCycles) would find the joins the first
  // propagation of |branch| found, so that it has nothing to add.
  bool OpenViewFindsTheseJoins(const CfgAnalyses& graph, uint32_t branch);

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
                                 const SettledFn& settled);

 private:
  // The irreducible top-level cycles other than |top| (a top-level cycle of
  // |graph|) that a path from |top| reaches before its acyclic
  // post-dominator; null if finding them would cost too much (the searches
  // of one function together visit at most a few times its blocks).
  const std::vector<const Cycle*>* SegmentCycles(const CfgAnalyses& graph, const Cycle* top);
  // True if |branch| strictly dominates every block that a path from its
  // successors reaches before |merge| (so no such path comes back to it);
  // false also if finding out would cost too much.
  bool DominatesUpTo(const CfgAnalyses& graph, uint32_t branch, uint32_t merge);
  // A new search's mark for seen_, sized to |graph|; 0 once the searches
  // of the function have used up their budget of visits.
  uint32_t StartSearch(const CfgAnalyses& graph);
  bool Visit() { return ++visits_ <= budget_; }

  bool enabled_;
  size_t merges_at_once_ = 0;
  std::vector<uint32_t> view_order_;  // by block; empty until needed
  struct Segment {
    bool computed = false;
    bool known = false;
    std::vector<const Cycle*> cycles;
  };
  std::vector<Segment> segments_;  // by Cycle::index()
  std::vector<uint32_t> seen_;     // per block: the search that last saw it
  std::vector<uint32_t> listed_;   // per cycle: the search that last listed it
  std::vector<uint32_t> work_;     // DominatesUpTo's (it runs for most branches)
  uint32_t searches_ = 0;
  size_t visits_ = 0;
  size_t budget_ = 0;
};

template <typename SettledFn>
bool SyncShortcuts::OpenViewCandidatesSettled(const CfgAnalyses& graph, uint32_t branch_block,
                                              const SettledFn& settled) {
  if (!enabled_) return false;
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
  const std::vector<const Cycle*>* after = SegmentCycles(graph, top);
  if (after == nullptr) return false;
  for (const Cycle* c : *after) {
    if (!settled(c)) return false;
  }
  return true;
}

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_SYNC_SHORTCUTS_H_
