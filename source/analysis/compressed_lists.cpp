// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/compressed_lists.h"

namespace spirv_conv {
namespace analysis {

CompressedLists CompressedLists::FromPairs(
    uint32_t lists, const std::vector<std::pair<uint32_t, uint32_t>>& pairs) {
  CompressedLists result;
  result.starts_.assign(lists + 1, 0);
  for (const auto& [list, item] : pairs) ++result.starts_[list + 1];
  for (uint32_t l = 0; l < lists; ++l) result.starts_[l + 1] += result.starts_[l];
  result.items_.resize(pairs.size());
  std::vector<uint32_t> next(result.starts_.begin(), result.starts_.end() - 1);
  for (const auto& [list, item] : pairs) result.items_[next[list]++] = item;
  return result;
}

}  // namespace analysis
}  // namespace spirv_conv
