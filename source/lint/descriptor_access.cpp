// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lint/descriptor_access.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "source/opcode.h"

namespace spirv_conv {
namespace lint {

using spvtools::opt::Instruction;

namespace {

// A descriptor array variable: how many array dimensions select a
// descriptor, and whether its elements are opaque handles (images,
// samplers, acceleration structures) or buffer blocks.
struct DescriptorArray {
  uint32_t depth = 0;
  bool opaque = false;
};

std::optional<DescriptorArray> AsDescriptorArray(const analysis::ModuleIndex& index,
                                                 const Instruction& variable) {
  const auto storage = static_cast<spv::StorageClass>(variable.GetSingleWordInOperand(0));
  if (storage != spv::StorageClass::UniformConstant && storage != spv::StorageClass::Uniform &&
      storage != spv::StorageClass::StorageBuffer) {
    return std::nullopt;
  }
  const Instruction* pointer = index.Def(variable.type_id());
  if (pointer == nullptr || pointer->opcode() != spv::Op::OpTypePointer) return std::nullopt;
  const Instruction* type = index.Def(pointer->GetSingleWordInOperand(1));
  DescriptorArray array;
  while (type != nullptr && (type->opcode() == spv::Op::OpTypeArray ||
                             type->opcode() == spv::Op::OpTypeRuntimeArray)) {
    ++array.depth;
    type = index.Def(type->GetSingleWordInOperand(0));
  }
  if (array.depth == 0 || type == nullptr) return std::nullopt;
  switch (type->opcode()) {
    case spv::Op::OpTypeImage:
    case spv::Op::OpTypeSampler:
    case spv::Op::OpTypeSampledImage:
    case spv::Op::OpTypeAccelerationStructureKHR:
      array.opaque = true;
      return array;
    case spv::Op::OpTypeStruct:
      if (index.HasDecoration(type->result_id(), spv::Decoration::Block) ||
          index.HasDecoration(type->result_id(), spv::Decoration::BufferBlock)) {
        return array;
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
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
  Tracer(const LintContext& lint, const Instruction& variable, bool opaque,
         std::unordered_map<uint32_t, ResourceOperand>* found)
      : lint_(lint), variable_(variable), opaque_(opaque), found_(found) {}

  // |chain| indexes the variable (or a pointer still to an array of
  // descriptors, |depth| dimensions left).
  void Chain(const Instruction& chain, uint32_t depth, Index index) {
    const uint32_t selectors = std::min(depth, chain.NumInOperands() - 1);
    for (uint32_t k = 1; k <= selectors; ++k) {
      const Uniformity level = lint_.levels.UseLevel(chain, k);
      if (index.chain == nullptr || level > index.level) index = {&chain, k, level};
    }
    Follow(chain.result_id(), depth - selectors, index);
  }

 private:
  void Follow(uint32_t id, uint32_t depth, const Index& index) {
    if (!visited_.insert(id).second) return;
    for (const UseTable::Use& use : lint_.uses.UsesOf(id))
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
      case spv::Op::OpPtrAccessChain:
      case spv::Op::OpInBoundsPtrAccessChain:
      case spv::Op::OpCopyObject:
      case spv::Op::OpPhi:
      case spv::Op::OpSelect:
      case spv::Op::OpSampledImage:
      case spv::Op::OpImage:
      case spv::Op::OpImageTexelPointer:
        if (op == spv::Op::OpSelect && in == 0) return;  // the condition
        Follow(user.result_id(), depth, index);
        return;
      case spv::Op::OpLoad:
        if (depth > 0) return;  // a whole array of descriptors
        if (opaque_) {
          Follow(user.result_id(), 0, index);  // the loaded handle
        } else {
          Record(user, in, index);
        }
        return;
      case spv::Op::OpStore:
      case spv::Op::OpArrayLength:
        if (in == 0 && depth == 0) Record(user, in, index);
        return;
      case spv::Op::OpCopyMemory:
      case spv::Op::OpCopyMemorySized:
        if (in <= 1 && depth == 0) Record(user, in, index);
        return;
      case spv::Op::OpRayQueryInitializeKHR:
        if (in == 1) Record(user, in, index);
        return;
      case spv::Op::OpTraceRayKHR:
      case spv::Op::OpTraceNV:
        if (in == 0) Record(user, in, index);
        return;
      case spv::Op::OpFunctionCall:
        if (in >= 1) Parameter(user, in, depth, index);
        return;
      default:
        break;
    }
    if (depth > 0 || in != 0) return;
    // Atomics (also through an image texel pointer) and image instructions
    // take the resource as their first in-operand.
    if (spvOpcodeIsAtomicOp(op) || std::string(spvOpcodeString(op)).rfind("Image", 0) == 0) {
      Record(user, in, index);
    }
  }

  // The callee's parameter for argument |in| of |call|.
  void Parameter(const Instruction& call, uint32_t in, uint32_t depth, const Index& index) {
    auto* callee = lint_.ir.GetFunction(call.GetSingleWordInOperand(0));
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
      resource = {&user, in, id, &variable_, index.chain, index.operand, index.level};
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

  size_t Position(const Instruction& inst) const { return lint_.blocks.Position(inst); }

  const LintContext& lint_;
  const Instruction& variable_;
  bool opaque_;
  std::unordered_map<uint32_t, ResourceOperand>* found_;
  std::set<uint32_t> visited_;
};

}  // namespace

std::vector<ResourceOperand> FindResourceOperands(const LintContext& lint) {
  std::unordered_map<uint32_t, ResourceOperand> found;
  for (const Instruction& variable : lint.ir.module()->types_values()) {
    if (variable.opcode() != spv::Op::OpVariable) continue;
    const std::optional<DescriptorArray> array = AsDescriptorArray(lint.index, variable);
    if (!array) continue;
    for (const UseTable::Use& use : lint.uses.UsesOf(variable.result_id())) {
      const Instruction* user = use.user;
      if ((user->opcode() == spv::Op::OpAccessChain ||
           user->opcode() == spv::Op::OpInBoundsAccessChain) &&
          use.operand == 0) {
        Tracer(lint, variable, array->opaque, &found).Chain(*user, array->depth, {});
      }
    }
  }
  std::vector<ResourceOperand> result;
  for (auto& entry : found) result.push_back(entry.second);
  std::sort(result.begin(), result.end(), [&](const ResourceOperand& a, const ResourceOperand& b) {
    return lint.blocks.Position(*a.user) < lint.blocks.Position(*b.user);
  });
  return result;
}

bool IsDecoratedNonUniform(const LintContext& lint, uint32_t id) {
  return lint.index.HasDecoration(id, spv::Decoration::NonUniform);
}

std::string OperandRole(const LintContext& lint, const ResourceOperand& resource) {
  const Instruction* def = lint.index.Def(resource.id);
  const Instruction* type = def == nullptr ? nullptr : lint.index.Def(def->type_id());
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

}  // namespace lint
}  // namespace spirv_conv
