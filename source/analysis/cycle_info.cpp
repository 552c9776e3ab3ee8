// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Cycle discovery after LLVM's GenericCycleInfo: visit blocks in reverse DFS
// preorder; a block with a retreating edge (a predecessor inside its own DFS
// subtree) heads a new cycle, which collects every block that reaches that
// predecessor backwards inside the subtree. Cycles found earlier (deeper
// headers) are met as whole units and become children.

#include "spirv_conv/cycle_info.h"

#include <algorithm>
#include <utility>

#include "analysis/dominance.h"

namespace spirv_conv {

std::vector<std::vector<uint32_t>> Cfg::Predecessors() const {
  std::vector<std::vector<uint32_t>> predecessors(size());
  for (uint32_t block = 0; block < size(); ++block) {
    for (uint32_t successor : successors[block]) predecessors[successor].push_back(block);
  }
  return predecessors;
}

bool Cycle::ContainsBySearch(uint32_t block) const {
  return std::binary_search(blocks_.begin(), blocks_.end(), block);
}

bool Cycle::Contains(const Cycle* other) const {
  for (; other != nullptr; other = other->parent_) {
    if (other == this) return true;
  }
  return false;
}

CycleInfo::CycleInfo(const Cfg& cfg) : CycleInfo(cfg, analysis::CompressedPredecessors(cfg)) {}

CycleInfo::CycleInfo(const Cfg& cfg, const analysis::CompressedLists& predecessors,
                     std::vector<uint32_t>* reverse_post_order)
    : innermost_(cfg.size(), nullptr) {
  const uint32_t n = cfg.size();
  preorder_.assign(n, kUnreached);
  if (reverse_post_order != nullptr) {
    reverse_post_order->clear();
    reverse_post_order->reserve(n);
  }
  if (n == 0) return;

  // Iterative DFS: preorder numbers and, per block, the last preorder number
  // of its subtree, so "a is a DFS ancestor of b" is an interval test (and
  // the post-order, when asked for).
  std::vector<uint32_t> order;  // blocks by preorder number
  std::vector<uint32_t> subtree_end(n, 0);
  std::vector<std::pair<uint32_t, size_t>> stack;  // (block, next successor)
  preorder_[cfg.entry] = 0;
  order.push_back(cfg.entry);
  stack.emplace_back(cfg.entry, 0);
  while (!stack.empty()) {
    auto& [block, next] = stack.back();
    if (next < cfg.successors[block].size()) {
      const uint32_t successor = cfg.successors[block][next++];
      if (preorder_[successor] == kUnreached) {
        preorder_[successor] = static_cast<uint32_t>(order.size());
        order.push_back(successor);
        stack.emplace_back(successor, 0);
      }
    } else {
      subtree_end[block] = static_cast<uint32_t>(order.size() - 1);
      if (reverse_post_order != nullptr) reverse_post_order->push_back(block);
      stack.pop_back();
    }
  }
  if (reverse_post_order != nullptr) {
    std::reverse(reverse_post_order->begin(), reverse_post_order->end());
  }
  auto in_subtree_of = [&](uint32_t root, uint32_t block) {
    return preorder_[block] != kUnreached && preorder_[root] <= preorder_[block] &&
           preorder_[block] <= subtree_end[root];
  };

  std::vector<Cycle*> owner(n, nullptr);  // innermost cycle found so far
  auto outermost = [](Cycle* cycle) {
    while (cycle->parent_ != nullptr) cycle = cycle->parent_;
    return cycle;
  };

  for (size_t i = order.size(); i-- > 0;) {
    const uint32_t header = order[i];
    std::vector<uint32_t> worklist;
    for (uint32_t predecessor : predecessors[header]) {
      if (in_subtree_of(header, predecessor)) worklist.push_back(predecessor);
    }
    if (worklist.empty()) continue;  // no retreating edge: not a header

    cycles_.push_back(std::make_unique<Cycle>());
    Cycle* cycle = cycles_.back().get();
    cycle->entries_.push_back(header);
    owner[header] = cycle;

    // Queues the predecessors inside the header's subtree; a block with a
    // predecessor outside it is an entry.
    auto visit_predecessors = [&](uint32_t block) {
      bool is_entry = false;
      for (uint32_t predecessor : predecessors[block]) {
        if (in_subtree_of(header, predecessor)) {
          worklist.push_back(predecessor);
        } else if (preorder_[predecessor] != kUnreached) {
          is_entry = true;
        }
      }
      if (is_entry && block != header) cycle->entries_.push_back(block);
    };

    while (!worklist.empty()) {
      const uint32_t block = worklist.back();
      worklist.pop_back();
      if (block == header) continue;
      if (owner[block] != nullptr) {
        // Already in a cycle: its outermost cycle so far nests in this one.
        Cycle* nested = outermost(owner[block]);
        if (nested == cycle) continue;
        nested->parent_ = cycle;
        cycle->children_.push_back(nested);
        for (uint32_t entry : nested->entries_) visit_predecessors(entry);
        continue;
      }
      owner[block] = cycle;
      visit_predecessors(block);
    }
  }

  // Each cycle's blocks, its children's included: listed once the
  // innermost cycle of every block is known, in block order, so sorted
  // without a sort (copying each child's blocks into its parent and
  // sorting them there again cost a sort per level of nesting).
  for (uint32_t block = 0; block < n; ++block) innermost_[block] = owner[block];
  for (uint32_t block = 0; block < n; ++block) {
    for (Cycle* c = owner[block]; c != nullptr; c = c->parent_) c->blocks_.push_back(block);
  }

  // Parents were created after their children: walk backwards for depths.
  for (size_t i = cycles_.size(); i-- > 0;) {
    Cycle* cycle = cycles_[i].get();
    cycle->depth_ = cycle->parent_ == nullptr ? 1 : cycle->parent_->depth_ + 1;
    if (cycle->parent_ == nullptr) top_level_.push_back(cycle);
  }
  // Preorder intervals of the cycle tree make Contains(block) constant time.
  {
    uint32_t next = 0;
    std::vector<std::pair<Cycle*, size_t>> tree_stack;
    for (const Cycle* top : top_level_) {
      tree_stack.push_back({const_cast<Cycle*>(top), 0});
      const_cast<Cycle*>(top)->tree_begin_ = next++;
      while (!tree_stack.empty()) {
        auto& [cycle, child] = tree_stack.back();
        if (child < cycle->children_.size()) {
          Cycle* c = const_cast<Cycle*>(cycle->children_[child++]);
          c->tree_begin_ = next++;
          tree_stack.push_back({c, 0});
        } else {
          cycle->tree_end_ = next;
          tree_stack.pop_back();
        }
      }
    }
    for (auto& cycle : cycles_) cycle->innermost_ = innermost_.data();
  }
  // Exit edges: an edge leaves the cycles around its source up to the
  // smallest one that holds its target too. Listed by source block, then
  // successor order, as a walk over each cycle's blocks would list them.
  for (uint32_t block = 0; block < n; ++block) {
    if (owner[block] == nullptr) continue;
    for (uint32_t successor : cfg.successors[block]) {
      for (Cycle* c = owner[block]; c != nullptr && !c->Contains(successor); c = c->parent_) {
        c->exit_edges_.emplace_back(block, successor);
        c->exits_.push_back(successor);
      }
    }
  }
  for (size_t i = cycles_.size(); i-- > 0;) {
    Cycle* cycle = cycles_[i].get();
    std::stable_sort(cycle->exit_edges_.begin(), cycle->exit_edges_.end(),
                     [](auto x, auto y) { return x.second < y.second; });
    std::sort(cycle->exits_.begin(), cycle->exits_.end());
    cycle->exits_.erase(std::unique(cycle->exits_.begin(), cycle->exits_.end()),
                        cycle->exits_.end());
    // Children in order of their headers' discovery.
    std::sort(cycle->children_.begin(), cycle->children_.end(),
              [this](const Cycle* a, const Cycle* b) {
                return preorder_[a->header()] < preorder_[b->header()];
              });
  }
}

std::vector<const Cycle*> CycleInfo::AllCycles() const {
  std::vector<const Cycle*> all(cycles_.size());
  for (const auto& cycle : cycles_) all[cycle->tree_begin_] = cycle.get();
  return all;
}

const Cycle* CycleInfo::SmallestCommonCycle(uint32_t a, uint32_t b) const {
  const Cycle* cycle = innermost_[a];
  while (cycle != nullptr && !cycle->Contains(b)) cycle = cycle->parent();
  return cycle;
}

}  // namespace spirv_conv
