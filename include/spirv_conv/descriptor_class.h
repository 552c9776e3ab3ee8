// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The classes of descriptors whose arrays Vulkan's indexing features
// distinguish: what the analysis tells of a descriptor access
// (source/analysis/descriptor_access.h) and what a device profile
// (spirv_conv/device_profile.h) allows per class.

#ifndef INCLUDE_SPIRV_CONV_DESCRIPTOR_CLASS_H_
#define INCLUDE_SPIRV_CONV_DESCRIPTOR_CLASS_H_

#include <bitset>
#include <cstddef>
#include <optional>
#include <string>

namespace spirv_conv {

// The descriptor classes whose arrays Vulkan features distinguish. Samplers
// and combined image samplers count as sampled images (the Vulkan features
// shaderSampledImageArray*Indexing cover all three).
enum class DescriptorClass {
  kUniformBuffer,
  kStorageBuffer,
  kSampledImage,
  kStorageImage,
  kUniformTexelBuffer,
  kStorageTexelBuffer,
  kInputAttachment,
  kAccelerationStructure,
};
constexpr size_t kDescriptorClassCount = 8;
using DescriptorClassSet = std::bitset<kDescriptorClassCount>;

inline DescriptorClassSet AllDescriptorClasses() { return DescriptorClassSet().set(); }
inline size_t Bit(DescriptorClass c) { return static_cast<size_t>(c); }

// "uniform-buffer", "storage-buffer", "sampled-image", "storage-image",
// "uniform-texel-buffer", "storage-texel-buffer", "input-attachment",
// "acceleration-structure".
const char* DescriptorClassName(DescriptorClass c);
std::optional<DescriptorClass> DescriptorClassFromName(const std::string& name);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_DESCRIPTOR_CLASS_H_
