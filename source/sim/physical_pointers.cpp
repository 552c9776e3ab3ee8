// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Physical pointers of Kernel modules. Inside the simulator a pointer stays
// (region, byte offset); as an integer (OpConvertPtrToU, OpBitcast, a pointer
// stored in memory) it is an *address*: every region gets a fixed base address
// for the dispatch, ascending from 0x1000 in region order, each aligned to 256
// bytes and followed by a gap of at least 256 bytes, so
//
//   address = base(region) + offset          0 = the null pointer
//
// and OpConvertUToPtr finds the region whose base is the largest at or below
// the address. Round trips give back the same pointer, also one past the end of
// a region (the gap). Addresses below 0x1000 are invalid pointers: an access
// through them is an error. Physical32: an address above 2^32 - 1 (huge
// dispatches) does not convert and fails naming the instruction.
//
// Generic pointers are the pointers themselves: OpPtrCastToGeneric keeps the
// value; OpGenericCastToPtr(Explicit) gives null when the pointer's region is
// of another storage class (regions know theirs: workgroup memory and local
// arguments Workgroup, constants UniformConstant, invocation memory Function,
// other buffers CrossWorkgroup).

#include <algorithm>
#include <cstring>

#include "sim/decoder.h"
#include "sim/machine.h"
#include "sim/scalar.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace sim {

uint32_t Decoder::PointerLayout(uint32_t id) {
  if (id < id_layout.size() && id_layout[id] != kNone) return id_layout[id];
  if (!program_.kernel) return kNone;
  const TypeInfo& t = Type(TypeOfId(id));
  return t.kind == TypeInfo::kPointer ? LayoutOf(t.pointee) : kNone;
}

bool Decoder::HoldsPointer(uint32_t type) const {
  const TypeInfo& t = Type(type);
  if (t.kind == TypeInfo::kStruct) {
    for (uint32_t member : t.members) {
      if (Type(member).kind == TypeInfo::kPointer || HoldsPointer(member)) return true;
    }
  }
  if (t.kind != TypeInfo::kArray && t.kind != TypeInfo::kRuntimeArray) return false;
  return Type(t.element).kind == TypeInfo::kPointer || HoldsPointer(t.element);
}

bool AssignAddresses(Machine& m) {
  uint64_t next = 0x1000;
  m.region_address.clear();
  for (const Region& r : m.regions) {
    m.region_address.push_back(next);
    next = (next + r.size + 256 + 255) & ~uint64_t{255};
  }
  return true;
}

namespace {

int64_t SignedOffset(uint64_t pointer) { return SignExtend(pointer & kOffsetMask, kRegionShift); }

uint32_t StorageOfRegion(const Machine& m, uint64_t region) {
  if (region == 0) return uint32_t(spv::StorageClass::Workgroup);
  if (region == kConstantRegion) return uint32_t(spv::StorageClass::UniformConstant);
  if (region >= m.invocation_region_base) return uint32_t(spv::StorageClass::Function);
  switch (m.program.resources[m.regions[region].resource].argument) {
    case KernelArgument::kLocal:
      return uint32_t(spv::StorageClass::Workgroup);
    case KernelArgument::kConstant:
      return uint32_t(spv::StorageClass::UniformConstant);
    default:
      return uint32_t(spv::StorageClass::CrossWorkgroup);
  }
}

// The address of |pointer|, or false after a fault.
bool ToAddress(const Exec& e, uint64_t pointer, uint32_t width, uint64_t* address) {
  const uint64_t region = pointer >> kRegionShift;
  if (region == kNullRegion) {
    *address = static_cast<uint64_t>(SignedOffset(pointer)) & WidthMask(width);
    return true;
  }
  if (region >= e.m.regions.size()) return e.Fault("conversion of an invalid pointer");
  *address = e.m.region_address[region] + static_cast<uint64_t>(SignedOffset(pointer));
  if (width < 64 && *address > WidthMask(width)) {
    return e.Fault("address " + std::to_string(*address) + " of " + e.m.regions[region].name +
                   " does not fit in " + std::to_string(width) + " bits");
  }
  return true;
}

uint64_t FromAddress(const Machine& m, uint64_t address) {
  const auto& bases = m.region_address;
  auto it = std::upper_bound(bases.begin(), bases.end(), address);
  if (address == 0 || it == bases.begin()) return kNullPointer | (address & kOffsetMask);
  const uint64_t region = static_cast<uint64_t>(it - bases.begin() - 1);
  const uint64_t offset = address - bases[region];
  return offset > kOffsetMask ? kNullPointer : MakePointer(region, offset);
}

bool PointerOps(const Exec& e, spv::Op op) {
  const uint64_t* a = e.R(e.Op(0));
  uint64_t* d = e.R(e.inst.result);
  bool ok = true;
  switch (op) {
    case spv::Op::OpPtrEqual:
    case spv::Op::OpPtrNotEqual: {
      const uint64_t* b = e.R(e.Op(1));
      const uint64_t equal = op == spv::Op::OpPtrEqual ? 1 : 0;
      ForEachLane(e.lanes, [&](uint32_t l) { d[l] = a[l] == b[l] ? equal : 1 - equal; });
      return true;
    }
    case spv::Op::OpPtrDiff: {
      const uint64_t* b = e.R(e.Op(1));
      const int64_t size = std::max<int64_t>(1, e.inst.aux);
      ForEachLane(e.lanes, [&](uint32_t l) {
        if (!ok) return;
        if ((a[l] >> kRegionShift) != (b[l] >> kRegionShift)) {
          ok = e.Fault("OpPtrDiff of pointers into different memory");
          return;
        }
        d[l] = static_cast<uint64_t>((SignedOffset(a[l]) - SignedOffset(b[l])) / size) &
               WidthMask(e.inst.width);
      });
      return ok;
    }
    case spv::Op::OpPtrCastToGeneric:
      ForEachLane(e.lanes, [&](uint32_t l) { d[l] = a[l]; });
      return true;
    case spv::Op::OpGenericCastToPtr:
    case spv::Op::OpGenericCastToPtrExplicit:
      ForEachLane(e.lanes, [&](uint32_t l) {
        const uint64_t region = a[l] >> kRegionShift;
        const bool fits = region < e.m.regions.size() && StorageOfRegion(e.m, region) == e.inst.aux;
        d[l] = fits ? a[l] : kNullPointer;
      });
      return true;
    default:
      break;
  }
  // Conversions and bitcasts between pointers and integers (or pointers).
  const bool from_pointer = e.inst.op_kind == ScalarKind::kPointer;
  const bool to_pointer = e.inst.kind == ScalarKind::kPointer;
  if (e.inst.comps != 1) return e.Unsupported("conversion of a vector of pointers");
  ForEachLane(e.lanes, [&](uint32_t l) {
    if (!ok) return;
    if (from_pointer && to_pointer) {
      d[l] = a[l];
    } else if (from_pointer) {
      ok = ToAddress(e, a[l], e.inst.width, &d[l]);
    } else {
      d[l] = FromAddress(e.m, a[l] & WidthMask(e.inst.op_width));
    }
  });
  return ok;
}

// A pointer loaded from or stored to memory: its address, address_bits wide.
bool PointerInMemory(const Exec& e, bool load) {
  const uint32_t bits = e.m.program.address_bits, bytes = bits / 8;
  const uint64_t* p = e.R(e.Op(0));
  bool ok = true;
  ForEachLane(e.lanes, [&](uint32_t l) {
    if (!ok) return;
    uint8_t* at = Address(e, p[l], bytes);
    if (!at) {
      ok = false;
      return;
    }
    uint64_t address = 0;
    if (load) {
      std::memcpy(&address, at, bytes);
      e.R(e.inst.result)[l] = FromAddress(e.m, address);
    } else if ((ok = ToAddress(e, e.R(e.Op(1))[l], bits, &address))) {
      std::memcpy(at, &address, bytes);
    }
  });
  return ok;
}

}  // namespace

bool ExecPointer(const Exec& e) {
  const auto op = static_cast<spv::Op>(e.inst.opcode);
  if (op == spv::Op::OpLoad || op == spv::Op::OpStore) {
    return PointerInMemory(e, op == spv::Op::OpLoad);
  }
  return PointerOps(e, op);
}

}  // namespace sim
}  // namespace spirv_conv
