// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/target_env.h"

#include <utility>

#include "source/spirv_target_env.h"

namespace spirv_conv {
namespace {

// spirv-val's names, in the order its help text lists them. Matching is exact
// (spvParseTargetEnv also accepts any name with a known prefix).
const std::pair<const char*, spv_target_env> kTargetEnvs[] = {
    {"vulkan1.0", SPV_ENV_VULKAN_1_0},
    {"vulkan1.1", SPV_ENV_VULKAN_1_1},
    {"vulkan1.1spv1.4", SPV_ENV_VULKAN_1_1_SPIRV_1_4},
    {"vulkan1.2", SPV_ENV_VULKAN_1_2},
    {"vulkan1.3", SPV_ENV_VULKAN_1_3},
    {"spv1.0", SPV_ENV_UNIVERSAL_1_0},
    {"spv1.1", SPV_ENV_UNIVERSAL_1_1},
    {"spv1.2", SPV_ENV_UNIVERSAL_1_2},
    {"spv1.3", SPV_ENV_UNIVERSAL_1_3},
    {"spv1.4", SPV_ENV_UNIVERSAL_1_4},
    {"spv1.5", SPV_ENV_UNIVERSAL_1_5},
    {"spv1.6", SPV_ENV_UNIVERSAL_1_6},
    {"opencl1.2embedded", SPV_ENV_OPENCL_EMBEDDED_1_2},
    {"opencl1.2", SPV_ENV_OPENCL_1_2},
    {"opencl2.0embedded", SPV_ENV_OPENCL_EMBEDDED_2_0},
    {"opencl2.0", SPV_ENV_OPENCL_2_0},
    {"opencl2.1embedded", SPV_ENV_OPENCL_EMBEDDED_2_1},
    {"opencl2.1", SPV_ENV_OPENCL_2_1},
    {"opencl2.2embedded", SPV_ENV_OPENCL_EMBEDDED_2_2},
    {"opencl2.2", SPV_ENV_OPENCL_2_2},
    {"opengl4.0", SPV_ENV_OPENGL_4_0},
    {"opengl4.1", SPV_ENV_OPENGL_4_1},
    {"opengl4.2", SPV_ENV_OPENGL_4_2},
    {"opengl4.3", SPV_ENV_OPENGL_4_3},
    {"opengl4.5", SPV_ENV_OPENGL_4_5},
};

constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kCapabilityShader = 1;
constexpr uint32_t kCapabilityKernel = 6;
constexpr uint32_t kHeaderWords = 5;

// True when the module declares Kernel and not Shader (an OpenCL module).
bool IsKernelModule(const std::vector<uint32_t>& words) {
  bool kernel = false;
  for (size_t i = kHeaderWords; i < words.size();) {
    const uint32_t word_count = words[i] >> 16;
    const uint32_t opcode = words[i] & 0xffffu;
    if (word_count == 0) break;
    if (opcode != kOpCapability) break;  // capabilities come first
    if (word_count >= 2 && i + 1 < words.size()) {
      if (words[i + 1] == kCapabilityShader) return false;
      if (words[i + 1] == kCapabilityKernel) kernel = true;
    }
    i += word_count;
  }
  return kernel;
}

}  // namespace

std::optional<spv_target_env> ParseTargetEnv(const std::string& name) {
  for (const auto& entry : kTargetEnvs) {
    if (name == entry.first) return entry.second;
  }
  return std::nullopt;
}

std::string TargetEnvName(spv_target_env env) {
  for (const auto& entry : kTargetEnvs) {
    if (env == entry.second) return entry.first;
  }
  return spvTargetEnvDescription(env);
}

std::string TargetEnvNameList() {
  std::string list;
  for (const auto& entry : kTargetEnvs) {
    if (!list.empty()) list += ", ";
    list += entry.first;
  }
  return list;
}

uint32_t SpirvVersionWordOf(spv_target_env env) { return spvVersionForTargetEnv(env); }

std::string SpirvVersionString(uint32_t version_word) {
  return std::to_string((version_word >> 16) & 0xffu) + "." +
         std::to_string((version_word >> 8) & 0xffu);
}

spv_target_env DefaultTargetEnv(const std::vector<uint32_t>& words) {
  const uint32_t version = words.size() > 1 ? words[1] : 0;
  const uint32_t minor = (version >> 8) & 0xffu;
  if (IsKernelModule(words)) {
    static const spv_target_env kUniversal[] = {
        SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_2, SPV_ENV_UNIVERSAL_1_3,
        SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5, SPV_ENV_UNIVERSAL_1_6};
    return kUniversal[minor > 6 ? 6 : minor];
  }
  // The lowest Vulkan whose SPIR-V version covers the module's.
  if (minor <= 0) return SPV_ENV_VULKAN_1_0;
  if (minor <= 3) return SPV_ENV_VULKAN_1_1;
  if (minor == 4) return SPV_ENV_VULKAN_1_1_SPIRV_1_4;
  if (minor == 5) return SPV_ENV_VULKAN_1_2;
  return SPV_ENV_VULKAN_1_3;
}

}  // namespace spirv_conv
