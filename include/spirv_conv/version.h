// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#ifndef INCLUDE_SPIRV_CONV_VERSION_H_
#define INCLUDE_SPIRV_CONV_VERSION_H_

#include <string>

namespace spirv_conv {

// "spirv-conv 0.1.0 (SPIRV-Tools v2023.1 ..., glslang 12.0.0)".
std::string VersionString();

// spirv-conv's own version number, "0.1.0".
std::string VersionNumber();

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_VERSION_H_
