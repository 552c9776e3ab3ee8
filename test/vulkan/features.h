// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The device features a vk_runner job may ask for, by their Vulkan member names.
// Jobs name features explicitly (nothing is enabled by default) so a test runs
// exactly what a device without, say, non-uniform indexing would accept.

#ifndef SPIRV_CONV_TEST_VULKAN_FEATURES_H_
#define SPIRV_CONV_TEST_VULKAN_FEATURES_H_

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

namespace vk_runner {

// Which structure a feature lives in.
enum class FeatureGroup {
  kCore,                // VkPhysicalDeviceFeatures (Vulkan 1.0)
  kDescriptorIndexing,  // VkPhysicalDeviceDescriptorIndexingFeatures (1.2 / the EXT)
};

// The feature structures a device reports or a device is created with.
struct FeatureSet {
  VkPhysicalDeviceFeatures core{};
  VkPhysicalDeviceDescriptorIndexingFeatures descriptor_indexing{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES};
};

// True when |name| is a feature vk_runner knows; sets |group|.
bool LookUpFeature(const std::string& name, FeatureGroup* group);

// The member of |set| named |name| (which must be known).
VkBool32& FeatureMember(FeatureSet& set, const std::string& name);

// All known names, for error messages.
std::vector<std::string> KnownFeatureNames();

}  // namespace vk_runner

#endif  // SPIRV_CONV_TEST_VULKAN_FEATURES_H_
