// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Strongly connected components of a graph over nodes 0..size-1 (Tarjan,
// iterative). Used for the endless loops of the post-dominator tree and for
// the label order of sync dependence.

#ifndef SOURCE_ANALYSIS_SCC_H_
#define SOURCE_ANALYSIS_SCC_H_

#include <cstdint>
#include <vector>

#include "analysis/compressed_lists.h"

namespace spirv_conv {
namespace analysis {

constexpr uint32_t kNoComponent = ~0u;

// The component of every node of |successors| for which |include| is true
// (kNoComponent for the others; edges to them are ignored). Components are
// numbered in the order Tarjan's algorithm finishes them: a component's
// successors come before it, so the numbers descend in topological order.
// |components|, if given, receives the number of components.
std::vector<uint32_t> StronglyConnectedComponents(
    const std::vector<std::vector<uint32_t>>& successors, const std::vector<char>& include,
    uint32_t* components = nullptr);

// The same for a graph in compressed form (|successors|[v] are v's
// successors); every node is included.
std::vector<uint32_t> StronglyConnectedComponents(const CompressedLists& successors,
                                                  uint32_t* components = nullptr);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_SCC_H_
