// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Memory: Function variables, access chains, loads, stores, OpCopyMemory,
// OpCopyMemorySized and OpArrayLength. A pointer names a region (a descriptor,
// the push constants, the workgroup's shared memory, one invocation's private
// memory) and a byte offset; every access is checked against its region, and
// every dynamic index against its array's length, so an out-of-bounds access
// is an error naming the instruction instead of a silently wrong result.

#include <cstring>
#include <vector>

#include "sim/machine.h"
#include "sim/scalar.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {

uint8_t* Address(const Exec& e, uint64_t pointer, uint64_t size) {
  const uint64_t region = pointer >> kRegionShift, offset = pointer & kOffsetMask;
  if (region >= e.m.regions.size()) {
    e.Fault(region == kNullRegion && offset == 0 ? "access through a null pointer"
                                                 : "access through an invalid pointer");
    return nullptr;
  }
  Region& r = e.m.regions[region];
  if (offset + size > r.size) {
    e.Fault("out-of-bounds access: " + std::to_string(size) + " bytes at offset " +
            std::to_string(offset) + " of " + r.name + " (" + std::to_string(r.size) + " bytes)");
    return nullptr;
  }
  return r.data + offset;
}

bool LoadValue(const Exec& e, uint32_t layout, uint64_t pointer, uint32_t /*lane*/, uint64_t* dst,
               uint32_t dst_stride) {
  const Layout& l = e.m.program.layouts[layout];
  if (l.runtime || l.descriptors)
    return e.Unsupported("load of a runtime-sized or descriptor array");
  const uint8_t* bytes = Address(e, pointer, l.size);
  if (!bytes) return false;
  for (size_t i = 0; i < l.comp_offset.size(); ++i) {
    uint64_t v = 0;
    std::memcpy(&v, bytes + l.comp_offset[i], l.comp_bytes[i]);
    dst[i * dst_stride] = v;
  }
  return true;
}

bool StoreValue(const Exec& e, uint32_t layout, uint64_t pointer, uint32_t lane,
                const uint64_t* src, uint32_t src_stride) {
  const Layout& l = e.m.program.layouts[layout];
  if (l.runtime || l.descriptors)
    return e.Unsupported("store of a runtime-sized or descriptor array");
  uint8_t* bytes = Address(e, pointer, l.size);
  if (!bytes) return false;
  if (IgnoredHelperWrite(e, pointer, lane)) return true;
  for (size_t i = 0; i < l.comp_offset.size(); ++i) {
    const uint64_t v = src[i * src_stride];
    std::memcpy(bytes + l.comp_offset[i], &v, l.comp_bytes[i]);
  }
  return true;
}

namespace {

bool Variable(const Exec& e) {
  const Layout& l = e.m.program.layouts[e.inst.aux];
  const uint32_t offset = e.Op(0), init = e.Op(1);
  uint64_t* d = e.R(e.inst.result);
  const uint32_t stride = e.m.lanes_per_subgroup;
  bool ok = true;
  ForEachLane(e.lanes, [&](uint32_t lane) {
    d[lane] = MakePointer(e.m.InvocationRegion(e.sg, lane), offset);
    if (!ok) return;
    if (init != kNone) {
      ok = StoreValue(e, e.inst.aux, d[lane], lane, e.R(init) + lane, stride);
    } else if (uint8_t* bytes = Address(e, d[lane], l.size)) {
      std::memset(bytes, 0, l.size);  // undefined in SPIR-V; zero keeps runs deterministic
    } else {
      ok = false;
    }
  });
  return ok;
}

bool AccessChain(const Exec& e) {
  const uint64_t* base = e.R(e.Op(0));
  const uint32_t steps = e.Op(1);
  uint64_t* d = e.R(e.inst.result);
  bool ok = true;
  ForEachLane(e.lanes, [&](uint32_t lane) {
    if (!ok) return;
    uint64_t p = base[lane];
    auto add = [&p](uint64_t bytes) { p = AddToPointer(p, bytes); };
    for (uint32_t s = 0; s < steps && ok; ++s) {
      const uint32_t kind = e.Op(2 + 4 * s) & 0xFF, width = e.Op(2 + 4 * s) >> 8;
      const uint32_t a = e.Op(3 + 4 * s), b = e.Op(4 + 4 * s), c = e.Op(5 + 4 * s);
      if (kind == 0) {
        add(a);
        continue;
      }
      const int64_t index = SignExtend(e.R(a)[lane], width);
      if (kind == 3) {
        add(static_cast<uint64_t>(index) * b);
        continue;
      }
      if (kind == 1) {
        if (index < 0 || (c != 0 && index >= static_cast<int64_t>(c))) {
          ok = e.Fault("index " + std::to_string(index) + " out of bounds of an array of " +
                       (c ? std::to_string(c) : std::string("runtime length")));
          return;
        }
        add(static_cast<uint64_t>(index) * b);
      } else {
        const uint64_t region = (p >> kRegionShift) + static_cast<uint64_t>(index);
        const uint32_t resource = e.m.regions[p >> kRegionShift].resource;
        if (index < 0 || region >= e.m.regions.size() || e.m.regions[region].resource != resource) {
          ok = e.Fault("descriptor index " + std::to_string(index) + " out of bounds of " +
                       e.m.regions[p >> kRegionShift].name);
          return;
        }
        p = MakePointer(region, p & kOffsetMask);
      }
    }
    d[lane] = p;
  });
  return ok;
}

// OpCopyMemorySized: Size bytes (an integer of the decoded width) from Source to
// Target, whatever their types and regions; both ranges are bounds-checked.
bool CopyMemorySized(const Exec& e) {
  const uint64_t* dst = e.R(e.Op(0));
  const uint64_t* src = e.R(e.Op(1));
  const uint64_t* size = e.R(e.Op(2));
  const uint32_t size_width = e.Op(e.inst.num_ops + 1);
  bool ok = true;
  ForEachLane(e.lanes, [&](uint32_t lane) {
    const uint64_t bytes = size[lane] & WidthMask(size_width);
    if (!ok || bytes == 0) return;
    uint8_t* to = Address(e, dst[lane], bytes);
    const uint8_t* from = to ? Address(e, src[lane], bytes) : nullptr;
    if (!from) {
      ok = false;
      return;
    }
    std::memmove(to, from, bytes);  // overlapping ranges are undefined in SPIR-V; this is safe
  });
  return ok;
}

bool ArrayLength(const Exec& e) {
  const Layout& l = e.m.program.layouts[e.inst.aux];
  const uint32_t member = e.Op(1);
  const Layout& array = e.m.program.layouts[l.member_layout[member]];
  const uint64_t* p = e.R(e.Op(0));
  uint64_t* d = e.R(e.inst.result);
  ForEachLane(e.lanes, [&](uint32_t lane) {
    const Region& r = e.m.regions[p[lane] >> kRegionShift];
    const uint64_t start = (p[lane] & kOffsetMask) + l.member_offset[member];
    d[lane] = r.size > start && array.stride ? (r.size - start) / array.stride : 0;
  });
  return true;
}

}  // namespace

bool ExecMemory(const Exec& e) {
  const uint32_t stride = e.m.lanes_per_subgroup;
  bool ok = true;
  switch (e.inst.family) {
    case Family::kVariable:
      return Variable(e);
    case Family::kAccessChain:
      return AccessChain(e);
    case Family::kArrayLength:
      return ArrayLength(e);
    case Family::kPointer:
      return ExecPointer(e);
    case Family::kLoad: {
      const uint64_t* p = e.R(e.Op(0));
      uint64_t* d = e.R(e.inst.result);
      ForEachLane(e.lanes, [&](uint32_t lane) {
        ok = ok && LoadValue(e, e.inst.aux, p[lane], lane, d + lane, stride);
      });
      return ok;
    }
    case Family::kStore: {
      const uint64_t* p = e.R(e.Op(0));
      const uint64_t* v = e.R(e.Op(1));
      ForEachLane(e.lanes, [&](uint32_t lane) {
        ok = ok && StoreValue(e, e.inst.aux, p[lane], lane, v + lane, stride);
      });
      return ok;
    }
    case Family::kCopyMemory: {
      if (e.inst.opcode == uint16_t(spv::Op::OpCopyMemorySized)) return CopyMemorySized(e);
      const uint64_t* dst = e.R(e.Op(0));
      const uint64_t* src = e.R(e.Op(1));
      const uint32_t src_layout = e.Op(e.inst.num_ops);
      std::vector<uint64_t> value(e.m.program.layouts[src_layout].comp_offset.size());
      ForEachLane(e.lanes, [&](uint32_t lane) {
        ok = ok && LoadValue(e, src_layout, src[lane], lane, value.data(), 1) &&
             StoreValue(e, e.inst.aux, dst[lane], lane, value.data(), 1);
      });
      return ok;
    }
    default:
      return e.Unsupported("instruction");
  }
}

}  // namespace sim
}  // namespace spirv_conv
