// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/scc.h"

#include <algorithm>
#include <utility>

namespace spirv_conv {
namespace analysis {

std::vector<uint32_t> StronglyConnectedComponents(
    const std::vector<std::vector<uint32_t>>& successors, const std::vector<char>& include,
    uint32_t* components) {
  const uint32_t n = static_cast<uint32_t>(successors.size());
  constexpr uint32_t kUnvisited = ~0u;
  std::vector<uint32_t> index(n, kUnvisited), low(n, 0), component(n, kNoComponent);
  std::vector<char> on_stack(n, 0);
  std::vector<uint32_t> stack;
  std::vector<std::pair<uint32_t, size_t>> frames;  // (node, next successor)
  uint32_t next_index = 0;
  uint32_t count = 0;
  auto open = [&](uint32_t v) {
    index[v] = low[v] = next_index++;
    stack.push_back(v), on_stack[v] = 1;
    frames.push_back({v, 0});
  };
  for (uint32_t start = 0; start < n; ++start) {
    if (!include[start] || index[start] != kUnvisited) continue;
    open(start);
    while (!frames.empty()) {
      auto& [v, next] = frames.back();
      if (next < successors[v].size()) {
        const uint32_t w = successors[v][next++];
        if (!include[w]) continue;
        if (index[w] == kUnvisited) {
          open(w);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      const uint32_t done = v;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().first] = std::min(low[frames.back().first], low[done]);
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

}  // namespace analysis
}  // namespace spirv_conv
