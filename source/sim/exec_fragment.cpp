// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Fragment-only instructions: derivatives from quad neighbours, and the helper
// state (OpDemoteToHelperInvocation, OpIsHelperInvocationEXT). Lanes 4q..4q+3
// of a subgroup are one quad: top left, top right, bottom left, bottom right
// (fragment.cpp), so a lane's horizontal neighbour is lane ^ 1 and its
// vertical one lane ^ 2.
//
// Fine derivatives, and DPdx / DPdy / Fwidth (Vulkan lets them be fine or
// coarse; lavapipe's are fine), difference the invocation's own row (x) or
// column (y); coarse ones use the quad's top row and left column for all four.
// A derivative executed without all four lanes of its quad is undefined
// (derivatives need quad-uniform control flow): the run counts it
// (Stats::undefined_derivatives), and its value is the pair's difference when
// that pair is in the tangle, else 0.

#include <cmath>
#include <cstring>

#include "sim/machine.h"
#include "sim/scalar.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {
namespace {

struct Derivative {
  Axis axis;
  bool fine;
  bool width;  // Fwidth: |dx| + |dy|
};

Derivative Kind(spv::Op op) {
  switch (op) {
    case spv::Op::OpDPdxCoarse:
      return {Axis::kX, false, false};
    case spv::Op::OpDPdx:
    case spv::Op::OpDPdxFine:
      return {Axis::kX, true, false};
    case spv::Op::OpDPdyCoarse:
      return {Axis::kY, false, false};
    case spv::Op::OpDPdy:
    case spv::Op::OpDPdyFine:
      return {Axis::kY, true, false};
    case spv::Op::OpFwidthCoarse:
      return {Axis::kX, false, true};
    default:  // OpFwidth, OpFwidthFine
      return {Axis::kX, true, true};
  }
}

}  // namespace

std::pair<uint32_t, uint32_t> QuadPair(uint32_t lane, Axis axis, bool fine) {
  const uint32_t base = lane & ~3u, in_quad = lane & 3u;
  if (axis == Axis::kX) {
    const uint32_t row = fine ? (in_quad & 2u) : 0;
    return {base + row, base + row + 1};
  }
  const uint32_t column = fine ? (in_quad & 1u) : 0;
  return {base + column, base + column + 2};
}

void CountUndefinedDerivative(const Exec& e) {
  const uint32_t function = static_cast<uint32_t>(&e.f - e.m.program.functions.data());
  const uint32_t inst = static_cast<uint32_t>(&e.inst - e.f.insts.data());
  ++e.m.undefined_derivatives[{function, inst}];
}

bool QuadDifference(const Exec& e, uint32_t slot, uint32_t lane, Axis axis, bool fine,
                    uint32_t width, double* out) {
  const auto [from, to] = QuadPair(lane, axis, fine);
  if (!e.lanes.Test(from) || !e.lanes.Test(to)) {
    *out = 0;
    return false;
  }
  const uint64_t* v = e.R(slot);
  *out = ToDouble(v[to], width) - ToDouble(v[from], width);
  return true;
}

bool ExecFragment(const Exec& e) {
  const auto op = static_cast<spv::Op>(e.inst.opcode);
  if (!e.m.program.fragment) {
    return e.Unsupported("fragment-only instruction outside a Fragment entry point");
  }
  switch (op) {
    case spv::Op::OpDemoteToHelperInvocation: {
      const LaneMask newly = e.lanes.Without(e.sg.helpers);
      e.m.demoted += newly.Count();
      e.sg.helpers |= e.lanes;
      // The HelperInvocation built-in reads true from now on (it is Volatile
      // under the Vulkan memory model for exactly this reason).
      for (const Global& g : e.m.program.globals) {
        if (g.builtin != uint32_t(spv::BuiltIn::HelperInvocation)) continue;
        ForEachLane(e.lanes, [&](uint32_t l) {
          const uint32_t one = 1;
          std::memcpy(e.m.regions[e.m.InvocationRegion(e.sg, l)].data + g.offset, &one, 4);
        });
      }
      return true;
    }
    case spv::Op::OpIsHelperInvocationEXT: {
      uint64_t* d = e.R(e.inst.result);
      ForEachLane(e.lanes, [&](uint32_t l) { d[l] = e.sg.helpers.Test(l); });
      return true;
    }
    default:
      break;
  }
  const Derivative kind = Kind(op);
  const uint32_t w = e.inst.width;
  ForEachLane(e.lanes, [&](uint32_t l) {
    for (uint32_t c = 0; c < e.inst.comps; ++c) {
      double dx = 0, dy = 0, value;
      QuadDifference(e, e.Op(0) + c, l, kind.axis, kind.fine, w, &dx);
      if (kind.width) {
        QuadDifference(e, e.Op(0) + c, l, Axis::kY, kind.fine, w, &dy);
        value = std::fabs(dx) + std::fabs(dy);
      } else {
        value = dx;
      }
      e.R(e.inst.result + c)[l] = FromDouble(value, w);
    }
    if (!QuadComplete(e.lanes, l)) CountUndefinedDerivative(e);
  });
  return true;
}

}  // namespace sim
}  // namespace spirv_conv
