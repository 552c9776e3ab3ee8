// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Strongly connected components: membership and topological numbering,
// checked on small graphs drawn by hand.

#include "analysis/scc.h"

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

// The compressed form: 0 -> 1 <-> 2 -> 3 -> 3, all included. Components
// {0}, {1, 2}, {3}, numbered in descending topological order as above.
TEST(SccTest, CompressedGraphGivesTheSameComponents) {
  const CompressedLists successors =
      CompressedLists::FromPairs(4, {{0, 1}, {1, 2}, {1, 3}, {2, 1}, {2, 3}, {3, 3}});
  uint32_t count = 0;
  const std::vector<uint32_t> c = StronglyConnectedComponents(successors, &count);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(c[1], c[2]);
  EXPECT_GT(c[0], c[1]);
  EXPECT_GT(c[1], c[3]);
}

}  // namespace
}  // namespace analysis
}  // namespace spirv_conv
