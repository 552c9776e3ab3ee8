// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Lists of indices, one per node of a graph or model (successors, operands,
// users, tree children), stored back to back in one array: one allocation
// for all of them instead of one per node.

#ifndef SOURCE_ANALYSIS_COMPRESSED_LISTS_H_
#define SOURCE_ANALYSIS_COMPRESSED_LISTS_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace spirv_conv {
namespace analysis {

class CompressedLists {
 public:
  struct Range {
    const uint32_t* first;
    const uint32_t* last;
    const uint32_t* begin() const { return first; }
    const uint32_t* end() const { return last; }
    size_t size() const { return static_cast<size_t>(last - first); }
    bool empty() const { return first == last; }
    uint32_t operator[](size_t i) const { return first[i]; }
  };
  Range operator[](uint32_t list) const {
    return {items_.data() + starts_[list], items_.data() + starts_[list + 1]};
  }
  uint32_t size() const { return starts_.empty() ? 0 : static_cast<uint32_t>(starts_.size() - 1); }
  // Building, in list order: StartList(), then Add() its items.
  void StartList() { starts_.push_back(static_cast<uint32_t>(items_.size())); }
  void Add(uint32_t item) { items_.push_back(item); }
  // StartList(), then Add() each of |items|.
  void AddList(const std::vector<uint32_t>& items) {
    StartList();
    // Item by item: the lists are short, and a range insert's general
    // path cost more than the copies.
    for (uint32_t item : items) items_.push_back(item);
  }
  Range Building() const {  // the list being built
    return {items_.data() + starts_.back(), items_.data() + items_.size()};
  }
  void Finish() { starts_.push_back(static_cast<uint32_t>(items_.size())); }
  // Empties the lists, keeping the arrays' capacity (for lists rebuilt
  // again and again).
  void Clear() {
    starts_.clear();
    items_.clear();
  }
  // Room for |lists| lists of |items| items in all, so that building them
  // does not copy what it has so far each time the arrays grow.
  void Reserve(size_t lists, size_t items) {
    starts_.reserve(lists + 1);
    items_.reserve(items);
  }
  size_t total_items() const { return items_.size(); }
  bool operator==(const CompressedLists& other) const {
    return starts_ == other.starts_ && items_ == other.items_;
  }
  // Lists 0..|lists|-1 from (list, item) pairs, in pair order within a list.
  static CompressedLists FromPairs(uint32_t lists,
                                   const std::vector<std::pair<uint32_t, uint32_t>>& pairs);

 private:
  std::vector<uint32_t> starts_;
  std::vector<uint32_t> items_;
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_COMPRESSED_LISTS_H_
