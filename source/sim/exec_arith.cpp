// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Component-wise arithmetic, bitwise, logical and comparison instructions,
// OpSelect and copies. Integers are read zero-extended and sign-extended where
// the opcode says signed; results are masked back to their width. Division and
// remainder by zero (undefined in SPIR-V) give 0, as does INT_MIN / -1's
// overflow its wrapped value, so a run never traps. Floats of every width are
// computed in double and rounded once to their width, which is exact for
// + - * / (a double has more than twice a float's precision).

#include <cmath>

#include "sim/machine.h"
#include "sim/scalar.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {
namespace {

template <typename F>
void Map2(const Exec& e, F f) {
  for (uint32_t c = 0; c < e.inst.comps; ++c) {
    const uint64_t* a = e.R(e.Op(0) + c);
    const uint64_t* b = e.R(e.Op(1) + c);
    uint64_t* d = e.R(e.inst.result + c);
    ForEachLane(e.lanes, [&](uint32_t l) { d[l] = f(a[l], b[l]); });
  }
}

template <typename F>
void MapF2(const Exec& e, F f) {
  const uint32_t w = e.inst.width;
  Map2(e, [&](uint64_t a, uint64_t b) { return FromDouble(f(ToDouble(a, w), ToDouble(b, w)), w); });
}

// Float comparisons: |ordered| is false for the FUnord forms (true when either is NaN).
template <typename F>
void CompareF(const Exec& e, bool ordered, F f) {
  const uint32_t w = e.inst.op_width;
  Map2(e, [&](uint64_t a, uint64_t b) -> uint64_t {
    const double x = ToDouble(a, w), y = ToDouble(b, w);
    if (std::isnan(x) || std::isnan(y)) return ordered ? 0 : 1;
    return f(x, y) ? 1 : 0;
  });
}

uint64_t ReverseBits(uint64_t v, uint32_t width) {
  uint64_t r = 0;
  for (uint32_t i = 0; i < width; ++i) r |= ((v >> i) & 1) << (width - 1 - i);
  return r;
}

// OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: the result is a
// struct of two members of the operands' type, flattened as member 0's
// components (the low result) then member 1's (carry, borrow or high half).
void Extended(const Exec& e, spv::Op op) {
  const uint32_t w = e.inst.op_width, n = e.inst.comps / 2;
  const uint64_t mask = WidthMask(w);
  for (uint32_t c = 0; c < n; ++c) {
    const uint64_t* a = e.R(e.Op(0) + c);
    const uint64_t* b = e.R(e.Op(1) + c);
    uint64_t* lo = e.R(e.inst.result + c);
    uint64_t* hi = e.R(e.inst.result + n + c);
    ForEachLane(e.lanes, [&](uint32_t l) {
      const uint64_t x = a[l], y = b[l];
      switch (op) {
        case spv::Op::OpIAddCarry:
          lo[l] = (x + y) & mask;
          hi[l] = lo[l] < x ? 1 : 0;  // wrapped below an addend: carried out of w bits
          break;
        case spv::Op::OpISubBorrow:
          lo[l] = (x - y) & mask;
          hi[l] = x < y ? 1 : 0;
          break;
        case spv::Op::OpUMulExtended: {
          const unsigned __int128 p = static_cast<unsigned __int128>(x) * y;
          lo[l] = static_cast<uint64_t>(p) & mask;
          hi[l] = static_cast<uint64_t>(p >> w) & mask;
          break;
        }
        default: {  // OpSMulExtended
          const __int128 p = static_cast<__int128>(SignExtend(x, w)) * SignExtend(y, w);
          lo[l] = static_cast<uint64_t>(p) & mask;
          hi[l] = static_cast<uint64_t>(p >> w) & mask;
          break;
        }
      }
    });
  }
}

}  // namespace

bool ExecArith(const Exec& e) {
  using spv::Op;
  const uint32_t w = e.inst.width, ow = e.inst.op_width;
  const uint64_t mask = WidthMask(w);
  auto sx = [ow](uint64_t v) { return SignExtend(v, ow); };
  switch (static_cast<Op>(e.inst.opcode)) {
    case Op::OpCopyObject:
    case Op::OpCopyLogical:
      Map1(e, [](uint64_t a) { return a; });
      return true;
    case Op::OpIAdd:
      Map2(e, [&](uint64_t a, uint64_t b) { return (a + b) & mask; });
      return true;
    case Op::OpISub:
      Map2(e, [&](uint64_t a, uint64_t b) { return (a - b) & mask; });
      return true;
    case Op::OpIMul:
      Map2(e, [&](uint64_t a, uint64_t b) { return (a * b) & mask; });
      return true;
    case Op::OpIAddCarry:
    case Op::OpISubBorrow:
    case Op::OpUMulExtended:
    case Op::OpSMulExtended:
      Extended(e, static_cast<Op>(e.inst.opcode));
      return true;
    case Op::OpSNegate:
      Map1(e, [&](uint64_t a) { return (0 - a) & mask; });
      return true;
    case Op::OpUDiv:
      Map2(e, [](uint64_t a, uint64_t b) { return b ? a / b : 0; });
      return true;
    case Op::OpUMod:
      Map2(e, [](uint64_t a, uint64_t b) { return b ? a % b : 0; });
      return true;
    case Op::OpSDiv:
      Map2(e, [&](uint64_t a, uint64_t b) -> uint64_t {
        const int64_t x = sx(a), y = sx(b);
        if (y == 0) return 0;
        if (y == -1) return (0 - a) & mask;
        return static_cast<uint64_t>(x / y) & mask;
      });
      return true;
    case Op::OpSRem:
    case Op::OpSMod: {
      const bool mod = static_cast<Op>(e.inst.opcode) == Op::OpSMod;
      Map2(e, [&](uint64_t a, uint64_t b) -> uint64_t {
        const int64_t x = sx(a), y = sx(b);
        if (y == 0 || y == -1) return 0;
        int64_t r = x % y;
        if (mod && r != 0 && ((r < 0) != (y < 0))) r += y;
        return static_cast<uint64_t>(r) & mask;
      });
      return true;
    }
    case Op::OpShiftLeftLogical:
      Map2(e, [&](uint64_t a, uint64_t b) { return b >= w ? 0 : (a << b) & mask; });
      return true;
    case Op::OpShiftRightLogical:
      Map2(e, [&](uint64_t a, uint64_t b) { return b >= w ? 0 : a >> b; });
      return true;
    case Op::OpShiftRightArithmetic:
      Map2(e, [&](uint64_t a, uint64_t b) {
        return static_cast<uint64_t>(SignExtend(a, w) >> (b >= w ? w - 1 : b)) & mask;
      });
      return true;
    case Op::OpBitwiseAnd:
      Map2(e, [](uint64_t a, uint64_t b) { return a & b; });
      return true;
    case Op::OpBitwiseOr:
      Map2(e, [](uint64_t a, uint64_t b) { return a | b; });
      return true;
    case Op::OpBitwiseXor:
      Map2(e, [](uint64_t a, uint64_t b) { return a ^ b; });
      return true;
    case Op::OpNot:
      Map1(e, [&](uint64_t a) { return ~a & mask; });
      return true;
    case Op::OpBitReverse:
      Map1(e, [&](uint64_t a) { return ReverseBits(a, w); });
      return true;
    case Op::OpBitCount:
      Map1(e, [&](uint64_t a) {
        return static_cast<uint64_t>(__builtin_popcountll(a & WidthMask(ow)));
      });
      return true;
    case Op::OpBitFieldInsert:
    case Op::OpBitFieldSExtract:
    case Op::OpBitFieldUExtract: {
      // Offset and Count are scalars for every component.
      const bool insert = static_cast<Op>(e.inst.opcode) == Op::OpBitFieldInsert;
      const uint64_t* offsets = e.R(e.Op(insert ? 2 : 1));
      const uint64_t* counts = e.R(e.Op(insert ? 3 : 2));
      for (uint32_t c = 0; c < e.inst.comps; ++c) {
        const uint64_t* base = e.R(e.Op(0) + c);
        const uint64_t* ins = insert ? e.R(e.Op(1) + c) : nullptr;
        uint64_t* d = e.R(e.inst.result + c);
        ForEachLane(e.lanes, [&](uint32_t l) {
          const uint64_t off = offsets[l], count = counts[l];
          if (off + count > w) {
            d[l] = 0;  // undefined in SPIR-V
            return;
          }
          const uint64_t field = WidthMask(static_cast<uint32_t>(count)) << off;
          if (insert) {
            d[l] = (base[l] & ~field) | ((ins[l] << off) & field);
          } else if (count == 0) {
            d[l] = 0;
          } else {
            const uint64_t v = (base[l] & field) >> off;
            const bool sign = static_cast<Op>(e.inst.opcode) == Op::OpBitFieldSExtract;
            d[l] = sign ? static_cast<uint64_t>(SignExtend(v, static_cast<uint32_t>(count))) & mask
                        : v;
          }
        });
      }
      return true;
    }
    case Op::OpLogicalAnd:
      Map2(e, [](uint64_t a, uint64_t b) { return a & b; });
      return true;
    case Op::OpLogicalOr:
      Map2(e, [](uint64_t a, uint64_t b) { return a | b; });
      return true;
    case Op::OpLogicalNot:
      Map1(e, [](uint64_t a) { return a ^ 1; });
      return true;
    case Op::OpLogicalEqual:
    case Op::OpIEqual:
      Map2(e, [](uint64_t a, uint64_t b) -> uint64_t { return a == b; });
      return true;
    case Op::OpLogicalNotEqual:
    case Op::OpINotEqual:
      Map2(e, [](uint64_t a, uint64_t b) -> uint64_t { return a != b; });
      return true;
    case Op::OpUGreaterThan:
      Map2(e, [](uint64_t a, uint64_t b) -> uint64_t { return a > b; });
      return true;
    case Op::OpUGreaterThanEqual:
      Map2(e, [](uint64_t a, uint64_t b) -> uint64_t { return a >= b; });
      return true;
    case Op::OpULessThan:
      Map2(e, [](uint64_t a, uint64_t b) -> uint64_t { return a < b; });
      return true;
    case Op::OpULessThanEqual:
      Map2(e, [](uint64_t a, uint64_t b) -> uint64_t { return a <= b; });
      return true;
    case Op::OpSGreaterThan:
      Map2(e, [&](uint64_t a, uint64_t b) -> uint64_t { return sx(a) > sx(b); });
      return true;
    case Op::OpSGreaterThanEqual:
      Map2(e, [&](uint64_t a, uint64_t b) -> uint64_t { return sx(a) >= sx(b); });
      return true;
    case Op::OpSLessThan:
      Map2(e, [&](uint64_t a, uint64_t b) -> uint64_t { return sx(a) < sx(b); });
      return true;
    case Op::OpSLessThanEqual:
      Map2(e, [&](uint64_t a, uint64_t b) -> uint64_t { return sx(a) <= sx(b); });
      return true;
    case Op::OpSelect: {
      const bool scalar_condition = e.Op(3) == 1 && e.inst.comps > 1;
      for (uint32_t c = 0; c < e.inst.comps; ++c) {
        const uint64_t* cond = e.R(e.Op(0) + (scalar_condition ? 0 : c));
        const uint64_t* a = e.R(e.Op(1) + c);
        const uint64_t* b = e.R(e.Op(2) + c);
        uint64_t* d = e.R(e.inst.result + c);
        ForEachLane(e.lanes, [&](uint32_t l) { d[l] = cond[l] ? a[l] : b[l]; });
      }
      return true;
    }
    case Op::OpFNegate:
      Map1(e, [&](uint64_t a) { return FromDouble(-ToDouble(a, w), w); });
      return true;
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul: {
      // Correctly rounded: the exact error decides round-toward-zero (scalar.h).
      const auto op = static_cast<Op>(e.inst.opcode);
      Map2(e, [&](uint64_t a, uint64_t b) {
        const double x = ToDouble(a, w), y = ToDouble(b, w);
        double error = 0;
        const double r = op == Op::OpFMul   ? TwoProduct(x, y, &error)
                         : op == Op::OpFAdd ? TwoSum(x, y, &error)
                                            : TwoSum(x, -y, &error);
        return FromExact(r, error, w);
      });
      return true;
    }
    case Op::OpFDiv:
      MapF2(e, [](double a, double b) { return a / b; });
      return true;
    case Op::OpFRem:
      MapF2(e, [](double a, double b) { return std::fmod(a, b); });
      return true;
    case Op::OpFMod:
      MapF2(e, [](double a, double b) {
        double r = std::fmod(a, b);
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return r;
      });
      return true;
    case Op::OpFOrdEqual:
      CompareF(e, true, [](double a, double b) { return a == b; });
      return true;
    case Op::OpFUnordEqual:
      CompareF(e, false, [](double a, double b) { return a == b; });
      return true;
    case Op::OpFOrdNotEqual:
      CompareF(e, true, [](double a, double b) { return a != b; });
      return true;
    case Op::OpFUnordNotEqual:
      CompareF(e, false, [](double a, double b) { return a != b; });
      return true;
    case Op::OpFOrdLessThan:
      CompareF(e, true, [](double a, double b) { return a < b; });
      return true;
    case Op::OpFUnordLessThan:
      CompareF(e, false, [](double a, double b) { return a < b; });
      return true;
    case Op::OpFOrdGreaterThan:
      CompareF(e, true, [](double a, double b) { return a > b; });
      return true;
    case Op::OpFUnordGreaterThan:
      CompareF(e, false, [](double a, double b) { return a > b; });
      return true;
    case Op::OpFOrdLessThanEqual:
      CompareF(e, true, [](double a, double b) { return a <= b; });
      return true;
    case Op::OpFUnordLessThanEqual:
      CompareF(e, false, [](double a, double b) { return a <= b; });
      return true;
    case Op::OpFOrdGreaterThanEqual:
      CompareF(e, true, [](double a, double b) { return a >= b; });
      return true;
    case Op::OpFUnordGreaterThanEqual:
      CompareF(e, false, [](double a, double b) { return a >= b; });
      return true;
    case Op::OpIsNan:
      Map1(e, [&](uint64_t a) -> uint64_t { return std::isnan(ToDouble(a, ow)); });
      return true;
    case Op::OpIsInf:
      Map1(e, [&](uint64_t a) -> uint64_t { return std::isinf(ToDouble(a, ow)); });
      return true;
    default:
      return e.Unsupported("instruction");
  }
}

}  // namespace sim
}  // namespace spirv_conv
