// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// GLSL.std.450: the functions compute shaders use (and OpenCL.std's twins of
// them, opencl_std.cpp). Floats are computed in double and rounded once to
// their width, so transcendental results may differ from a GPU's in the last
// bits (device precision is looser than this).

#include <algorithm>
#include <cmath>

#include "sim/ext_map.h"
#include "spirv/unified1/GLSL.std.450.h"

namespace spirv_conv {
namespace sim {
namespace {

double Clamp(double x, double lo, double hi) { return std::min(std::max(x, lo), hi); }

// Reads vector operand |i| (|n| components) of lane |l| as doubles.
void Vec(const Exec& e, uint32_t i, uint32_t n, uint32_t l, double* out) {
  for (uint32_t c = 0; c < n; ++c) out[c] = ToDouble(e.R(e.Op(i) + c)[l], e.inst.op_width);
}

bool Packing(const Exec& e, uint32_t op) {
  uint64_t* d = e.R(e.inst.result);
  auto unorm = [](double x, double scale) { return std::round(Clamp(x, 0, 1) * scale); };
  auto snorm = [](double x, double scale) { return std::round(Clamp(x, -1, 1) * scale); };
  switch (op) {
    case GLSLstd450PackHalf2x16:
    case GLSLstd450PackUnorm2x16:
    case GLSLstd450PackSnorm2x16:
    case GLSLstd450PackUnorm4x8:
    case GLSLstd450PackSnorm4x8: {
      const uint32_t n = op == GLSLstd450PackUnorm4x8 || op == GLSLstd450PackSnorm4x8 ? 4 : 2;
      const uint32_t bits = 32 / n;
      ForEachLane(e.lanes, [&](uint32_t l) {
        double v[4];
        Vec(e, 0, n, l, v);
        uint64_t r = 0;
        for (uint32_t c = 0; c < n; ++c) {
          uint64_t part;
          if (op == GLSLstd450PackHalf2x16) {
            part = FloatToHalf(static_cast<float>(v[c]));
          } else if (op == GLSLstd450PackUnorm2x16 || op == GLSLstd450PackUnorm4x8) {
            part = static_cast<uint64_t>(unorm(v[c], static_cast<double>(WidthMask(bits))));
          } else {
            part = static_cast<uint64_t>(static_cast<int64_t>(snorm(v[c], WidthMask(bits - 1))));
          }
          r |= (part & WidthMask(bits)) << (c * bits);
        }
        d[l] = r;
      });
      return true;
    }
    case GLSLstd450UnpackHalf2x16:
    case GLSLstd450UnpackUnorm2x16:
    case GLSLstd450UnpackSnorm2x16:
    case GLSLstd450UnpackUnorm4x8:
    case GLSLstd450UnpackSnorm4x8: {
      const uint32_t n = e.inst.comps, bits = 32 / n;
      const uint64_t* a = e.R(e.Op(0));
      for (uint32_t c = 0; c < n; ++c) {
        uint64_t* out = e.R(e.inst.result + c);
        ForEachLane(e.lanes, [&](uint32_t l) {
          const uint64_t part = (a[l] >> (c * bits)) & WidthMask(bits);
          double v;
          if (op == GLSLstd450UnpackHalf2x16) {
            v = HalfToFloat(static_cast<uint16_t>(part));
          } else if (op == GLSLstd450UnpackUnorm2x16 || op == GLSLstd450UnpackUnorm4x8) {
            v = static_cast<double>(part) / static_cast<double>(WidthMask(bits));
          } else {
            v = Clamp(static_cast<double>(SignExtend(part, bits)) / WidthMask(bits - 1), -1, 1);
          }
          out[l] = FromDouble(v, e.inst.width);
        });
      }
      return true;
    }
    default:
      return e.Unsupported("GLSL.std.450 instruction " + std::to_string(op));
  }
}

bool Geometric(const Exec& e, uint32_t op) {
  const uint32_t n = e.Op(e.inst.num_ops), w = e.inst.width;
  auto dot = [n](const double* a, const double* b) {
    double s = 0;
    for (uint32_t c = 0; c < n; ++c) s += a[c] * b[c];
    return s;
  };
  ForEachLane(e.lanes, [&](uint32_t l) {
    double a[4] = {}, b[4] = {}, c3[4] = {}, r[4] = {};
    Vec(e, 0, n, l, a);
    if (e.inst.num_ops > 1) Vec(e, 1, n, l, b);
    switch (op) {
      case GLSLstd450Length:
        r[0] = std::sqrt(dot(a, a));
        break;
      case GLSLstd450Distance:
        for (uint32_t c = 0; c < n; ++c) c3[c] = a[c] - b[c];
        r[0] = std::sqrt(dot(c3, c3));
        break;
      case GLSLstd450Cross:
        r[0] = a[1] * b[2] - b[1] * a[2];
        r[1] = a[2] * b[0] - b[2] * a[0];
        r[2] = a[0] * b[1] - b[0] * a[1];
        break;
      case GLSLstd450Normalize: {
        const double len = std::sqrt(dot(a, a));
        for (uint32_t c = 0; c < n; ++c) r[c] = a[c] / len;
        break;
      }
      case GLSLstd450FaceForward:
        Vec(e, 2, n, l, c3);
        for (uint32_t c = 0; c < n; ++c) r[c] = dot(c3, b) < 0 ? a[c] : -a[c];
        break;
      case GLSLstd450Reflect:
        for (uint32_t c = 0; c < n; ++c) r[c] = a[c] - 2 * dot(b, a) * b[c];
        break;
      case GLSLstd450Refract: {
        const double eta = ToDouble(e.R(e.Op(2))[l], e.inst.op_width);
        const double d = dot(b, a), k = 1 - eta * eta * (1 - d * d);
        for (uint32_t c = 0; c < n; ++c)
          r[c] = k < 0 ? 0 : eta * a[c] - (eta * d + std::sqrt(k)) * b[c];
        break;
      }
    }
    for (uint32_t c = 0; c < e.inst.comps; ++c) e.R(e.inst.result + c)[l] = FromDouble(r[c], w);
  });
  return true;
}

}  // namespace

bool ExecGlsl(const Exec& e) {
  if (e.inst.family == Family::kOpenCL) return ExecOpenCL(e);
  const uint32_t op = e.inst.aux & kExtOpMask;
  switch (op) {
    case GLSLstd450Round:
      FloatMap<1>(e, [](double x, double, double) { return std::round(x); });
      return true;
    case GLSLstd450RoundEven:
      FloatMap<1>(e, [](double x, double, double) { return std::nearbyint(x); });
      return true;
    case GLSLstd450Trunc:
      FloatMap<1>(e, [](double x, double, double) { return std::trunc(x); });
      return true;
    case GLSLstd450FAbs:
      FloatMap<1>(e, [](double x, double, double) { return std::fabs(x); });
      return true;
    case GLSLstd450FSign:
      FloatMap<1>(e, [](double x, double, double) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; });
      return true;
    case GLSLstd450Floor:
      FloatMap<1>(e, [](double x, double, double) { return std::floor(x); });
      return true;
    case GLSLstd450Ceil:
      FloatMap<1>(e, [](double x, double, double) { return std::ceil(x); });
      return true;
    case GLSLstd450Fract:
      FloatMap<1>(e, [](double x, double, double) { return x - std::floor(x); });
      return true;
    case GLSLstd450Radians:
      FloatMap<1>(e, [](double x, double, double) { return x * M_PI / 180; });
      return true;
    case GLSLstd450Degrees:
      FloatMap<1>(e, [](double x, double, double) { return x * 180 / M_PI; });
      return true;
    case GLSLstd450Sin:
      FloatMap<1>(e, [](double x, double, double) { return std::sin(x); });
      return true;
    case GLSLstd450Cos:
      FloatMap<1>(e, [](double x, double, double) { return std::cos(x); });
      return true;
    case GLSLstd450Tan:
      FloatMap<1>(e, [](double x, double, double) { return std::tan(x); });
      return true;
    case GLSLstd450Asin:
      FloatMap<1>(e, [](double x, double, double) { return std::asin(x); });
      return true;
    case GLSLstd450Acos:
      FloatMap<1>(e, [](double x, double, double) { return std::acos(x); });
      return true;
    case GLSLstd450Atan:
      FloatMap<1>(e, [](double x, double, double) { return std::atan(x); });
      return true;
    case GLSLstd450Sinh:
      FloatMap<1>(e, [](double x, double, double) { return std::sinh(x); });
      return true;
    case GLSLstd450Cosh:
      FloatMap<1>(e, [](double x, double, double) { return std::cosh(x); });
      return true;
    case GLSLstd450Tanh:
      FloatMap<1>(e, [](double x, double, double) { return std::tanh(x); });
      return true;
    case GLSLstd450Asinh:
      FloatMap<1>(e, [](double x, double, double) { return std::asinh(x); });
      return true;
    case GLSLstd450Acosh:
      FloatMap<1>(e, [](double x, double, double) { return std::acosh(x); });
      return true;
    case GLSLstd450Atanh:
      FloatMap<1>(e, [](double x, double, double) { return std::atanh(x); });
      return true;
    case GLSLstd450Atan2:
      FloatMap<2>(e, [](double y, double x, double) { return std::atan2(y, x); });
      return true;
    case GLSLstd450Pow:
      FloatMap<2>(e, [](double x, double y, double) { return std::pow(x, y); });
      return true;
    case GLSLstd450Exp:
      FloatMap<1>(e, [](double x, double, double) { return std::exp(x); });
      return true;
    case GLSLstd450Log:
      FloatMap<1>(e, [](double x, double, double) { return std::log(x); });
      return true;
    case GLSLstd450Exp2:
      FloatMap<1>(e, [](double x, double, double) { return std::exp2(x); });
      return true;
    case GLSLstd450Log2:
      FloatMap<1>(e, [](double x, double, double) { return std::log2(x); });
      return true;
    case GLSLstd450Sqrt:
      FloatMap<1>(e, [](double x, double, double) { return std::sqrt(x); });
      return true;
    case GLSLstd450InverseSqrt:
      FloatMap<1>(e, [](double x, double, double) { return 1 / std::sqrt(x); });
      return true;
    case GLSLstd450FMin:
    case GLSLstd450NMin:
      FloatMap<2>(e, [](double x, double y, double) { return std::fmin(x, y); });
      return true;
    case GLSLstd450FMax:
    case GLSLstd450NMax:
      FloatMap<2>(e, [](double x, double y, double) { return std::fmax(x, y); });
      return true;
    case GLSLstd450FClamp:
    case GLSLstd450NClamp:
      FloatMap<3>(e,
                  [](double x, double lo, double hi) { return std::fmin(std::fmax(x, lo), hi); });
      return true;
    case GLSLstd450FMix:
      FloatMap<3>(e, [](double x, double y, double a) { return x * (1 - a) + y * a; });
      return true;
    case GLSLstd450Step:
      FloatMap<2>(e, [](double edge, double x, double) { return x < edge ? 0.0 : 1.0; });
      return true;
    case GLSLstd450SmoothStep:
      FloatMap<3>(e, [](double e0, double e1, double x) {
        const double t = Clamp((x - e0) / (e1 - e0), 0, 1);
        return t * t * (3 - 2 * t);
      });
      return true;
    case GLSLstd450Fma:
      if (ActiveFloatControls().TowardZero(e.inst.width) && e.inst.width <= 32) {
        // a * b is exact in double for 32-bit operands; TwoSum gives the add's error.
        const uint32_t w = e.inst.width;
        for (uint32_t c = 0; c < e.inst.comps; ++c) {
          const uint64_t *a = e.R(e.Op(0) + c), *b = e.R(e.Op(1) + c), *x = e.R(e.Op(2) + c);
          uint64_t* d = e.R(e.inst.result + c);
          ForEachLane(e.lanes, [&](uint32_t l) {
            double error = 0;
            const double r =
                TwoSum(ToDouble(a[l], w) * ToDouble(b[l], w), ToDouble(x[l], w), &error);
            d[l] = RoundTowardZero(r, error, w);
          });
        }
        return true;
      }
      FloatMap<3>(e, [](double a, double b, double c) { return std::fma(a, b, c); });
      return true;
    case GLSLstd450Ldexp: {
      // x * 2^exp with exp of any integer width (functions.cpp records it):
      // a 64-bit exponent is not truncated. Beyond +-4096 every finite x
      // over- or underflows even in double, so clamping keeps the result
      // and std::ldexp's int exponent.
      const uint32_t exponent_width = e.Op(e.inst.num_ops + 1);
      for (uint32_t c = 0; c < e.inst.comps; ++c) {
        const uint64_t* x = e.R(ArgSlot(e, 0, c));
        const uint64_t* ex = e.R(ArgSlot(e, 1, c));
        uint64_t* d = e.R(e.inst.result + c);
        ForEachLane(e.lanes, [&](uint32_t l) {
          const int64_t exponent = SignExtend(ex[l], exponent_width);
          const int clamped = static_cast<int>(std::clamp<int64_t>(exponent, -4096, 4096));
          d[l] = FromDouble(std::ldexp(ToDouble(x[l], e.inst.width), clamped), e.inst.width);
        });
      }
      return true;
    }
    case GLSLstd450SAbs:
      // Negated in unsigned arithmetic: the most negative value is its own absolute value.
      IntMap<1>(e, true, [](int64_t x, int64_t, int64_t) {
        return x < 0 ? static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(x)) : x;
      });
      return true;
    case GLSLstd450SSign:
      IntMap<1>(e, true, [](int64_t x, int64_t, int64_t) -> int64_t {
        return x > 0 ? 1 : x < 0 ? -1 : 0;
      });
      return true;
    case GLSLstd450UMin:
      IntMap<2>(e, false,
                [](int64_t x, int64_t y, int64_t) { return uint64_t(x) < uint64_t(y) ? x : y; });
      return true;
    case GLSLstd450SMin:
      IntMap<2>(e, true, [](int64_t x, int64_t y, int64_t) { return std::min(x, y); });
      return true;
    case GLSLstd450UMax:
      IntMap<2>(e, false,
                [](int64_t x, int64_t y, int64_t) { return uint64_t(x) > uint64_t(y) ? x : y; });
      return true;
    case GLSLstd450SMax:
      IntMap<2>(e, true, [](int64_t x, int64_t y, int64_t) { return std::max(x, y); });
      return true;
    case GLSLstd450UClamp:
      IntMap<3>(e, false, [](int64_t x, int64_t lo, int64_t hi) {
        return static_cast<int64_t>(std::min(std::max(uint64_t(x), uint64_t(lo)), uint64_t(hi)));
      });
      return true;
    case GLSLstd450SClamp:
      IntMap<3>(e, true,
                [](int64_t x, int64_t lo, int64_t hi) { return std::min(std::max(x, lo), hi); });
      return true;
    case GLSLstd450FindILsb:
      IntMap<1>(e, false, [](int64_t x, int64_t, int64_t) -> int64_t {
        return x ? __builtin_ctzll(uint64_t(x)) : -1;
      });
      return true;
    case GLSLstd450FindUMsb:
      IntMap<1>(e, false, [](int64_t x, int64_t, int64_t) -> int64_t {
        return x ? 63 - __builtin_clzll(uint64_t(x)) : -1;
      });
      return true;
    case GLSLstd450FindSMsb:
      IntMap<1>(e, true, [](int64_t x, int64_t, int64_t) -> int64_t {
        const uint64_t v = x < 0 ? ~uint64_t(x) : uint64_t(x);
        return v ? 63 - __builtin_clzll(v) : -1;
      });
      return true;
    case GLSLstd450Length:
    case GLSLstd450Distance:
    case GLSLstd450Cross:
    case GLSLstd450Normalize:
    case GLSLstd450FaceForward:
    case GLSLstd450Reflect:
    case GLSLstd450Refract:
      return Geometric(e, op);
    case GLSLstd450Determinant:
    case GLSLstd450MatrixInverse:
    case GLSLstd450Modf:
    case GLSLstd450ModfStruct:
    case GLSLstd450Frexp:
    case GLSLstd450FrexpStruct:
      return ExecGlslParts(e);
    default:
      return Packing(e, op);
  }
}

}  // namespace sim
}  // namespace spirv_conv
