// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Composites are runs of flattened components (types.cpp), so construct,
// extract, insert and shuffle are copies between slot runs. Matrix algebra
// (column-major: component c * rows + r is row r of column c) accumulates in
// double and rounds once per result component.

#include "sim/machine.h"
#include "sim/scalar.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {
namespace {

void Copy(const Exec& e, uint32_t dst, uint32_t src, uint32_t comps) {
  for (uint32_t c = 0; c < comps; ++c) {
    const uint64_t* s = e.R(src + c);
    uint64_t* d = e.R(dst + c);
    ForEachLane(e.lanes, [&](uint32_t l) { d[l] = s[l]; });
  }
}

double F(const Exec& e, uint32_t slot, uint32_t lane) {
  return ToDouble(e.R(slot)[lane], e.inst.width);
}

}  // namespace

bool ExecComposite(const Exec& e) {
  using spv::Op;
  const uint32_t n = e.inst.num_ops;
  switch (static_cast<Op>(e.inst.opcode)) {
    case Op::OpCompositeConstruct: {
      uint32_t at = e.inst.result;
      for (uint32_t i = 0; i < n; ++i) {
        Copy(e, at, e.Op(i), e.Op(n + i));
        at += e.Op(n + i);
      }
      return true;
    }
    case Op::OpCompositeExtract:
      Copy(e, e.inst.result, e.Op(0) + e.inst.aux, e.inst.comps);
      return true;
    case Op::OpCompositeInsert:
      Copy(e, e.inst.result, e.Op(1), e.inst.comps);
      Copy(e, e.inst.result + e.inst.aux, e.Op(0), e.Op(n));
      return true;
    case Op::OpVectorShuffle: {
      const uint32_t first = e.Op(n);
      for (uint32_t c = 0; c < e.inst.comps; ++c) {
        const uint32_t k = e.Op(2 + c);
        uint64_t* d = e.R(e.inst.result + c);
        if (k == 0xFFFFFFFFu) {
          ForEachLane(e.lanes, [&](uint32_t l) { d[l] = 0; });
          continue;
        }
        const uint64_t* s = e.R(k < first ? e.Op(0) + k : e.Op(1) + (k - first));
        ForEachLane(e.lanes, [&](uint32_t l) { d[l] = s[l]; });
      }
      return true;
    }
    case Op::OpVectorExtractDynamic: {
      const uint32_t comps = e.Op(n);
      const uint64_t* index = e.R(e.Op(1));
      uint64_t* d = e.R(e.inst.result);
      ForEachLane(e.lanes, [&](uint32_t l) {
        d[l] = index[l] < comps ? e.R(e.Op(0) + static_cast<uint32_t>(index[l]))[l] : 0;
      });
      return true;
    }
    case Op::OpVectorInsertDynamic: {
      Copy(e, e.inst.result, e.Op(0), e.inst.comps);
      const uint64_t* value = e.R(e.Op(1));
      const uint64_t* index = e.R(e.Op(2));
      ForEachLane(e.lanes, [&](uint32_t l) {
        if (index[l] < e.inst.comps)
          e.R(e.inst.result + static_cast<uint32_t>(index[l]))[l] = value[l];
      });
      return true;
    }
    case Op::OpTranspose: {
      const uint32_t cols = e.inst.aux, rows = e.inst.comps / cols;
      for (uint32_t i = 0; i < cols; ++i) {
        for (uint32_t j = 0; j < rows; ++j) {
          Copy(e, e.inst.result + j * cols + i, e.Op(0) + i * rows + j, 1);
        }
      }
      return true;
    }
    default:
      return e.Unsupported("instruction");
  }
}

bool ExecMatrix(const Exec& e) {
  using spv::Op;
  const uint32_t n = e.inst.num_ops, w = e.inst.width;
  const uint32_t a = e.Op(0), b = n > 1 ? e.Op(1) : 0;
  const uint32_t a_comps = e.Op(n), b_comps = n > 1 ? e.Op(n + 1) : 0;
  const uint32_t rows = e.inst.aux;
  auto each = [&](auto&& fn) {  // fn(lane, result component) -> double
    for (uint32_t c = 0; c < e.inst.comps; ++c) {
      uint64_t* d = e.R(e.inst.result + c);
      ForEachLane(e.lanes, [&](uint32_t l) { d[l] = FromDouble(fn(l, c), w); });
    }
  };
  switch (static_cast<Op>(e.inst.opcode)) {
    case Op::OpAny:
    case Op::OpAll: {
      const bool all = static_cast<Op>(e.inst.opcode) == Op::OpAll;
      uint64_t* d = e.R(e.inst.result);
      ForEachLane(e.lanes, [&](uint32_t l) {
        uint64_t r = all ? 1 : 0;
        for (uint32_t c = 0; c < a_comps; ++c) {
          r = all ? (r & e.R(a + c)[l]) : (r | e.R(a + c)[l]);
        }
        d[l] = r;
      });
      return true;
    }
    case Op::OpDot:
      each([&](uint32_t l, uint32_t) {
        double s = 0;
        for (uint32_t c = 0; c < a_comps; ++c) s += F(e, a + c, l) * F(e, b + c, l);
        return s;
      });
      return true;
    case Op::OpVectorTimesScalar:
    case Op::OpMatrixTimesScalar:
      each([&](uint32_t l, uint32_t c) { return F(e, a + c, l) * F(e, b, l); });
      return true;
    case Op::OpVectorTimesMatrix:  // v (rows) * M: one result per column
      each([&](uint32_t l, uint32_t j) {
        double s = 0;
        for (uint32_t i = 0; i < rows; ++i) s += F(e, a + i, l) * F(e, b + j * rows + i, l);
        return s;
      });
      return true;
    case Op::OpMatrixTimesVector:  // M * v (columns): one result per row
      each([&](uint32_t l, uint32_t i) {
        double s = 0;
        for (uint32_t j = 0; j < b_comps; ++j) s += F(e, a + j * rows + i, l) * F(e, b + j, l);
        return s;
      });
      return true;
    case Op::OpMatrixTimesMatrix: {
      const uint32_t inner = a_comps / rows;
      each([&](uint32_t l, uint32_t c) {
        const uint32_t j = c / rows, i = c % rows;
        double s = 0;
        for (uint32_t t = 0; t < inner; ++t)
          s += F(e, a + t * rows + i, l) * F(e, b + j * inner + t, l);
        return s;
      });
      return true;
    }
    case Op::OpOuterProduct:
      each([&](uint32_t l, uint32_t c) { return F(e, a + c % rows, l) * F(e, b + c / rows, l); });
      return true;
    default:
      return e.Unsupported("instruction");
  }
}

}  // namespace sim
}  // namespace spirv_conv
