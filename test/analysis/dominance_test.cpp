// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Dominator and post-dominator trees on small graphs drawn by hand, among
// them one where the first pass of the iteration is wrong and must not be
// taken as final.

#include "analysis/dominance.h"

#include <vector>

#include "gtest/gtest.h"

namespace spirv_conv {
namespace analysis {
namespace {

constexpr uint32_t kNone = DominatorTree::kNone;

// The immediate (post-)dominator of each of the first |blocks| blocks.
std::vector<uint32_t> Idoms(const DominatorTree& tree, uint32_t blocks) {
  std::vector<uint32_t> idoms;
  for (uint32_t b = 0; b < blocks; ++b) idoms.push_back(tree.Idom(b));
  return idoms;
}

//   0 -> 1 -> 2 -> 4 -> 5
//        |         ^  |
//        +--> 3 ---+  |
//        ^            |
//        +------------+   back edge 4 -> 1
// A reducible loop: the first pass in reverse post-order is already final
// (recomputing the header, the only target of a back edge, confirms it).
TEST(DominatorTreeTest, ReducibleLoopWithADiamond) {
  Cfg cfg;
  cfg.successors = {{1}, {2, 3}, {4}, {4}, {1, 5}, {}};
  const DominatorTree dom(cfg, /*post=*/false);
  EXPECT_EQ(Idoms(dom, 6), (std::vector<uint32_t>{kNone, 0, 1, 1, 1, 4}));
  EXPECT_TRUE(dom.Dominates(1, 5));
  EXPECT_FALSE(dom.Dominates(2, 4));

  // Towards the virtual exit (index 6) through 5, the loop's only exit.
  const DominatorTree post(cfg, /*post=*/true);
  EXPECT_EQ(post.root(), 6u);
  EXPECT_EQ(Idoms(post, 7), (std::vector<uint32_t>{1, 4, 4, 4, 5, 6, kNone}));
}

//   0 -> 1 -> 3 <-> 4
//   |              ^
//   +--> 2 --------+
// The cycle {3, 4} is entered at 3 (from 1) and at 4 (from 2). The depth-
// first search from 0 visits 1, 3, 4 first, so 4 -> 3 is the back edge and
// reverse post-order is 0, 2, 1, 3, 4. Without the back edge 3's only
// predecessor is 1, and the first pass makes 1 its idom; but 0 -> 2 -> 4 ->
// 3 avoids 1, so the idom of 3 is 0, which only a second pass finds.
TEST(DominatorTreeTest, IrreducibleCycleNeedsMoreThanOnePass) {
  Cfg cfg;
  cfg.successors = {{1, 2}, {3}, {4}, {4}, {3}};
  const DominatorTree dom(cfg, /*post=*/false);
  EXPECT_EQ(Idoms(dom, 5), (std::vector<uint32_t>{kNone, 0, 0, 0, 0}));
  EXPECT_FALSE(dom.Dominates(1, 3));
  EXPECT_FALSE(dom.Dominates(2, 4));
  EXPECT_TRUE(dom.Dominates(0, 4));
}

//   0 -> 1 -> 2 -> 3 -> 4        with 3 -> 1 and 2 -> 4
// A loop {1, 2, 3} left from 2 and from 3. Reversed, its cycle is entered
// at 2 and at 3 (from 4): an irreducible cycle of the reversed graph, where
// the first pass of the post-dominator tree happens to be final.
TEST(DominatorTreeTest, LoopWithTwoExitsPostDominators) {
  Cfg cfg;
  cfg.successors = {{1}, {2}, {3, 4}, {1, 4}, {}};
  const DominatorTree post(cfg, /*post=*/true);
  EXPECT_EQ(Idoms(post, 6), (std::vector<uint32_t>{1, 2, 4, 4, 5, kNone}));
  EXPECT_FALSE(post.Dominates(3, 2));
  const DominatorTree dom(cfg, /*post=*/false);
  EXPECT_EQ(Idoms(dom, 5), (std::vector<uint32_t>{kNone, 0, 1, 2, 2}));
}

//   0 -> 1 -> 2 -> 3 -> 1       2 -> 2 and 3 -> 3: self loops
// No block returns: {1, 2, 3} is an endless loop with header 1, whose
// iterations end at its back edge 3 -> 1 (to the virtual exit, 4). Within
// an iteration 3 post-dominates the inner loop at 2 that it leaves to, and
// 1 post-dominates nothing after it.
TEST(DominatorTreeTest, EndlessLoopIterationsEndAtItsBackEdges) {
  Cfg cfg;
  cfg.successors = {{1}, {2}, {2, 3}, {3, 1}};
  const DominatorTree post(cfg, /*post=*/true);
  EXPECT_EQ(Idoms(post, 5), (std::vector<uint32_t>{1, 2, 3, 4, kNone}));
  EXPECT_TRUE(post.Dominates(3, 2));
  EXPECT_FALSE(post.Dominates(1, 3));
}

// Blocks that only lead into an endless loop keep their successors: the
// loop {1, 2} is left at 2 towards the self loop 3, which post-dominates it.
TEST(DominatorTreeTest, LoopLeftTowardsAnEndlessLoopStillReconverges) {
  Cfg cfg;
  cfg.successors = {{1}, {2}, {1, 3}, {3}};
  const DominatorTree post(cfg, /*post=*/true);
  EXPECT_EQ(Idoms(post, 5), (std::vector<uint32_t>{1, 2, 3, 4, kNone}));
}

}  // namespace
}  // namespace analysis
}  // namespace spirv_conv
