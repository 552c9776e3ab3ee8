// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Target environments: names as spirv-val spells them, and the default a
// module implies when the user names none.

#ifndef INCLUDE_SPIRV_CONV_TARGET_ENV_H_
#define INCLUDE_SPIRV_CONV_TARGET_ENV_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.h"

namespace spirv_conv {

// Parses a spirv-val target environment name ("vulkan1.2", "spv1.4",
// "universal1.5", "opencl2.2", "vulkan1.1spv1.4", ...). Returns nullopt for an
// unknown name.
std::optional<spv_target_env> ParseTargetEnv(const std::string& name);

// The spirv-val spelling of |env| (the inverse of ParseTargetEnv).
std::string TargetEnvName(spv_target_env env);

// The list of accepted names, for help texts.
std::string TargetEnvNameList();

// The SPIR-V version word (0x00MMmm00) a module built for |env| carries.
uint32_t SpirvVersionWordOf(spv_target_env env);

// The environment to validate |words| (a module in host byte order, with a
// complete header) against when the user names none: Vulkan for Shader
// modules, universal SPIR-V for Kernel modules, in either case the lowest
// environment whose SPIR-V version is at least the module's.
spv_target_env DefaultTargetEnv(const std::vector<uint32_t>& words);

// "1.3" for a version word 0x00010300.
std::string SpirvVersionString(uint32_t version_word);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_TARGET_ENV_H_
