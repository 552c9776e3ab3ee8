// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Scalar encodings of the simulator's registers: every scalar component is a
// uint64_t holding the value's bits, zero-extended from its width (bools are
// 0 or 1, floats their IEEE bits at their own width, f16 included).

#ifndef SOURCE_SIM_SCALAR_H_
#define SOURCE_SIM_SCALAR_H_

#include <cmath>
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

// The float controls (SPV_KHR_float_controls) of the entry point being run:
// which component widths flush denormals to zero (DenormFlushToZero).
// Arithmetic reads and writes floats through ToDouble and FromDouble, which
// apply it; instructions that only move values (loads, stores, OpCopyObject,
// composites, OpSelect, OpPhi, OpBitcast) copy bits and keep a denormal, as
// the Vulkan spec's "Precision and Operation of SPIR-V Instructions" requires.
// Set by sim::Run for the duration of a run (FloatControlsScope).
// RoundingModeRTZ makes the correctly rounded operations (add, subtract,
// multiply, fma, conversions) of a width round toward zero (FromExact).
struct FloatControls {
  bool flush_denormals_16 = false;
  bool flush_denormals_32 = false;
  bool flush_denormals_64 = false;
  bool toward_zero_16 = false;
  bool toward_zero_32 = false;
  bool toward_zero_64 = false;
  bool Flushes(uint32_t width) const {
    return width == 64 ? flush_denormals_64 : width == 32 ? flush_denormals_32 : flush_denormals_16;
  }
  bool TowardZero(uint32_t width) const {
    return width == 64 ? toward_zero_64 : width == 32 ? toward_zero_32 : toward_zero_16;
  }
};

inline FloatControls& ActiveFloatControls() {
  static thread_local FloatControls controls;
  return controls;
}

// |value| with a denormal of |width| replaced by a zero of its sign.
inline double FlushDenormal(double value, uint32_t width) {
  const double smallest_normal = width == 64 ? 0x1p-1022 : width == 32 ? 0x1p-126 : 0x1p-14;
  return value != 0 && std::fabs(value) < smallest_normal ? std::copysign(0.0, value) : value;
}

inline double ToDouble(uint64_t bits, uint32_t width) {
  double value;
  if (width == 64) {
    std::memcpy(&value, &bits, 8);
  } else if (width == 32) {
    const uint32_t b = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b, 4);
    value = f;
  } else {
    value = HalfToFloat(static_cast<uint16_t>(bits));
  }
  return ActiveFloatControls().Flushes(width) ? FlushDenormal(value, width) : value;
}

inline uint64_t FromDouble(double value, uint32_t width) {
  const bool flush = ActiveFloatControls().Flushes(width);
  if (width == 64) {
    if (flush) value = FlushDenormal(value, 64);
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    return bits;
  }
  float f = static_cast<float>(value);
  if (width == 32) {
    if (flush) f = static_cast<float>(FlushDenormal(f, 32));
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  const uint16_t half = FloatToHalf(f);
  return flush ? FloatToHalf(static_cast<float>(FlushDenormal(HalfToFloat(half), 16))) : half;
}

// |value| + |error| (a double and the exact error of the operation that
// computed it, as TwoSum or an fma gives it) rounded toward zero to |width|.
uint64_t RoundTowardZero(double value, double error, uint32_t width);

// The result of a correctly rounded operation whose exact value is |value| +
// |error|: rounded to nearest (where the double's own rounding is harmless:
// 53 >= 2 * 24 + 2 bits), or toward zero under RoundingModeRTZ, where it is not.
inline uint64_t FromExact(double value, double error, uint32_t width) {
  if (!ActiveFloatControls().TowardZero(width)) return FromDouble(value, width);
  return RoundTowardZero(value, error, width);
}

// Error-free transformations: a + b = sum + *error and a * b = product + *error
// exactly (finite results).
inline double TwoSum(double a, double b, double* error) {
  const double sum = a + b;
  if (!std::isfinite(sum)) {
    *error = 0;
    return sum;
  }
  const double bb = sum - a;
  *error = (a - (sum - bb)) + (b - bb);
  return sum;
}
inline double TwoProduct(double a, double b, double* error) {
  const double product = a * b;
  *error = std::isfinite(product) ? std::fma(a, b, -product) : 0;
  return product;
}

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_SCALAR_H_
