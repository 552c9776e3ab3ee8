// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// OpenCL.std, the extended instructions of Kernel modules. Those with a
// GLSL.std.450 twin of the same semantics (fabs, fmin, sqrt, s_max, clamp,
// length, ...) decode as that instruction and run in glsl_std450.cpp; the rest
// run here: the integer functions of OpenCL C (saturating and halving
// arithmetic, mul_hi, mad24, rotate, clz/ctz/popcount, upsample), the float
// functions GLSL lacks or defines differently (sign of NaN, powr), ilogb, nan,
// nextafter, select and bitselect. Functions writing through a pointer (fract,
// modf, sincos, ...) and vload/vstore run in opencl_std_pointer.cpp; shuffle,
// printf and prefetch are unsupported.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "sim/ext_map.h"
#include "sim/opcodes.h"
#include "spirv/unified1/GLSL.std.450.h"
#include "spirv/unified1/OpenCL.std.h"

namespace spirv_conv {
namespace sim {

Family OpenClFamily(uint32_t* op) {
  using namespace OpenCLLIB;  // NOLINT
  static const std::pair<uint32_t, uint32_t> kTwins[] = {
      {Fabs, GLSLstd450FAbs},
      {Floor, GLSLstd450Floor},
      {Ceil, GLSLstd450Ceil},
      {Trunc, GLSLstd450Trunc},
      {Round, GLSLstd450Round},
      {Rint, GLSLstd450RoundEven},
      {Sqrt, GLSLstd450Sqrt},
      {Native_sqrt, GLSLstd450Sqrt},
      {Half_sqrt, GLSLstd450Sqrt},
      {Rsqrt, GLSLstd450InverseSqrt},
      {Native_rsqrt, GLSLstd450InverseSqrt},
      {Half_rsqrt, GLSLstd450InverseSqrt},
      {Exp, GLSLstd450Exp},
      {Native_exp, GLSLstd450Exp},
      {Half_exp, GLSLstd450Exp},
      {Exp2, GLSLstd450Exp2},
      {Native_exp2, GLSLstd450Exp2},
      {Half_exp2, GLSLstd450Exp2},
      {Log, GLSLstd450Log},
      {Native_log, GLSLstd450Log},
      {Half_log, GLSLstd450Log},
      {Log2, GLSLstd450Log2},
      {Native_log2, GLSLstd450Log2},
      {Half_log2, GLSLstd450Log2},
      {Pow, GLSLstd450Pow},
      {Sin, GLSLstd450Sin},
      {Native_sin, GLSLstd450Sin},
      {Half_sin, GLSLstd450Sin},
      {Cos, GLSLstd450Cos},
      {Native_cos, GLSLstd450Cos},
      {Half_cos, GLSLstd450Cos},
      {Tan, GLSLstd450Tan},
      {Native_tan, GLSLstd450Tan},
      {Half_tan, GLSLstd450Tan},
      {Asin, GLSLstd450Asin},
      {Acos, GLSLstd450Acos},
      {Atan, GLSLstd450Atan},
      {Atan2, GLSLstd450Atan2},
      {Sinh, GLSLstd450Sinh},
      {Cosh, GLSLstd450Cosh},
      {Tanh, GLSLstd450Tanh},
      {Asinh, GLSLstd450Asinh},
      {Acosh, GLSLstd450Acosh},
      {Atanh, GLSLstd450Atanh},
      {Fma, GLSLstd450Fma},
      {Fmax, GLSLstd450FMax},
      {Fmin, GLSLstd450FMin},
      {FMax_common, GLSLstd450FMax},
      {FMin_common, GLSLstd450FMin},
      {FClamp, GLSLstd450FClamp},
      {Mix, GLSLstd450FMix},
      {Step, GLSLstd450Step},
      {Smoothstep, GLSLstd450SmoothStep},
      {Degrees, GLSLstd450Degrees},
      {Radians, GLSLstd450Radians},
      {Ldexp, GLSLstd450Ldexp},
      {Cross, GLSLstd450Cross},
      {Distance, GLSLstd450Distance},
      {Fast_distance, GLSLstd450Distance},
      {Length, GLSLstd450Length},
      {Fast_length, GLSLstd450Length},
      {Normalize, GLSLstd450Normalize},
      {Fast_normalize, GLSLstd450Normalize},
      {SAbs, GLSLstd450SAbs},
      {SMax, GLSLstd450SMax},
      {UMax, GLSLstd450UMax},
      {SMin, GLSLstd450SMin},
      {UMin, GLSLstd450UMin},
      {SClamp, GLSLstd450SClamp},
      {UClamp, GLSLstd450UClamp},
  };
  for (const auto& [opencl, glsl] : kTwins) {
    if (*op == opencl) {
      *op = glsl;
      return Family::kGlsl;
    }
  }
  return Family::kOpenCL;
}

namespace {

using I128 = __int128;

// |v| clamped to the range of a |w|-bit integer (signed or not), as bits.
uint64_t Saturate(I128 v, uint32_t w, bool is_signed) {
  const I128 lo = is_signed ? -(I128{1} << (w - 1)) : 0;
  const I128 hi = is_signed ? (I128{1} << (w - 1)) - 1 : (I128{1} << w) - 1;
  return static_cast<uint64_t>(std::min(std::max(v, lo), hi));
}

bool Integer(const Exec& e, uint32_t op) {
  using namespace OpenCLLIB;  // NOLINT
  const uint32_t w = e.inst.op_width;
  const bool s = op == SAbs_diff || op == SAdd_sat || op == SSub_sat || op == SHadd ||
                 op == SRhadd || op == SMul_hi || op == SMad_hi || op == SMad_sat || op == SMad24 ||
                 op == SMul24 || op == S_Upsample;
  auto map1 = [&](auto fn) {
    IntMap<1>(e, s, [&](int64_t x, int64_t, int64_t) { return static_cast<int64_t>(fn(x)); });
  };
  auto map2 = [&](auto fn) {
    IntMap<2>(e, s, [&](int64_t x, int64_t y, int64_t) { return static_cast<int64_t>(fn(x, y)); });
  };
  auto u = [w](int64_t x) { return static_cast<uint64_t>(x) & WidthMask(w); };
  // Operands as 128-bit integers: sign-extended (already) or zero-extended.
  auto wide = [&](int64_t x) { return s ? I128{x} : I128{u(x)}; };
  auto mul_hi = [&](int64_t x, int64_t y) {
    return static_cast<uint64_t>((wide(x) * wide(y)) >> w);
  };
  auto low24 = [&](int64_t x) { return s ? I128{SignExtend(u(x), 24)} : I128{u(x) & 0xFFFFFF}; };
  switch (op) {
    case UAbs:
      map1([&](int64_t x) { return u(x); });
      return true;
    case SAbs_diff:
    case UAbs_diff:
      map2([&](int64_t x, int64_t y) {
        const I128 d = wide(x) - wide(y);
        return static_cast<uint64_t>(d < 0 ? -d : d);
      });
      return true;
    case SAdd_sat:
    case UAdd_sat:
      map2([&](int64_t x, int64_t y) { return Saturate(wide(x) + wide(y), w, s); });
      return true;
    case SSub_sat:
    case USub_sat:
      map2([&](int64_t x, int64_t y) { return Saturate(wide(x) - wide(y), w, s); });
      return true;
    case SHadd:
    case UHadd:
      map2([&](int64_t x, int64_t y) { return static_cast<uint64_t>((wide(x) + wide(y)) >> 1); });
      return true;
    case SRhadd:
    case URhadd:
      map2([&](int64_t x, int64_t y) {
        return static_cast<uint64_t>((wide(x) + wide(y) + 1) >> 1);
      });
      return true;
    case SMul_hi:
    case UMul_hi:
      map2(mul_hi);
      return true;
    case SMad_hi:
    case UMad_hi:
      IntMap<3>(e, s, [&](int64_t x, int64_t y, int64_t z) {
        return static_cast<int64_t>(mul_hi(x, y) + static_cast<uint64_t>(z));
      });
      return true;
    case SMad_sat:
    case UMad_sat:
      IntMap<3>(e, s, [&](int64_t x, int64_t y, int64_t z) {
        return static_cast<int64_t>(Saturate(wide(x) * wide(y) + wide(z), w, s));
      });
      return true;
    case SMul24:
    case UMul24:
      map2([&](int64_t x, int64_t y) { return static_cast<uint64_t>(low24(x) * low24(y)); });
      return true;
    case SMad24:
    case UMad24:
      IntMap<3>(e, s, [&](int64_t x, int64_t y, int64_t z) {
        return static_cast<int64_t>(low24(x) * low24(y) + wide(z));
      });
      return true;
    case Clz:
      map1([&](int64_t x) {
        return u(x) ? static_cast<uint64_t>(__builtin_clzll(u(x)) - (64 - w)) : uint64_t{w};
      });
      return true;
    case Ctz:
      map1([&](int64_t x) {
        return u(x) ? static_cast<uint64_t>(__builtin_ctzll(u(x))) : uint64_t{w};
      });
      return true;
    case Popcount:
      map1([&](int64_t x) { return static_cast<uint64_t>(__builtin_popcountll(u(x))); });
      return true;
    case Rotate:
      map2([&](int64_t x, int64_t y) {
        const uint32_t k = static_cast<uint32_t>(u(y) % w);
        return k ? (u(x) << k | u(x) >> (w - k)) & WidthMask(w) : u(x);
      });
      return true;
    case S_Upsample:
    case U_Upsample:  // (hi << w) | lo, twice as wide
      map2([&](int64_t hi, int64_t lo) { return u(hi) << w | u(lo); });
      return true;
    default:
      return e.Unsupported("OpenCL.std instruction " + std::to_string(op));
  }
}

// select(a, b, c): c ? b : a, per component by c's most significant bit for
// vectors; bitselect(a, b, c): each bit from b where c's is set, else from a.
bool SelectBits(const Exec& e, bool bitwise) {
  const uint32_t w = e.inst.op_width;
  for (uint32_t c = 0; c < e.inst.comps; ++c) {
    const uint64_t* a = e.R(ArgSlot(e, 0, c));
    const uint64_t* b = e.R(ArgSlot(e, 1, c));
    const uint64_t* k = e.R(ArgSlot(e, 2, c));
    uint64_t* d = e.R(e.inst.result + c);
    ForEachLane(e.lanes, [&](uint32_t l) {
      if (bitwise) {
        d[l] = (a[l] & ~k[l]) | (b[l] & k[l]);
      } else {
        const bool pick_b = e.inst.comps == 1 ? k[l] != 0 : (k[l] >> (w - 1)) & 1;
        d[l] = pick_b ? b[l] : a[l];
      }
    });
  }
  return true;
}

// x with an integer operand: pown(x, n), rootn(x, n).
bool FloatInt(const Exec& e, uint32_t op) {
  const uint32_t w = e.inst.width;
  for (uint32_t c = 0; c < e.inst.comps; ++c) {
    const uint64_t* x = e.R(ArgSlot(e, 0, c));
    const uint64_t* n = e.R(ArgSlot(e, 1, c));
    uint64_t* d = e.R(e.inst.result + c);
    ForEachLane(e.lanes, [&](uint32_t l) {
      const double v = ToDouble(x[l], w);
      const double k = static_cast<double>(SignExtend(n[l], 32));
      const double r = op == OpenCLLIB::Pown           ? std::pow(v, k)
                       : v < 0 && std::fmod(k, 2) != 0 ? -std::pow(-v, 1 / k)
                                                       : std::pow(v, 1 / k);
      d[l] = FromDouble(r, w);
    });
  }
  return true;
}

// ilogb, nan and nextafter: on the bits of |w|-bit floats.
bool FloatBits(const Exec& e, uint32_t op) {
  const uint32_t w = op == OpenCLLIB::Ilogb ? e.inst.op_width : e.inst.width;
  const uint32_t mantissa = w == 16 ? 10 : w == 32 ? 23 : 52;
  const uint64_t sign = 1ull << (w - 1), quiet = 1ull << (mantissa - 1);
  for (uint32_t c = 0; c < e.inst.comps; ++c) {
    const uint64_t* x = e.R(ArgSlot(e, 0, c));
    const uint64_t* y = op == OpenCLLIB::Nextafter ? e.R(ArgSlot(e, 1, c)) : x;
    uint64_t* d = e.R(e.inst.result + c);
    ForEachLane(e.lanes, [&](uint32_t l) {
      const double a = ToDouble(x[l], w), b = ToDouble(y[l], w);
      if (op == OpenCLLIB::Ilogb) {  // FP_ILOGB0 = INT_MIN, FP_ILOGBNAN = INT_MAX (clang's)
        const int64_t r = a == 0 ? INT32_MIN : std::isfinite(a) ? std::ilogb(a) : INT32_MAX;
        d[l] = static_cast<uint64_t>(r) & WidthMask(e.inst.width);
      } else if (op == OpenCLLIB::Nan) {  // a quiet NaN holding nancode's low mantissa bits
        d[l] = (WidthMask(w) & ~sign & ~WidthMask(mantissa)) | quiet | (x[l] & (quiet - 1));
      } else if (std::isnan(a) || std::isnan(b)) {
        d[l] = FromDouble(a + b, w);
      } else if (a == b) {
        d[l] = y[l];
      } else if (a == 0) {  // the smallest subnormal towards y
        d[l] = (y[l] & sign) | 1;
      } else {  // the magnitude grows when moving away from 0
        d[l] = (a < b) == (a > 0) ? x[l] + 1 : x[l] - 1;
      }
    });
  }
  return true;
}

double Pi(double x) { return x * M_PI; }

}  // namespace

bool ExecOpenCL(const Exec& e) {
  using namespace OpenCLLIB;  // NOLINT
  const uint32_t op = e.inst.aux & kExtOpMask;
  auto f1 = [&](double (*fn)(double)) {
    FloatMap<1>(e, [fn](double x, double, double) { return fn(x); });
    return true;
  };
  switch (op) {
    case Ilogb:
    case Nan:
    case Nextafter:
      return FloatBits(e, op);
    case Fract:
    case Modf:
    case Frexp:
    case Sincos:
    case Remquo:
    case Lgamma_r:
    case Vloadn:
    case Vstoren:
    case Vload_half:
    case Vload_halfn:
    case Vstore_half:
    case Vstore_half_r:
    case Vstore_halfn:
    case Vstore_halfn_r:
    case Vloada_halfn:
    case Vstorea_halfn:
    case Vstorea_halfn_r:
      return ExecOpenClMemory(e, op);
    case Select:
      return SelectBits(e, false);
    case Bitselect:
      return SelectBits(e, true);
    case Pown:
    case Rootn:
      return FloatInt(e, op);
    case Mad:
      FloatMap<3>(e, [](double a, double b, double c) { return a * b + c; });
      return true;
    case Sign:  // unlike GLSL's FSign, NaN gives 0
      FloatMap<1>(e, [](double x, double, double) {
        return x > 0 ? 1.0 : x < 0 ? -1.0 : std::isnan(x) ? 0.0 : x;
      });
      return true;
    case Powr:  // pow for x >= 0 only: NaN below
    case Native_powr:
    case Half_powr:
      FloatMap<2>(e, [](double x, double y, double) { return x < 0 ? NAN : std::pow(x, y); });
      return true;
    case Fdim:
      FloatMap<2>(e, [](double x, double y, double) { return x > y ? x - y : (x != x ? x : 0.0); });
      return true;
    case Fmod:
      FloatMap<2>(e, [](double x, double y, double) { return std::fmod(x, y); });
      return true;
    case Remainder:
      FloatMap<2>(e, [](double x, double y, double) { return std::remainder(x, y); });
      return true;
    case Copysign:
      FloatMap<2>(e, [](double x, double y, double) { return std::copysign(x, y); });
      return true;
    case Hypot:
      FloatMap<2>(e, [](double x, double y, double) { return std::hypot(x, y); });
      return true;
    case Maxmag:
      FloatMap<2>(e, [](double x, double y, double) {
        return std::fabs(x) > std::fabs(y) ? x : std::fabs(y) > std::fabs(x) ? y : std::fmax(x, y);
      });
      return true;
    case Minmag:
      FloatMap<2>(e, [](double x, double y, double) {
        return std::fabs(x) < std::fabs(y) ? x : std::fabs(y) < std::fabs(x) ? y : std::fmin(x, y);
      });
      return true;
    case Native_divide:
    case Half_divide:
      FloatMap<2>(e, [](double x, double y, double) { return x / y; });
      return true;
    case Native_recip:
    case Half_recip:
      FloatMap<1>(e, [](double x, double, double) { return 1 / x; });
      return true;
    case Atan2pi:
      FloatMap<2>(e, [](double y, double x, double) { return std::atan2(y, x) / M_PI; });
      return true;
    case Cbrt:
      return f1(std::cbrt);
    case Exp10:
    case Native_exp10:
    case Half_exp10:
      FloatMap<1>(e, [](double x, double, double) { return std::pow(10.0, x); });
      return true;
    case Expm1:
      return f1(std::expm1);
    case Log10:
    case Native_log10:
    case Half_log10:
      return f1(std::log10);
    case Log1p:
      return f1(std::log1p);
    case Logb:
      return f1(std::logb);
    case Erf:
      return f1(std::erf);
    case Erfc:
      return f1(std::erfc);
    case Tgamma:
      return f1(std::tgamma);
    case Lgamma:
      return f1(std::lgamma);
    case Sinpi:
      FloatMap<1>(e, [](double x, double, double) { return std::sin(Pi(x)); });
      return true;
    case Cospi:
      FloatMap<1>(e, [](double x, double, double) { return std::cos(Pi(x)); });
      return true;
    case Tanpi:
      FloatMap<1>(e, [](double x, double, double) { return std::tan(Pi(x)); });
      return true;
    case Asinpi:
      FloatMap<1>(e, [](double x, double, double) { return std::asin(x) / M_PI; });
      return true;
    case Acospi:
      FloatMap<1>(e, [](double x, double, double) { return std::acos(x) / M_PI; });
      return true;
    case Atanpi:
      FloatMap<1>(e, [](double x, double, double) { return std::atan(x) / M_PI; });
      return true;
    default:
      return Integer(e, op);
  }
}

}  // namespace sim
}  // namespace spirv_conv
