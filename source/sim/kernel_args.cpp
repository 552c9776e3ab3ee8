// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The parameters of a Kernel entry point (OpenCL). Parameter i takes the
// Buffer at set 0, binding i:
//
//   CrossWorkgroup pointer   a region holding the buffer's bytes, read back after the run
//   UniformConstant pointer  the same, not read back (__constant)
//   Workgroup pointer        a zero-filled region per workgroup, as long as the buffer (__local)
//   Function pointer         a byval aggregate: each invocation's own copy of the bytes
//   scalar, vector, struct   its value, little-endian at the natural layout (missing bytes: 0)
//
// Also the module-scope UniformConstant data of Kernel modules, filled once per
// dispatch from the variables' initializers.

#include <algorithm>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "sim/decoder.h"
#include "sim/machine.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace sim {

Status Decoder::DecodeKernelArguments(uint32_t entry_function) {
  spvtools::opt::Function* f = context_.GetFunction(entry_function);
  uint32_t index = 0;
  std::optional<Error> error;
  f->ForEachParam([&](spvtools::opt::Instruction* param) {
    if (error) return;
    const uint32_t id = param->result_id();
    const TypeInfo& t = program_.types[param->type_id()];
    Resource r;
    r.binding = index++;
    r.variable = id;
    const std::string what =
        "kernel parameter %" + std::to_string(id) + " (binding " + std::to_string(r.binding) + ")";
    if (HoldsPointer(t.kind == TypeInfo::kPointer ? t.pointee : param->type_id())) {
      error = Unsupported(what + ": a struct or array holding pointers");
      return;
    }
    if (t.kind == TypeInfo::kPointer) {
      if (program_.types[t.pointee].kind == TypeInfo::kOpaque) {
        error = Unsupported(what + ": a pointer to an opaque type");
        return;
      }
      r.layout = LayoutOf(t.pointee);
      id_layout[id] = r.layout;
      switch (static_cast<spv::StorageClass>(t.storage_class)) {
        case spv::StorageClass::CrossWorkgroup:
          r.argument = KernelArgument::kGlobal;
          r.storage = true;
          break;
        case spv::StorageClass::UniformConstant:
          r.argument = KernelArgument::kConstant;
          break;
        case spv::StorageClass::Workgroup:
          r.argument = KernelArgument::kLocal;
          break;
        case spv::StorageClass::Function:
          r.argument = KernelArgument::kByval;
          r.offset = program_.invocation_bytes;
          program_.invocation_bytes += (program_.layouts[r.layout].size + 15) & ~15u;
          break;
        default:
          error =
              Unsupported(what + ": a pointer to storage class " + std::to_string(t.storage_class));
          return;
      }
    } else if (t.kind == TypeInfo::kInt || t.kind == TypeInfo::kFloat ||
               t.kind == TypeInfo::kVector || t.kind == TypeInfo::kStruct ||
               t.kind == TypeInfo::kArray) {
      r.argument = KernelArgument::kValue;
      r.layout = LayoutOf(param->type_id());
    } else {
      error = Unsupported(what + " of an opaque or boolean type (images, samplers, events)");
      return;
    }
    program_.resources.push_back(r);
  });
  if (error) return *error;
  return Ok{};
}

std::vector<uint8_t> InitialBytes(const Resource& res, const std::vector<uint8_t>* given,
                                  uint32_t fixed_size) {
  switch (res.argument) {
    case KernelArgument::kNone:
      return given ? *given : std::vector<uint8_t>(fixed_size, 0);
    case KernelArgument::kGlobal:
    case KernelArgument::kConstant:
      return given ? *given : std::vector<uint8_t>();
    case KernelArgument::kLocal:
      return std::vector<uint8_t>(given ? given->size() : 0, 0);
    case KernelArgument::kByval:
    case KernelArgument::kValue: {
      std::vector<uint8_t> bytes = given ? *given : std::vector<uint8_t>();
      bytes.resize(std::max<size_t>(bytes.size(), fixed_size), 0);
      return bytes;
    }
  }
  return {};
}

void SetKernelArguments(Machine& m, Subgroup& sg) {
  const Program& p = m.program;
  const Function& kernel = p.functions[0];
  for (uint32_t r = 0; r < p.resources.size(); ++r) {
    const Resource& res = p.resources[r];
    if (res.argument == KernelArgument::kNone) continue;
    Region& region = m.regions[m.resource_region[r]];
    uint64_t* reg = m.Reg(sg, kernel.params[res.binding]);
    const Layout& l = p.layouts[res.layout];
    switch (res.argument) {
      case KernelArgument::kValue:
        for (size_t c = 0; c < l.comp_offset.size(); ++c) {
          uint64_t v = 0;
          std::memcpy(&v, region.data + l.comp_offset[c], l.comp_bytes[c]);
          std::fill_n(m.Reg(sg, kernel.params[res.binding] + static_cast<uint32_t>(c)),
                      m.lanes_per_subgroup, v);
        }
        break;
      case KernelArgument::kByval:
        for (uint32_t lane = 0; lane < m.lanes_per_subgroup; ++lane) {
          const uint32_t invocation = m.InvocationRegion(sg, std::min(lane, sg.lanes.Count() - 1));
          std::memcpy(m.regions[invocation].data + res.offset, region.data, l.size);
          reg[lane] = MakePointer(invocation, res.offset);
        }
        break;
      case KernelArgument::kLocal:
        if (sg.index == 0) std::fill_n(region.data, region.size, 0);
        std::fill_n(reg, m.lanes_per_subgroup, MakePointer(m.resource_region[r], 0));
        break;
      default:
        std::fill_n(reg, m.lanes_per_subgroup, MakePointer(m.resource_region[r], 0));
        break;
    }
  }
}

void FillConstantMemory(Machine& m) {
  const Program& p = m.program;
  if (p.constant_bytes == 0) return;
  std::unordered_map<uint32_t, uint64_t> constant;  // by slot
  for (const auto& [slot, value] : p.constants) constant[slot] = value;
  for (const Global& g : p.globals) {
    if (g.storage_class != uint32_t(spv::StorageClass::UniformConstant) || g.initializer == kNone) {
      continue;
    }
    const Layout& l = p.layouts[g.layout];
    for (size_t c = 0; c < l.comp_offset.size(); ++c) {
      const auto it = constant.find(g.initializer + static_cast<uint32_t>(c));
      const uint64_t v = it == constant.end() ? 0 : it->second;
      std::memcpy(m.constant_memory.data() + g.offset + l.comp_offset[c], &v, l.comp_bytes[c]);
    }
  }
}

}  // namespace sim
}  // namespace spirv_conv
