// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/sync_shortcuts.h"

#include <algorithm>
#include <utility>

#include "analysis/sync_dependence.h"

namespace spirv_conv {
namespace analysis {

namespace {

constexpr uint32_t kNoLabel = ~0u;

// The order in which RunUntilMerged labels blocks: topological for every
// view of the CFG except around the cycles a view keeps. Recursively, a
// region (the function, or a cycle without its header) lists its blocks
// and child cycles in a topological order of the region with each child
// contracted to one node, and a child is listed as its own region followed
// by its header:
//
//        A             order: A, [C1 body: L], H, X
//        |             H -> L -> H is a cycle with header H. A view that
//        H <--.        collapses it goes A -> H -> X (its exit) or, from a
//       / \   |        branch inside, L -> H -> X: forward either way. Only
//      X   L -'        a view that keeps it has H -> L, going backward.
//
// (LLVM's modified post-order has the same shape.) Unreachable blocks get
// kNoLabel.
//
// The reverse post-order of the DFS that found the cycles, with each child
// placed where its header is, is such a topological order of every region,
// irreducible children included. A cycle's header is the first of its
// blocks the DFS discovers, so the others are its descendants and finish
// first; then for an edge u -> v of a region (v not the region's header):
// - u and v in no child: the edge goes forward, or v would head a cycle
//   holding u inside the region, a child;
// - into a child C from u outside it: u finishes after C's header (it is
//   still open when the header is discovered, or is discovered after the
//   header has finished, as u would otherwise lie on a cycle with C);
// - out of a child C to v: v finishes before C's header, being discovered
//   from it or finished before it, as v (or the child v is in) would
//   otherwise lie on a cycle with C.
// So one pass over the reverse post-order sorts the blocks into their
// regions and a second lists the regions depth first: time linear in the
// blocks. (Kahn's algorithm run per region, over all of a cycle's blocks,
// costs a pass over each block per cycle around it.)
std::vector<uint32_t> ComputeViewOrder(const CfgAnalyses& graph) {
  const CycleInfo& cycles = graph.cycles;
  const auto n_cycles = static_cast<uint32_t>(graph.cycle_tree.parent.size());
  // Region 0 is the function, region 1 + i cycle i without its header. A
  // region's items, in reverse post-order: its blocks, and the headers of
  // its child cycles standing for them.
  auto region_of_cycle = [](const Cycle* c) { return c == nullptr ? 0 : 1 + c->index(); };
  std::vector<std::pair<uint32_t, uint32_t>> items;  // (region, block)
  items.reserve(graph.rpo.size());
  for (uint32_t b : graph.rpo) {
    const Cycle* c = cycles.InnermostCycle(b);
    const Cycle* region = c != nullptr && c->header() == b ? c->parent() : c;
    items.emplace_back(region_of_cycle(region), b);
  }
  const CompressedLists regions = CompressedLists::FromPairs(n_cycles + 1, items);
  std::vector<uint32_t> key(graph.cfg.size(), kNoLabel);
  uint32_t next = 0;
  struct Open {
    uint32_t region;
    uint32_t at;      // the next item
    uint32_t header;  // the cycle's header, numbered after its region
  };
  std::vector<Open> open = {{0, 0, kNoLabel}};
  while (!open.empty()) {
    Open& top = open.back();
    const CompressedLists::Range list = regions[top.region];
    if (top.at == list.size()) {
      if (top.header != kNoLabel) key[top.header] = next++;
      open.pop_back();
      continue;
    }
    const uint32_t b = list[top.at++];
    const Cycle* c = cycles.InnermostCycle(b);
    if (c != nullptr && c->header() == b) {
      open.push_back({region_of_cycle(c), 0, b});  // |top| is not used after this
    } else {
      key[b] = next++;
    }
  }
  return key;
}

}  // namespace

// True if the open view (OpenViewCycles) would find the joins the first
// propagation found, so it has nothing to add. That is so when the branch B
// strictly dominates every block that its diverged paths reach before its
// immediate post-dominator P:
//
//        H <-------.   H: the header of an irreducible cycle around B, the
//        |         |   only kind of block the two views treat differently
//        B         |   (collapsed in the first, kept in the open view). A
//       / \        |   depth-first search meets B before any block B
//      T   F       |   dominates, so none of those is H: before P, both
//       \ /        |   views see the same blocks and edges and label them
//        P --------'   alike (and no path comes back to B before P).
//
// The other blocks the propagation reaches are reached through P only, so
// they carry P's label alone, in either view: no join there. (A propagation
// whose labels never settle would count other joins, which no test has
// seen.)
bool SyncShortcuts::OpenViewFindsTheseJoins(const CfgAnalyses& graph, uint32_t branch) {
  if (!enabled_) return false;
  const uint32_t merge = graph.post_dominators.Idom(branch);
  if (merge == DominatorTree::kNone || merge == graph.post_dominators.root()) return false;
  return DominatesUpTo(graph, branch, merge);
}

// True if the diverged paths of |branch| B merge at once, and then sets
// |result| to what the propagation would find: every successor S of B is
// either B's immediate post-dominator P or a block entered only from B that
// goes only to P, and the cycles do not matter (those around B are
// reducible and hold every S and P, P not being their header; or B lies in
// no cycle and P in no irreducible one):
//
//        B          Each S carries its own label, and so does the edge
//       /|\         B -> P: P meets them all (a join, if there are two or
//     S1 S2 |       more) and is the only block that does. Its
//       \|/         predecessors on diverged paths are the S and, for the
//        P          edge B -> P, B itself. No edge leaves or re-enters a
//                   cycle around B and no irreducible cycle is entered: no
// divergent exit, and every cycle stays m-converged. If/else and if-then
// branches with nothing nested have this shape, a common one; they skip the
// propagation.
bool SyncShortcuts::MergesAtOnce(const CfgAnalyses& graph, uint32_t branch,
                                 BranchDivergence* result) {
  if (!enabled_) return false;
  const DominatorTree& pdt = graph.post_dominators;
  const CycleInfo& cycles = graph.cycles;
  if (!cycles.IsReachable(branch)) return false;
  const uint32_t merge = pdt.Idom(branch);
  if (merge == DominatorTree::kNone || merge == pdt.root()) return false;
  const Cycle* around = cycles.InnermostCycle(branch);
  auto all_reducible = [](const Cycle* c) {
    for (; c != nullptr; c = c->parent()) {
      if (!c->IsReducible()) return false;
    }
    return true;
  };
  if (!all_reducible(around)) return false;
  const Cycle* at_merge = cycles.InnermostCycle(merge);
  if (around != nullptr ? at_merge != around || merge == around->header()
                        : !all_reducible(at_merge)) {
    return false;
  }
  std::vector<uint32_t> predecessors;  // of the merge, on diverged paths
  for (uint32_t s : graph.cfg.successors[branch]) {
    if (s == merge) {
      predecessors.push_back(branch);
      continue;
    }
    const std::vector<uint32_t>& next = graph.cfg.successors[s];
    if (cycles.InnermostCycle(s) != around || next.empty()) return false;
    for (uint32_t p : graph.predecessors[s]) {
      if (p != branch) return false;
    }
    for (uint32_t t : next) {
      if (t != merge) return false;
    }
    predecessors.push_back(s);
  }
  std::sort(predecessors.begin(), predecessors.end());
  predecessors.erase(std::unique(predecessors.begin(), predecessors.end()), predecessors.end());
  if (predecessors.size() >= 2) {
    result->joins.push_back(merge);
    result->join_predecessors.AddList(predecessors);
    result->join_predecessors.Finish();
  }
  ++merges_at_once_;
  return true;
}

const std::vector<uint32_t>* SyncShortcuts::ViewOrder(const CfgAnalyses& graph) {
  if (!enabled_) return nullptr;
  if (view_order_.size() != graph.cfg.size()) view_order_ = ComputeViewOrder(graph);
  return &view_order_;
}

uint32_t SyncShortcuts::StartSearch(const CfgAnalyses& graph) {
  const uint32_t blocks = graph.cfg.size();
  if (seen_.size() < blocks) {
    seen_.resize(blocks, 0);
    budget_ = 4 * static_cast<size_t>(blocks) + 4096;
  }
  return visits_ < budget_ ? ++searches_ : 0;
}

bool SyncShortcuts::DominatesUpTo(const CfgAnalyses& graph, uint32_t branch, uint32_t merge) {
  const uint32_t search = StartSearch(graph);
  if (search == 0) return false;
  const DominatorTree& dt = graph.dominators;
  std::vector<uint32_t>& work = work_;
  work.clear();
  auto reach = [&](uint32_t b) {
    if (b == merge || seen_[b] == search) return true;
    if (!dt.StrictlyDominates(branch, b)) return false;
    seen_[b] = search;
    work.push_back(b);
    return true;
  };
  for (uint32_t s : graph.cfg.successors[branch]) {
    if (!reach(s)) return false;
  }
  while (!work.empty()) {
    if (!Visit()) return false;
    const uint32_t b = work.back();
    work.pop_back();
    for (uint32_t s : graph.cfg.successors[b]) {
      if (!reach(s)) return false;
    }
  }
  return true;
}

// Every block of |top| has the same acyclic post-dominator S: a
// post-dominator of one block of a cycle that lies outside it post-dominates
// every block of it (each reaches the others inside the cycle), so the
// post-dominators outside the cycle are the same chain for all of them. A
// propagation from a branch in |top| thus stays within the blocks reachable
// from |top| without passing S; collapsing cycles only removes paths.
const std::vector<const Cycle*>* SyncShortcuts::SegmentCycles(const CfgAnalyses& graph,
                                                              const Cycle* top) {
  if (segments_.size() <= top->index()) segments_.resize(top->index() + 1);
  Segment& segment = segments_[top->index()];
  if (segment.computed) return segment.known ? &segment.cycles : nullptr;
  segment.computed = true;
  const uint32_t search = StartSearch(graph);
  if (search == 0) return nullptr;
  const uint32_t stop = AcyclicPostDominator(graph, top->header());
  std::vector<uint32_t> work = top->exits();
  for (uint32_t b : work) seen_[b] = search;
  while (!work.empty()) {
    if (!Visit()) return nullptr;
    const uint32_t b = work.back();
    work.pop_back();
    if (b == stop) continue;
    const Cycle* c = graph.cycles.InnermostCycle(b);
    if (c != nullptr) {
      while (c->parent() != nullptr) c = c->parent();
      if (listed_.size() <= c->index()) listed_.resize(c->index() + 1, 0);
      if (c != top && !c->IsReducible() && listed_[c->index()] != search) {
        listed_[c->index()] = search;
        segment.cycles.push_back(c);
      }
    }
    for (uint32_t s : graph.cfg.successors[b]) {
      if (seen_[s] != search) seen_[s] = search, work.push_back(s);
    }
  }
  segment.known = true;
  return &segment.cycles;
}

const Cycle* OpenViewSingleLabelCycle(const CfgAnalyses& graph, uint32_t branch) {
  const Cycle* found = nullptr;
  for (const Cycle* z = graph.cycles.InnermostCycle(branch); z != nullptr; z = z->parent()) {
    // The successors in |z| (a switch may name one block several times);
    // an outer cycle holds those of an inner one.
    uint32_t inside = kNoLabel;
    for (uint32_t s : graph.cfg.successors[branch]) {
      if (!z->Contains(s) || s == inside) continue;
      if (inside != kNoLabel) return found;
      inside = s;
    }
    if (z->parent() == nullptr || z->parent()->IsReducible()) found = z;
  }
  return found;
}

const Cycle* OpenViewOneExitCycle(const CfgAnalyses& graph, uint32_t branch) {
  const DominatorTree& dt = graph.dominators;
  for (const Cycle* w = graph.cycles.InnermostCycle(branch); w != nullptr; w = w->parent()) {
    if (w->exits().size() > 1) continue;
    const Cycle* parent = w->parent();
    if (parent == nullptr || std::all_of(w->entries().begin(), w->entries().end(), [&](uint32_t e) {
          return dt.StrictlyDominates(parent->header(), e);
        })) {
      return w;
    }
  }
  return nullptr;
}

}  // namespace analysis
}  // namespace spirv_conv
