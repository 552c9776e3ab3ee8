// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The module's frame: capabilities the simulator accepts, the entry point's
// execution modes (LocalSize, LocalSizeId; MaximallyReconvergesKHR changes
// nothing: structured code runs as the extension says either way) and the
// module-scope variables: descriptors and push constants become resources
// (one memory region per descriptor), Workgroup variables share one region per
// workgroup, Private and Input variables (built-ins) live in each invocation's
// own region next to its Function variables. Kernel modules (OpenCL, physical
// addressing) add UniformConstant data with initializers (one shared region).

#include <set>

#include "sim/decoder.h"
#include "source/enum_string_mapping.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/sim.h"

namespace spirv_conv {
namespace sim {
namespace {

// SPV_KHR_quad_control, newer than the bundled headers.
constexpr uint32_t kQuadControlKHR = 5087;
constexpr uint32_t kRequireFullQuadsKHR = 5089;

bool SupportedCapability(spv::Capability c) {
  static const std::set<spv::Capability> kSupported = {
      spv::Capability::Shader,
      // SPV_KHR_float_controls: the execution modes say what each requires.
      spv::Capability::DenormPreserve,
      spv::Capability::DenormFlushToZero,
      spv::Capability::SignedZeroInfNanPreserve,
      spv::Capability::RoundingModeRTE,
      spv::Capability::RoundingModeRTZ,
      spv::Capability::Matrix,
      spv::Capability::Int8,
      spv::Capability::Int16,
      spv::Capability::Int64,
      spv::Capability::Int64Atomics,
      spv::Capability::Float16,
      spv::Capability::Float64,
      spv::Capability::StorageBuffer16BitAccess,
      spv::Capability::UniformAndStorageBuffer16BitAccess,
      spv::Capability::StoragePushConstant16,
      spv::Capability::StorageBuffer8BitAccess,
      spv::Capability::UniformAndStorageBuffer8BitAccess,
      spv::Capability::StoragePushConstant8,
      spv::Capability::GroupNonUniform,
      spv::Capability::GroupNonUniformVote,
      spv::Capability::GroupNonUniformArithmetic,
      spv::Capability::GroupNonUniformBallot,
      spv::Capability::GroupNonUniformShuffle,
      spv::Capability::GroupNonUniformShuffleRelative,
      spv::Capability::GroupNonUniformClustered,
      spv::Capability::GroupNonUniformQuad,
      spv::Capability::SubgroupBallotKHR,
      spv::Capability::SubgroupVoteKHR,
      spv::Capability::VulkanMemoryModel,
      spv::Capability::VulkanMemoryModelDeviceScope,
      spv::Capability::ShaderNonUniform,
      spv::Capability::RuntimeDescriptorArray,
      spv::Capability::StorageBufferArrayDynamicIndexing,
      spv::Capability::UniformBufferArrayDynamicIndexing,
      spv::Capability::StorageBufferArrayNonUniformIndexing,
      spv::Capability::UniformBufferArrayNonUniformIndexing,
      spv::Capability::SampledImageArrayDynamicIndexing,
      spv::Capability::SampledImageArrayNonUniformIndexing,
      spv::Capability::StorageImageArrayDynamicIndexing,
      spv::Capability::StorageImageArrayNonUniformIndexing,
      spv::Capability::StorageImageReadWithoutFormat,
      spv::Capability::StorageImageWriteWithoutFormat,
      spv::Capability::ImageQuery,
      spv::Capability::DerivativeControl,
      spv::Capability::Geometry,  // gl_PrimitiveID in fragment shaders
      spv::Capability::InputAttachment,
      spv::Capability::InputAttachmentArrayDynamicIndexing,
      spv::Capability::ImageCubeArray,
      spv::Capability::SampledCubeArray,
      spv::Capability::MinLod,
      spv::Capability::DemoteToHelperInvocation,
      spv::Capability::GroupNonUniformRotateKHR,
      static_cast<spv::Capability>(kQuadControlKHR),
      spv::Capability::StorageImageExtendedFormats,
      // Kernel modules (Linkage: a call to an imported function fails when decoded).
      spv::Capability::Addresses,
      spv::Capability::Kernel,
      spv::Capability::Linkage,
      spv::Capability::GenericPointer,
      spv::Capability::Vector16,
      spv::Capability::Float16Buffer,
  };
  return kSupported.count(c) > 0;
}

}  // namespace

Status Decoder::DecodeGlobals(uint32_t entry_function) {
  for (const auto& inst : context_.capabilities()) {
    const auto c = static_cast<spv::Capability>(inst.GetSingleWordInOperand(0));
    if (!SupportedCapability(c)) {
      return Unsupported(std::string("capability ") + spvtools::CapabilityToString(c) + " (" +
                         std::to_string(static_cast<uint32_t>(c)) + ")");
    }
  }
  const auto* memory_model = context_.module()->GetMemoryModel();
  const auto addressing =
      static_cast<spv::AddressingModel>(memory_model ? memory_model->GetSingleWordInOperand(0) : 0);
  if (program_.kernel && addressing != spv::AddressingModel::Physical32 &&
      addressing != spv::AddressingModel::Physical64) {
    return Unsupported("addressing model of a Kernel module (only Physical32, Physical64)");
  }
  if (!program_.kernel && addressing != spv::AddressingModel::Logical) {
    return Unsupported("addressing model of a Shader module (only Logical)");
  }
  bool size_from_builtin = program_.local_size != std::array<uint32_t, 3>{1, 1, 1};
  for (const auto& inst : context_.module()->execution_modes()) {
    if (inst.GetSingleWordInOperand(0) != entry_function) continue;
    const uint32_t mode = inst.GetSingleWordInOperand(1);
    if (mode == uint32_t(spv::ExecutionMode::DenormFlushToZero)) {
      const uint32_t width = inst.GetSingleWordInOperand(2);
      (width == 64   ? program_.float_controls.flush_denormals_64
       : width == 32 ? program_.float_controls.flush_denormals_32
                     : program_.float_controls.flush_denormals_16) = true;
    } else if (mode == uint32_t(spv::ExecutionMode::RoundingModeRTZ)) {
      const uint32_t width = inst.GetSingleWordInOperand(2);
      (width == 64   ? program_.float_controls.toward_zero_64
       : width == 32 ? program_.float_controls.toward_zero_32
                     : program_.float_controls.toward_zero_16) = true;
    } else if (mode == kRequireFullQuadsKHR) {
      program_.require_full_quads = true;
    } else if (mode == uint32_t(spv::ExecutionMode::OriginLowerLeft) ||
               mode == uint32_t(spv::ExecutionMode::PixelCenterInteger)) {
      return Unsupported(std::string("execution mode ") +
                         (mode == uint32_t(spv::ExecutionMode::OriginLowerLeft)
                              ? "OriginLowerLeft"
                              : "PixelCenterInteger") +
                         " (Vulkan's origin is the upper left, pixel centres at .5)");
    } else if (mode == uint32_t(spv::ExecutionMode::LocalSize) && !size_from_builtin) {
      for (uint32_t i = 0; i < 3; ++i) program_.local_size[i] = inst.GetSingleWordInOperand(2 + i);
    } else if (mode == uint32_t(spv::ExecutionMode::LocalSizeId) && !size_from_builtin) {
      for (uint32_t i = 0; i < 3; ++i) {
        const auto* c =
            context_.get_constant_mgr()->FindDeclaredConstant(inst.GetSingleWordInOperand(2 + i));
        if (!c) return Unsupported("LocalSizeId operand");
        program_.local_size[i] = c->GetU32();
      }
    }
  }
  for (auto& inst : context_.types_values()) {
    if (inst.opcode() != spv::Op::OpVariable) continue;
    const uint32_t id = inst.result_id();
    const TypeInfo& pointer = program_.types[inst.type_id()];
    const auto storage = static_cast<spv::StorageClass>(pointer.storage_class);
    Global g;
    g.id = id;
    g.storage_class = pointer.storage_class;
    g.slot = NewSlots(id, 1);
    if (inst.NumInOperands() > 1) g.initializer = SlotOf(inst.GetSingleWordInOperand(1));
    const TypeInfo& pointee = program_.types[pointer.pointee];
    switch (storage) {
      case spv::StorageClass::StorageBuffer:
      case spv::StorageClass::Uniform:
      case spv::StorageClass::PushConstant: {
        Resource r;
        r.variable = id;
        r.push_constant = storage == spv::StorageClass::PushConstant;
        decorations.Has(id, uint32_t(spv::Decoration::DescriptorSet), &r.set);
        decorations.Has(id, uint32_t(spv::Decoration::Binding), &r.binding);
        uint32_t block = pointer.pointee;
        const bool arrayed =
            pointee.kind == TypeInfo::kArray || pointee.kind == TypeInfo::kRuntimeArray;
        if (arrayed) {
          block = pointee.element;
          r.count = pointee.length;  // 0 for a runtime array
        }
        if (program_.types[block].kind != TypeInfo::kStruct) {
          return Unsupported("buffer variable %" + std::to_string(id) + " of non-struct type");
        }
        r.storage = storage == spv::StorageClass::StorageBuffer ||
                    decorations.Has(block, uint32_t(spv::Decoration::BufferBlock));
        r.layout = LayoutOf(block);
        g.layout = r.layout;
        if (arrayed) {
          Layout descriptors;
          descriptors.type = pointer.pointee;
          descriptors.element = r.layout;
          descriptors.descriptors = r.count ? r.count : kNone;
          program_.layouts.push_back(descriptors);
          g.layout = static_cast<uint32_t>(program_.layouts.size() - 1);
        }
        g.resource = static_cast<uint32_t>(program_.resources.size());
        program_.resources.push_back(r);
        break;
      }
      case spv::StorageClass::Workgroup:
        g.layout = LayoutOf(pointer.pointee);
        g.offset = program_.workgroup_bytes;
        program_.workgroup_bytes += (program_.layouts[g.layout].size + 15) & ~15u;
        break;
      case spv::StorageClass::UniformConstant:
        if (!program_.kernel) {
          Status image = DecodeImageResource(id, pointer.pointee, &g);
          if (!image) return image;
          break;
        }
        if (pointee.kind == TypeInfo::kOpaque) {
          g.layout = LayoutOf(pointer.pointee);
          break;
        }
        // OpenCL program-scope constant data: one region, filled from the initializers.
        g.layout = LayoutOf(pointer.pointee);
        g.offset = (program_.constant_bytes + 15) & ~15u;
        program_.constant_bytes = g.offset + program_.layouts[g.layout].size;
        break;
      case spv::StorageClass::CrossWorkgroup:
        return Unsupported("module-scope CrossWorkgroup variable %" + std::to_string(id) +
                           " (program-scope global memory)");
      case spv::StorageClass::Private:
      case spv::StorageClass::Input:
      case spv::StorageClass::Output:
        g.layout = LayoutOf(pointer.pointee);
        g.offset = program_.invocation_bytes;
        program_.invocation_bytes += (program_.layouts[g.layout].size + 7) & ~7u;
        decorations.Has(id, uint32_t(spv::Decoration::BuiltIn), &g.builtin);
        if (storage != spv::StorageClass::Private && g.builtin == kNone) {
          if (!program_.fragment) {
            if (storage == spv::StorageClass::Output) break;
            return Unsupported("Input variable %" + std::to_string(id) + " that is not a built-in");
          }
          Status located = DecodeLocation(id, pointer.pointee, &g);
          if (!located) return located;
        }
        break;
      default:
        // Images, samplers and the like: a pointer nothing can load through.
        g.layout = LayoutOf(pointer.pointee);
        break;
    }
    id_layout[id] = g.layout;
    program_.globals.push_back(g);
  }
  return Ok{};
}

Status Decoder::DecodeLocation(uint32_t id, uint32_t type, Global* g) {
  const TypeInfo& t = program_.types[type];
  const bool scalar_or_vector = t.kind == TypeInfo::kFloat || t.kind == TypeInfo::kInt ||
                                (t.kind == TypeInfo::kVector && t.comps <= 4);
  if (!scalar_or_vector || (t.scalar == ScalarKind::kFloat && t.width != 32) ||
      (t.scalar == ScalarKind::kInt && t.width != 32)) {
    return Unsupported("fragment interface variable %" + std::to_string(id) +
                       " (only 32-bit scalars and vectors)");
  }
  if (!decorations.Has(id, uint32_t(spv::Decoration::Location), &g->location)) {
    return Unsupported("fragment interface variable %" + std::to_string(id) +
                       " without a Location");
  }
  decorations.Has(id, uint32_t(spv::Decoration::Component), &g->component);
  if (g->component + t.comps > 4) {
    return Unsupported("fragment interface variable %" + std::to_string(id) +
                       " beyond component 3");
  }
  return Ok{};
}

Status Decoder::DecodeImageResource(uint32_t id, uint32_t type, Global* g) {
  const TypeInfo& pointee = program_.types[type];
  const bool arrayed = pointee.kind == TypeInfo::kArray || pointee.kind == TypeInfo::kRuntimeArray;
  const uint32_t element = arrayed ? pointee.element : type;
  g->layout = LayoutOf(type);
  if (program_.types[element].kind != TypeInfo::kOpaque || program_.types[element].comps != 1) {
    return Ok{};  // acceleration structures and the like: nothing can load them
  }
  const auto* def = context_.get_def_use_mgr()->GetDef(element);
  Resource r;
  r.variable = id;
  decorations.Has(id, uint32_t(spv::Decoration::DescriptorSet), &r.set);
  decorations.Has(id, uint32_t(spv::Decoration::Binding), &r.binding);
  r.image = def->opcode() != spv::Op::OpTypeSampler;
  r.sampler = def->opcode() != spv::Op::OpTypeImage;
  const auto* image = def->opcode() == spv::Op::OpTypeSampledImage
                          ? context_.get_def_use_mgr()->GetDef(def->GetSingleWordInOperand(0))
                          : def;
  if (image->opcode() == spv::Op::OpTypeImage) {
    const auto dim = static_cast<spv::Dim>(image->GetSingleWordInOperand(1));
    r.image_shape = static_cast<uint8_t>(dim == spv::Dim::Dim3D  ? Image::Shape::k3D
                                         : dim == spv::Dim::Cube ? Image::Shape::kCube
                                                                 : Image::Shape::k2D);
    r.subpass = dim == spv::Dim::SubpassData;
    r.image_arrayed = image->GetSingleWordInOperand(3) != 0;
    r.image_integer = program_.types[image->GetSingleWordInOperand(0)].scalar == ScalarKind::kInt;
    r.storage = image->GetSingleWordInOperand(5) == 2;  // Sampled 2: a storage image
  }
  r.layout = LayoutOf(element);
  if (arrayed) {
    r.count = pointee.length;
    Layout descriptors;
    descriptors.type = type;
    descriptors.element = r.layout;
    descriptors.descriptors = r.count ? r.count : kNone;
    program_.layouts.push_back(descriptors);
    g->layout = static_cast<uint32_t>(program_.layouts.size() - 1);
  }
  g->resource = static_cast<uint32_t>(program_.resources.size());
  program_.resources.push_back(r);
  return Ok{};
}

}  // namespace sim
}  // namespace spirv_conv
