// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// IEEE binary16 conversions (no hardware or compiler half type is assumed).

#include "sim/scalar.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace spirv_conv {
namespace sim {

float HalfToFloat(uint16_t half) {
  const uint32_t sign = half >> 15, exponent = (half >> 10) & 0x1F, mantissa = half & 0x3FF;
  float value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    value = mantissa ? NAN : INFINITY;
  } else {
    value = std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
  }
  return sign ? -value : value;
}

uint16_t DoubleToHalf(double value, Rounding mode) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return sign | 0x7E00;
  if (std::isinf(value)) return sign | 0x7C00;
  const double magnitude = std::fabs(value);
  if (magnitude == 0) return sign;
  // Directed modes round the magnitude up or down, by the sign for kUp and kDown.
  const bool up = mode == Rounding::kUp ? !sign : mode == Rounding::kDown && sign;
  int exponent;
  std::frexp(magnitude, &exponent);  // magnitude = m * 2^exponent, m in [0.5, 1)
  // Quantum of the result: 2^(exponent - 11) for normals, 2^-24 for subnormals.
  const int quantum = exponent - 11 < -24 ? -24 : exponent - 11;
  const double scaled = std::ldexp(magnitude, -quantum);                        // exact
  const double units = mode == Rounding::kNearestEven ? std::nearbyint(scaled)  // ties to even
                       : up                           ? std::ceil(scaled)
                                                      : std::floor(scaled);
  // units in [0, 0x800]: a subnormal below 0x400, else a normal of biased exponent
  // quantum + 25 and mantissa units - 0x400 (0x800 carries into the exponent).
  const uint64_t bits = (static_cast<uint64_t>(quantum + 24) << 10) + static_cast<uint64_t>(units);
  if (bits >= 0x7C00) {  // overflow: infinity, or the largest finite half when rounding inwards
    return sign | (mode == Rounding::kNearestEven || up ? 0x7C00 : 0x7BFF);
  }
  return sign | static_cast<uint16_t>(bits);
}

uint16_t FloatToHalf(float value) { return DoubleToHalf(value, Rounding::kNearestEven); }

uint64_t RoundTowardZero(double value, double error, uint32_t width) {
  if (std::isnan(value) || std::isinf(value)) return FromDouble(value, width);
  if (value == 0) {
    if (error == 0) return FromDouble(value, width);
    value = error;  // the exact result is the (exactly representable) error
    error = 0;
  }
  // The exact result lies strictly between the double and its neighbour
  // toward the error's side; only when the double itself is representable at
  // |width| can the error move the truncation (one step toward zero).
  const bool inward = error != 0 && std::signbit(error) != std::signbit(value);
  uint64_t bits;
  bool exact;
  if (width == 64) {
    std::memcpy(&bits, &value, 8);
    exact = true;
  } else if (width == 32) {
    const double magnitude = std::fabs(value);
    float f = static_cast<float>(std::min(magnitude, double{std::numeric_limits<float>::max()}));
    if (f > magnitude) f = std::nextafter(f, 0.0f);
    exact = f == magnitude;
    if (value < 0) f = -f;
    uint32_t b;
    std::memcpy(&b, &f, 4);
    bits = b;
  } else {
    bits = DoubleToHalf(value, Rounding::kTowardZero);
    exact = HalfToFloat(static_cast<uint16_t>(bits)) == value;
  }
  if (exact && inward) {
    // One step toward zero: the magnitude's bit pattern minus one (a zero stays zero).
    const uint64_t sign = width == 64 ? 1ull << 63 : width == 32 ? 1ull << 31 : 1ull << 15;
    if ((bits & ~sign) != 0) bits -= 1;
  }
  double result = ToDouble(bits, width);
  if (ActiveFloatControls().Flushes(width)) result = FlushDenormal(result, width);
  if (width == 64) {
    std::memcpy(&bits, &result, 8);
    return bits;
  }
  if (width == 32) {
    const float f = static_cast<float>(result);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  return DoubleToHalf(result, Rounding::kTowardZero);
}

}  // namespace sim
}  // namespace spirv_conv
