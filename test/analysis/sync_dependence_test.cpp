// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Sync dependence on plain CFGs: joins by disjoint paths, divergent cycle
// exits and m-convergence, with the verdicts the seed's definitions give.

#include "analysis/sync_dependence.h"

#include <algorithm>

#include "gtest/gtest.h"

namespace spirv_conv {
namespace analysis {
namespace {

Cfg Graph(std::vector<std::vector<uint32_t>> successors) {
  Cfg cfg;
  cfg.successors = std::move(successors);
  return cfg;
}

//   0 (div)
//  / \
// 1   2      3 is reached from both successors by disjoint paths: a join;
//  \ /       4 only sees 3's label.
//   3 -> 4
TEST(SyncDependenceTest, DiamondJoinsAtTheMergeOnly) {
  CfgAnalyses g(Graph({{1, 2}, {3}, {3}, {4}, {}}));
  const BranchDivergence d = ComputeBranchDivergence(g, 0);
  EXPECT_EQ(d.joins, (std::vector<uint32_t>{3}));
  EXPECT_TRUE(d.divergent_exit_cycles.empty());
  EXPECT_TRUE(d.not_m_converged_cycles.empty());
}

//   0 (div)
//   | \       An if without else: the paths 0->1->2 and 0->2 are disjoint
//   1  |      apart from 0, so 2 is a join.
//   | /
//   2
TEST(SyncDependenceTest, IfWithoutElseJoinsAtTheSuccessor) {
  CfgAnalyses g(Graph({{1, 2}, {2}, {}}));
  EXPECT_EQ(ComputeBranchDivergence(g, 0).joins, (std::vector<uint32_t>{2}));
}

// A join that is not the merge a structured reading would pick:
//   0 (div) -> 1, 2;  1 -> 3, 4 (uniform);  2 -> 3;  3 -> 5;  4 -> 5
// 3 is a join (0->1->3 and 0->2->3), and so is 5 (0->1->4->5, 0->2->3->5).
TEST(SyncDependenceTest, JoinsBeforeThePostDominator) {
  CfgAnalyses g(Graph({{1, 2}, {3, 4}, {3}, {5}, {5}, {}}));
  EXPECT_EQ(ComputeBranchDivergence(g, 0).joins, (std::vector<uint32_t>{3, 5}));
}

// Loop with a divergent break:
//   0 -> 1 (header) -> 2 (div) -> 3 (latch) -> 1 ; 2 -> 4 (exit)
// Threads leave at 4 on different iterations: divergent exit. The header
// is not a join (only the latch's label comes back).
TEST(SyncDependenceTest, DivergentBreakIsADivergentExit) {
  CfgAnalyses g(Graph({{1}, {2}, {3, 4}, {1}, {}}));
  const BranchDivergence d = ComputeBranchDivergence(g, 2);
  EXPECT_TRUE(d.joins.empty());
  ASSERT_EQ(d.divergent_exit_cycles.size(), 1u);
  EXPECT_EQ(d.divergent_exit_cycles[0]->header(), 1u);
  EXPECT_TRUE(d.not_m_converged_cycles.empty());
}

// If/else inside a loop body that reconverges before a uniform latch:
//   0 -> 1 (header) -> 2 (div) -> 3, 4 -> 5 (latch, uniform) -> 1 | 6
// 5 is a join; every thread leaves the loop at the same iteration.
TEST(SyncDependenceTest, ReconvergingBodyHasNoDivergentExit) {
  CfgAnalyses g(Graph({{1}, {2}, {3, 4}, {5}, {5}, {1, 6}, {}}));
  const BranchDivergence d = ComputeBranchDivergence(g, 2);
  EXPECT_EQ(d.joins, (std::vector<uint32_t>{5}));
  EXPECT_TRUE(d.divergent_exit_cycles.empty());
}

// A header reached through two back edges (differential finding 01):
//   0 -> 1 (header) -> 2 (exit) | 3 (div);  3 -> 1 | 4;  4 -> 1
// Threads that split at 3 start the next iteration together at 1, having
// come along 3->1 and 3->4->1: the header is a join (its phis choose by
// latch). No thread leaves on the diverged paths: no divergent exit.
TEST(SyncDependenceTest, HeaderReachedThroughTwoBackEdgesIsAJoin) {
  CfgAnalyses g(Graph({{1}, {2, 3}, {}, {1, 4}, {1}}));
  const BranchDivergence d = ComputeBranchDivergence(g, 3);
  EXPECT_EQ(d.joins, (std::vector<uint32_t>{1}));
  EXPECT_TRUE(d.divergent_exit_cycles.empty());
  EXPECT_TRUE(d.not_m_converged_cycles.empty());
}

// The same with the divergent branch in the header (seed 1623 of the
// 20,000-case run, which LLVM 19 misses): 1 -> 2 | 3, both back to 1.
TEST(SyncDependenceTest, DivergentHeaderWhosePathsComeBackIsItsOwnJoin) {
  CfgAnalyses g(Graph({{1}, {2, 3, 4}, {1}, {1}, {}}));
  EXPECT_EQ(ComputeBranchDivergence(g, 1).joins, (std::vector<uint32_t>{1}));
}

// A self loop on the branch and a second latch (finding 02): 1 (div) -> 1
// | 2; 2 -> 1 | 3. The self-loop edge is a definition of its own.
TEST(SyncDependenceTest, SelfLoopAndSecondLatchJoinAtTheHeader) {
  CfgAnalyses g(Graph({{1}, {1, 2}, {1, 3}, {}}));
  EXPECT_EQ(ComputeBranchDivergence(g, 1).joins, (std::vector<uint32_t>{1}));
}

// Header join after an inner loop (finding 03): outer header 1, inner
// header 2, branch 3 in the inner loop: 3 -> 4 -> 1 (leaves the inner loop
// straight to the outer latch) | 5 -> 2 (next inner iteration), and 2 -> 3
// | 1. Threads on the second path leave the inner loop later but in the
// same outer iteration: 1 is a join, and the inner loop's exit divergent.
TEST(SyncDependenceTest, HeaderJoinAfterAnInnerLoop) {
  CfgAnalyses g(Graph({{1}, {2, 6}, {3, 1}, {4, 5}, {1}, {2}, {}}));
  const BranchDivergence d = ComputeBranchDivergence(g, 3);
  EXPECT_NE(std::find(d.joins.begin(), d.joins.end(), 1u), d.joins.end());
  ASSERT_EQ(d.divergent_exit_cycles.size(), 1u);
  EXPECT_EQ(d.divergent_exit_cycles[0]->header(), 2u);
}

// Diverged paths reaching an irreducible cycle (seed 000, "Diverged Paths
// reaching a Cycle"): 0 (div) -> 1, 2; 1 <-> 2; 2 -> 3. The two paths enter
// the cycle {1, 2} at different entries: not m-converged.
TEST(SyncDependenceTest, DivergedPathsReachingAnIrreducibleCycle) {
  CfgAnalyses g(Graph({{1, 2}, {2}, {1, 3}, {}}));
  const BranchDivergence d = ComputeBranchDivergence(g, 0);
  ASSERT_EQ(d.not_m_converged_cycles.size(), 1u);
  EXPECT_FALSE(d.not_m_converged_cycles[0]->IsReducible());
}

// The same branch before a natural loop: one entry, always m-converged.
//   0 (div) -> 1, 2; 1 -> 2; 2 (header) <-> 3; 3 -> 4
TEST(SyncDependenceTest, DivergedPathsReachingANaturalLoopAreHarmless) {
  CfgAnalyses g(Graph({{1, 2}, {2}, {3}, {2, 4}, {}}));
  const BranchDivergence d = ComputeBranchDivergence(g, 0);
  EXPECT_EQ(d.joins, (std::vector<uint32_t>{2}));
  EXPECT_TRUE(d.not_m_converged_cycles.empty());
}

// Diverged entry (seed 000, closed path P->Q->R->S with Q divergent and R an
// entry): 0 -> P(1) | R(3); P -> Q(2); Q (div) -> R, S(4); R -> S; S -> P | 5.
// The join S is dominated neither by Q nor by the header P: not m-converged.
TEST(SyncDependenceTest, DivergedEntryBreaksMConvergence) {
  CfgAnalyses g(Graph({{1, 3}, {2}, {3, 4}, {4}, {1, 5}, {}}));
  const BranchDivergence d = ComputeBranchDivergence(g, 2);
  EXPECT_NE(std::find(d.joins.begin(), d.joins.end(), 4u), d.joins.end());
  ASSERT_EQ(d.not_m_converged_cycles.size(), 1u);
  EXPECT_FALSE(d.not_m_converged_cycles[0]->IsReducible());
}

// Without the second entry R the closed path is a natural loop: m-converged.
TEST(SyncDependenceTest, NoDivergedEntryInANaturalLoop) {
  CfgAnalyses g(Graph({{1}, {2}, {3, 4}, {4}, {1, 5}, {}}));
  const BranchDivergence d = ComputeBranchDivergence(g, 2);
  EXPECT_EQ(d.joins, (std::vector<uint32_t>{4}));
  EXPECT_TRUE(d.not_m_converged_cycles.empty());
}

}  // namespace
}  // namespace analysis
}  // namespace spirv_conv
