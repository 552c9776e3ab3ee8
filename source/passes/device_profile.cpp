// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/device_profile.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

namespace spirv_conv {
namespace {

using nlohmann::json;

// The Vulkan feature names of a class: "shader<Name>ArrayDynamicIndexing",
// "shader<Name>ArrayNonUniformIndexing". Acceleration structures have no
// such features: descriptor indexing covers them through
// descriptorBindingAccelerationStructure..., so vulkaninfo cannot tell, and
// they are taken as constant-only (sound).
constexpr const char* kFeatureNames[kDescriptorClassCount] = {
    "UniformBuffer",      "StorageBuffer",      "SampledImage",    "StorageImage",
    "UniformTexelBuffer", "StorageTexelBuffer", "InputAttachment", nullptr,
};

Error ProfileError(const std::string& path, const std::string& what) {
  return Error{ExitCode::kBadInput, path + ": " + what};
}

// A boolean feature from any of the feature structures of a `vulkaninfo
// --json` device (the Vulkan 1.0 features, VkPhysicalDeviceVulkan12Features,
// VkPhysicalDeviceDescriptorIndexingFeatures[EXT]): true if one says true.
bool Feature(const json& features, const std::string& name) {
  for (const auto& [structure, members] : features.items()) {
    if (!members.is_object()) continue;
    auto it = members.find(name);
    if (it != members.end() && it->is_boolean() && it->get<bool>()) return true;
  }
  return false;
}

Expected<DeviceProfile> FromVulkanInfo(const json& root, const std::string& path) {
  const json* features = nullptr;
  if (root.contains("capabilities") && root["capabilities"].contains("device")) {
    const json& device = root["capabilities"]["device"];
    if (device.contains("features")) features = &device["features"];
  }
  if (features == nullptr || !features->is_object()) {
    return ProfileError(path, "not a `vulkaninfo --json` device: no capabilities.device.features");
  }
  DeviceProfile profile;
  profile.name = path;
  try {
    const json& properties = root["capabilities"]["device"]["properties"];
    profile.name = properties["VkPhysicalDeviceProperties"]["deviceName"].get<std::string>();
  } catch (const json::exception&) {
    // Nameless: the file's name stays.
  }
  for (size_t c = 0; c < kDescriptorClassCount; ++c) {
    if (kFeatureNames[c] == nullptr) continue;
    const std::string base = std::string("shader") + kFeatureNames[c];
    if (Feature(*features, base + "ArrayNonUniformIndexing")) {
      profile.indexing[c] = ArrayIndexing::kNonUniform;
    } else if (Feature(*features, base + "ArrayDynamicIndexing")) {
      profile.indexing[c] = ArrayIndexing::kDynamic;
    }
  }
  return profile;
}

Expected<DeviceProfile> FromProfileFile(const json& root, const std::string& path) {
  if (!root["spirv-conv-device-profile"].is_number_integer() ||
      root["spirv-conv-device-profile"].get<int>() != 1) {
    return ProfileError(path, "unsupported \"spirv-conv-device-profile\" version (expected 1)");
  }
  DeviceProfile profile;
  profile.name = root.value("name", path);
  if (!root.contains("indexing")) return profile;
  if (!root["indexing"].is_object()) return ProfileError(path, "\"indexing\" must be an object");
  for (const auto& [name, value] : root["indexing"].items()) {
    const std::optional<DescriptorClass> c = DescriptorClassFromName(name);
    if (!c) {
      return ProfileError(path, "unknown descriptor class \"" + name +
                                    "\" (expected uniform-buffer, storage-buffer, sampled-image, "
                                    "storage-image, uniform-texel-buffer, storage-texel-buffer, "
                                    "input-attachment or acceleration-structure)");
    }
    const std::string level = value.is_string() ? value.get<std::string>() : "";
    if (level == "constant") {
      profile.indexing[Bit(*c)] = ArrayIndexing::kConstant;
    } else if (level == "dynamic") {
      profile.indexing[Bit(*c)] = ArrayIndexing::kDynamic;
    } else if (level == "non-uniform") {
      profile.indexing[Bit(*c)] = ArrayIndexing::kNonUniform;
    } else {
      return ProfileError(
          path, "\"" + name + "\": expected \"constant\", \"dynamic\" or \"non-uniform\"");
    }
  }
  return profile;
}

}  // namespace

const char* ArrayIndexingName(ArrayIndexing indexing) {
  switch (indexing) {
    case ArrayIndexing::kConstant:
      return "constant";
    case ArrayIndexing::kDynamic:
      return "dynamic";
    case ArrayIndexing::kNonUniform:
      return "non-uniform";
  }
  return "constant";
}

DescriptorClassSet DeviceProfile::ClassesWith(ArrayIndexing level) const {
  DescriptorClassSet classes;
  for (size_t c = 0; c < kDescriptorClassCount; ++c) classes.set(c, indexing[c] == level);
  return classes;
}

std::optional<DeviceProfile> BuiltinDeviceProfile(const std::string& name) {
  DeviceProfile profile;
  profile.name = name;
  if (name == "lavapipe") {
    // Measured on Mesa 22.3.6 (Debian bookworm), `vulkaninfo --json`:
    // shaderUniformBufferArrayDynamicIndexing and
    // shaderStorageBufferArrayDynamicIndexing only; no non-uniform indexing.
    profile.indexing[Bit(DescriptorClass::kUniformBuffer)] = ArrayIndexing::kDynamic;
    profile.indexing[Bit(DescriptorClass::kStorageBuffer)] = ArrayIndexing::kDynamic;
    return profile;
  }
  if (name == "desktop") {
    profile.indexing.fill(ArrayIndexing::kNonUniform);
    return profile;
  }
  return std::nullopt;
}

Expected<DeviceProfile> LoadDeviceProfile(const std::string& name_or_path) {
  if (std::optional<DeviceProfile> builtin = BuiltinDeviceProfile(name_or_path)) return *builtin;
  std::ifstream in(name_or_path, std::ios::binary);
  if (!in) {
    return ProfileError(name_or_path,
                        "no such device profile (built-in profiles: lavapipe, desktop; or a file "
                        "from `vulkaninfo --json`, or a spirv-conv profile file)");
  }
  std::stringstream text;
  text << in.rdbuf();
  return ParseDeviceProfile(text.str(), name_or_path);
}

Expected<DeviceProfile> ParseDeviceProfile(const std::string& text, const std::string& path) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& error) {
    // parse_error, and out_of_range for a number too large for a double.
    return ProfileError(path, std::string("not valid JSON: ") + error.what());
  }
  if (!root.is_object()) return ProfileError(path, "expected a JSON object");
  try {
    if (root.contains("spirv-conv-device-profile")) return FromProfileFile(root, path);
    return FromVulkanInfo(root, path);
  } catch (const json::exception& error) {
    // A member of an unexpected type where the readers index into it.
    return ProfileError(path, std::string("unexpected JSON: ") + error.what());
  }
}

}  // namespace spirv_conv
