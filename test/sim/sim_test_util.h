// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Helpers of the simulator tests: compile GLSL or assembly, run, read words.

#ifndef TEST_SIM_SIM_TEST_UTIL_H_
#define TEST_SIM_SIM_TEST_UTIL_H_

#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sim/sim_equivalence.h"

namespace spirv_conv {
namespace test {

inline SpirvBinary MustLoad(const std::string& name, const std::string& text) {
  Expected<SpirvBinary> binary = LoadSpirvFromBytes(name, text, LoadOptions());
  EXPECT_TRUE(binary.ok()) << (binary.ok() ? "" : binary.error().message);
  return binary.ok() ? std::move(binary).value() : SpirvBinary();
}

// The little-endian bytes of |values| as the buffer at set 0, |binding| (a
// storage buffer, or a kernel parameter).
template <typename T>
sim::Buffer Values(uint32_t binding, const std::vector<T>& values) {
  sim::Buffer b;
  b.binding = binding;
  b.bytes.resize(values.size() * sizeof(T));
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

inline sim::Buffer Words(uint32_t binding, const std::vector<uint32_t>& words) {
  return Values(binding, words);
}

// A zero-filled storage buffer of |words| words at set 0, |binding|.
inline sim::Buffer Zeros(uint32_t binding, uint32_t words) {
  return Words(binding, std::vector<uint32_t>(words, 0));
}

// The buffer at |binding| after the run, as values of type T.
template <typename T>
std::vector<T> ValuesOf(const sim::RunResult& result, uint32_t binding) {
  for (const sim::Buffer& b : result.buffers) {
    if (b.binding != binding) continue;
    std::vector<T> values(b.bytes.size() / sizeof(T));
    std::memcpy(values.data(), b.bytes.data(), values.size() * sizeof(T));
    return values;
  }
  ADD_FAILURE() << "no buffer at binding " << binding;
  return {};
}

inline std::vector<uint32_t> WordsOf(const sim::RunResult& result, uint32_t binding) {
  return ValuesOf<uint32_t>(result, binding);
}

inline sim::RunOptions Options(sim::Model model, uint32_t subgroup_size = 8,
                               std::array<uint32_t, 3> groups = {1, 1, 1}) {
  sim::RunOptions o;
  o.model = model;
  o.subgroup_size = subgroup_size;
  o.workgroups = groups;
  return o;
}

// Runs GLSL compute source |glsl| and returns binding |binding|'s words.
inline std::vector<uint32_t> RunGlsl(const std::string& glsl, std::vector<sim::Buffer> inputs,
                                     const sim::RunOptions& options, uint32_t binding = 0) {
  Expected<sim::RunResult> result = RunBinary(MustLoad("test.comp", glsl), inputs, options);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
  return result.ok() ? WordsOf(*result, binding) : std::vector<uint32_t>();
}

}  // namespace test
}  // namespace spirv_conv

#endif  // TEST_SIM_SIM_TEST_UTIL_H_
