// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Fragment-shader levels (docs/uniformity.md): SPV_KHR_quad_control's votes
// are quad-uniform (uniform for a uniform predicate), HelperInvocation and
// OpIsHelperInvocationEXT are divergent (a quad mixes helpers and others, a
// demote makes one more), and UniformityOptions::kills_as_demotes reads a
// discard as a demote: the block after `if (c) discard;` is uniform then,
// and divergent in the real module.

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/uniformity.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

constexpr char kModule[] = R"(; Version: 1.3
OpCapability Shader
OpCapability GroupNonUniform
OpCapability QuadControlKHR
OpCapability DemoteToHelperInvocation
OpExtension "SPV_KHR_quad_control"
OpExtension "SPV_EXT_demote_to_helper_invocation"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in %helper_var
OpExecutionMode %main OriginUpperLeft
OpExecutionMode %main QuadDerivativesKHR
OpName %any "any"
OpName %all_true "all_true"
OpName %is_helper "is_helper"
OpName %helper "helper"
OpName %merge "merge"
OpName %c "c"
OpDecorate %in Location 0
OpDecorate %helper_var BuiltIn HelperInvocation
OpDecorate %helper_var Volatile
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%float = OpTypeFloat 32
%half = OpConstant %float 0.5
%ptr_in = OpTypePointer Input %float
%ptr_bool = OpTypePointer Input %bool
%in = OpVariable %ptr_in Input
%helper_var = OpVariable %ptr_bool Input
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %float %in
%c = OpFOrdLessThan %bool %v %half
%any = OpGroupNonUniformQuadAnyKHR %bool %c
%all_true = OpGroupNonUniformQuadAllKHR %bool %true
%is_helper = OpIsHelperInvocationEXT %bool
%helper = OpLoad %bool %helper_var
OpSelectionMerge %merge None
OpBranchConditional %c %kill %merge
%kill = OpLabel
OpKill
%merge = OpLabel
OpReturn
OpFunctionEnd
)";

class QuadLevelsTest : public ::testing::Test {
 protected:
  std::unique_ptr<UniformityInfo> Analyse(const UniformityOptions& options = {}) {
    binary_ = test::MustAssemble(kModule);
    auto context = BuildIrContext(binary_);
    EXPECT_TRUE(context.ok());
    if (!context.ok()) return nullptr;
    context_ = std::move(context).value();
    auto info = UniformityInfo::Compute(context_.get(), options);
    EXPECT_TRUE(info.ok());
    return info.ok() ? std::move(info).value() : nullptr;
  }
  uint32_t Id(const std::string& name) const {
    for (const auto& inst : context_->module()->debugs2()) {
      if (inst.GetInOperand(1).AsString() == name) return inst.GetSingleWordInOperand(0);
    }
    ADD_FAILURE() << "no OpName " << name;
    return 0;
  }

  SpirvBinary binary_;
  std::unique_ptr<spvtools::opt::IRContext> context_;
};

TEST_F(QuadLevelsTest, VotesAreQuadUniformAndHelpersDivergent) {
  auto info = Analyse();
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->ValueLevel(Id("any")), Uniformity::kQuad);
  EXPECT_EQ(info->ValueLevel(Id("all_true")), Uniformity::kUniform);
  EXPECT_EQ(info->ValueLevel(Id("is_helper")), Uniformity::kDivergent);
  EXPECT_EQ(info->ValueLevel(Id("helper")), Uniformity::kDivergent);
}

TEST_F(QuadLevelsTest, WithoutHelperInvocationsBothReadsAreUniform) {
  UniformityOptions options;
  options.without_helper_invocations = true;
  auto info = Analyse(options);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->ValueLevel(Id("is_helper")), Uniformity::kUniform);
  EXPECT_EQ(info->ValueLevel(Id("helper")), Uniformity::kUniform);
}

TEST_F(QuadLevelsTest, KillsAsDemotesMakeTheMergeUniform) {
  auto real = Analyse();
  ASSERT_NE(real, nullptr);
  EXPECT_EQ(real->ControlFlowLevel(Id("merge")), Uniformity::kDivergent);
  UniformityOptions options;
  options.kills_as_demotes = true;
  auto demoted = Analyse(options);
  ASSERT_NE(demoted, nullptr);
  EXPECT_EQ(demoted->ControlFlowLevel(Id("merge")), Uniformity::kUniform);
  EXPECT_EQ(demoted->ValueLevel(Id("c")), Uniformity::kDivergent);
}

}  // namespace
}  // namespace spirv_conv
