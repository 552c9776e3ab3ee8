// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/version.h"

#include "glslang/build_info.h"
#include "spirv-tools/libspirv.h"

#ifndef SPIRV_CONV_VERSION
#error "SPIRV_CONV_VERSION is set by the build"
#endif

namespace spirv_conv {

std::string VersionString() {
  return std::string("spirv-conv ") + SPIRV_CONV_VERSION + " (built on " +
         spvSoftwareVersionDetailsString() + "; glslang " + std::to_string(GLSLANG_VERSION_MAJOR) +
         "." + std::to_string(GLSLANG_VERSION_MINOR) + "." + std::to_string(GLSLANG_VERSION_PATCH) +
         ")";
}

std::string VersionNumber() { return SPIRV_CONV_VERSION; }

}  // namespace spirv_conv
