// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Dominator and post-dominator trees over a Cfg (Cooper, Harvey, Kennedy:
// "A Simple, Fast Dominance Algorithm"). The post-dominator tree has a
// virtual exit that every exiting block (no successors) leads to. In an
// endless loop (a strongly connected component that no edge leaves and
// that reaches no exit) each iteration ends there instead: the edges into
// its header (the block a depth-first search from the entry reaches first)
// from inside it lead to the virtual exit. Blocks that merely lead into an
// endless loop keep their real successors, so a loop that is left towards
// an endless loop still has its exit block as post-dominator, as in LLVM's
// post-dominator tree with its extra roots.

#ifndef SOURCE_ANALYSIS_DOMINANCE_H_
#define SOURCE_ANALYSIS_DOMINANCE_H_

#include <cstdint>
#include <vector>

#include "analysis/compressed_lists.h"
#include "spirv_conv/cycle_info.h"

namespace spirv_conv {
namespace analysis {

// The nodes reachable from |root| in |successors|, in reverse post-order of
// a depth-first search that takes successors in list order.
std::vector<uint32_t> ReversePostOrder(const std::vector<std::vector<uint32_t>>& successors,
                                       uint32_t root);

// The predecessors of every block of |cfg| in compressed form, each list in
// block order (as Cfg::Predecessors).
CompressedLists CompressedPredecessors(const Cfg& cfg);

class DominatorTree {
 public:
  static constexpr uint32_t kNone = ~0u;

  // Dominators of |cfg| from its entry, or (|post|) post-dominators towards
  // the virtual exit, whose index is cfg.size(). For post-dominators, blocks
  // flagged in |also_exit| have an extra edge to the virtual exit (a call
  // that may end the invocation).
  DominatorTree(const Cfg& cfg, bool post, const std::vector<char>& also_exit = {});
  // The same with the predecessors of |cfg| (CompressedPredecessors) given.
  DominatorTree(const Cfg& cfg, const CompressedLists& predecessors, bool post,
                const std::vector<char>& also_exit = {});
  // Dominators with the predecessors and the reverse post-order of |cfg|
  // (ReversePostOrder from its entry) given.
  DominatorTree(const Cfg& cfg, const CompressedLists& predecessors,
                const std::vector<uint32_t>& rpo);

  // The immediate (post-)dominator of |block|; kNone for the root and for
  // blocks the traversal never reached.
  uint32_t Idom(uint32_t block) const { return idom_[block]; }
  bool IsReachable(uint32_t block) const { return order_[block] != kNone; }
  // True if |a| (post-)dominates |b| (every block dominates itself).
  bool Dominates(uint32_t a, uint32_t b) const {
    if (order_[a] == kNone || order_[b] == kNone) return a == b;
    return tree_in_[a] <= tree_in_[b] && tree_out_[b] <= tree_out_[a];
  }
  bool StrictlyDominates(uint32_t a, uint32_t b) const { return a != b && Dominates(a, b); }
  // The root: the entry, or the virtual exit.
  uint32_t root() const { return root_; }

 private:
  // |given_rpo|: the reverse post-order of |cfg| (dominators only), or null.
  DominatorTree(const Cfg& cfg, const CompressedLists& predecessors, bool post,
                const std::vector<char>& also_exit, const std::vector<uint32_t>* given_rpo);
  // Numbers the tree (tree_in_, tree_out_) from idom_; |rpo| lists the
  // reachable blocks in reverse post-order.
  void NumberTree(const std::vector<uint32_t>& rpo);

  uint32_t root_ = 0;
  std::vector<uint32_t> idom_;
  std::vector<uint32_t> order_;    // reverse post-order number
  std::vector<uint32_t> tree_in_;  // DFS interval over the tree, for O(1) Dominates
  std::vector<uint32_t> tree_out_;
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_DOMINANCE_H_
