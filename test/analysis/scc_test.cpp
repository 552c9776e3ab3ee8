// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Strongly connected components: membership and topological numbering,
// checked on small graphs drawn by hand.

#include "analysis/scc.h"

#include <algorithm>

#include "gtest/gtest.h"

namespace spirv_conv {
namespace analysis {
namespace {

//   0 -> 1 <-> 2 -> 3 (self loop)      4 (excluded) <- 3
//            \______^
// Components: {0}, {1, 2}, {3}; 4 is left out, and the edge 3 -> 4 ignored.
// Topologically 0 before {1, 2} before 3, so the numbers descend that way.
TEST(SccTest, ComponentsAndTheirTopologicalNumbering) {
  const std::vector<std::vector<uint32_t>> successors = {{1}, {2, 3}, {1, 3}, {3, 4}, {0}};
  uint32_t count = 0;
  const std::vector<uint32_t> c = StronglyConnectedComponents(successors, {1, 1, 1, 1, 0}, &count);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(c[1], c[2]);
  EXPECT_NE(c[0], c[1]);
  EXPECT_NE(c[3], c[1]);
  EXPECT_EQ(c[4], kNoComponent);
  EXPECT_GT(c[0], c[1]);
  EXPECT_GT(c[1], c[3]);
}

// A long chain is handled without recursion (100,000 nodes, one cycle).
TEST(SccTest, LongCycleIsOneComponent) {
  const uint32_t n = 100000;
  std::vector<std::vector<uint32_t>> successors(n);
  for (uint32_t i = 0; i < n; ++i) successors[i] = {(i + 1) % n};
  uint32_t count = 0;
  const std::vector<uint32_t> c =
      StronglyConnectedComponents(successors, std::vector<char>(n, 1), &count);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(c[0], c[n - 1]);
}

// ForEachComponent on part of a graph, twice on one scratch:
//   0 -> 1 -> 2 -> 1, 2 -> 3, 3 -> 4 (an edge the caller ignores)
// Over {1, 2, 3}: the edge into 0 is not there and 3 -> 4 is ignored, so
// {3} comes out before {1, 2}, which reaches it. Over {0, 1} afterwards
// (2 is outside now): {1}, then {0}.
TEST(SccTest, PartialSearchesShareOneScratch) {
  const std::vector<std::vector<uint32_t>> successors = {{1}, {2}, {1, 3}, {4}, {}};
  SccScratch scratch;
  scratch.Reserve(successors.size());
  auto run = [&](const std::vector<uint32_t>& nodes) {
    std::vector<std::vector<uint32_t>> found;
    ForEachComponent(
        nodes,
        [&](uint32_t v, uint32_t* k) {
          if (*k >= successors[v].size()) return kNoMoreEdges;
          const uint32_t w = successors[v][(*k)++];
          return w == 4 ? SccScratch::kOutside : w;
        },
        &scratch,
        [&](uint32_t* first, uint32_t* last) {
          std::vector<uint32_t> component(first, last);
          std::sort(component.begin(), component.end());
          found.push_back(component);
        });
    return found;
  };
  EXPECT_EQ(run({1, 2, 3}), (std::vector<std::vector<uint32_t>>{{3}, {1, 2}}));
  EXPECT_EQ(run({0, 1}), (std::vector<std::vector<uint32_t>>{{1}, {0}}));
  for (uint32_t v = 0; v < successors.size(); ++v)
    EXPECT_EQ(scratch.index[v], SccScratch::kOutside);
}

}  // namespace
}  // namespace analysis
}  // namespace spirv_conv
