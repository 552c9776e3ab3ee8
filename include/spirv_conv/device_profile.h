// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What a Vulkan device lets a shader do with arrays of descriptors, per
// descriptor class: index them with constants only, with dynamically uniform
// indices (shader*ArrayDynamicIndexing), or with non-uniform indices
// (shader*ArrayNonUniformIndexing). `spirv-conv opt --lower-nonuniform
// --device D` picks the lowering of each access from it (docs/passes.md).
//
// A profile comes from a built-in name ("lavapipe", "desktop"), from the JSON
// that `vulkaninfo --json` prints, or from a small profile file:
//   {"spirv-conv-device-profile": 1, "name": "my-gpu",
//    "indexing": {"sampled-image": "dynamic", "storage-buffer": "non-uniform"}}
// Classes a profile does not name can be indexed with constants only (the
// sound default: the lowering then works on any device).

#ifndef INCLUDE_SPIRV_CONV_DEVICE_PROFILE_H_
#define INCLUDE_SPIRV_CONV_DEVICE_PROFILE_H_

#include <array>
#include <optional>
#include <string>

#include "spirv_conv/descriptor_class.h"
#include "spirv_conv/status.h"

namespace spirv_conv {

// How far arrays of one class may be indexed.
enum class ArrayIndexing {
  kConstant,    // constant indices only
  kDynamic,     // dynamically uniform indices
  kNonUniform,  // any index, with NonUniform on the resource operand
};
const char* ArrayIndexingName(ArrayIndexing indexing);  // "constant", "dynamic", "non-uniform"

struct DeviceProfile {
  std::string name;
  std::array<ArrayIndexing, kDescriptorClassCount> indexing{};  // all kConstant

  ArrayIndexing Indexing(DescriptorClass c) const { return indexing[Bit(c)]; }
  // The classes whose indexing is exactly |level|.
  DescriptorClassSet ClassesWith(ArrayIndexing level) const;
};

// The built-in profiles: "lavapipe" (Mesa 22.3 as measured: dynamic indexing
// of uniform and storage buffer arrays, constant indexing of everything
// else, no non-uniform indexing) and "desktop" (every class non-uniform, as
// a current desktop GPU with descriptorIndexing). Null for other names.
std::optional<DeviceProfile> BuiltinDeviceProfile(const std::string& name);

// A built-in profile by name, or the profile in file |name_or_path|: the
// output of `vulkaninfo --json` (its VkPhysicalDeviceFeatures and
// VkPhysicalDeviceVulkan12Features / DescriptorIndexingFeatures), or a
// spirv-conv profile file. Errors (kBadInput) name the file and what is wrong.
Expected<DeviceProfile> LoadDeviceProfile(const std::string& name_or_path);

// The profile in |text|, the contents of the file |path| (named in errors).
Expected<DeviceProfile> ParseDeviceProfile(const std::string& text, const std::string& path);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_DEVICE_PROFILE_H_
