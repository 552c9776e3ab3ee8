// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the lint tests share: Vulkan shader modules written as SPIR-V
// assembly around a common prelude (types, inputs, constants), linted end to
// end (assemble → spirv-val → IR → uniformity → Lint), and the expected
// findings written next to the input as (rule, severity, instruction).

#ifndef TEST_LINT_LINT_TEST_FIXTURE_H_
#define TEST_LINT_LINT_TEST_FIXTURE_H_

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/lint.h"
#include "spirv_conv/uniformity.h"
#include "spirv_conv/validate.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace test {

// One test shader. Sections go where SPIR-V's logical layout wants them.
struct Shader {
  std::string model = "Fragment";     // or "GLCompute"
  std::string capabilities;           // extra OpCapability / OpExtension lines
  std::string interface;              // extra entry point interface ids (" %a %b")
  std::string modes;                  // extra OpExecutionMode lines
  std::string sources;                // OpString / OpSource lines
  std::string names;                  // OpName lines
  std::string annotations;            // OpDecorate / OpMemberDecorate lines
  std::string globals;                // types, constants, variables
  std::string functions;              // %main and helpers
  std::string version = "1.3";        // the SPIR-V version
  std::string local_size = "64 1 1";  // compute shaders' LocalSize
  bool validate = true;               // run spirv-val first (vulkan1.1; vulkan1.3 for SPIR-V 1.6)
};

// SPIR-V |version|. Fragment shaders get %in_val (a float input), %in_flat
// (a flat uint input) and %out_color; compute shaders %lid
// (LocalInvocationId) and %sgid (SubgroupId), LocalSize |local_size|. Both
// get the common types and constants below.
inline std::string Assemble(const Shader& shader) {
  const bool fragment = shader.model == "Fragment";
  std::ostringstream text;
  text << "; Version: " << shader.version << "\nOpCapability Shader\n"
       << (fragment ? "" : "OpCapability GroupNonUniform\n") << shader.capabilities
       << "OpMemoryModel Logical GLSL450\n"
       << "OpEntryPoint " << shader.model << " %main \"main\" "
       << (fragment ? "%in_val %in_flat %out_color" : "%lid %sgid") << shader.interface << "\n"
       << (fragment ? "OpExecutionMode %main OriginUpperLeft\n"
                    : "OpExecutionMode %main LocalSize " + shader.local_size + "\n")
       << shader.modes << shader.sources << "OpName %main \"main\"\n"
       << (fragment ? "OpName %in_val \"in_val\"\nOpName %in_flat \"in_flat\"\n"
                    : "OpName %lid \"lid\"\nOpName %sgid \"sgid\"\n")
       << shader.names
       << (fragment ? "OpDecorate %in_val Location 0\nOpDecorate %in_flat Location 1\n"
                      "OpDecorate %in_flat Flat\nOpDecorate %out_color Location 0\n"
                    : "OpDecorate %lid BuiltIn LocalInvocationId\n"
                      "OpDecorate %sgid BuiltIn SubgroupId\n")
       << shader.annotations << R"(%void = OpTypeVoid
%fn_void = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%v2float = OpTypeVector %float 2
%v3uint = OpTypeVector %uint 3
%v4float = OpTypeVector %float 4
%v4uint = OpTypeVector %uint 4
%ptr_Input_float = OpTypePointer Input %float
%ptr_Input_uint = OpTypePointer Input %uint
%ptr_Input_v3uint = OpTypePointer Input %v3uint
%ptr_Output_v4float = OpTypePointer Output %v4float
%float_0 = OpConstant %float 0
%float_0_5 = OpConstant %float 0.5
%float_1 = OpConstant %float 1
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_264 = OpConstant %uint 264
%v2_half = OpConstantComposite %v2float %float_0_5 %float_0_5
)"
       << (fragment ? "%in_val = OpVariable %ptr_Input_float Input\n"
                      "%in_flat = OpVariable %ptr_Input_uint Input\n"
                      "%out_color = OpVariable %ptr_Output_v4float Output\n"
                    : "%lid = OpVariable %ptr_Input_v3uint Input\n"
                      "%sgid = OpVariable %ptr_Input_uint Input\n")
       << shader.globals << shader.functions;
  return text.str();
}

// An expected finding: its rule, severity and the instruction it points at
// (a substring of Location::instruction, e.g. "%dx = OpDPdx").
struct Expect {
  std::string rule;
  Severity severity;
  std::string instruction;
};

inline std::string Describe(const std::vector<Finding>& findings) {
  std::ostringstream out;
  for (const Finding& f : findings) {
    out << "  " << f.rule << " " << SeverityName(f.severity) << " at '" << f.location.instruction
        << "' (block " << f.location.block << ", line " << f.location.line << "): " << f.message
        << "\n";
    for (const Note& n : f.notes) out << "      note: " << n.message << "\n";
  }
  return out.str();
}

// Lint() on |shader| with |options|; fails the test if it does not load.
inline std::vector<Finding> LintGrouped(const Shader& shader, const LintOptions& options = {}) {
  const SpirvBinary binary = MustAssemble(Assemble(shader));
  if (binary.words.empty()) return {};
  if (shader.validate) {
    const Status valid = ValidateSpirv(
        binary.words, shader.version == "1.6" ? SPV_ENV_VULKAN_1_3 : SPV_ENV_VULKAN_1_1, {}, "test",
        ExitCode::kBadInput);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
    if (!valid.ok()) return {};
  }
  auto context = BuildIrContext(binary);
  if (!context.ok()) {
    ADD_FAILURE() << context.error().message;
    return {};
  }
  auto info = UniformityInfo::Compute(context->get());
  if (!info.ok()) {
    ADD_FAILURE() << info.error().message;
    return {};
  }
  return Lint(**context, **info, options);
}

// LintGrouped, with a finding's further sites with the same cause as
// findings of their own (the rules' tests are about sites; grouping has its
// own test).
inline std::vector<Finding> LintShader(const Shader& shader, const LintOptions& options = {}) {
  std::vector<Finding> findings;
  for (Finding& f : LintGrouped(shader, options)) {
    std::vector<Note> sites = std::move(f.more_sites);
    f.more_sites.clear();
    findings.push_back(f);
    for (Note& site : sites) {
      findings.push_back(f);
      findings.back().message = std::move(site.message);
      findings.back().location = std::move(site.location);
    }
  }
  return findings;
}

// The findings are exactly |expected|, in module order.
inline void ExpectFindings(const std::vector<Finding>& findings,
                           const std::vector<Expect>& expected) {
  bool same = findings.size() == expected.size();
  for (size_t i = 0; same && i < expected.size(); ++i) {
    same = findings[i].rule == expected[i].rule && findings[i].severity == expected[i].severity &&
           findings[i].location.instruction.find(expected[i].instruction) != std::string::npos;
  }
  if (same) return;
  std::ostringstream want;
  for (const Expect& e : expected) {
    want << "  " << e.rule << " " << SeverityName(e.severity) << " at '" << e.instruction << "'\n";
  }
  ADD_FAILURE() << "expected:\n" << want.str() << "got:\n" << Describe(findings);
}

// Some note of |finding| contains |text|.
inline bool HasNote(const Finding& finding, const std::string& text) {
  for (const Note& note : finding.notes) {
    if (note.message.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace test
}  // namespace spirv_conv

#endif  // TEST_LINT_LINT_TEST_FIXTURE_H_
