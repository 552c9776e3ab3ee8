// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Strongly connected components (Tarjan, iterative). Used for the endless
// loops of the post-dominator tree and for the label order of sync
// dependence.

#ifndef SOURCE_ANALYSIS_SCC_H_
#define SOURCE_ANALYSIS_SCC_H_

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace spirv_conv {
namespace analysis {

constexpr uint32_t kNoComponent = ~0u;

// The working arrays of ForEachComponent, indexed by node. They can be kept
// (per thread) and reused, so that a search over a few nodes of a large
// graph allocates nothing and touches only those nodes.
struct SccScratch {
  static constexpr uint32_t kOutside = ~0u;  // not taking part
  std::vector<uint32_t> index;               // kOutside except during a search
  std::vector<uint32_t> low;
  std::vector<uint32_t> stack;
  std::vector<std::pair<uint32_t, uint32_t>> frames;  // node, edge cursor
  // Makes room for nodes 0..size-1.
  void Reserve(size_t size) {
    if (index.size() < size) index.resize(size, kOutside), low.resize(size, 0);
  }
};

// What an EdgeFn returns when a node has no more edges.
constexpr uint32_t kNoMoreEdges = ~0u - 1;

// Tarjan's algorithm over |nodes| (distinct, below scratch->index.size()).
// |edge(v, &cursor)| is the target of v's next edge, SccScratch::kOutside
// for an edge to ignore, or kNoMoreEdges when v has no more; it moves
// |cursor| (0 before v's first edge, then whatever the callee keeps there:
// the index of the next edge in an array, a position in a linked list) past
// the edge it returns. Edges to nodes not in |nodes| are ignored too.
// Calls |emit(first, last)| for each strongly connected component, its
// nodes in [first, last) in no particular order (the callee may reorder
// them), in the order the search completes them: every component after all
// the components it reaches.
template <typename EdgeFn, typename EmitFn>
void ForEachComponent(const std::vector<uint32_t>& nodes, const EdgeFn& edge, SccScratch* scratch,
                      const EmitFn& emit) {
  constexpr uint32_t kUnvisited = ~0u - 1;
  constexpr uint32_t kDone = ~0u - 2;  // in a completed component
  std::vector<uint32_t>& index = scratch->index;
  std::vector<uint32_t>& low = scratch->low;
  std::vector<uint32_t>& stack = scratch->stack;
  auto& frames = scratch->frames;
  for (uint32_t v : nodes) index[v] = kUnvisited;
  uint32_t next_index = 0;
  auto open = [&](uint32_t v) {
    index[v] = low[v] = next_index++;
    stack.push_back(v);
    frames.emplace_back(v, 0);
  };
  for (uint32_t start : nodes) {
    if (index[start] != kUnvisited) continue;
    open(start);
    while (!frames.empty()) {
      const uint32_t v = frames.back().first;
      const uint32_t w = edge(v, &frames.back().second);
      if (w != kNoMoreEdges) {
        if (w == SccScratch::kOutside || index[w] == SccScratch::kOutside || index[w] == kDone) {
          continue;
        }
        if (index[w] == kUnvisited) {
          open(w);
        } else {
          low[v] = std::min(low[v], index[w]);  // on the stack
        }
        continue;
      }
      frames.pop_back();
      if (!frames.empty()) {
        const uint32_t parent = frames.back().first;
        low[parent] = std::min(low[parent], low[v]);
      }
      if (low[v] != index[v]) continue;
      size_t begin = stack.size() - 1;
      while (stack[begin] != v) --begin;
      for (size_t i = begin; i < stack.size(); ++i) index[stack[i]] = kDone;
      emit(stack.data() + begin, stack.data() + stack.size());
      stack.resize(begin);
    }
  }
  for (uint32_t v : nodes) index[v] = SccScratch::kOutside;
}

// The component of every node of |successors| for which |include| is true
// (kNoComponent for the others; edges to them are ignored). Components are
// numbered in the order Tarjan's algorithm finishes them: a component's
// successors come before it, so the numbers descend in topological order.
// |components|, if given, receives the number of components.
std::vector<uint32_t> StronglyConnectedComponents(
    const std::vector<std::vector<uint32_t>>& successors, const std::vector<char>& include,
    uint32_t* components = nullptr);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_SCC_H_
