// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Atomics on 32- and 64-bit integers. The lanes of the issuing tangle perform
// their read-modify-writes one after the other in ascending lane order, so a
// run is deterministic (a device may order them any way it likes).

#include <cstring>

#include "sim/machine.h"
#include "sim/scalar.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {

bool ExecAtomic(const Exec& e) {
  using spv::Op;
  const auto op = static_cast<Op>(e.inst.opcode);
  const uint32_t w = e.inst.width;
  if (e.inst.kind != ScalarKind::kInt || (w != 32 && w != 64)) {
    return e.Unsupported("atomic on a type other than a 32- or 64-bit integer");
  }
  const uint64_t mask = WidthMask(w);
  const uint64_t* pointer = e.R(e.Op(0));
  // Operands after pointer, scope and semantics (CompareExchange has two semantics).
  const bool compare = op == Op::OpAtomicCompareExchange;
  const uint64_t* value = nullptr;
  const uint64_t* comparator = nullptr;
  if (op != Op::OpAtomicLoad && op != Op::OpAtomicIIncrement && op != Op::OpAtomicIDecrement) {
    value = e.R(e.Op(compare ? 4 : 3));
  }
  if (compare) comparator = e.R(e.Op(5));
  uint64_t* d = e.inst.result != kNone ? e.R(e.inst.result) : nullptr;
  bool ok = true;
  ForEachLane(e.lanes, [&](uint32_t l) {
    if (!ok) return;
    uint8_t* bytes = Address(e, pointer[l], w / 8);
    if (!bytes) {
      ok = false;
      return;
    }
    uint64_t old = 0;
    std::memcpy(&old, bytes, w / 8);
    const uint64_t v = value ? value[l] : 0;
    const int64_t so = SignExtend(old, w), sv = SignExtend(v, w);
    uint64_t now = old;
    switch (op) {
      case Op::OpAtomicLoad:
        break;
      case Op::OpAtomicStore:
      case Op::OpAtomicExchange:
        now = v;
        break;
      case Op::OpAtomicCompareExchange:
        now = old == comparator[l] ? v : old;
        break;
      case Op::OpAtomicIIncrement:
        now = (old + 1) & mask;
        break;
      case Op::OpAtomicIDecrement:
        now = (old - 1) & mask;
        break;
      case Op::OpAtomicIAdd:
        now = (old + v) & mask;
        break;
      case Op::OpAtomicISub:
        now = (old - v) & mask;
        break;
      case Op::OpAtomicSMin:
        now = sv < so ? v : old;
        break;
      case Op::OpAtomicSMax:
        now = sv > so ? v : old;
        break;
      case Op::OpAtomicUMin:
        now = v < old ? v : old;
        break;
      case Op::OpAtomicUMax:
        now = v > old ? v : old;
        break;
      case Op::OpAtomicAnd:
        now = old & v;
        break;
      case Op::OpAtomicOr:
        now = old | v;
        break;
      case Op::OpAtomicXor:
        now = old ^ v;
        break;
      default:
        ok = e.Unsupported("atomic instruction");
        return;
    }
    // A helper's atomic has no effect; its result is undefined (here: the old value).
    if (!IgnoredHelperWrite(e, pointer[l], l)) std::memcpy(bytes, &now, w / 8);
    if (d) d[l] = old;
  });
  return ok;
}

}  // namespace sim
}  // namespace spirv_conv
