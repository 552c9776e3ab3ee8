// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/dominance.h"

#include <algorithm>
#include <utility>

#include "analysis/compressed_lists.h"
#include "analysis/scc.h"

namespace spirv_conv {
namespace analysis {
namespace {

// Blocks that can reach a block without successors.
std::vector<char> ReachesExit(const Cfg& cfg, const CompressedLists& predecessors) {
  std::vector<char> reaches(cfg.size(), 0);
  std::vector<uint32_t> work;
  for (uint32_t b = 0; b < cfg.size(); ++b) {
    if (cfg.successors[b].empty()) reaches[b] = 1, work.push_back(b);
  }
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    for (uint32_t p : predecessors[b]) {
      if (!reaches[p]) reaches[p] = 1, work.push_back(p);
    }
  }
  return reaches;
}

// For the blocks from which no exit is reachable that lie in a *sink*
// strongly connected component of the CFG (an endless loop nothing leaves):
// the header of their component, the block of it that a depth-first search
// from the entry reaches first (CycleInfo's header of that top-level cycle;
// the lowest block if the search never reaches it); kNoHeader for the
// other blocks. Blocks that only lead into an endless loop keep their real
// successors, so the blocks on the way still post-dominate (a loop with an
// exit that leads into an endless loop reconverges at the exit block as any
// other loop does).
constexpr uint32_t kNoHeader = ~0u;
std::vector<uint32_t> EndlessSinkHeaders(const Cfg& cfg, const std::vector<char>& reaches) {
  const uint32_t n = cfg.size();
  std::vector<char> endless(n);
  for (uint32_t b = 0; b < n; ++b) endless[b] = !reaches[b];
  uint32_t components = 0;
  const std::vector<uint32_t> component =
      StronglyConnectedComponents(cfg.successors, endless, &components);
  std::vector<char> leaves(components, 0);  // a component with an edge out of it
  for (uint32_t b = 0; b < n; ++b) {
    if (component[b] == kNoComponent) continue;
    for (uint32_t s : cfg.successors[b]) {
      if (component[s] != component[b]) leaves[component[b]] = 1;
    }
  }
  std::vector<uint32_t> header(components, kNoHeader);
  bool any = false;
  for (uint32_t b = 0; b < n; ++b) {
    if (component[b] == kNoComponent || leaves[component[b]]) continue;
    any = true;
    if (header[component[b]] == kNoHeader) header[component[b]] = b;  // the lowest
  }
  std::vector<uint32_t> sink_header(n, kNoHeader);
  if (!any) return sink_header;
  std::vector<char> found(components, 0);
  for (uint32_t b : ReversePostOrder(cfg.successors, cfg.entry)) {
    // In a strongly connected component the block discovered first has
    // every other one as a descendant: it comes first in reverse post-order.
    const uint32_t c = component[b];
    if (c != kNoComponent && !leaves[c] && !found[c]) found[c] = 1, header[c] = b;
  }
  for (uint32_t b = 0; b < n; ++b) {
    if (component[b] != kNoComponent && !leaves[component[b]])
      sink_header[b] = header[component[b]];
  }
  return sink_header;
}

// ReversePostOrder over successor lists of either form.
template <typename Graph>
std::vector<uint32_t> ReversePostOrderOf(const Graph& successors, uint32_t root) {
  std::vector<uint32_t> post;
  std::vector<char> seen(successors.size(), 0);
  std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
  seen[root] = 1;
  while (!stack.empty()) {
    auto& [block, next] = stack.back();
    if (next < successors[block].size()) {
      const uint32_t successor = successors[block][next++];
      if (!seen[successor]) {
        seen[successor] = 1;
        stack.emplace_back(successor, 0);
      }
    } else {
      post.push_back(block);
      stack.pop_back();
    }
  }
  std::reverse(post.begin(), post.end());
  return post;
}

}  // namespace

std::vector<uint32_t> ReversePostOrder(const std::vector<std::vector<uint32_t>>& successors,
                                       uint32_t root) {
  return ReversePostOrderOf(successors, root);
}

CompressedLists CompressedPredecessors(const Cfg& cfg) {
  std::vector<std::pair<uint32_t, uint32_t>> edges;  // (block, predecessor)
  for (uint32_t b = 0; b < cfg.size(); ++b) {
    for (uint32_t s : cfg.successors[b]) edges.emplace_back(s, b);
  }
  return CompressedLists::FromPairs(cfg.size(), edges);
}

DominatorTree::DominatorTree(const Cfg& cfg, bool post, const std::vector<char>& also_exit)
    : DominatorTree(cfg, CompressedPredecessors(cfg), post, also_exit) {}

DominatorTree::DominatorTree(const Cfg& cfg, const CompressedLists& predecessors, bool post,
                             const std::vector<char>& also_exit)
    : DominatorTree(cfg, predecessors, post, also_exit, nullptr) {}

DominatorTree::DominatorTree(const Cfg& cfg, const CompressedLists& predecessors,
                             const std::vector<uint32_t>& rpo)
    : DominatorTree(cfg, predecessors, /*post=*/false, {}, &rpo) {}

DominatorTree::DominatorTree(const Cfg& cfg, const CompressedLists& predecessors, bool post,
                             const std::vector<char>& also_exit,
                             const std::vector<uint32_t>* given_rpo) {
  const uint32_t n = cfg.size();
  // The blocks to visit in reverse post-order, and the graph to read their
  // predecessors from: the CFG itself for dominators, the reversed CFG plus
  // a virtual exit for post-dominators.
  std::vector<uint32_t> own_rpo;
  const std::vector<uint32_t>* rpo_of_graph = given_rpo != nullptr ? given_rpo : &own_rpo;
  CompressedLists backward_storage;
  const CompressedLists* backward_graph = &backward_storage;
  uint32_t size = n;
  if (!post) {
    root_ = cfg.entry;
    if (given_rpo == nullptr && n != 0) own_rpo = ReversePostOrderOf(cfg.successors, root_);
    backward_graph = &predecessors;
  } else {
    const std::vector<char> reaches = ReachesExit(cfg, predecessors);
    // An endless loop's iterations end at its back edges: every edge into
    // the header of a sink component from inside it leads to the virtual
    // exit instead. Threads that entered the loop together start each
    // iteration together at its header (maximal convergence), so within an
    // iteration the blocks after a divergent branch that every path to a
    // back edge passes are reached by all of them
    // (TemporalDivergeLoopuserNested).
    const std::vector<uint32_t> sink_header = EndlessSinkHeaders(cfg, reaches);
    auto ends_iteration = [&](uint32_t from, uint32_t to) {
      return sink_header[from] != kNoHeader && sink_header[from] == to;
    };
    root_ = n;
    size = n + 1;
    std::vector<char> exits(n, 0);  // blocks with an edge to the virtual exit
    for (uint32_t b = 0; b < n; ++b) {
      exits[b] = cfg.successors[b].empty() || (!also_exit.empty() && also_exit[b]);
      for (uint32_t s : cfg.successors[b]) exits[b] |= ends_iteration(b, s);
    }
    // Forwards: the predecessors, and the virtual exit before the exiting
    // blocks. Both graphs are built list by list, in order.
    CompressedLists forward;
    forward.Reserve(n + 1, predecessors.total_items() + n);
    for (uint32_t b = 0; b < n; ++b) {
      forward.StartList();
      for (uint32_t p : predecessors[b]) {
        if (!ends_iteration(p, b)) forward.Add(p);
      }
    }
    forward.StartList();
    for (uint32_t b = 0; b < n; ++b) {
      if (exits[b]) forward.Add(b);
    }
    forward.Finish();
    own_rpo = ReversePostOrderOf(forward, root_);
    // Backwards: the successors, and the virtual exit after the exiting blocks.
    backward_storage.Reserve(n + 1, predecessors.total_items() + n);
    for (uint32_t b = 0; b < n; ++b) {
      backward_storage.StartList();
      for (uint32_t s : cfg.successors[b]) {
        if (!ends_iteration(b, s)) backward_storage.Add(s);
      }
      if (exits[b]) backward_storage.Add(n);
    }
    backward_storage.StartList();
    backward_storage.Finish();
  }
  const CompressedLists& backward = *backward_graph;
  idom_.assign(size, kNone);
  order_.assign(size, kNone);
  if (size == 0) return;

  const std::vector<uint32_t>& rpo = *rpo_of_graph;
  for (uint32_t i = 0; i < rpo.size(); ++i) order_[rpo[i]] = i;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (order_[a] > order_[b]) a = idom_[a];
      while (order_[b] > order_[a]) b = idom_[b];
    }
    return a;
  };
  // The idom |b| gets from its predecessors that have one so far.
  auto idom_from_predecessors = [&](uint32_t b) {
    uint32_t new_idom = kNone;
    for (uint32_t p : backward[b]) {
      if (order_[p] == kNone || idom_[p] == kNone) continue;
      new_idom = new_idom == kNone ? p : intersect(p, new_idom);
    }
    return new_idom;
  };
  // Cooper, Harvey and Kennedy's iteration ("A Simple, Fast Dominance
  // Algorithm"): one pass in reverse post-order. Returns whether an idom
  // changed.
  auto pass = [&] {
    bool changed = false;
    for (size_t i = 1; i < rpo.size(); ++i) {
      const uint32_t b = rpo[i];
      const uint32_t new_idom = idom_from_predecessors(b);
      if (new_idom != idom_[b]) idom_[b] = new_idom, changed = true;
    }
    return changed;
  };
  idom_[root_] = root_;
  pass();
  // The usual second pass only confirms the first one in most CFGs. Only a
  // block with a predecessor later in reverse post-order (the target of a
  // back edge) can get a different idom in it: the first pass skipped that
  // predecessor, which had no idom yet. Every other block has only earlier
  // predecessors, so, by induction along the order, it keeps its idom while
  // they keep theirs. So recomputing the targets of back edges tells whether
  // a second pass would change anything, and only then does the iteration
  // go on.
  //
  //     entry --> ... --> h --> ... --> p
  //                       ^             |
  //                       +-------------+  back edge p -> h: recompute h
  bool settled = true;
  for (size_t i = 1; i < rpo.size() && settled; ++i) {
    const uint32_t h = rpo[i];
    bool back_edge_target = false;
    for (uint32_t p : backward[h]) {
      back_edge_target |= order_[p] != kNone && order_[p] >= order_[h];
    }
    if (back_edge_target) settled = idom_from_predecessors(h) == idom_[h];
  }
  if (!settled) {
    while (pass()) {
    }
  }
  idom_[root_] = kNone;
  NumberTree(rpo);
}

void DominatorTree::NumberTree(const std::vector<uint32_t>& rpo) {
  // Interval numbering of the tree for constant-time Dominates.
  const auto size = static_cast<uint32_t>(idom_.size());
  std::vector<std::pair<uint32_t, uint32_t>> tree_edges;  // (idom, block), in RPO
  for (uint32_t b : rpo) {
    if (idom_[b] != kNone) tree_edges.emplace_back(idom_[b], b);
  }
  const CompressedLists children = CompressedLists::FromPairs(size, tree_edges);
  tree_in_.assign(size, 0);
  tree_out_.assign(size, 0);
  uint32_t clock = 0;
  std::vector<std::pair<uint32_t, const uint32_t*>> stack{{root_, children[root_].begin()}};
  tree_in_[root_] = clock++;
  while (!stack.empty()) {
    auto& [block, next] = stack.back();
    if (next != children[block].end()) {
      const uint32_t child = *next++;
      tree_in_[child] = clock++;
      stack.emplace_back(child, children[child].begin());
    } else {
      tree_out_[block] = clock++;
      stack.pop_back();
    }
  }
}

}  // namespace analysis
}  // namespace spirv_conv
