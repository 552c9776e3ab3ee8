// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/descriptor_class.h"

namespace spirv_conv {
namespace {

constexpr const char* kClassNames[kDescriptorClassCount] = {
    "uniform-buffer",       "storage-buffer",       "sampled-image",    "storage-image",
    "uniform-texel-buffer", "storage-texel-buffer", "input-attachment", "acceleration-structure",
};

}  // namespace

const char* DescriptorClassName(DescriptorClass c) { return kClassNames[Bit(c)]; }

std::optional<DescriptorClass> DescriptorClassFromName(const std::string& name) {
  for (size_t c = 0; c < kDescriptorClassCount; ++c) {
    if (name == kClassNames[c]) return static_cast<DescriptorClass>(c);
  }
  return std::nullopt;
}

}  // namespace spirv_conv
