// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// CompressedLists::FromPairs groups (list, item) pairs by list: the
// predecessor lists, the dominator tree's children and the uniformity
// model's users are all built this way, and several readers rely on each
// list keeping the order the pairs came in (predecessors in block order).

#include "analysis/compressed_lists.h"

#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace spirv_conv {
namespace analysis {
namespace {

std::vector<uint32_t> ListOf(const CompressedLists& lists, uint32_t list) {
  return {lists[list].begin(), lists[list].end()};
}

TEST(CompressedLists, FromPairsGroupsByListInPairOrder) {
  // List 1 gets 7, 5, 9 in that order although the pairs interleave with
  // lists 3 and 0; lists 2 and 4 stay empty, and so does the last one.
  const std::vector<std::pair<uint32_t, uint32_t>> pairs = {{1, 7}, {3, 2}, {1, 5},
                                                            {0, 4}, {3, 8}, {1, 9}};
  const CompressedLists lists = CompressedLists::FromPairs(5, pairs);
  ASSERT_EQ(lists.size(), 5u);
  EXPECT_EQ(ListOf(lists, 0), (std::vector<uint32_t>{4}));
  EXPECT_EQ(ListOf(lists, 1), (std::vector<uint32_t>{7, 5, 9}));
  EXPECT_TRUE(lists[2].empty());
  EXPECT_EQ(ListOf(lists, 3), (std::vector<uint32_t>{2, 8}));
  EXPECT_TRUE(lists[4].empty());
  EXPECT_EQ(lists.total_items(), pairs.size());
}

TEST(CompressedLists, FromPairsWithoutPairsHasEmptyLists) {
  const CompressedLists lists = CompressedLists::FromPairs(3, {});
  ASSERT_EQ(lists.size(), 3u);
  for (uint32_t l = 0; l < 3; ++l) EXPECT_TRUE(lists[l].empty());
  EXPECT_EQ(CompressedLists::FromPairs(0, {}).size(), 0u);
}

TEST(CompressedLists, FromPairsAllInTheLastList) {
  const CompressedLists lists = CompressedLists::FromPairs(4, {{3, 1}, {3, 0}, {3, 1}});
  EXPECT_TRUE(lists[0].empty() && lists[1].empty() && lists[2].empty());
  EXPECT_EQ(ListOf(lists, 3), (std::vector<uint32_t>{1, 0, 1}));
}

TEST(CompressedLists, AddListAppendsAWholeList) {
  CompressedLists lists;
  lists.AddList({3, 1});
  lists.AddList({});
  lists.StartList();
  lists.Add(9);
  lists.Finish();
  ASSERT_EQ(lists.size(), 3u);
  EXPECT_EQ(ListOf(lists, 0), (std::vector<uint32_t>{3, 1}));
  EXPECT_TRUE(lists[1].empty());
  EXPECT_EQ(ListOf(lists, 2), (std::vector<uint32_t>{9}));
}

// Clear empties the lists; lists built after it stand alone, and a copy
// holds the same lists.
TEST(CompressedLists, ClearThenRebuild) {
  CompressedLists lists;
  lists.AddList({3, 1});
  lists.AddList({4});
  lists.Finish();
  lists.Clear();
  EXPECT_EQ(lists.size(), 0u);
  EXPECT_EQ(lists.total_items(), 0u);
  lists.AddList({7});
  lists.Finish();
  const CompressedLists copy = lists;
  ASSERT_EQ(copy.size(), 1u);
  EXPECT_EQ(ListOf(copy, 0), (std::vector<uint32_t>{7}));
  EXPECT_EQ(copy, lists);
}

}  // namespace
}  // namespace analysis
}  // namespace spirv_conv
