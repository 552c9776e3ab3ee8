// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "features.h"

#include <cstddef>
#include <cstring>

namespace vk_runner {
namespace {

struct FeatureEntry {
  const char* name;
  FeatureGroup group;
  size_t offset;  // of the VkBool32 member in the group's structure
};

using IndexingFeatures = VkPhysicalDeviceDescriptorIndexingFeatures;

#define VK_RUNNER_CORE(member) \
  { #member, FeatureGroup::kCore, offsetof(VkPhysicalDeviceFeatures, member) }
#define VK_RUNNER_INDEXING(member) \
  { #member, FeatureGroup::kDescriptorIndexing, offsetof(IndexingFeatures, member) }

// The core features shaders under test plausibly need, and every descriptor
// indexing feature (the point of these tests).
const FeatureEntry kFeatures[] = {
    VK_RUNNER_CORE(robustBufferAccess),
    VK_RUNNER_CORE(fragmentStoresAndAtomics),
    VK_RUNNER_CORE(vertexPipelineStoresAndAtomics),
    VK_RUNNER_CORE(shaderImageGatherExtended),
    VK_RUNNER_CORE(shaderStorageImageExtendedFormats),
    VK_RUNNER_CORE(shaderStorageImageReadWithoutFormat),
    VK_RUNNER_CORE(shaderStorageImageWriteWithoutFormat),
    VK_RUNNER_CORE(shaderUniformBufferArrayDynamicIndexing),
    VK_RUNNER_CORE(shaderSampledImageArrayDynamicIndexing),
    VK_RUNNER_CORE(shaderStorageBufferArrayDynamicIndexing),
    VK_RUNNER_CORE(shaderStorageImageArrayDynamicIndexing),
    VK_RUNNER_CORE(shaderFloat64),
    VK_RUNNER_CORE(shaderInt64),
    VK_RUNNER_CORE(shaderInt16),
    VK_RUNNER_INDEXING(shaderInputAttachmentArrayDynamicIndexing),
    VK_RUNNER_INDEXING(shaderUniformTexelBufferArrayDynamicIndexing),
    VK_RUNNER_INDEXING(shaderStorageTexelBufferArrayDynamicIndexing),
    VK_RUNNER_INDEXING(shaderUniformBufferArrayNonUniformIndexing),
    VK_RUNNER_INDEXING(shaderSampledImageArrayNonUniformIndexing),
    VK_RUNNER_INDEXING(shaderStorageBufferArrayNonUniformIndexing),
    VK_RUNNER_INDEXING(shaderStorageImageArrayNonUniformIndexing),
    VK_RUNNER_INDEXING(shaderInputAttachmentArrayNonUniformIndexing),
    VK_RUNNER_INDEXING(shaderUniformTexelBufferArrayNonUniformIndexing),
    VK_RUNNER_INDEXING(shaderStorageTexelBufferArrayNonUniformIndexing),
    VK_RUNNER_INDEXING(descriptorBindingUniformBufferUpdateAfterBind),
    VK_RUNNER_INDEXING(descriptorBindingSampledImageUpdateAfterBind),
    VK_RUNNER_INDEXING(descriptorBindingStorageImageUpdateAfterBind),
    VK_RUNNER_INDEXING(descriptorBindingStorageBufferUpdateAfterBind),
    VK_RUNNER_INDEXING(descriptorBindingUniformTexelBufferUpdateAfterBind),
    VK_RUNNER_INDEXING(descriptorBindingStorageTexelBufferUpdateAfterBind),
    VK_RUNNER_INDEXING(descriptorBindingUpdateUnusedWhilePending),
    VK_RUNNER_INDEXING(descriptorBindingPartiallyBound),
    VK_RUNNER_INDEXING(descriptorBindingVariableDescriptorCount),
    VK_RUNNER_INDEXING(runtimeDescriptorArray),
};

#undef VK_RUNNER_CORE
#undef VK_RUNNER_INDEXING

const FeatureEntry* Find(const std::string& name) {
  for (const FeatureEntry& entry : kFeatures) {
    if (name == entry.name) return &entry;
  }
  return nullptr;
}

}  // namespace

bool LookUpFeature(const std::string& name, FeatureGroup* group) {
  const FeatureEntry* entry = Find(name);
  if (entry && group) *group = entry->group;
  return entry != nullptr;
}

VkBool32& FeatureMember(FeatureSet& set, const std::string& name) {
  const FeatureEntry* entry = Find(name);
  // Both structures consist of VkBool32 members (after sType/pNext for the
  // second), so the member is addressed by its offset.
  char* base = entry->group == FeatureGroup::kCore
                   ? reinterpret_cast<char*>(&set.core)
                   : reinterpret_cast<char*>(&set.descriptor_indexing);
  return *reinterpret_cast<VkBool32*>(base + entry->offset);
}

std::vector<std::string> KnownFeatureNames() {
  std::vector<std::string> names;
  for (const FeatureEntry& entry : kFeatures) names.emplace_back(entry.name);
  return names;
}

}  // namespace vk_runner
