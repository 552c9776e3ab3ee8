// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Component-wise helpers of the extended instruction sets (GLSL.std.450 in
// glsl_std450.cpp, OpenCL.std in opencl_std.cpp and opencl_std_pointer.cpp,
// sharing GLSL.std.450's implementations where the semantics are the same): a
// function applied per component and lane. An OpenCL.std instruction with a
// scalar argument and a vector result (OpenCL C's fmin(float4, float); spirv-val
// wants them splatted, modules run with --skip-validation may not be) has that
// argument marked in the bits of Inst::aux above kScalarArgShift: it applies to
// every component.

#ifndef SOURCE_SIM_EXT_MAP_H_
#define SOURCE_SIM_EXT_MAP_H_

#include "sim/machine.h"
#include "sim/scalar.h"

namespace spirv_conv {
namespace sim {

constexpr uint32_t kScalarArgShift = 16;
constexpr uint32_t kExtOpMask = (1u << kScalarArgShift) - 1;

// The slot of component |c| of argument |i|.
inline uint32_t ArgSlot(const Exec& e, int i, uint32_t c) {
  const bool scalar = (e.inst.aux >> (kScalarArgShift + i)) & 1;
  return e.Op(static_cast<uint32_t>(i)) + (scalar ? 0 : c);
}

// OpenCL.std instructions without a GLSL twin: what decoding recorded of argument
// |i| after the first argument's component count (functions.cpp): a pointer's
// pointee layout, a value's component width, 0 for a literal.
inline uint32_t ArgInfo(const Exec& e, uint32_t i) { return e.Op(e.inst.num_ops + 1 + i); }

// opencl_std_pointer.cpp: the OpenCL.std functions that write through a pointer
// (fract, modf, frexp, sincos, remquo, lgamma_r) and vloadn/vstoren/vload(a)_half(n)/
// vstore(a)_half(n)(_r).
bool ExecOpenClMemory(const Exec& e, uint32_t op);

// fn(args...) per component and lane on floats.
template <int N, typename Fn>
void FloatMap(const Exec& e, Fn fn) {
  const uint32_t w = e.inst.width;
  for (uint32_t c = 0; c < e.inst.comps; ++c) {
    const uint64_t* a[3] = {};
    for (int i = 0; i < N; ++i) a[i] = e.R(ArgSlot(e, i, c));
    uint64_t* d = e.R(e.inst.result + c);
    ForEachLane(e.lanes, [&](uint32_t l) {
      double x[3] = {};
      for (int i = 0; i < N; ++i) x[i] = ToDouble(a[i][l], w);
      d[l] = FromDouble(fn(x[0], x[1], x[2]), w);
    });
  }
}

// fn(args...) per component and lane on integers, sign-extended when |is_signed|.
template <int N, typename Fn>
void IntMap(const Exec& e, bool is_signed, Fn fn) {
  const uint32_t w = e.inst.op_width ? e.inst.op_width : e.inst.width;
  for (uint32_t c = 0; c < e.inst.comps; ++c) {
    const uint64_t* a[3] = {};
    for (int i = 0; i < N; ++i) a[i] = e.R(ArgSlot(e, i, c));
    uint64_t* d = e.R(e.inst.result + c);
    ForEachLane(e.lanes, [&](uint32_t l) {
      int64_t x[3] = {};
      for (int i = 0; i < N; ++i) {
        x[i] = is_signed ? SignExtend(a[i][l], w) : static_cast<int64_t>(a[i][l]);
      }
      d[l] = static_cast<uint64_t>(fn(x[0], x[1], x[2])) & WidthMask(e.inst.width);
    });
  }
}

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_EXT_MAP_H_
