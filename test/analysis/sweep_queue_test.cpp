// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// SweepQueue: indices come out in increasing order, once each; in a sweep,
// one queued ahead of it comes in the same sweep, one behind it in the next;
// a drain always takes the lowest queued one.

#include "analysis/sweep_queue.h"

#include <vector>

#include "gtest/gtest.h"

namespace spirv_conv {
namespace analysis {
namespace {

TEST(SweepQueueTest, TakesQueuedIndicesInIncreasingOrderOnce) {
  SweepQueue queue;
  queue.Reset(200);
  EXPECT_FALSE(queue.Behind());
  for (uint32_t i : {130u, 6u, 64u, 6u, 63u, 0u}) queue.Add(i);
  EXPECT_TRUE(queue.Behind());  // queued outside a sweep
  std::vector<uint32_t> seen;
  queue.Sweep([&](uint32_t i) { seen.push_back(i); });
  EXPECT_EQ(seen, (std::vector<uint32_t>{0, 6, 63, 64, 130}));
  EXPECT_FALSE(queue.Behind());
  seen.clear();
  queue.Sweep([&](uint32_t i) { seen.push_back(i); });
  EXPECT_TRUE(seen.empty());
}

// The example of sweep_queue.h: f(4) queues 7 (same word, ahead), 70 (a
// later word), 2 (behind) and 4 itself (behind: it was taken off already).
TEST(SweepQueueTest, AheadInThisSweepBehindInTheNext) {
  SweepQueue queue;
  queue.Reset(100);
  for (uint32_t i : {0u, 1u, 4u, 6u}) queue.Add(i);
  std::vector<uint32_t> seen;
  queue.Sweep([&](uint32_t i) {
    seen.push_back(i);
    if (i == 4) {
      for (uint32_t j : {7u, 70u, 2u, 4u}) queue.Add(j);
    }
  });
  EXPECT_EQ(seen, (std::vector<uint32_t>{0, 1, 4, 6, 7, 70}));
  EXPECT_TRUE(queue.Behind());
  seen.clear();
  queue.Sweep([&](uint32_t i) { seen.push_back(i); });
  EXPECT_EQ(seen, (std::vector<uint32_t>{2, 4}));
  EXPECT_FALSE(queue.Behind());
}

// Drain on the same queue: the lowest queued index comes next, so 2 comes
// right after 4, before 6; 4 queued again comes once more; then all is
// taken.
TEST(SweepQueueTest, DrainTakesTheLowestQueuedIndexUntilNoneIsLeft) {
  SweepQueue queue;
  queue.Reset(100);
  for (uint32_t i : {0u, 1u, 4u, 6u}) queue.Add(i);
  std::vector<uint32_t> seen;
  bool requeued = false;
  queue.Drain([&](uint32_t i) {
    seen.push_back(i);
    if (i == 4 && !requeued) {
      requeued = true;
      for (uint32_t j : {7u, 70u, 2u, 4u}) queue.Add(j);
    }
  });
  EXPECT_EQ(seen, (std::vector<uint32_t>{0, 1, 4, 2, 4, 6, 7, 70}));
  EXPECT_FALSE(queue.Behind());
  seen.clear();
  queue.Drain([&](uint32_t i) { seen.push_back(i); });
  EXPECT_TRUE(seen.empty());
}

}  // namespace
}  // namespace analysis
}  // namespace spirv_conv
