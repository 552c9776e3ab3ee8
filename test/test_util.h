// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the unit tests.

#ifndef TEST_TEST_UTIL_H_
#define TEST_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "spirv_conv/load.h"

namespace spirv_conv {
namespace test {

// The smallest valid Vulkan compute shader, as SPIR-V 1.0 assembly.
inline const char* kMinimalCompute = R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

// A module spirv-val rejects (OpEntryPoint names a type, not a function), but
// that assembles and parses.
inline const char* kInvalidEntryPoint = R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %void "main"
%void = OpTypeVoid
)";

// Loads |text| as assembly; fails the test if it cannot.
inline SpirvBinary MustAssemble(const std::string& text, const LoadOptions& options = {}) {
  Expected<SpirvBinary> binary = LoadSpirvFromBytes("test.spvasm", text, options);
  EXPECT_TRUE(binary.ok()) << (binary.ok() ? "" : binary.error().message);
  return binary.ok() ? std::move(binary).value() : SpirvBinary();
}

// Bytes of |words| in little-endian (swap = false) or big-endian order.
inline std::string ToBytes(const std::vector<uint32_t>& words, bool big_endian = false) {
  std::string bytes;
  for (uint32_t word : words) {
    for (int i = 0; i < 4; ++i) {
      const int shift = big_endian ? 24 - 8 * i : 8 * i;
      bytes.push_back(static_cast<char>(word >> shift));
    }
  }
  return bytes;
}

// True when |words| contains an instruction with |opcode|.
inline bool HasOpcode(const std::vector<uint32_t>& words, uint32_t opcode) {
  for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16) {
    if ((words[i] & 0xffffu) == opcode) return true;
  }
  return false;
}

}  // namespace test
}  // namespace spirv_conv

#endif  // TEST_TEST_UTIL_H_
