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

enum class Take { kSweep, kDrain };

// The indices one Sweep or Drain of |queue| hands out. With |queue_at_4|,
// the first time it hands out 4 it queues 7 (the same word, ahead), 70 (a
// later word), 2 (behind) and 4 itself (behind: it was taken off already),
// the example of sweep_queue.h.
std::vector<uint32_t> Taken(SweepQueue* queue, Take take, bool queue_at_4 = false) {
  std::vector<uint32_t> seen;
  auto f = [&](uint32_t i) {
    seen.push_back(i);
    if (i == 4 && queue_at_4) {
      queue_at_4 = false;
      for (uint32_t j : {7u, 70u, 2u, 4u}) queue->Add(j);
    }
  };
  if (take == Take::kSweep) {
    queue->Sweep(f);
  } else {
    queue->Drain(f);
  }
  return seen;
}

TEST(SweepQueueTest, TakesQueuedIndicesInIncreasingOrderOnce) {
  SweepQueue queue;
  queue.Reset(200);
  EXPECT_FALSE(queue.Behind());
  for (uint32_t i : {130u, 6u, 64u, 6u, 63u, 0u}) queue.Add(i);
  EXPECT_TRUE(queue.Behind());  // queued outside a sweep
  EXPECT_EQ(Taken(&queue, Take::kSweep), (std::vector<uint32_t>{0, 6, 63, 64, 130}));
  EXPECT_FALSE(queue.Behind());
  EXPECT_TRUE(Taken(&queue, Take::kSweep).empty());
}

// A sweep takes 7 and 70, ahead of 4, at once; 2 and 4 wait for the next.
TEST(SweepQueueTest, AheadInThisSweepBehindInTheNext) {
  SweepQueue queue;
  queue.Reset(100);
  for (uint32_t i : {0u, 1u, 4u, 6u}) queue.Add(i);
  EXPECT_EQ(Taken(&queue, Take::kSweep, /*queue_at_4=*/true),
            (std::vector<uint32_t>{0, 1, 4, 6, 7, 70}));
  EXPECT_TRUE(queue.Behind());
  EXPECT_EQ(Taken(&queue, Take::kSweep), (std::vector<uint32_t>{2, 4}));
  EXPECT_FALSE(queue.Behind());
}

// A drain takes the lowest queued index next: 2 right after 4, then 4
// again, before 6; then all is taken.
TEST(SweepQueueTest, DrainTakesTheLowestQueuedIndexUntilNoneIsLeft) {
  SweepQueue queue;
  queue.Reset(100);
  for (uint32_t i : {0u, 1u, 4u, 6u}) queue.Add(i);
  EXPECT_EQ(Taken(&queue, Take::kDrain, /*queue_at_4=*/true),
            (std::vector<uint32_t>{0, 1, 4, 2, 4, 6, 7, 70}));
  EXPECT_FALSE(queue.Behind());
  EXPECT_TRUE(Taken(&queue, Take::kDrain).empty());
}

}  // namespace
}  // namespace analysis
}  // namespace spirv_conv
