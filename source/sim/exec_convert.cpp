// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Conversions and OpBitcast. Float-to-integer conversions of values out of
// the target's range (undefined in SPIR-V) saturate, NaN gives 0.

#include <cmath>
#include <limits>

#include "sim/machine.h"
#include "sim/scalar.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {
namespace {

uint64_t FloatToUnsigned(double x, uint32_t width) {
  if (std::isnan(x) || x <= 0) return 0;
  const double max = width >= 64 ? 18446744073709551615.0 : static_cast<double>(WidthMask(width));
  if (x >= max) return WidthMask(width);
  return static_cast<uint64_t>(x);
}

uint64_t FloatToSigned(double x, uint32_t width) {
  if (std::isnan(x)) return 0;
  const double max = std::ldexp(1.0, static_cast<int>(width) - 1);
  int64_t v;
  if (x >= max) {
    v = width >= 64 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(max) - 1;
  } else if (x <= -max) {
    v = width >= 64 ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(max);
  } else {
    v = static_cast<int64_t>(x);
  }
  return static_cast<uint64_t>(v) & WidthMask(width);
}

// A 64-bit integer has more bits than a double's significand: converting
// through double would round twice, so a float result is converted directly.
template <typename Int>
uint64_t IntToFloat(Int v, uint32_t width) {
  if (ActiveFloatControls().TowardZero(width)) {
    // The integer exactly, less its double: the error of the conversion.
    const double d = static_cast<double>(v);
    const long double rest = static_cast<long double>(v) - static_cast<long double>(d);
    return RoundTowardZero(d, static_cast<double>(rest), width);
  }
  if (width != 32) return FromDouble(static_cast<double>(v), width);
  const float f = static_cast<float>(v);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

}  // namespace

bool ExecConvert(const Exec& e) {
  using spv::Op;
  const uint32_t w = e.inst.width, ow = e.inst.op_width;
  switch (static_cast<Op>(e.inst.opcode)) {
    case Op::OpConvertFToU:
      Map1(e, [&](uint64_t a) { return FloatToUnsigned(ToDouble(a, ow), w); });
      return true;
    case Op::OpConvertFToS:
      Map1(e, [&](uint64_t a) { return FloatToSigned(ToDouble(a, ow), w); });
      return true;
    case Op::OpConvertSToF:
      Map1(e, [&](uint64_t a) { return IntToFloat(SignExtend(a, ow), w); });
      return true;
    case Op::OpConvertUToF:
      Map1(e, [&](uint64_t a) { return IntToFloat(a, w); });
      return true;
    case Op::OpUConvert:
      Map1(e, [&](uint64_t a) { return a & WidthMask(w); });
      return true;
    case Op::OpSConvert:
      Map1(e, [&](uint64_t a) { return static_cast<uint64_t>(SignExtend(a, ow)) & WidthMask(w); });
      return true;
    case Op::OpFConvert:
      Map1(e, [&](uint64_t a) { return FromExact(ToDouble(a, ow), 0, w); });
      return true;
    case Op::OpQuantizeToF16:
      Map1(e, [&](uint64_t a) {
        return FromDouble(HalfToFloat(FloatToHalf(static_cast<float>(ToDouble(a, w)))), w);
      });
      return true;
    case Op::OpBitcast: {
      if (e.inst.kind == ScalarKind::kPointer || e.inst.op_kind == ScalarKind::kPointer) {
        return e.Unsupported("OpBitcast of a pointer");
      }
      const uint32_t in_comps = e.Op(1);
      if (in_comps == e.inst.comps) {
        Map1(e, [](uint64_t a) { return a; });
        return true;
      }
      // Different component counts: the bits concatenated, lowest component first.
      ForEachLane(e.lanes, [&](uint32_t l) {
        unsigned __int128 bits = 0;
        for (uint32_t c = 0; c < in_comps; ++c) {
          bits |= static_cast<unsigned __int128>(e.R(e.Op(0) + c)[l]) << (c * ow);
        }
        for (uint32_t c = 0; c < e.inst.comps; ++c) {
          e.R(e.inst.result + c)[l] = static_cast<uint64_t>(bits >> (c * w)) & WidthMask(w);
        }
      });
      return true;
    }
    default:
      return e.Unsupported("instruction");
  }
}

}  // namespace sim
}  // namespace spirv_conv
