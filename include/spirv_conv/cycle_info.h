// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The cycle hierarchy of an arbitrary CFG, irreducible cycles included, in
// the sense of LLVM's "Convergence and Uniformity" and its cycle
// terminology. SPIRV-Tools' LoopDescriptor knows only natural loops.
//
// A *cycle* is a maximal strongly connected region found by a DFS from the
// entry: its *header* is the first of its blocks the DFS reaches, its
// *entries* are the blocks with a predecessor outside it (the header first).
// A cycle with one entry is *reducible* (a natural loop). Cycles nest: a
// cycle's *children* are the maximal cycles inside it that do not contain its
// header. Which block becomes the header of an irreducible cycle depends on
// the DFS (successor order); the hierarchy is one valid choice.
//
//         entry
//         /   \        Cycle {A, B}: header A (reached first), entries A and B,
//        A <-> B       irreducible. C is outside it (it leaves to exit).
//         \   /
//          C -> exit

#ifndef INCLUDE_SPIRV_CONV_CYCLE_INFO_H_
#define INCLUDE_SPIRV_CONV_CYCLE_INFO_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace spirv_conv {
namespace analysis {
class CompressedLists;
}  // namespace analysis

// A control-flow graph over blocks 0..size-1; block |entry| starts it.
struct Cfg {
  uint32_t entry = 0;
  std::vector<std::vector<uint32_t>> successors;

  uint32_t size() const { return static_cast<uint32_t>(successors.size()); }
  // Predecessor lists (computed, in block order).
  std::vector<std::vector<uint32_t>> Predecessors() const;
};

class Cycle {
 public:
  uint32_t header() const { return entries_.front(); }
  // The header first, then the other entries in discovery order.
  const std::vector<uint32_t>& entries() const { return entries_; }
  bool IsReducible() const { return entries_.size() == 1; }
  // Every block of the cycle, nested cycles' blocks included, sorted.
  const std::vector<uint32_t>& blocks() const { return blocks_; }
  // O(1): whether the innermost cycle of |block| lies in this cycle's subtree.
  bool Contains(uint32_t block) const {
    if (innermost_ == nullptr) return ContainsBySearch(block);
    const Cycle* inner = innermost_[block];
    return inner != nullptr && tree_begin_ <= inner->tree_begin_ && inner->tree_begin_ < tree_end_;
  }
  // True if |other| is this cycle or nested in it.
  bool Contains(const Cycle* other) const;
  const Cycle* parent() const { return parent_; }
  const std::vector<const Cycle*>& children() const { return children_; }
  // 1 for a top-level cycle.
  uint32_t depth() const { return depth_; }
  // The position of this cycle in CycleInfo::AllCycles(): dense, for
  // per-cycle arrays.
  uint32_t index() const { return tree_begin_; }
  // One past the index of the last cycle nested in this one: the cycles
  // with an index in [index(), subtree_end()) are this one and those inside.
  uint32_t subtree_end() const { return tree_end_; }
  // Blocks outside the cycle with a predecessor inside it, sorted.
  const std::vector<uint32_t>& exits() const { return exits_; }
  // The edges (from inside, to outside) leaving the cycle, sorted by target.
  const std::vector<std::pair<uint32_t, uint32_t>>& exit_edges() const { return exit_edges_; }

 private:
  friend class CycleInfo;
  // Contains() while CycleInfo is still building the tree.
  bool ContainsBySearch(uint32_t block) const;
  std::vector<uint32_t> entries_;
  std::vector<uint32_t> blocks_;
  std::vector<uint32_t> exits_;
  std::vector<std::pair<uint32_t, uint32_t>> exit_edges_;
  Cycle* parent_ = nullptr;
  std::vector<const Cycle*> children_;
  uint32_t depth_ = 1;
  // Position in a preorder of the cycle tree, and the end of the subtree.
  uint32_t tree_begin_ = 0;
  uint32_t tree_end_ = 0;
  const Cycle* const* innermost_ = nullptr;  // CycleInfo's per-block table
};

class CycleInfo {
 public:
  // Computes the hierarchy of |cfg|. Blocks unreachable from the entry belong
  // to no cycle. O(blocks + edges) times the nesting depth.
  explicit CycleInfo(const Cfg& cfg);
  // The same with the predecessor lists of |cfg| given (for the analyses
  // that have them already; the type is internal to the library). With
  // |reverse_post_order|, also sets it to the reachable blocks in reverse
  // post-order of the depth-first search that found the cycles (successors
  // taken in list order, as ReversePostOrder takes them), which the view
  // order of sync dependence relies on: every cycle's header is the first
  // of its blocks that search discovers.
  CycleInfo(const Cfg& cfg, const analysis::CompressedLists& predecessors,
            std::vector<uint32_t>* reverse_post_order = nullptr);
  CycleInfo(CycleInfo&&) = default;
  CycleInfo& operator=(CycleInfo&&) = default;

  // The innermost cycle containing |block|, or null.
  const Cycle* InnermostCycle(uint32_t block) const { return innermost_[block]; }
  // The outermost cycles, in order of their headers' discovery.
  const std::vector<const Cycle*>& TopLevelCycles() const { return top_level_; }
  // All cycles in preorder of the cycle tree (parents before their
  // children); Cycle::index() is the position in it.
  std::vector<const Cycle*> AllCycles() const;
  // The smallest cycle containing both |a| and |b|, or null.
  const Cycle* SmallestCommonCycle(uint32_t a, uint32_t b) const;
  // False for blocks the DFS from the entry never reached.
  bool IsReachable(uint32_t block) const { return preorder_[block] != kUnreached; }

 private:
  static constexpr uint32_t kUnreached = ~0u;

  std::vector<std::unique_ptr<Cycle>> cycles_;
  std::vector<const Cycle*> innermost_;
  std::vector<const Cycle*> top_level_;
  std::vector<uint32_t> preorder_;  // DFS preorder number of each block
};

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_CYCLE_INFO_H_
