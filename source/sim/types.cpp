// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Types and memory layouts. A composite flattens into its scalar components in
// order (a matrix column by column, an array element by element, a struct
// member by member), so OpCompositeConstruct is a concatenation and
// OpCompositeExtract a contiguous run. Layouts give every component its byte
// offset: explicit ones (Offset, ArrayStride, MatrixStride, RowMajor) where the
// module decorates them, a packed natural layout elsewhere (Function, Private
// and Workgroup memory, whose bytes nobody outside the simulator sees). Kernel
// modules use OpenCL's natural layout: a scalar or vector aligned to its size
// (a 3-vector padded to 4), struct members at their alignment.

#include <algorithm>

#include "sim/decoder.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace sim {

bool Decorations::Has(uint32_t id, uint32_t decoration, uint32_t* literal) const {
  auto it = of_id.find(id);
  if (it == of_id.end()) return false;
  for (const auto& [d, value] : it->second) {
    if (d != decoration) continue;
    if (literal) *literal = value;
    return true;
  }
  return false;
}

bool Decorations::MemberHas(uint32_t id, uint32_t member, uint32_t decoration,
                            uint32_t* literal) const {
  auto it = of_member.find({id, member});
  if (it == of_member.end()) return false;
  for (const auto& [d, value] : it->second) {
    if (d != decoration) continue;
    if (literal) *literal = value;
    return true;
  }
  return false;
}

Error Decoder::Unsupported(const std::string& what) const {
  return MakeError(ExitCode::kBadInput, program_.name, "simulator: unsupported " + what);
}

Status Decoder::DecodeTypes() {
  const uint32_t bound = context_.module()->IdBound();
  program_.types.assign(bound, TypeInfo());
  id_slot.assign(bound, kNone);
  id_layout.assign(bound, kNone);
  for (const auto& inst : context_.annotations()) {
    const spv::Op op = inst.opcode();
    if (op == spv::Op::OpDecorate) {
      const uint32_t literal = inst.NumInOperands() > 2 ? inst.GetSingleWordInOperand(2) : 0;
      decorations.of_id[inst.GetSingleWordInOperand(0)].push_back(
          {inst.GetSingleWordInOperand(1), literal});
    } else if (op == spv::Op::OpMemberDecorate) {
      const uint32_t literal = inst.NumInOperands() > 3 ? inst.GetSingleWordInOperand(3) : 0;
      decorations.of_member[{inst.GetSingleWordInOperand(0), inst.GetSingleWordInOperand(1)}]
          .push_back({inst.GetSingleWordInOperand(2), literal});
    }
  }
  for (const auto& inst : context_.module()->types_values()) {
    TypeInfo t;
    auto in = [&](uint32_t i) { return inst.GetSingleWordInOperand(i); };
    switch (inst.opcode()) {
      case spv::Op::OpTypeVoid:
        t.kind = TypeInfo::kVoid;
        break;
      case spv::Op::OpTypeBool:
        t = {TypeInfo::kBool, 1, ScalarKind::kBool, 1};
        break;
      case spv::Op::OpTypeInt:
        t = {TypeInfo::kInt, 1, ScalarKind::kInt, static_cast<uint8_t>(in(0))};
        t.is_signed = in(1) != 0;
        break;
      case spv::Op::OpTypeFloat:
        t = {TypeInfo::kFloat, 1, ScalarKind::kFloat, static_cast<uint8_t>(in(0))};
        break;
      case spv::Op::OpTypeVector:
      case spv::Op::OpTypeMatrix: {
        const TypeInfo& e = program_.types[in(0)];
        t = e;
        t.kind = inst.opcode() == spv::Op::OpTypeVector ? TypeInfo::kVector : TypeInfo::kMatrix;
        t.element = in(0);
        t.length = in(1);
        t.comps = e.comps * in(1);
        break;
      }
      case spv::Op::OpTypeArray: {
        const TypeInfo& e = program_.types[in(0)];
        const spvtools::opt::analysis::Constant* length =
            context_.get_constant_mgr()->FindDeclaredConstant(in(1));
        if (!length || !length->AsIntConstant())
          return Unsupported("array length (not a constant)");
        t.kind = TypeInfo::kArray;
        t.element = in(0);
        t.length = length->GetU32();
        t.comps = e.comps * t.length;
        t.scalar = e.scalar;
        t.width = e.width;
        break;
      }
      case spv::Op::OpTypeRuntimeArray:
        t.kind = TypeInfo::kRuntimeArray;
        t.element = in(0);
        break;
      case spv::Op::OpTypeStruct:
        t.kind = TypeInfo::kStruct;
        for (uint32_t i = 0; i < inst.NumInOperands(); ++i) {
          t.members.push_back(in(i));
          t.member_first.push_back(t.comps);
          t.comps += program_.types[in(i)].comps;
        }
        break;
      case spv::Op::OpTypePointer:
        t.kind = TypeInfo::kPointer;
        t.comps = 1;
        t.scalar = ScalarKind::kPointer;
        t.width = 64;
        t.storage_class = in(0);
        t.pointee = in(1);
        break;
      case spv::Op::OpTypeForwardPointer:
        return Unsupported("OpTypeForwardPointer (physical pointers)");
      case spv::Op::OpTypeFunction:
        t.kind = TypeInfo::kFunction;
        break;
      case spv::Op::OpTypeImage:
      case spv::Op::OpTypeSampler:
      case spv::Op::OpTypeSampledImage:
        t.kind = TypeInfo::kOpaque;
        t.comps = 1;  // a handle (exec_image.cpp)
        break;
      case spv::Op::OpTypeAccelerationStructureKHR:
        t.kind = TypeInfo::kOpaque;
        break;
      default:
        continue;  // constants, variables, undef: constants.cpp and globals.cpp
    }
    program_.types[inst.result_id()] = t;
  }
  return Ok{};
}

// The layout of |type|: |matrix_stride| and |row_major| come from the struct
// member that (through arrays) holds a matrix; 0 picks the natural stride.
uint32_t Decoder::LayoutOf(uint32_t type, uint32_t matrix_stride, bool row_major) {
  auto key = std::make_tuple(type, matrix_stride, row_major);
  if (auto it = layout_cache_.find(key); it != layout_cache_.end()) return it->second;
  const TypeInfo t = program_.types[type];
  Layout l;
  l.type = type;
  auto append = [&](const Layout& child, uint32_t offset) {
    for (size_t i = 0; i < child.comp_offset.size(); ++i) {
      l.comp_offset.push_back(offset + child.comp_offset[i]);
      l.comp_bytes.push_back(child.comp_bytes[i]);
    }
  };
  switch (t.kind) {
    case TypeInfo::kBool:
    case TypeInfo::kInt:
    case TypeInfo::kFloat:
    case TypeInfo::kPointer: {
      uint8_t bytes = t.kind == TypeInfo::kBool ? 4 : static_cast<uint8_t>(t.width / 8);
      if (t.kind == TypeInfo::kPointer && program_.address_bits) {
        bytes = static_cast<uint8_t>(program_.address_bits / 8);
      }
      l.size = bytes;
      l.align = bytes;
      l.comp_offset = {0};
      l.comp_bytes = {bytes};
      break;
    }
    case TypeInfo::kVector: {
      // |matrix_stride| here is the component stride of a row-major matrix's column.
      const uint32_t scalar = LayoutOf(t.element);
      const Layout& s = program_.layouts[scalar];
      l.element = scalar;
      l.length = t.length;
      l.stride = matrix_stride ? matrix_stride : s.size;
      for (uint32_t i = 0; i < t.length; ++i) append(program_.layouts[scalar], i * l.stride);
      l.size = (t.length - 1) * l.stride + program_.layouts[scalar].size;
      l.align = s.size;
      if (program_.kernel) {  // OpenCL: a vector is aligned to its size, a 3-vector as a 4-vector
        l.size = (t.length == 3 ? 4 : t.length) * s.size;
        l.align = l.size;
      }
      break;
    }
    case TypeInfo::kMatrix: {
      const TypeInfo& column = program_.types[t.element];
      const uint32_t scalar_bytes = column.width / 8;
      const uint32_t natural = column.length * scalar_bytes;
      const uint32_t stride = matrix_stride ? matrix_stride : natural;
      // A column of a row-major matrix has its components one row stride apart.
      l.element = LayoutOf(t.element, row_major ? stride : 0);
      l.length = t.length;
      l.stride = row_major ? scalar_bytes : stride;
      for (uint32_t c = 0; c < t.length; ++c) append(program_.layouts[l.element], c * l.stride);
      l.size = row_major ? column.length * stride : t.length * stride;
      break;
    }
    case TypeInfo::kArray:
    case TypeInfo::kRuntimeArray: {
      l.element = LayoutOf(t.element, matrix_stride, row_major);
      const uint32_t element_size = program_.layouts[l.element].size;
      uint32_t stride = element_size;
      decorations.Has(type, uint32_t(spv::Decoration::ArrayStride), &stride);
      l.stride = stride;
      l.length = t.length;
      l.runtime = t.kind == TypeInfo::kRuntimeArray;
      l.align = program_.layouts[l.element].align;
      for (uint32_t i = 0; i < t.length; ++i) append(program_.layouts[l.element], i * stride);
      l.size = t.length * stride;
      break;
    }
    case TypeInfo::kStruct: {
      uint32_t next = 0;
      // OpenCL's natural layout: members at their alignment, the size a multiple of the
      // largest (CPacked: neither).
      const bool natural =
          program_.kernel && !decorations.Has(type, uint32_t(spv::Decoration::CPacked));
      for (uint32_t m = 0; m < t.members.size(); ++m) {
        uint32_t mstride = 0;
        decorations.MemberHas(type, m, uint32_t(spv::Decoration::MatrixStride), &mstride);
        const bool rm = decorations.MemberHas(type, m, uint32_t(spv::Decoration::RowMajor));
        const uint32_t member = LayoutOf(t.members[m], mstride, rm);
        const Layout& ml = program_.layouts[member];
        if (natural) {
          l.align = std::max(l.align, ml.align);
          next = (next + ml.align - 1) / ml.align * ml.align;
        }
        uint32_t offset = next;
        decorations.MemberHas(type, m, uint32_t(spv::Decoration::Offset), &offset);
        l.member_offset.push_back(offset);
        l.member_layout.push_back(member);
        append(ml, offset);
        l.runtime = l.runtime || ml.runtime;
        next = offset + ml.size;
        l.size = std::max(l.size, next);
      }
      if (natural) l.size = (l.size + l.align - 1) / l.align * l.align;
      break;
    }
    case TypeInfo::kOpaque:
      // An image or sampler descriptor holds its 8-byte handle (exec_image.cpp).
      if (t.comps == 1 && !program_.kernel) {
        l.size = 8;
        l.align = 8;
        l.comp_offset = {0};
        l.comp_bytes = {8};
      }
      break;
    default:
      break;
  }
  program_.layouts.push_back(std::move(l));
  const uint32_t index = static_cast<uint32_t>(program_.layouts.size() - 1);
  layout_cache_[key] = index;
  return index;
}

}  // namespace sim
}  // namespace spirv_conv
