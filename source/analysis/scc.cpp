// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/scc.h"

#include <algorithm>
#include <utility>

namespace spirv_conv {
namespace analysis {

namespace {

// Tarjan over nodes 0..n-1; |successors(v)| is a (begin, end) pair of
// pointers, |include(v)| whether v takes part.
template <typename SuccessorsFn, typename IncludeFn>
std::vector<uint32_t> Tarjan(uint32_t n, const SuccessorsFn& successors, const IncludeFn& include,
                             uint32_t* components) {
  constexpr uint32_t kUnvisited = ~0u;
  std::vector<uint32_t> index(n, kUnvisited), low(n, 0), component(n, kNoComponent);
  std::vector<char> on_stack(n, 0);
  std::vector<uint32_t> stack;
  struct Frame {
    uint32_t node;
    const uint32_t* next;
    const uint32_t* end;
  };
  std::vector<Frame> frames;
  uint32_t next_index = 0;
  uint32_t count = 0;
  auto open = [&](uint32_t v) {
    index[v] = low[v] = next_index++;
    stack.push_back(v), on_stack[v] = 1;
    const auto [first, last] = successors(v);
    frames.push_back({v, first, last});
  };
  for (uint32_t start = 0; start < n; ++start) {
    if (!include(start) || index[start] != kUnvisited) continue;
    open(start);
    while (!frames.empty()) {
      Frame& top = frames.back();
      if (top.next != top.end) {
        const uint32_t v = top.node;
        const uint32_t w = *top.next++;
        if (!include(w)) continue;
        if (index[w] == kUnvisited) {
          open(w);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      const uint32_t done = top.node;
      frames.pop_back();
      if (!frames.empty()) {
        const uint32_t parent = frames.back().node;
        low[parent] = std::min(low[parent], low[done]);
      }
      if (low[done] != index[done]) continue;
      for (uint32_t m = kUnvisited; m != done;) {
        m = stack.back();
        stack.pop_back(), on_stack[m] = 0;
        component[m] = count;
      }
      ++count;
    }
  }
  if (components != nullptr) *components = count;
  return component;
}

}  // namespace

std::vector<uint32_t> StronglyConnectedComponents(
    const std::vector<std::vector<uint32_t>>& successors, const std::vector<char>& include,
    uint32_t* components) {
  return Tarjan(
      static_cast<uint32_t>(successors.size()),
      [&](uint32_t v) {
        const std::vector<uint32_t>& list = successors[v];
        return std::make_pair(list.data(), list.data() + list.size());
      },
      [&](uint32_t v) { return include[v] != 0; }, components);
}

std::vector<uint32_t> StronglyConnectedComponents(const CompressedLists& successors,
                                                  uint32_t* components) {
  return Tarjan(
      successors.size(),
      [&](uint32_t v) {
        const CompressedLists::Range list = successors[v];
        return std::make_pair(list.begin(), list.end());
      },
      [](uint32_t) { return true; }, components);
}

}  // namespace analysis
}  // namespace spirv_conv
