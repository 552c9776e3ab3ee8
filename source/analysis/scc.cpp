// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/scc.h"

namespace spirv_conv {
namespace analysis {

std::vector<uint32_t> StronglyConnectedComponents(
    const std::vector<std::vector<uint32_t>>& successors, const std::vector<char>& include,
    uint32_t* components) {
  const uint32_t n = static_cast<uint32_t>(successors.size());
  std::vector<uint32_t> nodes;
  for (uint32_t v = 0; v < n; ++v) {
    if (include[v]) nodes.push_back(v);
  }
  SccScratch scratch;
  scratch.Reserve(n);
  std::vector<uint32_t> component(n, kNoComponent);
  uint32_t count = 0;
  ForEachComponent(
      nodes,
      [&](uint32_t v, uint32_t* k) {
        return *k < successors[v].size() ? successors[v][(*k)++] : kNoMoreEdges;
      },
      &scratch,
      [&](const uint32_t* first, const uint32_t* last) {
        for (; first != last; ++first) component[*first] = count;
        ++count;
      });
  if (components != nullptr) *components = count;
  return component;
}

}  // namespace analysis
}  // namespace spirv_conv
