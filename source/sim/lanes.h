// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// A set of subgroup lanes (up to 128): the invocations of a tangle, the
// arrivals at a reconvergence point, a ballot.

#ifndef SOURCE_SIM_LANES_H_
#define SOURCE_SIM_LANES_H_

#include <cstdint>

namespace spirv_conv {
namespace sim {

constexpr uint32_t kMaxSubgroupSize = 128;

struct LaneMask {
  uint64_t word[2] = {0, 0};

  static LaneMask FirstN(uint32_t n) {
    LaneMask m;
    m.word[0] = n >= 64 ? ~0ull : ((1ull << n) - 1);
    m.word[1] = n <= 64 ? 0 : (n >= 128 ? ~0ull : ((1ull << (n - 64)) - 1));
    return m;
  }
  static LaneMask Lane(uint32_t lane) {
    LaneMask m;
    m.Set(lane);
    return m;
  }
  bool Test(uint32_t lane) const { return (word[lane >> 6] >> (lane & 63)) & 1; }
  void Set(uint32_t lane) { word[lane >> 6] |= 1ull << (lane & 63); }
  void Clear(uint32_t lane) { word[lane >> 6] &= ~(1ull << (lane & 63)); }
  bool Empty() const { return (word[0] | word[1]) == 0; }
  bool Any() const { return !Empty(); }
  uint32_t Count() const {
    return static_cast<uint32_t>(__builtin_popcountll(word[0]) + __builtin_popcountll(word[1]));
  }
  // The lowest lane; the mask must not be empty.
  uint32_t First() const {
    return word[0] ? static_cast<uint32_t>(__builtin_ctzll(word[0]))
                   : 64 + static_cast<uint32_t>(__builtin_ctzll(word[1]));
  }
  uint32_t Last() const {
    return word[1] ? 127 - static_cast<uint32_t>(__builtin_clzll(word[1]))
                   : 63 - static_cast<uint32_t>(__builtin_clzll(word[0]));
  }
  LaneMask operator&(const LaneMask& o) const {
    return {{word[0] & o.word[0], word[1] & o.word[1]}};
  }
  LaneMask operator|(const LaneMask& o) const {
    return {{word[0] | o.word[0], word[1] | o.word[1]}};
  }
  LaneMask operator~() const { return {{~word[0], ~word[1]}}; }
  LaneMask& operator|=(const LaneMask& o) { return *this = *this | o; }
  LaneMask& operator&=(const LaneMask& o) { return *this = *this & o; }
  bool operator==(const LaneMask& o) const { return word[0] == o.word[0] && word[1] == o.word[1]; }
  bool operator!=(const LaneMask& o) const { return !(*this == o); }
  LaneMask Without(const LaneMask& o) const { return *this & ~o; }
};

// Calls |fn(lane)| for every lane of |mask|, lowest first.
template <typename Fn>
inline void ForEachLane(const LaneMask& mask, Fn&& fn) {
  for (uint32_t w = 0; w < 2; ++w) {
    for (uint64_t bits = mask.word[w]; bits; bits &= bits - 1) {
      fn(w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits)));
    }
  }
}

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_LANES_H_
