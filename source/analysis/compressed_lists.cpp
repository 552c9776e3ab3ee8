// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/compressed_lists.h"

namespace spirv_conv {
namespace analysis {

CompressedLists CompressedLists::FromPairs(
    uint32_t lists, const std::vector<std::pair<uint32_t, uint32_t>>& pairs) {
  // A counting sort in place: starts_[l] counts list l's items, then, as a
  // running sum, marks its end; the pairs are placed last to first, each
  // moving its list's mark down by one, so that every mark ends at its
  // list's start and each list keeps the pairs' order.
  CompressedLists result;
  result.starts_.assign(lists + 1, 0);
  for (const auto& [list, item] : pairs) ++result.starts_[list];
  for (uint32_t l = 1; l <= lists; ++l) result.starts_[l] += result.starts_[l - 1];
  result.items_.resize(pairs.size());
  for (auto it = pairs.rbegin(); it != pairs.rend(); ++it) {
    result.items_[--result.starts_[it->first]] = it->second;
  }
  return result;
}

}  // namespace analysis
}  // namespace spirv_conv
