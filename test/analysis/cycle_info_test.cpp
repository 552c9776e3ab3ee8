// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The cycle hierarchy on hand-made CFGs. Each expectation follows from the
// definitions in cycle_info.h (header = first block of the cycle the DFS
// reaches, successors visited in list order; entries = blocks with a
// predecessor outside the cycle).

#include "spirv_conv/cycle_info.h"

#include "analysis/cfg_analyses.h"
#include "gtest/gtest.h"

namespace spirv_conv {
namespace {

using Blocks = std::vector<uint32_t>;

Cfg Graph(std::vector<std::vector<uint32_t>> successors) {
  Cfg cfg;
  cfg.successors = std::move(successors);
  return cfg;
}

TEST(CycleInfo, AcyclicGraphHasNoCycles) {
  //   0 -> 1, 2 -> 3
  const CycleInfo info(Graph({{1, 2}, {3}, {3}, {}}));
  EXPECT_TRUE(info.TopLevelCycles().empty());
  for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(info.InnermostCycle(b), nullptr);
}

TEST(CycleInfo, NaturalLoop) {
  //   0 -> 1(header) -> 2 -> 1,  1 -> 3(exit)
  const CycleInfo info(Graph({{1}, {2, 3}, {1}, {}}));
  ASSERT_EQ(info.TopLevelCycles().size(), 1u);
  const Cycle* loop = info.TopLevelCycles()[0];
  EXPECT_EQ(loop->header(), 1u);
  EXPECT_EQ(loop->entries(), Blocks({1}));
  EXPECT_TRUE(loop->IsReducible());
  EXPECT_EQ(loop->blocks(), Blocks({1, 2}));
  EXPECT_EQ(loop->exits(), Blocks({3}));
  using Edges = std::vector<std::pair<uint32_t, uint32_t>>;
  EXPECT_EQ(loop->exit_edges(), (Edges{{1, 3}}));
  EXPECT_EQ(loop->depth(), 1u);
  EXPECT_EQ(info.InnermostCycle(2), loop);
  EXPECT_EQ(info.InnermostCycle(3), nullptr);
}

TEST(CycleInfo, SelfLoop) {
  const CycleInfo info(Graph({{1}, {1, 2}, {}}));
  ASSERT_EQ(info.TopLevelCycles().size(), 1u);
  EXPECT_EQ(info.TopLevelCycles()[0]->blocks(), Blocks({1}));
  EXPECT_EQ(info.TopLevelCycles()[0]->exits(), Blocks({2}));
}

TEST(CycleInfo, LoopAtTheEntryBlock) {
  // The entry has no predecessor outside the cycle, and is still its header.
  const CycleInfo info(Graph({{1}, {0, 2}, {}}));
  ASSERT_EQ(info.TopLevelCycles().size(), 1u);
  EXPECT_EQ(info.TopLevelCycles()[0]->entries(), Blocks({0}));
  EXPECT_EQ(info.TopLevelCycles()[0]->blocks(), Blocks({0, 1}));
}

TEST(CycleInfo, IrreducibleCycleWithTwoEntries) {
  //        0
  //       / \       The DFS reaches 1 first (0's first successor), so 1 is
  //      1<->2      the header; 2 is entered from 0 as well: a second entry.
  //      |
  //      3
  const CycleInfo info(Graph({{1, 2}, {2, 3}, {1}, {}}));
  ASSERT_EQ(info.TopLevelCycles().size(), 1u);
  const Cycle* cycle = info.TopLevelCycles()[0];
  EXPECT_EQ(cycle->header(), 1u);
  EXPECT_EQ(cycle->entries(), Blocks({1, 2}));
  EXPECT_FALSE(cycle->IsReducible());
  EXPECT_EQ(cycle->blocks(), Blocks({1, 2}));
  EXPECT_EQ(cycle->exits(), Blocks({3}));
}

TEST(CycleInfo, TheHeaderOfAnIrreducibleCycleFollowsTheDfs) {
  // The same graph with 0's successors swapped: now 2 is reached first.
  const CycleInfo info(Graph({{2, 1}, {2, 3}, {1}, {}}));
  ASSERT_EQ(info.TopLevelCycles().size(), 1u);
  EXPECT_EQ(info.TopLevelCycles()[0]->header(), 2u);
  EXPECT_EQ(info.TopLevelCycles()[0]->entries(), Blocks({2, 1}));
}

// The reverse post-order CycleInfo hands out is that of its own search,
// which takes successors in list order as ReversePostOrder does; each
// cycle's header comes first among its blocks in it (the first discovered
// is the last to finish). Graphs: 0 -> {2, 1} makes 2 the header above;
// an unreachable block (4) is left out.
TEST(CycleInfo, ReversePostOrderOfItsSearch) {
  for (const Cfg& cfg : {Graph({{2, 1}, {2, 3}, {1}, {}, {3}}), Graph({{1, 2}, {2, 3}, {1}, {}}),
                         Graph({{1}, {2, 5}, {3}, {2, 4}, {1}, {}})}) {
    std::vector<uint32_t> rpo = {7};  // replaced, not appended to
    const CycleInfo info(cfg, analysis::CompressedPredecessors(cfg), &rpo);
    EXPECT_EQ(rpo, analysis::ReversePostOrder(cfg.successors, cfg.entry));
    std::vector<uint32_t> position(cfg.size(), ~0u);
    for (uint32_t i = 0; i < rpo.size(); ++i) position[rpo[i]] = i;
    for (const Cycle* c : info.AllCycles()) {
      for (uint32_t b : c->blocks()) EXPECT_LE(position[c->header()], position[b]);
    }
  }
  // By hand: 0 goes to 2 first, 2 to 1, 1 to 3; they finish 3, 1, 2, 0.
  EXPECT_EQ(analysis::CfgAnalyses(Graph({{2, 1}, {2, 3}, {1}, {}, {3}})).rpo,
            (std::vector<uint32_t>{0, 2, 1, 3}));
}

TEST(CycleInfo, NestedNaturalLoops) {
  //   0 -> 1(outer) -> 2(inner) -> 3 -> 2 (inner back edge)
  //                                3 -> 4 -> 1 (outer back edge)
  //        1 -> 5 (exit)
  const CycleInfo info(Graph({{1}, {2, 5}, {3}, {2, 4}, {1}, {}}));
  ASSERT_EQ(info.TopLevelCycles().size(), 1u);
  const Cycle* outer = info.TopLevelCycles()[0];
  EXPECT_EQ(outer->header(), 1u);
  EXPECT_EQ(outer->blocks(), Blocks({1, 2, 3, 4}));
  ASSERT_EQ(outer->children().size(), 1u);
  const Cycle* inner = outer->children()[0];
  EXPECT_EQ(inner->header(), 2u);
  EXPECT_EQ(inner->blocks(), Blocks({2, 3}));
  EXPECT_EQ(inner->exits(), Blocks({4}));
  EXPECT_EQ(inner->parent(), outer);
  // Contains(block) by the cycle tree: 3 is in both, 4 only in the outer
  // loop, 5 and 0 in neither.
  EXPECT_TRUE(outer->Contains(3u) && inner->Contains(3u));
  EXPECT_TRUE(outer->Contains(4u));
  EXPECT_FALSE(inner->Contains(4u));
  EXPECT_FALSE(outer->Contains(5u) || outer->Contains(0u));
  EXPECT_EQ(inner->depth(), 2u);
  EXPECT_EQ(info.InnermostCycle(3), inner);
  EXPECT_EQ(info.InnermostCycle(4), outer);
  EXPECT_TRUE(outer->Contains(inner));
  EXPECT_FALSE(inner->Contains(outer));
  EXPECT_EQ(info.SmallestCommonCycle(3, 4), outer);
  EXPECT_EQ(info.SmallestCommonCycle(2, 3), inner);
  EXPECT_EQ(info.SmallestCommonCycle(3, 5), nullptr);
  EXPECT_EQ(info.AllCycles(), (std::vector<const Cycle*>{outer, inner}));
}

TEST(CycleInfo, IrreducibleCycleInsideANaturalLoop) {
  //   0 -> 1(header) -> 2, 3;  2 <-> 3 (entered at both from 1);
  //   2 -> 4 -> 1 (back edge), 4 -> 5 (exit)
  const CycleInfo info(Graph({{1}, {2, 3}, {3, 4}, {2}, {1, 5}, {}}));
  ASSERT_EQ(info.TopLevelCycles().size(), 1u);
  const Cycle* outer = info.TopLevelCycles()[0];
  EXPECT_TRUE(outer->IsReducible());
  EXPECT_EQ(outer->blocks(), Blocks({1, 2, 3, 4}));
  EXPECT_EQ(outer->exits(), Blocks({5}));
  ASSERT_EQ(outer->children().size(), 1u);
  const Cycle* inner = outer->children()[0];
  EXPECT_EQ(inner->header(), 2u);
  EXPECT_EQ(inner->entries(), Blocks({2, 3}));
  EXPECT_FALSE(inner->IsReducible());
  EXPECT_EQ(inner->exits(), Blocks({4}));
}

TEST(CycleInfo, NestedCycleEnteredFromOutsideTheOuterCycleMakesItIrreducible) {
  //   0 -> 1, 3;  1(outer) -> 2 -> 3 -> 2 (inner), 3 -> 1 (outer back edge),
  //   3 -> 4 (exit). 0 enters 3 directly: 3 is an entry of both cycles.
  const CycleInfo info(Graph({{1, 3}, {2}, {3}, {2, 1, 4}, {}}));
  ASSERT_EQ(info.TopLevelCycles().size(), 1u);
  const Cycle* outer = info.TopLevelCycles()[0];
  EXPECT_EQ(outer->header(), 1u);
  EXPECT_EQ(outer->entries(), Blocks({1, 3}));
  ASSERT_EQ(outer->children().size(), 1u);
  EXPECT_EQ(outer->children()[0]->blocks(), Blocks({2, 3}));
}

TEST(CycleInfo, SiblingLoopsInDiscoveryOrder) {
  //   0 -> 1 <-> 2, 1 -> 3 -> 4 <-> 5, 4 -> 6
  const CycleInfo info(Graph({{1}, {2, 3}, {1}, {4}, {5, 6}, {4}, {}}));
  ASSERT_EQ(info.TopLevelCycles().size(), 2u);
  EXPECT_EQ(info.TopLevelCycles()[0]->header(), 1u);
  EXPECT_EQ(info.TopLevelCycles()[1]->header(), 4u);
}

TEST(CycleInfo, UnreachableBlocksBelongToNoCycle) {
  //   0 -> 1;  2 -> 2 and 2 -> 1, but nothing reaches 2.
  const CycleInfo info(Graph({{1}, {}, {2, 1}}));
  EXPECT_TRUE(info.TopLevelCycles().empty());
  EXPECT_FALSE(info.IsReachable(2));
  EXPECT_TRUE(info.IsReachable(1));
}

TEST(CycleInfo, DeepNestingDoesNotOverflowTheStack) {
  // 20,000 blocks in a chain, each with a self loop: an iterative DFS.
  const uint32_t n = 20000;
  std::vector<std::vector<uint32_t>> successors(n);
  for (uint32_t b = 0; b + 1 < n; ++b) successors[b] = {b, b + 1};
  const CycleInfo info(Graph(std::move(successors)));
  EXPECT_EQ(info.TopLevelCycles().size(), n - 1);
}

TEST(CycleInfo, DenseTreeAgreesWithTheCycles) {
  // Cycles three deep with a sibling, and a block in none:
  //   outer {0..7} (7 -> 0), middle {1..4} (4 -> 1), inner {2, 3},
  //   sibling {5, 6}; 8 is the exit.
  //   0 -> 1 -> 2 <-> 3 -> 4 -> 5 <-> 6 -> 7 -> 8
  //        ^_____________|                 |
  //   ^____________________________________|
  const analysis::CfgAnalyses g(Graph({{1}, {2}, {3}, {2, 4}, {1, 5}, {6}, {5, 7}, {0, 8}, {}}));
  const analysis::CycleTree& tree = g.cycle_tree;
  const std::vector<const Cycle*> all = g.cycles.AllCycles();
  ASSERT_EQ(all.size(), 4u);
  ASSERT_EQ(tree.parent.size(), 4u);
  for (const Cycle* c : all) {
    const uint32_t ci = c->index();
    EXPECT_EQ(tree.depth[ci], c->depth());
    EXPECT_EQ(tree.parent[ci],
              c->parent() == nullptr ? analysis::CycleTree::kNone : c->parent()->index());
    for (uint32_t b = 0; b < 9; ++b) {
      EXPECT_EQ(tree.Contains(ci, b), c->Contains(b)) << "cycle " << ci << ", block " << b;
    }
  }
  EXPECT_EQ(tree.innermost[8], analysis::CycleTree::kNone);
  EXPECT_EQ(tree.depth[tree.innermost[3]], 3u);  // inner
  EXPECT_EQ(tree.depth[tree.innermost[6]], 2u);  // sibling
  EXPECT_EQ(tree.depth[tree.innermost[7]], 1u);  // outer
}

}  // namespace
}  // namespace spirv_conv
