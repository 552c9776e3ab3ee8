// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/descriptor_access.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "analysis/uniformity_sources.h"
#include "source/opcode.h"

namespace spirv_conv {
namespace analysis {

using spvtools::opt::Instruction;

namespace {

// A descriptor array variable: how many array dimensions select a
// descriptor, and whether its elements are opaque handles (images,
// samplers, acceleration structures) or buffer blocks.
struct DescriptorArray {
  uint32_t depth = 0;
  bool opaque = false;
  DescriptorClass descriptor_class = DescriptorClass::kStorageBuffer;
};

// The class of an image type's descriptors (Vulkan's "Image Descriptors"
// and texel buffers): by Dim and Sampled.
DescriptorClass ImageClass(const Instruction& image) {
  const auto dim = static_cast<spv::Dim>(image.GetSingleWordInOperand(1));
  const bool storage = IsStorageImageType(image);
  if (dim == spv::Dim::Buffer) {
    return storage ? DescriptorClass::kStorageTexelBuffer : DescriptorClass::kUniformTexelBuffer;
  }
  if (dim == spv::Dim::SubpassData) return DescriptorClass::kInputAttachment;
  return storage ? DescriptorClass::kStorageImage : DescriptorClass::kSampledImage;
}

bool IsOpaque(const Instruction& type) {
  switch (type.opcode()) {
    case spv::Op::OpTypeImage:
    case spv::Op::OpTypeSampler:
    case spv::Op::OpTypeSampledImage:
    case spv::Op::OpTypeAccelerationStructureKHR:
      return true;
    default:
      return false;
  }
}

// The class of the descriptors of the non-array type |element| in |storage|,
// or nothing when it is not a descriptor type.
std::optional<DescriptorClass> ElementClass(const ModuleIndex& index, const Instruction& element,
                                            spv::StorageClass storage) {
  switch (element.opcode()) {
    case spv::Op::OpTypeImage:
      return ImageClass(element);
    case spv::Op::OpTypeSampledImage: {
      // A combined image sampler: the image decides (samplerBuffer is a
      // uniform texel buffer).
      const Instruction* image = index.Def(element.GetSingleWordInOperand(0));
      return image != nullptr ? ImageClass(*image) : DescriptorClass::kSampledImage;
    }
    case spv::Op::OpTypeSampler:
      return DescriptorClass::kSampledImage;
    case spv::Op::OpTypeAccelerationStructureKHR:
      return DescriptorClass::kAccelerationStructure;
    case spv::Op::OpTypeStruct:
      if (index.HasDecoration(element.result_id(), spv::Decoration::Block)) {
        return storage == spv::StorageClass::StorageBuffer ? DescriptorClass::kStorageBuffer
                                                           : DescriptorClass::kUniformBuffer;
      }
      if (index.HasDecoration(element.result_id(), spv::Decoration::BufferBlock)) {
        return DescriptorClass::kStorageBuffer;
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// |type| as an array of descriptors in |storage|, or nothing.
std::optional<DescriptorArray> AsDescriptorArrayType(const ModuleIndex& index,
                                                     const Instruction* type,
                                                     spv::StorageClass storage) {
  if (storage != spv::StorageClass::UniformConstant && storage != spv::StorageClass::Uniform &&
      storage != spv::StorageClass::StorageBuffer) {
    return std::nullopt;
  }
  DescriptorArray array;
  while (type != nullptr && (type->opcode() == spv::Op::OpTypeArray ||
                             type->opcode() == spv::Op::OpTypeRuntimeArray)) {
    ++array.depth;
    type = index.Def(type->GetSingleWordInOperand(0));
  }
  if (array.depth == 0 || type == nullptr) return std::nullopt;
  const std::optional<DescriptorClass> element = ElementClass(index, *type, storage);
  if (!element) return std::nullopt;
  array.opaque = IsOpaque(*type);
  array.descriptor_class = *element;
  return array;
}

std::optional<DescriptorArray> AsDescriptorArray(const ModuleIndex& index,
                                                 const Instruction& variable) {
  const Instruction* pointer = index.Def(variable.type_id());
  if (pointer == nullptr || pointer->opcode() != spv::Op::OpTypePointer) return std::nullopt;
  return AsDescriptorArrayType(index, index.Def(pointer->GetSingleWordInOperand(1)),
                               static_cast<spv::StorageClass>(variable.GetSingleWordInOperand(0)));
}

// The index that selected a descriptor on the way to a use.
struct Index {
  const Instruction* chain = nullptr;
  uint32_t operand = 0;
  Uniformity level = Uniformity::kUniform;
};

// Follows pointers and handles from one descriptor array to the operands
// that access memory through them.
class Tracer {
 public:
  Tracer(const ModuleTables& tables, const UniformityInfo& info, const Instruction& variable,
         const DescriptorArray& array, std::unordered_map<uint32_t, ResourceOperand>* found)
      : tables_(tables), info_(info), variable_(variable), array_(array), found_(found) {}

  // Operand |in| of |user| is the descriptor array itself (|depth|
  // dimensions of descriptors).
  void Root(const Instruction& user, uint32_t in, uint32_t depth) { Use(user, in, depth, {}); }

  // |chain| indexes the variable (or a pointer still to an array of
  // descriptors, |depth| dimensions left).
  void Chain(const Instruction& chain, uint32_t depth, Index index) {
    const uint32_t selectors = std::min(depth, chain.NumInOperands() - 1);
    for (uint32_t k = 1; k <= selectors; ++k) {
      const Uniformity level = info_.UseLevel(chain, k);
      if (index.chain == nullptr || level > index.level) index = {&chain, k, level};
    }
    Follow(chain.result_id(), depth - selectors, index);
  }

 private:
  void Follow(uint32_t id, uint32_t depth, const Index& index) {
    if (!visited_.insert(id).second) return;
    for (const UseTable::Use& use : tables_.uses.UsesOf(id))
      Use(*use.user, use.operand, depth, index);
  }

  void Use(const Instruction& user, uint32_t in, uint32_t depth, const Index& index) {
    const spv::Op op = user.opcode();
    switch (op) {
      case spv::Op::OpAccessChain:
      case spv::Op::OpInBoundsAccessChain:
        if (in != 0) return;
        if (depth > 0) {
          Chain(user, depth, index);
        } else {
          Follow(user.result_id(), 0, index);
        }
        return;
      case spv::Op::OpFunctionCall:
        if (in >= 1) Parameter(user, in, depth, index);
        return;
      case spv::Op::OpLoad:
        if (depth > 0) return;  // a whole array of descriptors
        if (array_.opaque) {
          Follow(user.result_id(), 0, index);  // the loaded handle
          return;
        }
        break;
      default:
        if (DescriptorOperands(user).empty()) break;
        if (op == spv::Op::OpSelect && in == 0) return;  // the condition
        Follow(user.result_id(), depth, index);
        return;
    }
    if (depth == 0 && AccessesResource(tables_.index, user, in)) Record(user, in, index);
  }

  // The callee's parameter for argument |in| of |call|.
  void Parameter(const Instruction& call, uint32_t in, uint32_t depth, const Index& index) {
    auto* callee = tables_.ir.GetFunction(call.GetSingleWordInOperand(0));
    if (callee == nullptr) return;
    uint32_t i = 0;
    uint32_t parameter = 0;
    callee->ForEachParam([&](const Instruction* p) {
      if (++i == in) parameter = p->result_id();
    });
    if (parameter != 0) Follow(parameter, depth, index);
  }

  void Record(const Instruction& user, uint32_t in, const Index& index) {
    const uint32_t id = user.GetSingleWordInOperand(in);
    auto [it, added] = found_->try_emplace(id);
    ResourceOperand& resource = it->second;
    if (added) {
      resource = {&user,         in,         id, &variable_, array_.descriptor_class, index.chain,
                  index.operand, index.level};
      return;
    }
    if (Position(user) < Position(*resource.user)) {  // the first user in module order
      resource.user = &user;
      resource.operand = in;
    }
    if (index.level > resource.index_level) {
      resource.chain = index.chain;
      resource.index_operand = index.operand;
      resource.index_level = index.level;
    }
  }

  size_t Position(const Instruction& inst) const { return tables_.blocks.Position(inst); }

  const ModuleTables& tables_;
  const UniformityInfo& info_;
  const Instruction& variable_;
  const DescriptorArray& array_;
  std::unordered_map<uint32_t, ResourceOperand>* found_;
  std::set<uint32_t> visited_;
};

}  // namespace

std::vector<ResourceOperand> FindResourceOperands(const ModuleTables& tables,
                                                  const UniformityInfo& info) {
  std::unordered_map<uint32_t, ResourceOperand> found;
  for (const Instruction& variable : tables.ir.module()->types_values()) {
    if (variable.opcode() != spv::Op::OpVariable) continue;
    const std::optional<DescriptorArray> array = AsDescriptorArray(tables.index, variable);
    if (!array) continue;
    // Access chains on the array, and calls that pass the whole array to a
    // function that indexes it (GLSL `f(sampler2D t[4], int i)`).
    for (const UseTable::Use& use : tables.uses.UsesOf(variable.result_id())) {
      Tracer(tables, info, variable, *array, &found).Root(*use.user, use.operand, array->depth);
    }
  }
  std::vector<ResourceOperand> result;
  for (auto& entry : found) result.push_back(entry.second);
  std::sort(result.begin(), result.end(), [&](const ResourceOperand& a, const ResourceOperand& b) {
    return tables.blocks.Position(*a.user) < tables.blocks.Position(*b.user);
  });
  return result;
}

namespace {

// DescriptorOperands, and for a parameter the arguments of the calls.
std::vector<uint32_t> DescriptorSources(const ModuleTables& tables, const Instruction& inst) {
  if (inst.opcode() != spv::Op::OpFunctionParameter) return DescriptorOperands(inst);
  std::vector<uint32_t> sources;
  for (const spvtools::opt::Function& function : *tables.ir.module()) {
    uint32_t position = 0;
    uint32_t found = 0;
    function.ForEachParam([&](const Instruction* parameter) {
      ++position;
      if (parameter == &inst) found = position;
    });
    if (found == 0) continue;
    for (const Instruction* call : tables.calls.CallsOf(function.result_id())) {
      sources.push_back(call->GetSingleWordInOperand(found));
    }
    break;
  }
  return sources;
}

}  // namespace

std::vector<uint32_t> DescriptorOperands(const Instruction& inst) {
  switch (inst.opcode()) {
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain:
    case spv::Op::OpCopyObject:
    case spv::Op::OpLoad:
    case spv::Op::OpImage:
    case spv::Op::OpImageTexelPointer:
      return {inst.GetSingleWordInOperand(0)};
    case spv::Op::OpSampledImage:  // the image and the sampler
      return {inst.GetSingleWordInOperand(0), inst.GetSingleWordInOperand(1)};
    case spv::Op::OpSelect:
      return {inst.GetSingleWordInOperand(1), inst.GetSingleWordInOperand(2)};
    case spv::Op::OpPhi: {
      std::vector<uint32_t> values;
      for (uint32_t k = 0; k < inst.NumInOperands(); k += 2) {
        values.push_back(inst.GetSingleWordInOperand(k));
      }
      return values;
    }
    default:
      return {};
  }
}

bool AccessesResource(const ModuleIndex& index, const Instruction& user, uint32_t in) {
  const spv::Op op = user.opcode();
  switch (op) {
    case spv::Op::OpLoad: {  // of buffer data, not of a handle
      const Instruction* type = index.Def(user.type_id());
      return in == 0 && type != nullptr && !IsOpaque(*type);
    }
    case spv::Op::OpStore:
    case spv::Op::OpArrayLength:
    case spv::Op::OpTraceRayKHR:
    case spv::Op::OpTraceNV:
      return in == 0;
    case spv::Op::OpCopyMemory:
    case spv::Op::OpCopyMemorySized:
      return in <= 1;
    case spv::Op::OpRayQueryInitializeKHR:
      return in == 1;
    default:
      break;
  }
  if (in != 0 || !DescriptorOperands(user).empty()) return false;
  // Atomics (also through an image texel pointer) and image instructions
  // take the resource as their first in-operand.
  return spvOpcodeIsAtomicOp(op) || std::string(spvOpcodeString(op)).rfind("Image", 0) == 0;
}

bool IsDescriptorArrayType(const ModuleIndex& index, const Instruction* type,
                           spv::StorageClass storage) {
  return AsDescriptorArrayType(index, type, storage).has_value();
}

std::vector<uint32_t> DescriptorValues(const ModuleTables& tables,
                                       const ResourceOperand& resource) {
  // Every value |resource|.id may come from, backwards...
  std::vector<uint32_t> closure{resource.id};
  std::set<uint32_t> queued{resource.id};
  std::unordered_map<uint32_t, std::vector<uint32_t>> sources_of;
  for (size_t i = 0; i < closure.size(); ++i) {
    const Instruction* def = tables.index.Def(closure[i]);
    if (def == nullptr || def == resource.variable) continue;
    std::vector<uint32_t>& sources = sources_of[closure[i]] = DescriptorSources(tables, *def);
    for (uint32_t source : sources) {
      if (queued.insert(source).second) closure.push_back(source);
    }
  }
  // ...and of those, the ones the descriptor array reaches (a fixed point:
  // phis may form cycles).
  std::set<uint32_t> reached{resource.variable->result_id()};
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [id, sources] : sources_of) {
      if (reached.count(id)) continue;
      for (uint32_t source : sources) {
        if (reached.count(source)) {
          reached.insert(id);
          changed = true;
          break;
        }
      }
    }
  }
  // Values that still carry the whole array (the variable, a parameter it is
  // passed to) come before the selection of the descriptor: not ours.
  std::vector<uint32_t> values;
  for (uint32_t id : reached) {
    const Instruction* def = tables.index.Def(id);
    if (def->type_id() != resource.variable->type_id()) values.push_back(id);
  }
  std::sort(values.begin(), values.end(), [&](uint32_t a, uint32_t b) {
    return tables.blocks.Position(*tables.index.Def(a)) <
           tables.blocks.Position(*tables.index.Def(b));
  });
  return values;
}

std::optional<DescriptorClass> DescriptorArrayClass(const ModuleIndex& index,
                                                    const Instruction& variable) {
  const std::optional<DescriptorArray> array = AsDescriptorArray(index, variable);
  if (!array) return std::nullopt;
  return array->descriptor_class;
}

bool IsDecoratedNonUniform(const ModuleIndex& index, uint32_t id) {
  return index.HasDecoration(id, spv::Decoration::NonUniform);
}

std::string OperandRole(const ModuleIndex& index, const ResourceOperand& resource) {
  const Instruction* def = index.Def(resource.id);
  const Instruction* type = def == nullptr ? nullptr : index.Def(def->type_id());
  if (type == nullptr) return "resource";
  switch (type->opcode()) {
    case spv::Op::OpTypeSampledImage:
      return "sampled image";
    case spv::Op::OpTypeImage:
      return "image";
    case spv::Op::OpTypeSampler:
      return "sampler";
    case spv::Op::OpTypeAccelerationStructureKHR:
      return "acceleration structure";
    case spv::Op::OpTypePointer:
      return def->opcode() == spv::Op::OpImageTexelPointer ? "texel pointer" : "pointer";
    default:
      return "resource";
  }
}

}  // namespace analysis
}  // namespace spirv_conv
