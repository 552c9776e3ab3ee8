// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// IEEE binary16 conversions (no hardware or compiler half type is assumed).

#include "sim/scalar.h"

#include <cmath>

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

uint16_t FloatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  if (std::isnan(value)) return sign | 0x7E00;
  const float magnitude = std::fabs(value);
  if (magnitude >= 65520.0f) return sign | 0x7C00;  // rounds to infinity
  if (magnitude < std::ldexp(1.0f, -25)) return sign;
  int exponent;
  std::frexp(magnitude, &exponent);  // magnitude = m * 2^exponent, m in [0.5, 1)
  // Quantum of the result: 2^(exponent - 11) for normals, 2^-24 for subnormals.
  const int quantum = exponent - 11 < -24 ? -24 : exponent - 11;
  const float units = std::nearbyint(std::ldexp(magnitude, -quantum));  // ties to even
  const uint32_t n = static_cast<uint32_t>(units);
  if (quantum == -24 && n < 0x400) return sign | static_cast<uint16_t>(n);  // subnormal
  // n in [0x400, 0x800]: normal with biased exponent quantum + 25 (n == 0x800 carries).
  uint32_t biased = static_cast<uint32_t>(quantum + 25), m = n;
  if (m == 0x800) {
    m = 0x400;
    ++biased;
  }
  if (biased >= 31) return sign | 0x7C00;
  return sign | static_cast<uint16_t>(biased << 10 | (m & 0x3FF));
}

}  // namespace sim
}  // namespace spirv_conv
