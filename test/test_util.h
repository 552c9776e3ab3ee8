// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the unit tests.

#ifndef TEST_TEST_UTIL_H_
#define TEST_TEST_UTIL_H_

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/load.h"

namespace spirv_conv {
namespace test {

// The contents of |name| in test/data.
inline std::string ReadTestData(const std::string& name) {
  std::ifstream in(std::string(SPIRV_CONV_TEST_DATA_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing test data " << name;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The smallest valid Vulkan compute shader, as SPIR-V 1.0 assembly.
inline std::string MinimalCompute() {
  return "; Version: 1.0\n" + ReadTestData("minimal_compute.spvasm");
}

// The smallest valid OpenCL kernel, as SPIR-V 1.2 assembly.
inline std::string MinimalKernel() {
  return "; Version: 1.2\n" + ReadTestData("minimal_kernel.spvasm");
}

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

// The optimizer IR of |binary|; fails the test and returns null if
// SPIRV-Tools cannot build it.
inline std::unique_ptr<spvtools::opt::IRContext> MustBuildContext(const SpirvBinary& binary) {
  auto context = BuildIrContext(binary);
  if (!context.ok()) {
    ADD_FAILURE() << context.error().message;
    return nullptr;
  }
  return std::move(context).value();
}

// Bytes of |words| in big-endian order (WordsToBytes writes little-endian).
inline std::string BigEndianBytes(const std::vector<uint32_t>& words) {
  std::string bytes;
  for (uint32_t word : words) {
    for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<char>(word >> shift));
  }
  return bytes;
}

// The id a line of SPIR-V assembly defines ("x" for `%x = ...`), or "".
inline std::string DefinedId(const std::string& line) {
  static const std::regex kDefinition(R"(^\s*%(\w+)\s*=)");
  std::smatch match;
  return std::regex_search(line, match, kDefinition) ? std::string(match[1]) : std::string();
}

// The OpName lines of the assembly |text|: the id each names ("x" for
// `OpName %x "..."`) and the name it gives.
inline std::map<std::string, std::string> ExplicitNames(const std::string& text) {
  static const std::regex kOpName(R"re(^\s*OpName\s+%(\w+)\s+"([^"]*)")re");
  std::map<std::string, std::string> names;
  std::istringstream lines(text);
  std::smatch match;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, match, kOpName)) names[match[1]] = match[2];
  }
  return names;
}

// `OpName %x "x"` for every id %x the assembly |text| defines and does not
// name, unless |text| gives "x" to another id: with them the disassembly
// and the tests name an id as the text spells it.
inline std::string OpNamesOfUnnamedIds(const std::string& text) {
  const std::map<std::string, std::string> explicit_names = ExplicitNames(text);
  std::set<std::string> given;
  for (const auto& [id, name] : explicit_names) given.insert(name);
  std::string names;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const std::string id = DefinedId(line);
    if (!id.empty() && explicit_names.count(id) == 0 && given.insert(id).second) {
      names += "OpName %" + id + " \"" + id + "\"\n";
    }
  }
  return names;
}

// The module |text| with OpNamesOfUnnamedIds(|text|) at the end of its debug
// section (before the first annotation, OpModuleProcessed, type or other
// definition but OpExtInstImport and OpString).
inline std::string WithOpNames(const std::string& text) {
  static const std::regex kAfterNames(
      R"(^\s*(Op(Member)?Decorate|OpDecorationGroup|OpGroup(Member)?Decorate|OpModuleProcessed|)"
      R"(%\w+\s*=\s*Op(?!ExtInstImport\b|String\b)))");
  std::istringstream lines(text);
  std::string result;
  bool inserted = false;
  for (std::string line; std::getline(lines, line);) {
    if (!inserted && std::regex_search(line, kAfterNames)) {
      result += OpNamesOfUnnamedIds(text);
      inserted = true;
    }
    result += line + "\n";
  }
  return inserted ? result : result + OpNamesOfUnnamedIds(text);
}

// True when |words| contains an instruction with |opcode|.
inline bool HasOpcode(const std::vector<uint32_t>& words, uint32_t opcode) {
  for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16) {
    if ((words[i] & 0xffffu) == opcode) return true;
  }
  return false;
}

// A GLCompute module (SPIR-V 1.0) with a uniform block { float; vec3 } whose
// vec3 member sits at |offset|: std140 wants 16, scalar layout accepts 4.
inline std::string UniformBlockModule(int offset) {
  return R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %Block Block
OpMemberDecorate %Block 0 Offset 0
OpMemberDecorate %Block 1 Offset )" +
         std::to_string(offset) + R"(
OpDecorate %ubo DescriptorSet 0
OpDecorate %ubo Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%Block = OpTypeStruct %float %v3float
%ptr = OpTypePointer Uniform %Block
%ubo = OpVariable %ptr Uniform
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
}

}  // namespace test
}  // namespace spirv_conv

#endif  // TEST_TEST_UTIL_H_
