// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// OpGroupNonUniform* and the SPV_KHR_shader_ballot/subgroup_vote forms. They
// act on the *active tangle*: the lanes executing this dynamic instance
// together. Reductions and scans combine the active lanes in ascending lane
// order. Reading an inactive lane (a shuffle or broadcast to a lane outside
// the tangle, undefined in SPIR-V) gives 0.

#include <cmath>
#include <limits>

#include "sim/machine.h"
#include "sim/opcodes.h"
#include "sim/scalar.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {
namespace {

using spv::Op;

uint64_t Identity(Op op, uint32_t w) {
  switch (op) {
    case Op::OpGroupNonUniformIMul:
      return 1;
    case Op::OpGroupNonUniformFMul:
      return FromDouble(1.0, w);
    case Op::OpGroupNonUniformSMin:
      return WidthMask(w) >> 1;
    case Op::OpGroupNonUniformUMin:
    case Op::OpGroupNonUniformBitwiseAnd:
      return WidthMask(w);
    case Op::OpGroupNonUniformFMin:
      return FromDouble(std::numeric_limits<double>::infinity(), w);
    case Op::OpGroupNonUniformSMax:
      return (WidthMask(w) >> 1) + 1;
    case Op::OpGroupNonUniformFMax:
      return FromDouble(-std::numeric_limits<double>::infinity(), w);
    case Op::OpGroupNonUniformLogicalAnd:
      return 1;
    default:
      return 0;  // IAdd, FAdd, UMax, Or, Xor, LogicalOr, LogicalXor
  }
}

uint64_t Combine(Op op, uint64_t a, uint64_t b, uint32_t w) {
  const uint64_t m = WidthMask(w);
  switch (op) {
    case Op::OpGroupNonUniformIAdd:
      return (a + b) & m;
    case Op::OpGroupNonUniformIMul:
      return (a * b) & m;
    case Op::OpGroupNonUniformFAdd:
      return FromDouble(ToDouble(a, w) + ToDouble(b, w), w);
    case Op::OpGroupNonUniformFMul:
      return FromDouble(ToDouble(a, w) * ToDouble(b, w), w);
    case Op::OpGroupNonUniformSMin:
      return SignExtend(a, w) < SignExtend(b, w) ? a : b;
    case Op::OpGroupNonUniformSMax:
      return SignExtend(a, w) > SignExtend(b, w) ? a : b;
    case Op::OpGroupNonUniformUMin:
      return a < b ? a : b;
    case Op::OpGroupNonUniformUMax:
      return a > b ? a : b;
    case Op::OpGroupNonUniformFMin:
      return FromDouble(std::fmin(ToDouble(a, w), ToDouble(b, w)), w);
    case Op::OpGroupNonUniformFMax:
      return FromDouble(std::fmax(ToDouble(a, w), ToDouble(b, w)), w);
    case Op::OpGroupNonUniformBitwiseAnd:
    case Op::OpGroupNonUniformLogicalAnd:
      return a & b;
    case Op::OpGroupNonUniformBitwiseOr:
    case Op::OpGroupNonUniformLogicalOr:
      return a | b;
    default:
      return a ^ b;  // Xor
  }
}

// Reads lane |src| of |values| when it is in the tangle, else 0.
uint64_t ReadLane(const Exec& e, const uint64_t* values, uint64_t src) {
  return src < kMaxSubgroupSize && e.lanes.Test(static_cast<uint32_t>(src)) ? values[src] : 0;
}

// d[l] = values[source(l)] per component.
template <typename Source>
void Permute(const Exec& e, uint32_t value_operand, Source source) {
  for (uint32_t c = 0; c < e.inst.comps; ++c) {
    const uint64_t* v = e.R(e.Op(value_operand) + c);
    uint64_t* d = e.R(e.inst.result + c);
    uint64_t out[kMaxSubgroupSize];
    ForEachLane(e.lanes, [&](uint32_t l) { out[l] = ReadLane(e, v, source(l)); });
    ForEachLane(e.lanes, [&](uint32_t l) { d[l] = out[l]; });
  }
}

void WriteBallot(const Exec& e, uint32_t lane, const LaneMask& bits) {
  for (uint32_t c = 0; c < 4 && c < e.inst.comps; ++c) {
    e.R(e.inst.result + c)[lane] = (bits.word[c / 2] >> (32 * (c % 2))) & 0xFFFFFFFFu;
  }
}

LaneMask ReadBallot(const Exec& e, uint32_t operand, uint32_t lane) {
  LaneMask m;
  for (uint32_t c = 0; c < 4; ++c) m.word[c / 2] |= e.R(e.Op(operand) + c)[lane] << (32 * (c % 2));
  return m & LaneMask::FirstN(e.m.lanes_per_subgroup);
}

bool Arithmetic(const Exec& e, Op op) {
  const uint32_t group_op = e.Op(1), w = e.inst.width;
  const uint32_t cluster = group_op == 3 ? static_cast<uint32_t>(e.R(e.Op(3))[e.lanes.First()]) : 0;
  if (group_op > 3) return e.Unsupported("group operation " + std::to_string(group_op));
  if (group_op == 3 && (cluster == 0 || (cluster & (cluster - 1)) != 0)) {
    return e.Fault("cluster size " + std::to_string(cluster) + " is not a power of two");
  }
  for (uint32_t c = 0; c < e.inst.comps; ++c) {
    const uint64_t* v = e.R(e.Op(2) + c);
    uint64_t* d = e.R(e.inst.result + c);
    uint64_t out[kMaxSubgroupSize];
    if (group_op == 0 || group_op == 3) {
      ForEachLane(e.lanes, [&](uint32_t l) {
        uint64_t acc = Identity(op, w);
        ForEachLane(e.lanes, [&](uint32_t k) {
          if (group_op == 0 || k / cluster == l / cluster) acc = Combine(op, acc, v[k], w);
        });
        out[l] = acc;
      });
    } else {
      uint64_t acc = Identity(op, w);
      ForEachLane(e.lanes, [&](uint32_t l) {
        if (group_op == 2) out[l] = acc;
        acc = Combine(op, acc, v[l], w);
        if (group_op == 1) out[l] = acc;
      });
    }
    ForEachLane(e.lanes, [&](uint32_t l) { d[l] = out[l]; });
  }
  return true;
}

}  // namespace

bool ExecSubgroup(const Exec& e) {
  const auto op = static_cast<Op>(e.inst.opcode);
  const uint32_t first = e.lanes.First();
  const LaneMask in_range = LaneMask::FirstN(e.m.lanes_per_subgroup);
  switch (op) {
    case Op::OpGroupNonUniformElect: {
      uint64_t* d = e.R(e.inst.result);
      ForEachLane(e.lanes, [&](uint32_t l) { d[l] = l == first; });
      return true;
    }
    case Op::OpGroupNonUniformAll:
    case Op::OpGroupNonUniformAny:
    case Op::OpSubgroupAllKHR:
    case Op::OpSubgroupAnyKHR: {
      const bool khr = op == Op::OpSubgroupAllKHR || op == Op::OpSubgroupAnyKHR;
      const bool all = op == Op::OpGroupNonUniformAll || op == Op::OpSubgroupAllKHR;
      const uint64_t* p = e.R(e.Op(khr ? 0 : 1));
      uint64_t r = all ? 1 : 0;
      ForEachLane(e.lanes, [&](uint32_t l) { r = all ? (r & p[l]) : (r | p[l]); });
      ForEachLane(e.lanes, [&](uint32_t l) { e.R(e.inst.result)[l] = r; });
      return true;
    }
    case Op::OpGroupNonUniformAllEqual:
    case Op::OpSubgroupAllEqualKHR: {
      const uint32_t operand = op == Op::OpSubgroupAllEqualKHR ? 0 : 1;
      const uint32_t comps = e.Op(e.inst.num_ops);
      uint64_t equal = 1;
      for (uint32_t c = 0; c < comps; ++c) {
        const uint64_t* v = e.R(e.Op(operand) + c);
        ForEachLane(e.lanes, [&](uint32_t l) { equal &= v[l] == v[first]; });
      }
      ForEachLane(e.lanes, [&](uint32_t l) { e.R(e.inst.result)[l] = equal; });
      return true;
    }
    case Op::OpGroupNonUniformBroadcast:
    case Op::OpSubgroupReadInvocationKHR: {
      const bool khr = op == Op::OpSubgroupReadInvocationKHR;
      const uint64_t src = e.R(e.Op(khr ? 1 : 2))[first];
      Permute(e, khr ? 0 : 1, [&](uint32_t) { return src; });
      return true;
    }
    case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpSubgroupFirstInvocationKHR:
      Permute(e, op == Op::OpSubgroupFirstInvocationKHR ? 0 : 1, [&](uint32_t) { return first; });
      return true;
    case Op::OpGroupNonUniformBallot:
    case Op::OpSubgroupBallotKHR: {
      const uint64_t* p = e.R(e.Op(op == Op::OpSubgroupBallotKHR ? 0 : 1));
      LaneMask bits;
      ForEachLane(e.lanes, [&](uint32_t l) {
        if (p[l]) bits.Set(l);
      });
      ForEachLane(e.lanes, [&](uint32_t l) { WriteBallot(e, l, bits); });
      return true;
    }
    case Op::OpGroupNonUniformInverseBallot:
    case Op::OpGroupNonUniformBallotBitExtract:
    case Op::OpGroupNonUniformBallotBitCount:
    case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB: {
      const bool count = op == Op::OpGroupNonUniformBallotBitCount;
      const uint32_t operand = count ? 2 : 1;
      uint64_t* d = e.R(e.inst.result);
      ForEachLane(e.lanes, [&](uint32_t l) {
        const LaneMask bits = ReadBallot(e, operand, l) & in_range;
        switch (op) {
          case Op::OpGroupNonUniformInverseBallot:
            d[l] = bits.Test(l);
            break;
          case Op::OpGroupNonUniformBallotBitExtract: {
            const uint64_t index = e.R(e.Op(2))[l];
            d[l] = index < kMaxSubgroupSize && bits.Test(static_cast<uint32_t>(index));
            break;
          }
          case Op::OpGroupNonUniformBallotFindLSB:
            d[l] = bits.Empty() ? 0xFFFFFFFFu : bits.First();
            break;
          case Op::OpGroupNonUniformBallotFindMSB:
            d[l] = bits.Empty() ? 0xFFFFFFFFu : bits.Last();
            break;
          default: {
            const uint32_t group_op = e.Op(1);
            LaneMask range = in_range;
            if (group_op == 1) range = LaneMask::FirstN(l + 1);
            if (group_op == 2) range = LaneMask::FirstN(l);
            d[l] = (bits & range).Count();
          }
        }
      });
      return true;
    }
    case Op::OpGroupNonUniformShuffle:
      Permute(e, 1, [&](uint32_t l) { return e.R(e.Op(2))[l]; });
      return true;
    case Op::OpGroupNonUniformShuffleXor:
      Permute(e, 1, [&](uint32_t l) { return l ^ e.R(e.Op(2))[l]; });
      return true;
    case Op::OpGroupNonUniformShuffleUp:
      Permute(e, 1, [&](uint32_t l) {
        const uint64_t delta = e.R(e.Op(2))[l];
        return delta <= l ? l - delta : ~0ull;
      });
      return true;
    case Op::OpGroupNonUniformShuffleDown:
      Permute(e, 1, [&](uint32_t l) {
        const uint64_t src = l + e.R(e.Op(2))[l];
        return src < e.m.lanes_per_subgroup ? src : ~0ull;
      });
      return true;
    case Op::OpGroupNonUniformRotateKHR: {
      // SPV_KHR_subgroup_rotate: lane l reads lane ((l + Delta) mod ClusterSize)
      // within its cluster (ClusterSize: the subgroup when absent).
      const uint64_t delta = e.R(e.Op(2))[first];
      uint64_t cluster = e.m.lanes_per_subgroup;
      if (e.inst.num_ops > 3) {  // scope, value, delta, cluster size
        cluster = e.R(e.Op(3))[first];
        if (cluster == 0 || (cluster & (cluster - 1)) != 0 || cluster > e.m.lanes_per_subgroup) {
          return e.Fault("OpGroupNonUniformRotateKHR cluster size " + std::to_string(cluster));
        }
      }
      Permute(e, 1,
              [&](uint32_t l) { return ((l + delta) & (cluster - 1)) + (l & ~(cluster - 1)); });
      return true;
    }
    case kOpGroupNonUniformQuadAllKHR:
    case kOpGroupNonUniformQuadAnyKHR: {
      // SPV_KHR_quad_control: the predicate over the invocations of each quad in the tangle.
      const bool all = op == kOpGroupNonUniformQuadAllKHR;
      const uint64_t* p = e.R(e.Op(0));
      uint64_t* d = e.R(e.inst.result);
      uint64_t quad[kMaxSubgroupSize / 4];
      ForEachLane(e.lanes, [&](uint32_t l) { quad[l / 4] = all ? 1 : 0; });
      ForEachLane(e.lanes, [&](uint32_t l) {
        quad[l / 4] = all ? (quad[l / 4] & p[l]) : (quad[l / 4] | p[l]);
      });
      ForEachLane(e.lanes, [&](uint32_t l) { d[l] = quad[l / 4]; });
      return true;
    }
    case Op::OpGroupNonUniformQuadBroadcast:
      Permute(e, 1, [&](uint32_t l) { return (l & ~3u) + e.R(e.Op(2))[l]; });
      return true;
    case Op::OpGroupNonUniformQuadSwap: {
      const uint64_t direction = e.R(e.Op(2))[first];
      if (direction > 2)
        return e.Fault("OpGroupNonUniformQuadSwap direction " + std::to_string(direction));
      Permute(e, 1, [&](uint32_t l) { return l ^ (direction + 1); });
      return true;
    }
    default:
      return Arithmetic(e, op);
  }
}

}  // namespace sim
}  // namespace spirv_conv
