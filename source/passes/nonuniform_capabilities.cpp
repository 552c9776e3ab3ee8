// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/nonuniform_capabilities.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/descriptor_access.h"
#include "analysis/module_index.h"
#include "passes/change_log.h"

namespace spirv_conv {
namespace passes {
namespace {

using spvtools::opt::Instruction;
using spvtools::opt::IRContext;

constexpr const char* kExtension = "SPV_EXT_descriptor_indexing";

// The ArrayNonUniformIndexing capability of a class (none for acceleration
// structures, whose non-uniform indexing needs no capability of its own).
std::optional<spv::Capability> NonUniformCapability(DescriptorClass c) {
  switch (c) {
    case DescriptorClass::kUniformBuffer:
      return spv::Capability::UniformBufferArrayNonUniformIndexing;
    case DescriptorClass::kStorageBuffer:
      return spv::Capability::StorageBufferArrayNonUniformIndexing;
    case DescriptorClass::kSampledImage:
      return spv::Capability::SampledImageArrayNonUniformIndexing;
    case DescriptorClass::kStorageImage:
      return spv::Capability::StorageImageArrayNonUniformIndexing;
    case DescriptorClass::kUniformTexelBuffer:
      return spv::Capability::UniformTexelBufferArrayNonUniformIndexing;
    case DescriptorClass::kStorageTexelBuffer:
      return spv::Capability::StorageTexelBufferArrayNonUniformIndexing;
    case DescriptorClass::kInputAttachment:
      return spv::Capability::InputAttachmentArrayNonUniformIndexing;
    case DescriptorClass::kAccelerationStructure:
      return std::nullopt;
  }
  return std::nullopt;
}

// The capabilities SPV_EXT_descriptor_indexing introduced.
bool FromDescriptorIndexing(spv::Capability capability) {
  switch (capability) {
    case spv::Capability::ShaderNonUniform:
    case spv::Capability::RuntimeDescriptorArray:
    case spv::Capability::InputAttachmentArrayDynamicIndexing:
    case spv::Capability::UniformTexelBufferArrayDynamicIndexing:
    case spv::Capability::StorageTexelBufferArrayDynamicIndexing:
      return true;
    default:
      for (size_t c = 0; c < kDescriptorClassCount; ++c) {
        if (NonUniformCapability(static_cast<DescriptorClass>(c)) == capability) return true;
      }
      return false;
  }
}

std::string CapabilityName(spv::Capability capability) {
  switch (capability) {
    case spv::Capability::ShaderNonUniform:
      return "ShaderNonUniform";
    case spv::Capability::UniformBufferArrayNonUniformIndexing:
      return "UniformBufferArrayNonUniformIndexing";
    case spv::Capability::StorageBufferArrayNonUniformIndexing:
      return "StorageBufferArrayNonUniformIndexing";
    case spv::Capability::SampledImageArrayNonUniformIndexing:
      return "SampledImageArrayNonUniformIndexing";
    case spv::Capability::StorageImageArrayNonUniformIndexing:
      return "StorageImageArrayNonUniformIndexing";
    case spv::Capability::UniformTexelBufferArrayNonUniformIndexing:
      return "UniformTexelBufferArrayNonUniformIndexing";
    case spv::Capability::StorageTexelBufferArrayNonUniformIndexing:
      return "StorageTexelBufferArrayNonUniformIndexing";
    case spv::Capability::InputAttachmentArrayNonUniformIndexing:
      return "InputAttachmentArrayNonUniformIndexing";
    default:
      return "capability " + std::to_string(static_cast<uint32_t>(capability));
  }
}

// SPIR-V 1.5 made the extension core.
bool NeedsExtension(const IRContext& context) { return context.module()->version() < 0x00010500; }

bool HasExtension(IRContext* context) {
  for (const Instruction& extension : context->module()->extensions()) {
    if (extension.GetInOperand(0).AsString() == kExtension) return true;
  }
  return false;
}

// The class of the descriptor array a NonUniform value |id| comes from,
// following its definition's first operand (access chains, loads, images,
// texel pointers, copies, the image of a sampled image, a phi's first
// value), or nothing when it is not a descriptor value.
std::optional<DescriptorClass> ClassOfValue(const analysis::ModuleIndex& index, uint32_t id) {
  const Instruction* inst = index.Def(id);
  for (int depth = 0; inst != nullptr && depth < 64; ++depth) {
    if (inst->opcode() == spv::Op::OpVariable) return analysis::DescriptorArrayClass(index, *inst);
    const std::vector<uint32_t> sources = analysis::DescriptorOperands(*inst);
    if (sources.empty()) return std::nullopt;
    inst = index.Def(sources[0]);  // the image of a sampled image decides
  }
  return std::nullopt;
}

}  // namespace

bool AddNonUniformCapabilities(IRContext* context, DescriptorClassSet classes, const char* pass,
                               ChangeLog* log) {
  bool changed = false;
  auto add = [&](spv::Capability capability) {
    if (context->get_feature_mgr()->HasCapability(capability)) return;
    context->AddCapability(capability);
    RecordChange(log, pass, "add-capability", context, nullptr, CapabilityName(capability));
    changed = true;
  };
  add(spv::Capability::ShaderNonUniform);
  for (size_t c = 0; c < kDescriptorClassCount; ++c) {
    if (!classes.test(c)) continue;
    if (auto capability = NonUniformCapability(static_cast<DescriptorClass>(c))) add(*capability);
  }
  if (NeedsExtension(*context) && !HasExtension(context)) {
    context->AddExtension(kExtension);
    RecordChange(log, pass, "add-extension", context, nullptr, kExtension);
    changed = true;
  }
  return changed;
}

bool PruneNonUniformCapabilities(IRContext* context, const char* pass, ChangeLog* log) {
  // What the NonUniform decorations left in the module still need.
  const analysis::ModuleIndex index(context);
  bool any_decoration = false;
  DescriptorClassSet used;
  for (const Instruction& annotation : context->module()->annotations()) {
    if (annotation.opcode() != spv::Op::OpDecorate ||
        static_cast<spv::Decoration>(annotation.GetSingleWordInOperand(1)) !=
            spv::Decoration::NonUniform) {
      continue;
    }
    any_decoration = true;
    if (auto c = ClassOfValue(index, annotation.GetSingleWordInOperand(0))) used.set(Bit(*c));
  }
  std::vector<Instruction*> dead;
  bool extension_needed = false;
  for (Instruction& capability_inst : context->module()->capabilities()) {
    const auto capability = static_cast<spv::Capability>(capability_inst.GetSingleWordInOperand(0));
    bool needed = true;
    if (capability == spv::Capability::ShaderNonUniform) {
      needed = any_decoration;
    } else {
      for (size_t c = 0; c < kDescriptorClassCount; ++c) {
        if (NonUniformCapability(static_cast<DescriptorClass>(c)) == capability) {
          needed = used.test(c);
        }
      }
    }
    if (!needed) {
      dead.push_back(&capability_inst);
    } else if (FromDescriptorIndexing(capability)) {
      extension_needed = true;
    }
  }
  for (Instruction* capability_inst : dead) {
    RecordChange(
        log, pass, "remove-capability", context, nullptr,
        CapabilityName(static_cast<spv::Capability>(capability_inst->GetSingleWordInOperand(0))));
    context->KillInst(capability_inst);
  }
  bool changed = !dead.empty();
  if (!extension_needed && NeedsExtension(*context)) {
    std::vector<Instruction*> extensions;
    for (Instruction& extension : context->module()->extensions()) {
      if (extension.GetInOperand(0).AsString() == kExtension) extensions.push_back(&extension);
    }
    for (Instruction* extension : extensions) {
      RecordChange(log, pass, "remove-extension", context, nullptr, kExtension);
      context->KillInst(extension);
      changed = true;
    }
  }
  if (changed) context->ResetFeatureManager();
  return changed;
}

}  // namespace passes
}  // namespace spirv_conv
