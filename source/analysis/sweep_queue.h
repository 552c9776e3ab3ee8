// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// A worklist of indices (nodes, blocks) taken in increasing order. The
// solver's per-node and per-block arrays are laid out in function order, so
// taking the queued indices in that order reads them mostly forward through
// memory instead of jumping wherever the last change pointed; on a large
// function a first-in-first-out list costs a cache miss or two per entry. Two
// ways to take them:
//
//   queued:  0 1 . . 4 . 6 .      Sweep(f): f(0), f(1), f(4), f(6).
//   f(4) queues 2 and 7:          7 comes in this sweep (after 6), 2 is
//                                 behind it: Behind() is true and the next
//                                 sweep takes it.
//                                 Drain(f): f(0), f(1), f(4), f(2), f(6),
//                                 f(7): always the lowest queued index.

#ifndef SOURCE_ANALYSIS_SWEEP_QUEUE_H_
#define SOURCE_ANALYSIS_SWEEP_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace spirv_conv {
namespace analysis {

class SweepQueue {
 public:
  // Empties the queue and makes room for indices below |size|.
  void Reset(size_t size) {
    bits_.assign((size + 63) / 64, 0);
    lowest_ = 0;
    at_ = kIdle;
    behind_ = false;
  }

  // Queues |index| (once, however often it is added).
  void Add(uint32_t index) {
    bits_[index / 64] |= uint64_t{1} << (index % 64);
    if (index / 64 < lowest_) lowest_ = index / 64;
    if (at_ == kIdle || index <= at_) behind_ = true;
  }

  // True if an index was queued outside a sweep or behind the position of
  // the last one: another sweep has work. (Drain leaves nothing queued.)
  bool Behind() const { return behind_; }

  // Calls |f(index)| for the lowest queued index, taken off the queue
  // first, until none is left: an index |f| queues behind the current one
  // comes before those queued ahead of it.
  template <typename F>
  void Drain(const F& f) {
    for (;;) {
      while (lowest_ < bits_.size() && bits_[lowest_] == 0) ++lowest_;
      if (lowest_ == bits_.size()) break;
      const uint64_t bits = bits_[lowest_];
      const auto bit = static_cast<uint32_t>(__builtin_ctzll(bits));
      bits_[lowest_] = bits & (bits - 1);
      at_ = static_cast<uint32_t>(lowest_ * 64 + bit);
      f(at_);
    }
    at_ = kIdle;
    behind_ = false;
  }

  // Calls |f(index)| for every queued index in increasing order, each taken
  // off the queue before the call, including those |f| queues ahead of the
  // current index.
  template <typename F>
  void Sweep(const F& f) {
    behind_ = false;
    for (size_t word = 0; word < bits_.size(); ++word) {
      // Read again after every call, |f| may queue later bits of this word;
      // the bits up to the current one (|ahead| masks them) are behind.
      uint64_t ahead = ~uint64_t{0};
      while (const uint64_t bits = bits_[word] & ahead) {
        const auto bit = static_cast<uint32_t>(__builtin_ctzll(bits));
        bits_[word] &= ~(uint64_t{1} << bit);
        ahead = bit == 63 ? 0 : ~uint64_t{0} << (bit + 1);
        at_ = static_cast<uint32_t>(word * 64 + bit);
        f(at_);
      }
    }
    at_ = kIdle;
  }

 private:
  static constexpr uint32_t kIdle = ~0u;
  std::vector<uint64_t> bits_;
  uint32_t at_ = kIdle;  // the index being handled by Sweep or Drain
  bool behind_ = false;
  size_t lowest_ = 0;  // no index is queued in a word before this one
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_SWEEP_QUEUE_H_
