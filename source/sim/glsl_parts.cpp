// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// GLSL.std.450 functions whose operands or results are more than a vector:
// Determinant and MatrixInverse (square matrices, column-major slots), and
// Modf/Frexp with their second result stored through a pointer, ModfStruct/
// FrexpStruct with it in the second member of a struct (flattened: member 0's
// components, then member 1's). Computed in double, rounded once.

#include <cmath>

#include "sim/machine.h"
#include "sim/scalar.h"
#include "spirv/unified1/GLSL.std.450.h"

namespace spirv_conv {
namespace sim {
namespace {

// The determinant of the n×n matrix |m| (m[col * n + row]), by cofactor
// expansion along the first column.
double Det(const double* m, uint32_t n) {
  if (n == 1) return m[0];
  if (n == 2) return m[0] * m[3] - m[2] * m[1];
  double sum = 0, minor[9];
  for (uint32_t row = 0; row < n; ++row) {
    // The minor without column 0 and |row|.
    uint32_t k = 0;
    for (uint32_t c = 1; c < n; ++c) {
      for (uint32_t r = 0; r < n; ++r) {
        if (r != row) minor[k++] = m[c * n + r];
      }
    }
    const double term = m[row] * Det(minor, n - 1);
    sum += row % 2 ? -term : term;
  }
  return sum;
}

// The inverse as the adjugate over the determinant: inv[c][r] = cofactor(r, c) / det.
void Inverse(const double* m, uint32_t n, double* out) {
  const double det = Det(m, n);
  double minor[9];
  for (uint32_t c = 0; c < n; ++c) {
    for (uint32_t r = 0; r < n; ++r) {
      // Cofactor of the element at column r, row c (transposed: the adjugate).
      uint32_t k = 0;
      for (uint32_t mc = 0; mc < n; ++mc) {
        for (uint32_t mr = 0; mr < n; ++mr) {
          if (mc != r && mr != c) minor[k++] = m[mc * n + mr];
        }
      }
      const double cofactor = (r + c) % 2 ? -Det(minor, n - 1) : Det(minor, n - 1);
      out[c * n + r] = cofactor / det;
    }
  }
}

uint32_t Side(uint32_t comps) {  // n of an n×n matrix of |comps| components
  uint32_t n = 1;
  while (n * n < comps) ++n;
  return n;
}

}  // namespace

bool ExecGlslParts(const Exec& e) {
  const uint32_t op = e.inst.aux, w = e.inst.op_width;
  const uint32_t in_comps = e.Op(e.inst.num_ops);
  switch (op) {
    case GLSLstd450Determinant:
    case GLSLstd450MatrixInverse: {
      const uint32_t n = Side(in_comps);
      if (n * n != in_comps || n < 2 || n > 4) return e.Unsupported("non-square matrix");
      ForEachLane(e.lanes, [&](uint32_t l) {
        double m[16], inv[16];
        for (uint32_t i = 0; i < in_comps; ++i) m[i] = ToDouble(e.R(e.Op(0) + i)[l], w);
        if (op == GLSLstd450Determinant) {
          e.R(e.inst.result)[l] = FromDouble(Det(m, n), e.inst.width);
          return;
        }
        Inverse(m, n, inv);
        for (uint32_t i = 0; i < in_comps; ++i) e.R(e.inst.result + i)[l] = FromDouble(inv[i], w);
      });
      return true;
    }
    case GLSLstd450Modf:
    case GLSLstd450ModfStruct:
    case GLSLstd450Frexp:
    case GLSLstd450FrexpStruct: {
      const bool modf = op == GLSLstd450Modf || op == GLSLstd450ModfStruct;
      const bool pointer = op == GLSLstd450Modf || op == GLSLstd450Frexp;
      // Decoded after the component count: the pointee's layout (Modf, Frexp)
      // and the exponent's integer width (Frexp, FrexpStruct).
      const uint32_t layout = pointer ? e.Op(e.inst.num_ops + 1) : kNone;
      const uint32_t exp_width = modf ? w : e.Op(e.inst.num_ops + 2);
      const uint32_t n = in_comps;
      bool ok = true;
      ForEachLane(e.lanes, [&](uint32_t l) {
        uint64_t second[4];
        for (uint32_t c = 0; c < n; ++c) {
          const double x = ToDouble(e.R(e.Op(0) + c)[l], w);
          double first;
          if (modf) {
            double whole;
            first = std::modf(x, &whole);  // both with the sign of x
            second[c] = FromDouble(whole, w);
          } else {
            int exponent = 0;
            first = std::frexp(x, &exponent);  // x = first * 2^exponent, |first| in [0.5, 1)
            if (!std::isfinite(x)) exponent = 0;
            second[c] =
                static_cast<uint64_t>(static_cast<int64_t>(exponent)) & WidthMask(exp_width);
          }
          e.R(e.inst.result + c)[l] = FromDouble(first, w);
          if (!pointer) e.R(e.inst.result + n + c)[l] = second[c];
        }
        if (pointer && ok) ok = StoreValue(e, layout, e.R(e.Op(1))[l], l, second, 1);
      });
      return ok;
    }
    default:
      return e.Unsupported("GLSL.std.450 instruction " + std::to_string(op));
  }
}

}  // namespace sim
}  // namespace spirv_conv
