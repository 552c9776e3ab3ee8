// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "interface.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <utility>

namespace vk_runner {
namespace {

// The few SPIR-V enumerants read here (SPIR-V specification, section 3);
// spelled out so vk_runner needs no SPIR-V headers.
enum Opcode : uint32_t {
  kOpEntryPoint = 15,
  kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpTypeVector = 23,
  kOpTypeMatrix = 24,
  kOpTypeImage = 25,
  kOpTypeSampler = 26,
  kOpTypeSampledImage = 27,
  kOpTypeArray = 28,
  kOpTypeRuntimeArray = 29,
  kOpTypeStruct = 30,
  kOpTypePointer = 32,
  kOpConstant = 43,
  kOpSpecConstant = 50,
  kOpVariable = 59,
  kOpDecorate = 71,
  kOpMemberDecorate = 72,
};
enum Decoration : uint32_t {
  kBufferBlock = 3,
  kRowMajor = 4,
  kArrayStride = 6,
  kMatrixStride = 7,
  kBuiltIn = 11,
  kLocation = 30,
  kBinding = 33,
  kDescriptorSet = 34,
  kOffset = 35,
};
enum StorageClass : uint32_t {
  kUniformConstant = 0,
  kInput = 1,
  kUniform = 2,
  kOutput = 3,
  kPushConstant = 9,
  kStorageBuffer = 12,
};
enum ExecutionModel : uint32_t { kVertex = 0, kFragment = 4, kGLCompute = 5 };
enum SpvImageFormat : uint32_t { kFormatUnknown = 0, kFormatR32f = 3, kFormatRgba8 = 4 };
constexpr uint32_t kDim2D = 1;
constexpr uint64_t kSizeCap = uint64_t{1} << 40;  // sizes saturate here instead of overflowing

struct Type {
  uint32_t opcode = 0;
  std::vector<uint32_t> operands;  // the words after the result id
  uint64_t size = 0;               // bytes in an explicitly laid-out block
  uint64_t length = 0;             // OpTypeArray: the element count (0 when not a constant)
};

struct Variable {
  uint32_t id = 0;
  uint32_t pointer_type = 0;
  uint32_t storage_class = 0;
};

using Decorations = std::map<uint32_t, uint32_t>;  // decoration -> first literal (or 0)

class Module {
 public:
  explicit Module(const std::vector<uint32_t>& words) {
    size_t at = 5;  // after the header
    while (at < words.size()) {
      const uint32_t count = words[at] >> 16;
      const uint32_t opcode = words[at] & 0xffff;
      if (count == 0 || at + count > words.size()) {
        throw JobError("the SPIR-V module is malformed (instruction at word " + std::to_string(at) +
                       ")");
      }
      Read(opcode, std::vector<uint32_t>(words.begin() + at + 1, words.begin() + at + count));
      at += count;
    }
  }

  std::vector<std::pair<uint32_t, std::string>> entry_points;  // (model, name)
  std::vector<Variable> variables;

  const Type* FindType(uint32_t id) const {
    auto it = types_.find(id);
    return it == types_.end() ? nullptr : &it->second;
  }
  // The pointee type of pointer type |id|; 0 when |id| is not a known pointer type.
  uint32_t Pointee(uint32_t id) const {
    const Type* type = FindType(id);
    return type && type->opcode == kOpTypePointer && type->operands.size() >= 2 ? type->operands[1]
                                                                                : 0;
  }
  // The Location-decorated (not built-in) variables of |storage_class|, by location.
  std::map<uint32_t, const Variable*> Located(uint32_t storage_class) const {
    std::map<uint32_t, const Variable*> located;
    for (const Variable& variable : variables) {
      if (variable.storage_class == storage_class && Has(variable.id, kLocation) &&
          !Has(variable.id, kBuiltIn)) {
        located.emplace(Get(variable.id, kLocation), &variable);
      }
    }
    return located;
  }
  bool HasEntryPoint(uint32_t model, const std::string& name) const {
    for (const auto& [entry_model, entry_name] : entry_points) {
      if (entry_model == model && entry_name == name) return true;
    }
    return false;
  }
  bool Has(uint32_t id, uint32_t decoration) const {
    auto it = decorations_.find(id);
    return it != decorations_.end() && it->second.count(decoration);
  }
  uint32_t Get(uint32_t id, uint32_t decoration) const {
    return Has(id, decoration) ? decorations_.at(id).at(decoration) : 0;
  }

 private:
  static uint64_t Saturate(uint64_t value) { return std::min(value, kSizeCap); }

  static std::string LiteralString(const std::vector<uint32_t>& operands, size_t first) {
    std::string text;
    for (size_t i = first; i < operands.size(); ++i) {
      for (int byte = 0; byte < 4; ++byte) {
        char c = static_cast<char>((operands[i] >> (8 * byte)) & 0xff);
        if (c == '\0') return text;
        text += c;
      }
    }
    return text;
  }

  uint64_t SizeOf(uint32_t id) const {
    const Type* type = FindType(id);
    return type ? type->size : 0;
  }

  // A struct member's size: matrices by their MatrixStride and majorness.
  uint64_t MemberSize(uint32_t type_id, const Decorations& member) const {
    const Type* type = FindType(type_id);
    if (!type) return 0;
    if (type->opcode == kOpTypeMatrix && type->operands.size() >= 2 &&
        member.count(kMatrixStride)) {
      const Type* column = FindType(type->operands[0]);
      uint64_t rows = column && column->operands.size() >= 2 ? column->operands[1] : 0;
      uint64_t vectors = member.count(kRowMajor) ? rows : type->operands[1];
      return Saturate(vectors * member.at(kMatrixStride));
    }
    return type->size;
  }

  // Sizes are computed as types are declared: operands always name earlier
  // ids, and decorations come before types, so no recursion is needed.
  uint64_t ComputeSize(uint32_t id, const Type& type) const {
    const std::vector<uint32_t>& ops = type.operands;
    switch (type.opcode) {
      case kOpTypeInt:
      case kOpTypeFloat:
        return ops.empty() ? 0 : ops[0] / 8;
      case kOpTypeVector:
      case kOpTypeMatrix:
        return ops.size() < 2 ? 0 : Saturate(SizeOf(ops[0]) * ops[1]);
      case kOpTypeArray: {
        if (ops.empty()) return 0;
        uint64_t stride = Has(id, kArrayStride) ? Get(id, kArrayStride) : SizeOf(ops[0]);
        return Saturate(stride * type.length);
      }
      case kOpTypeStruct: {
        uint64_t size = 0;
        for (uint32_t member = 0; member < ops.size(); ++member) {
          auto decorations = member_decorations_.find({id, member});
          if (decorations == member_decorations_.end() || !decorations->second.count(kOffset)) {
            continue;  // not laid out explicitly: not a block
          }
          size = std::max(size, Saturate(decorations->second.at(kOffset) +
                                         MemberSize(ops[member], decorations->second)));
        }
        return size;
      }
      default:
        return 0;  // runtime arrays add nothing to the required size
    }
  }

  void Read(uint32_t opcode, const std::vector<uint32_t>& ops) {
    switch (opcode) {
      case kOpEntryPoint:
        if (ops.size() >= 3) entry_points.emplace_back(ops[0], LiteralString(ops, 2));
        break;
      case kOpDecorate:
        if (ops.size() >= 2) decorations_[ops[0]][ops[1]] = ops.size() >= 3 ? ops[2] : 0;
        break;
      case kOpMemberDecorate:
        if (ops.size() >= 3) {
          member_decorations_[{ops[0], ops[1]}][ops[2]] = ops.size() >= 4 ? ops[3] : 0;
        }
        break;
      case kOpConstant:
      case kOpSpecConstant:
        if (ops.size() >= 3) constants_[ops[1]] = ops[2];
        break;
      case kOpVariable:
        if (ops.size() >= 3) variables.push_back({ops[1], ops[0], ops[2]});
        break;
      case kOpTypeInt:
      case kOpTypeFloat:
      case kOpTypeVector:
      case kOpTypeMatrix:
      case kOpTypeImage:
      case kOpTypeSampler:
      case kOpTypeSampledImage:
      case kOpTypeArray:
      case kOpTypeRuntimeArray:
      case kOpTypeStruct:
      case kOpTypePointer:
        if (!ops.empty()) {
          Type type;
          type.opcode = opcode;
          type.operands.assign(ops.begin() + 1, ops.end());
          if (opcode == kOpTypeArray && type.operands.size() >= 2) {
            auto length = constants_.find(type.operands[1]);
            if (length != constants_.end()) type.length = length->second;
          }
          type.size = ComputeSize(ops[0], type);
          types_[ops[0]] = std::move(type);
        }
        break;
      default:
        break;
    }
  }

  std::map<uint32_t, Type> types_;
  std::map<uint32_t, uint32_t> constants_;
  std::map<uint32_t, Decorations> decorations_;
  std::map<std::pair<uint32_t, uint32_t>, Decorations> member_decorations_;
};

// What a resource variable needs from the job.
struct Need {
  DescriptorType type = DescriptorType::kStorageBuffer;
  uint64_t count = 1;   // descriptor array elements; 0 for a runtime array (any)
  uint64_t bytes = 0;   // buffers: the block's laid-out size
  uint32_t format = 0;  // storage images: the declared image format
};

std::string Describe(uint32_t set, uint32_t binding) {
  return "set " + std::to_string(set) + " binding " + std::to_string(binding);
}

// Checks an image type is one vk_runner can bind: 2D, not arrayed or
// multisampled, float texels (its formats are RGBA8 unorm and R32F).
void CheckImageType(const Module& module, const Type& image, const std::string& where) {
  const std::vector<uint32_t>& ops = image.operands;
  if (ops.size() < 7 || ops[1] != kDim2D || ops[3] != 0 || ops[4] != 0) {
    throw JobError(where + ": only 2D, non-arrayed, single-sample images are supported");
  }
  const Type* sampled = module.FindType(ops[0]);
  if (!sampled || sampled->opcode != kOpTypeFloat) {
    throw JobError(where + ": only float images are supported (the formats are RGBA8 and R32F)");
  }
}

// What the variable of |storage_class| whose pointee is |type_id| needs.
Need Classify(const Module& module, uint32_t storage_class, uint32_t type_id,
              const std::string& where) {
  Need need;
  const Type* type = module.FindType(type_id);
  // Arrays of descriptors (arrays of arrays flattened); the element type is the resource.
  while (type && (type->opcode == kOpTypeArray || type->opcode == kOpTypeRuntimeArray)) {
    if (type->opcode == kOpTypeRuntimeArray) {
      need.count = 0;
    } else if (need.count != 0) {
      need.count = std::min(need.count * std::max<uint64_t>(type->length, 1), kSizeCap);
    }
    type_id = type->operands.empty() ? 0 : type->operands[0];
    type = module.FindType(type_id);
  }
  if (!type) throw JobError(where + ": a type vk_runner cannot read");
  if (storage_class == kStorageBuffer || storage_class == kUniform) {
    if (type->opcode != kOpTypeStruct) throw JobError(where + ": a buffer that is not a block");
    // SPIR-V before 1.3 marks storage buffers as Uniform blocks decorated BufferBlock.
    const bool storage = storage_class == kStorageBuffer || module.Has(type_id, kBufferBlock);
    need.type = storage ? DescriptorType::kStorageBuffer : DescriptorType::kUniformBuffer;
    need.bytes = type->size;
    return need;
  }
  switch (type->opcode) {
    case kOpTypeSampler:
      need.type = DescriptorType::kSampler;
      break;
    case kOpTypeSampledImage: {
      const Type* image = type->operands.empty() ? nullptr : module.FindType(type->operands[0]);
      if (!image) throw JobError(where + ": a type vk_runner cannot read");
      CheckImageType(module, *image, where);
      need.type = DescriptorType::kCombinedImageSampler;
      break;
    }
    case kOpTypeImage:
      CheckImageType(module, *type, where);
      need.type =
          type->operands[5] == 2 ? DescriptorType::kStorageImage : DescriptorType::kSampledImage;
      need.format = type->operands[6];
      if (need.type == DescriptorType::kStorageImage && need.format != kFormatUnknown &&
          need.format != kFormatRgba8 && need.format != kFormatR32f) {
        throw JobError(where + ": storage image format " + std::to_string(need.format) +
                       " is not supported (rgba8, r32f)");
      }
      break;
    default:
      throw JobError(where + ": a descriptor type vk_runner does not support");
  }
  return need;
}

void CheckResource(const Module& module, const Variable& variable, const Job& job) {
  const uint32_t set = module.Get(variable.id, kDescriptorSet);
  const uint32_t binding_number = module.Get(variable.id, kBinding);
  const std::string where = "the shader's " + Describe(set, binding_number);
  const Need need =
      Classify(module, variable.storage_class, module.Pointee(variable.pointer_type), where);

  auto binding = std::find_if(job.bindings.begin(), job.bindings.end(), [&](const Binding& b) {
    return b.set == set && b.binding == binding_number;
  });
  if (binding == job.bindings.end()) {
    throw JobError(where + " (" + DescriptorTypeName(need.type) + ") is not bound by the job");
  }
  if (binding->type != need.type) {
    throw JobError(where + " is a " + DescriptorTypeName(need.type) + ", the job binds a " +
                   DescriptorTypeName(binding->type));
  }
  if (binding->elements.size() < need.count) {
    throw JobError(where + " is an array of " + std::to_string(need.count) + ", the job binds " +
                   std::to_string(binding->elements.size()));
  }
  for (size_t i = 0; i < binding->elements.size(); ++i) {
    const Element& element = binding->elements[i];
    const std::string at = where + " element " + std::to_string(i);
    if (element.words.size() * 4 < need.bytes) {
      throw JobError(at + ": the block needs " + std::to_string(need.bytes) +
                     " bytes, the job gives " + std::to_string(element.words.size() * 4));
    }
    if (need.type == DescriptorType::kStorageImage &&
        ((need.format == kFormatRgba8 && element.image.format != ImageFormat::kRgba8) ||
         (need.format == kFormatR32f && element.image.format != ImageFormat::kR32f))) {
      throw JobError(at + ": the job's image format differs from the shader's");
    }
  }
}

bool IsResource(uint32_t storage_class) {
  return storage_class == kUniformConstant || storage_class == kUniform ||
         storage_class == kStorageBuffer || storage_class == kPushConstant;
}

// The job's "vertex_spv" and "inputs" against the two modules: the vertex
// shader is a resource-free Vertex "main" writing every location the fragment
// shader reads, and each plane names a scalar or vector fragment input with as
// many components.
void CheckStages(const Module& fragment, const std::vector<uint32_t>& vertex_spirv,
                 const Job& job) {
  const std::map<uint32_t, const Variable*> inputs = fragment.Located(kInput);
  for (const InputPlane& plane : job.inputs) {
    const std::string where = "job.inputs: location " + std::to_string(plane.location);
    auto input = inputs.find(plane.location);
    if (input == inputs.end()) {
      throw JobError(where + ": the fragment shader has no input there");
    }
    const Type* type = fragment.FindType(fragment.Pointee(input->second->pointer_type));
    uint32_t components = 0;
    if (type && (type->opcode == kOpTypeInt || type->opcode == kOpTypeFloat)) {
      components = 1;
    } else if (type && type->opcode == kOpTypeVector && type->operands.size() >= 2) {
      components = type->operands[1];
    }
    if (components == 0) {
      throw JobError(where + ": only scalar and vector inputs take a plane");
    }
    if (plane.plane.size() != components) {
      throw JobError(where + ": the input has " + std::to_string(components) +
                     " components, the plane " + std::to_string(plane.plane.size()));
    }
  }
  if (job.vertex_spv_path.empty()) return;
  const Module vertex(vertex_spirv);
  if (!vertex.HasEntryPoint(kVertex, "main")) {
    throw JobError("the vertex shader '" + job.vertex_spv_path +
                   "' has no Vertex entry point 'main'");
  }
  for (const Variable& variable : vertex.variables) {
    if (IsResource(variable.storage_class)) {
      throw JobError(
          "the vertex shader declares resources (descriptors or push constants); "
          "vk_runner binds them for the fragment stage only");
    }
  }
  const std::map<uint32_t, const Variable*> outputs = vertex.Located(kOutput);
  for (const auto& [location, variable] : inputs) {
    if (!outputs.count(location)) {
      throw JobError("the vertex shader writes no output at location " + std::to_string(location) +
                     ", which the fragment shader reads");
    }
  }
}

}  // namespace

void CheckInterface(const std::vector<uint32_t>& spirv, const std::vector<uint32_t>& vertex_spirv,
                    const Job& job) {
  const Module module(spirv);

  const uint32_t model = job.mode == Mode::kCompute ? kGLCompute : kFragment;
  const char* stage = job.mode == Mode::kCompute ? "GLCompute" : "Fragment";
  bool found = false;
  std::string entries;
  for (const auto& [entry_model, name] : module.entry_points) {
    found = found || (entry_model == model && name == job.entry);
    entries +=
        (entries.empty() ? "" : ", ") + name + " (model " + std::to_string(entry_model) + ")";
  }
  if (!found) {
    throw JobError("the module has no " + std::string(stage) + " entry point '" + job.entry +
                   "' (it has: " + (entries.empty() ? "none" : entries) + ")");
  }

  for (const Variable& variable : module.variables) {
    switch (variable.storage_class) {
      case kUniformConstant:
      case kUniform:
      case kStorageBuffer:
        CheckResource(module, variable, job);
        break;
      case kPushConstant: {
        const Type* block = module.FindType(module.Pointee(variable.pointer_type));
        const uint64_t bytes = block ? block->size : 0;
        if (job.push_constants.size() * 4 < bytes) {
          throw JobError("the shader's push constants need " + std::to_string(bytes) +
                         " bytes, the job gives " + std::to_string(job.push_constants.size() * 4));
        }
        break;
      }
      default:
        break;
    }
  }
  if (job.mode == Mode::kRender) CheckStages(module, vertex_spirv, job);
}

}  // namespace vk_runner
