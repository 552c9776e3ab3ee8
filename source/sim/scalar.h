// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Scalar encodings of the simulator's registers: every scalar component is a
// uint64_t holding the value's bits, zero-extended from its width (bools are
// 0 or 1, floats their IEEE bits at their own width, f16 included).

#ifndef SOURCE_SIM_SCALAR_H_
#define SOURCE_SIM_SCALAR_H_

#include <cstdint>
#include <cstring>

namespace spirv_conv {
namespace sim {

inline uint64_t WidthMask(uint32_t width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }

inline int64_t SignExtend(uint64_t bits, uint32_t width) {
  if (width >= 64) return static_cast<int64_t>(bits);
  const uint32_t shift = 64 - width;
  return static_cast<int64_t>(bits << shift) >> shift;
}

// Rounding modes of conversions to half, numbered as SPIR-V's FPRoundingMode (RTE, RTZ, RTP, RTN).
enum class Rounding : uint8_t { kNearestEven, kTowardZero, kUp, kDown };

float HalfToFloat(uint16_t half);
uint16_t DoubleToHalf(double value, Rounding mode);  // rounded once, from the exact value
uint16_t FloatToHalf(float value);                   // round to nearest even

inline double ToDouble(uint64_t bits, uint32_t width) {
  if (width == 64) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  if (width == 32) {
    const uint32_t b = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  return HalfToFloat(static_cast<uint16_t>(bits));
}

inline uint64_t FromDouble(double value, uint32_t width) {
  if (width == 64) {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    return bits;
  }
  const float f = static_cast<float>(value);
  if (width == 32) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  return FloatToHalf(f);
}

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_SCALAR_H_
