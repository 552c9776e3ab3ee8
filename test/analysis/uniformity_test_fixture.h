// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the uniformity tests on SPIR-V Kernel modules share: the common
// types and constants, a module builder that names every id the test
// defines, and Kernel, which assembles, validates and analyses one module
// and checks verdicts by name and by the `; EXPECT:` comments of its text.

#ifndef TEST_ANALYSIS_UNIFORMITY_TEST_FIXTURE_H_
#define TEST_ANALYSIS_UNIFORMITY_TEST_FIXTURE_H_

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/uniformity.h"
#include "spirv_conv/validate.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace test {

using Names = std::vector<std::string>;
constexpr Uniformity kUniform = Uniformity::kUniform;
constexpr Uniformity kDivergent = Uniformity::kDivergent;
constexpr std::optional<Uniformity> kUnchecked = std::nullopt;

// What every test kernel shares: the invocation id (an Input variable
// decorated BuiltIn LocalInvocationId, v3ulong under Physical64 OpenCL),
// function types with 0 to 4 uint parameters, and a few constants.
constexpr char kTypesAndConstants[] = R"(OpDecorate %lid BuiltIn LocalInvocationId
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%ptr_Input_v3ulong = OpTypePointer Input %v3ulong
%lid = OpVariable %ptr_Input_v3ulong Input
%fn0 = OpTypeFunction %void
%fn1 = OpTypeFunction %void %uint
%fn2 = OpTypeFunction %void %uint %uint
%fn3 = OpTypeFunction %void %uint %uint %uint
%fn4 = OpTypeFunction %void %uint %uint %uint %uint
%true = OpConstantTrue %bool
%false = OpConstantFalse %bool
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_5 = OpConstant %uint 5
%uint_7 = OpConstant %uint 7
%uint_10 = OpConstant %uint 10
%uint_20 = OpConstant %uint 20
%uint_30 = OpConstant %uint 30
%uint_42 = OpConstant %uint 42
%uint_123 = OpConstant %uint 123
%uint_m1 = OpConstant %uint 4294967295
)";

// The name the module KernelModule builds gives the id %|id| of |text|: its
// OpName if |text| has one, else |id| itself.
inline std::string NameOfId(const std::string& text, const std::string& id) {
  const std::map<std::string, std::string> names = ExplicitNames(text);
  auto found = names.find(id);
  return found == names.end() ? id : found->second;
}

// A SPIR-V 1.2 Kernel module around |names_and_function|: its OpName lines
// go to the debug section, everything else (one function, %f) after the
// types and constants above. The kernel is the entry point |entry_name|.
// Every id the text defines (`%x = ...`) is named "x" unless the text names
// it itself or gives "x" to another id, so tests name values and blocks by
// their ids and need OpName lines only for other names.
inline std::string KernelModule(const std::string& entry_name,
                                const std::string& names_and_function) {
  std::string names;
  std::string function;
  std::istringstream lines(names_and_function);
  for (std::string line; std::getline(lines, line);) {
    (line.rfind("OpName ", 0) == 0 ? names : function) += line + "\n";
  }
  names += OpNamesOfUnnamedIds(names_and_function);
  return "; Version: 1.2\n"
         "OpCapability Addresses\n"
         "OpCapability Kernel\n"
         "OpCapability Int64\n"
         "OpMemoryModel Physical64 OpenCL\n"
         "OpEntryPoint Kernel %f \"" +
         entry_name + "\" %lid\nOpName %lid \"lid\"\n" + names + kTypesAndConstants + function;
}

inline const char* KindName(UniformityStep::Kind kind) {
  switch (kind) {
    case UniformityStep::Kind::kSource:
      return "kSource";
    case UniformityStep::Kind::kOperand:
      return "kOperand";
    case UniformityStep::Kind::kJoin:
      return "kJoin";
    case UniformityStep::Kind::kTemporal:
      return "kTemporal";
    case UniformityStep::Kind::kCycle:
      return "kCycle";
    case UniformityStep::Kind::kMemory:
      return "kMemory";
    case UniformityStep::Kind::kCall:
      return "kCall";
    case UniformityStep::Kind::kControlFlow:
      return "kControlFlow";
    case UniformityStep::Kind::kCallSite:
      return "kCallSite";
    case UniformityStep::Kind::kDecoration:
      return "kDecoration";
  }
  return "?";
}

// One analysed kernel; blocks and values are named by their OpName (their
// id, see KernelModule). A line of the text may state its verdict in a
// comment, `; EXPECT: divergent` (or uniform, subgroup, quad), the
// convention of the GLSL corpora: on a line that defines a value, the
// level of that value (ExpectValues); on an OpBranchConditional or
// OpSwitch, the level of the branch of its block (ExpectBranches). The
// constructor checks them.
class Kernel {
 public:
  Kernel(const std::string& entry_name, const std::string& names_and_function)
      : binary_(test::MustAssemble(KernelModule(entry_name, names_and_function))) {
    const Status valid =
        ValidateSpirv(binary_.words, SPV_ENV_UNIVERSAL_1_2, {}, entry_name, ExitCode::kBadInput);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
    auto context = BuildIrContext(binary_);
    if (!context.ok()) {
      ADD_FAILURE() << context.error().message;
      return;
    }
    context_ = std::move(context).value();
    for (const spvtools::opt::Instruction& inst : context_->module()->debugs2()) {
      if (inst.opcode() != spv::Op::OpName) continue;
      const uint32_t id = inst.GetSingleWordInOperand(0);
      const std::string name = inst.GetInOperand(1).AsString();
      if (!ids_.emplace(name, id).second) ADD_FAILURE() << "two ids named \"" << name << "\"";
      names_[id] = name;
    }
    function_ = context_->module()->begin()->result_id();
    auto info = UniformityInfo::Compute(context_.get());
    if (!info.ok()) {
      ADD_FAILURE() << "UniformityInfo::Compute: " << info.error().message;
      return;
    }
    info_ = std::move(info).value();
    ExpectAnnotatedVerdicts(names_and_function);
  }

  bool ok() const { return info_ != nullptr; }
  const UniformityInfo& info() const { return *info_; }

  uint32_t Id(const std::string& name) const {
    auto found = ids_.find(name);
    if (found == ids_.end()) {
      ADD_FAILURE() << "no OpName \"" << name << "\"";
      return 0;
    }
    return found->second;
  }
  std::string Name(uint32_t id) const {
    auto found = names_.find(id);
    return found == names_.end() ? "%" + std::to_string(id) : found->second;
  }
  Names NamesOf(const std::vector<uint32_t>& ids) const {
    Names names;
    for (uint32_t id : ids) names.push_back(Name(id));
    return names;
  }
  const spvtools::opt::Instruction& Def(const std::string& name) const {
    return *context_->get_def_use_mgr()->GetDef(Id(name));
  }

  void ExpectValues(Uniformity level, const Names& values) const {
    for (const std::string& value : values) {
      EXPECT_STREQ(UniformityName(info_->ValueLevel(Id(value))), UniformityName(level))
          << "ValueLevel(" << value << ")";
    }
  }
  void ExpectBranches(Uniformity level, const Names& blocks) const {
    for (const std::string& block : blocks) {
      EXPECT_STREQ(UniformityName(info_->BranchLevel(Id(block))), UniformityName(level))
          << "BranchLevel(" << block << ")";
      EXPECT_EQ(info_->HasDivergentBranch(Id(block)), level != kUniform)
          << "HasDivergentBranch(" << block << ")";
    }
  }
  void ExpectFlow(Uniformity level, const Names& blocks) const {
    for (const std::string& block : blocks) {
      EXPECT_STREQ(UniformityName(info_->ControlFlowLevel(Id(block))), UniformityName(level))
          << "ControlFlowLevel(" << block << ")";
    }
  }
  // The level of in-operand |operand| of the instruction defining |user|.
  void ExpectUse(Uniformity level, const std::string& user, uint32_t operand) const {
    EXPECT_STREQ(UniformityName(info_->UseLevel(Def(user), operand)), UniformityName(level))
        << "UseLevel(" << user << ", in-operand " << operand << ")";
    EXPECT_EQ(info_->IsDivergentUse(Def(user), operand), level != kUniform)
        << "IsDivergentUse(" << user << ", in-operand " << operand << ")";
  }

  const std::vector<UniformityCycle>& Cycles() const { return info_->Cycles(function_); }
  // The cycle with header |header| (entries listed header first); checks
  // its entries, depth and reducibility, and the two levels unless
  // kUnchecked.
  void ExpectCycle(const std::string& header, const Names& entries, uint32_t depth,
                   std::optional<Uniformity> assumed_divergent,
                   std::optional<Uniformity> divergent_exit) const {
    for (const UniformityCycle& cycle : Cycles()) {
      if (cycle.header != Id(header)) continue;
      EXPECT_EQ(NamesOf(cycle.entries), entries) << "entries of the cycle at " << header;
      EXPECT_EQ(cycle.depth, depth) << "depth of the cycle at " << header;
      EXPECT_EQ(cycle.reducible, entries.size() == 1) << "reducible: cycle at " << header;
      if (assumed_divergent) {
        EXPECT_STREQ(UniformityName(cycle.assumed_divergent), UniformityName(*assumed_divergent))
            << "assumed_divergent of the cycle at " << header;
      }
      if (divergent_exit) {
        EXPECT_STREQ(UniformityName(cycle.divergent_exit), UniformityName(*divergent_exit))
            << "divergent_exit of the cycle at " << header;
      }
      return;
    }
    ADD_FAILURE() << "no cycle with header " << header;
  }
  Names CycleBlocks(const std::string& header) const {
    for (const UniformityCycle& cycle : Cycles()) {
      if (cycle.header != Id(header)) continue;
      Names blocks = NamesOf(cycle.blocks);
      std::sort(blocks.begin(), blocks.end());
      return blocks;
    }
    return {};
  }

  // ExplainValue(|value|) is a chain from |value| back to a source.
  void ExpectExplainedBySource(const std::string& value) const {
    const std::vector<UniformityStep> steps = info_->ExplainValue(Id(value));
    ASSERT_FALSE(steps.empty()) << "ExplainValue(" << value << ") is empty";
    EXPECT_EQ(steps.front().subject, Id(value)) << "first step of ExplainValue(" << value << ")";
    EXPECT_STREQ(KindName(steps.back().kind), KindName(UniformityStep::Kind::kSource))
        << "last step of ExplainValue(" << value << ")";
  }
  // The first step of ExplainValue(|value|) has |kind|, caused by |cause|.
  void ExpectFirstStep(const std::string& value, UniformityStep::Kind kind,
                       const std::string& cause) const {
    const std::vector<UniformityStep> steps = info_->ExplainValue(Id(value));
    ASSERT_FALSE(steps.empty()) << "ExplainValue(" << value << ") is empty";
    EXPECT_STREQ(KindName(steps.front().kind), KindName(kind))
        << "kind of the first step of ExplainValue(" << value << ")";
    EXPECT_EQ(Name(steps.front().cause), cause)
        << "cause of the first step of ExplainValue(" << value << ")";
  }
  void ExpectUniformUnexplained(const std::string& value) const {
    EXPECT_TRUE(info_->ExplainValue(Id(value)).empty()) << "ExplainValue(" << value << ")";
  }

 private:
  // Checks the `; EXPECT: <level>` comments of |text| (see the class
  // comment); a comment on any other line fails the test.
  void ExpectAnnotatedVerdicts(const std::string& text) const {
    static const std::regex kExpect(R"(;\s*EXPECT:\s*(\S+))");
    static const std::regex kBranch(R"(^\s*(OpBranchConditional|OpSwitch)\b)");
    std::string block;
    std::istringstream lines(text);
    std::smatch match;
    for (std::string line; std::getline(lines, line);) {
      const std::string id = DefinedId(line);
      if (line.find("OpLabel") != std::string::npos && !id.empty()) block = id;
      if (!std::regex_search(line, match, kExpect)) continue;
      SCOPED_TRACE(line);
      std::optional<Uniformity> level;
      for (Uniformity candidate : {Uniformity::kUniform, Uniformity::kSubgroup, Uniformity::kQuad,
                                   Uniformity::kDivergent}) {
        if (match[1] == UniformityName(candidate)) level = candidate;
      }
      if (!level) {
        ADD_FAILURE() << "unknown level in EXPECT";
      } else if (!id.empty() && line.find("OpLabel") == std::string::npos) {
        ExpectValues(*level, {NameOfId(text, id)});
      } else if (std::regex_search(line, kBranch) && !block.empty()) {
        ExpectBranches(*level, {NameOfId(text, block)});
      } else {
        ADD_FAILURE() << "EXPECT on a line that defines no value and is no branch";
      }
    }
  }

  SpirvBinary binary_;
  std::unique_ptr<spvtools::opt::IRContext> context_;
  std::unique_ptr<UniformityInfo> info_;
  std::map<std::string, uint32_t> ids_;
  std::map<uint32_t, std::string> names_;
  uint32_t function_ = 0;
};

}  // namespace test
}  // namespace spirv_conv

#endif  // TEST_ANALYSIS_UNIFORMITY_TEST_FIXTURE_H_
