// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// OpenCL.std functions that touch memory through a pointer argument: fract,
// modf, frexp, sincos, remquo and lgamma_r (a result, and a second value stored
// through the pointer), vloadn/vstoren (n scalars at p + offset * n) and the
// half conversions vload_half(n), vloada_halfn, vstore_half(n)(_r) and
// vstorea_halfn(_r) (a 3-vector of the aligned forms steps by 4). Every access
// is LoadValue/StoreValue of the pointee's layout (exec_memory.cpp): bounds-
// checked as any load or store. Floats are computed in double, rounded once.

#include <cmath>
#include <string>

#include "sim/ext_map.h"
#include "spirv/unified1/OpenCL.std.h"

namespace spirv_conv {
namespace sim {
namespace {

constexpr uint32_t kMaxComps = 16;

// The largest float of |width| bits below 1: 1 - 2^-11, 1 - 2^-24, 1 - 2^-53.
double BelowOne(uint32_t width) {
  return 1 - std::ldexp(1.0, width == 16 ? -11 : width == 32 ? -24 : -53);
}

struct Two {
  double result, stored;
};

// fract(x): x - floor(x) kept below 1, floor(x) stored; +-0 and +-inf as the spec says.
Two FractOf(double x, uint32_t w) {
  if (std::isnan(x)) return {x, x};
  if (std::isinf(x)) return {std::copysign(0.0, x), x};
  if (x == 0) return {x, x};
  const double whole = std::floor(x);
  return {std::fmin(x - whole, BelowOne(w)), whole};
}

// remquo(x, y): remainder(x, y), and the 7 low bits of the quotient rounded to
// nearest even with the sign of x / y (OpenCL's definition). The quotient of
// |x| mod 128|y| by |y| has the same 7 low bits and parity, and is small enough
// to be computed exactly from its own remainder.
Two RemquoOf(double x, double y) {
  const double r = std::remainder(x, y);
  if (std::isnan(r)) return {r, 0};
  const double ay = std::fabs(y), xm = std::fmod(std::fabs(x), 128 * ay);
  const double k = std::nearbyint((xm - std::remainder(xm, ay)) / ay);
  const int64_t low = static_cast<int64_t>(k) & 127;
  return {r, static_cast<double>(std::signbit(x) != std::signbit(y) ? -low : low)};
}

// The sign of gamma(x) for lgamma_r: 0 where gamma has no sign (NaN, -inf, the
// poles at the non-positive integers other than -0 and +0).
double GammaSign(double x) {
  if (std::isnan(x) || x == -INFINITY) return 0;
  if (x == 0) return std::signbit(x) ? -1 : 1;
  if (x > 0) return 1;
  const double whole = std::floor(x);
  if (whole == x) return 0;
  return std::fmod(whole, 2) != 0 ? -1 : 1;  // (-1, 0) negative, (-2, -1) positive, ...
}

// The result of fn(x[, y]) per component, and fn's second value stored through
// argument |ptr| (a float of the result's width, or an integer) in one store per lane.
template <typename Fn>
bool MapAndStore(const Exec& e, uint32_t ptr, Fn fn) {
  const uint32_t w = e.inst.width, n = e.inst.comps, layout_index = ArgInfo(e, ptr);
  const Layout* layout = layout_index == kNone ? nullptr : &e.m.program.layouts[layout_index];
  if (!layout || layout->comp_offset.size() != n || n > kMaxComps) {
    return e.Unsupported("OpenCL.std pointer argument of another shape than the result");
  }
  const bool to_float = e.m.program.types[layout->type].scalar == ScalarKind::kFloat;
  const uint32_t stored_width = layout->comp_bytes[0] * 8u;
  const uint64_t* p = e.R(e.Op(ptr));
  bool ok = true;
  ForEachLane(e.lanes, [&](uint32_t l) {
    uint64_t stored[kMaxComps];
    for (uint32_t c = 0; c < n; ++c) {
      const double x = ToDouble(e.R(ArgSlot(e, 0, c))[l], w);
      const double y = ptr > 1 ? ToDouble(e.R(ArgSlot(e, 1, c))[l], w) : 0;
      const Two v = fn(x, y);
      e.R(e.inst.result + c)[l] = FromDouble(v.result, w);
      stored[c] = to_float ? FromDouble(v.stored, stored_width)
                           : static_cast<uint64_t>(static_cast<int64_t>(v.stored)) &
                                 WidthMask(stored_width);
    }
    ok = ok && StoreValue(e, layout_index, p[l], l, stored, 1);
  });
  return ok;
}

// The pointer |index| elements of |bytes| past |p|, or false after a fault.
bool Element(const Exec& e, uint64_t p, uint64_t index, uint64_t bytes, uint64_t* out) {
  const unsigned __int128 offset = static_cast<unsigned __int128>(index) * bytes;
  if (offset > kOffsetMask) {
    return e.Fault("out-of-bounds access: element " + std::to_string(index) + " of " +
                   std::to_string(bytes) + " bytes");
  }
  *out = AddToPointer(p, static_cast<uint64_t>(offset));
  return true;
}

// vloadn, vload_half, vload_halfn, vloada_halfn(offset, p[, n]): the result's
// components from p + offset * step + c, each a scalar load of p's pointee.
bool VLoad(const Exec& e, uint32_t op) {
  using namespace OpenCLLIB;  // NOLINT
  const uint32_t n = e.inst.comps, layout = ArgInfo(e, 1);
  const bool half = op != Vloadn;
  const uint64_t step = op == Vloada_halfn && n == 3 ? 4 : n;
  if (layout == kNone || e.m.program.layouts[layout].comp_offset.size() != 1 ||
      (half && e.m.program.layouts[layout].size != 2)) {
    return e.Unsupported("vload pointer to other than a scalar" + std::string(half ? " half" : ""));
  }
  const uint64_t bytes = e.m.program.layouts[layout].size;
  const uint64_t* offset = e.R(e.Op(0));
  const uint64_t* p = e.R(e.Op(1));
  bool ok = true;
  ForEachLane(e.lanes, [&](uint32_t l) {
    const uint64_t first = (offset[l] & WidthMask(ArgInfo(e, 0))) * step;
    for (uint32_t c = 0; c < n && ok; ++c) {
      uint64_t at = 0;
      uint64_t* d = e.R(e.inst.result + c) + l;
      ok = Element(e, p[l], first + c, bytes, &at) && LoadValue(e, layout, at, l, d, 1);
      if (ok && half) *d = FromDouble(HalfToFloat(static_cast<uint16_t>(*d)), e.inst.width);
    }
  });
  return ok;
}

// vstoren, vstore_half(n)(_r), vstorea_halfn(_r)(data, offset, p[, mode]): the
// data's components to p + offset * step + c, each a scalar store of p's pointee.
bool VStore(const Exec& e, uint32_t op) {
  using namespace OpenCLLIB;  // NOLINT
  const uint32_t n = e.Op(e.inst.num_ops), w = e.inst.op_width, layout = ArgInfo(e, 2);
  const bool half = op != Vstoren;
  const bool aligned = op == Vstorea_halfn || op == Vstorea_halfn_r;
  const bool rounded = op == Vstore_half_r || op == Vstore_halfn_r || op == Vstorea_halfn_r;
  const uint64_t step = aligned && n == 3 ? 4 : n;
  if (layout == kNone || e.m.program.layouts[layout].comp_offset.size() != 1 ||
      (half && e.m.program.layouts[layout].size != 2) || (rounded && e.Op(3) > 3)) {
    return e.Unsupported("vstore pointer to other than a scalar" +
                         std::string(half ? " half" : ""));
  }
  // FPRoundingMode RTE, RTZ, RTP, RTN are Rounding's values.
  const Rounding mode = rounded ? static_cast<Rounding>(e.Op(3)) : Rounding::kNearestEven;
  const uint64_t bytes = e.m.program.layouts[layout].size;
  const uint64_t* offset = e.R(e.Op(1));
  const uint64_t* p = e.R(e.Op(2));
  bool ok = true;
  ForEachLane(e.lanes, [&](uint32_t l) {
    const uint64_t first = (offset[l] & WidthMask(ArgInfo(e, 1))) * step;
    for (uint32_t c = 0; c < n && ok; ++c) {
      uint64_t at = 0, v = e.R(e.Op(0) + c)[l];
      if (half) v = DoubleToHalf(ToDouble(v, w), mode);
      ok = Element(e, p[l], first + c, bytes, &at) && StoreValue(e, layout, at, l, &v, 1);
    }
  });
  return ok;
}

}  // namespace

bool ExecOpenClMemory(const Exec& e, uint32_t op) {
  using namespace OpenCLLIB;  // NOLINT
  const uint32_t w = e.inst.width;
  switch (op) {
    case Fract:
      return MapAndStore(e, 1, [w](double x, double) { return FractOf(x, w); });
    case Modf:  // both parts with the sign of x; modf(+-inf) is +-0 and +-inf
      return MapAndStore(e, 1, [](double x, double) {
        double whole = 0;
        const double part = std::modf(x, &whole);
        return Two{part, whole};
      });
    case Frexp:  // x = m * 2^exp, |m| in [0.5, 1); 0, inf and NaN store 0
      return MapAndStore(e, 1, [](double x, double) {
        int exponent = 0;
        const double m = std::frexp(x, &exponent);
        return Two{m, std::isfinite(x) ? static_cast<double>(exponent) : 0.0};
      });
    case Sincos:
      return MapAndStore(e, 1, [](double x, double) { return Two{std::sin(x), std::cos(x)}; });
    case Remquo:
      return MapAndStore(e, 2, [](double x, double y) { return RemquoOf(x, y); });
    case Lgamma_r:
      return MapAndStore(e, 1, [](double x, double) { return Two{std::lgamma(x), GammaSign(x)}; });
    case Vloadn:
    case Vload_half:
    case Vload_halfn:
    case Vloada_halfn:
      return VLoad(e, op);
    case Vstoren:
    case Vstore_half:
    case Vstore_half_r:
    case Vstore_halfn:
    case Vstore_halfn_r:
    case Vstorea_halfn:
    case Vstorea_halfn_r:
      return VStore(e, op);
    default:
      return e.Unsupported("OpenCL.std instruction " + std::to_string(op));
  }
}

}  // namespace sim
}  // namespace spirv_conv
