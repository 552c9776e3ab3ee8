// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The opcode table (analysis/convergence_classes.h) on the instructions of
// one compute module with derivatives (SPV_NV_compute_shader_derivatives),
// barriers and group operations. Expectations from the SPIR-V spec: explicit
// derivatives and implicit-LOD sampling need quad-uniform control flow;
// OpControlBarrier and group operations need their Execution scope; a
// ballot, vote, reduction or broadcast depends on the active invocations,
// a ballot bit count of a given ballot does not; Broadcast's Id must be
// subgroup-uniform and QuadBroadcast's Index quad-uniform.

#include "analysis/convergence_classes.h"

#include <map>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace analysis {
namespace {

constexpr char kModule[] = R"(; Version: 1.3
OpCapability Shader
OpCapability ImageQuery
OpCapability GroupNonUniform
OpCapability GroupNonUniformBallot
OpCapability GroupNonUniformArithmetic
OpCapability GroupNonUniformQuad
OpCapability ComputeDerivativeGroupQuadsNV
OpExtension "SPV_NV_compute_shader_derivatives"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 8 8 1
OpExecutionMode %main DerivativeGroupQuadsNV
OpName %dx "dx"
OpName %fwidth "fwidth"
OpName %sample "sample"
OpName %explicit "explicit"
OpName %lod "lod"
OpName %ballot "ballot"
OpName %count "count"
OpName %any "any"
OpName %sum "sum"
OpName %bcast "bcast"
OpName %quad "quad"
OpName %add "add"
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%v4uint = OpTypeVector %uint 4
%uint_0 = OpConstant %uint 0
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_264 = OpConstant %uint 264
%float_1 = OpConstant %float 1
%coord = OpConstantComposite %v2float %float_1 %float_1
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%ptr = OpTypePointer UniformConstant %simg
%tex = OpVariable %ptr UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%dx = OpDPdx %float %float_1
%fwidth = OpFwidthCoarse %float %float_1
%t = OpLoad %simg %tex
%sample = OpImageSampleImplicitLod %v4float %t %coord
%explicit = OpImageSampleExplicitLod %v4float %t %coord Lod %float_1
%lod = OpImageQueryLod %v2float %t %coord
OpControlBarrier %uint_2 %uint_2 %uint_264
OpControlBarrier %uint_3 %uint_3 %uint_264
%ballot = OpGroupNonUniformBallot %v4uint %uint_3 %true
%count = OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %ballot
%any = OpGroupNonUniformAny %bool %uint_3 %true
%sum = OpGroupNonUniformFAdd %float %uint_3 Reduce %float_1
%bcast = OpGroupNonUniformBroadcast %float %uint_3 %float_1 %uint_0
%quad = OpGroupNonUniformQuadBroadcast %float %uint_3 %float_1 %uint_0
%add = OpFAdd %float %float_1 %float_1
OpReturn
OpFunctionEnd
)";

class ConvergenceClassesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    binary_ = test::MustAssemble(kModule);
    auto context = BuildIrContext(binary_);
    ASSERT_TRUE(context.ok()) << context.error().message;
    context_ = std::move(context).value();
    index_ = std::make_unique<ModuleIndex>(context_.get());
    for (const auto& inst : context_->module()->debugs2()) {
      ids_[inst.GetInOperand(1).AsString()] = inst.GetSingleWordInOperand(0);
    }
    for (auto& inst : *context_->module()->begin()->begin()) {
      if (inst.opcode() == spv::Op::OpControlBarrier) barriers_.push_back(&inst);
    }
  }
  const spvtools::opt::Instruction& Def(const std::string& name) {
    return *index_->Def(ids_.at(name));
  }
  Uniformity Required(const spvtools::opt::Instruction& inst) {
    return RequiredControlFlow(inst, ClassifyConvergence(inst), *index_);
  }

  SpirvBinary binary_;
  std::unique_ptr<spvtools::opt::IRContext> context_;
  std::unique_ptr<ModuleIndex> index_;
  std::map<std::string, uint32_t> ids_;
  std::vector<const spvtools::opt::Instruction*> barriers_;
};

TEST_F(ConvergenceClassesTest, Derivatives) {
  for (const char* name : {"dx", "fwidth"}) {
    const ConvergenceClass cls = ClassifyConvergence(Def(name));
    EXPECT_TRUE(cls.Has(kConvergent) && cls.Has(kDerivative)) << name;
    EXPECT_FALSE(cls.Has(kCoConvergent)) << name;
    EXPECT_EQ(cls.derivative, DerivativeKind::kExplicit) << name;
    EXPECT_EQ(Required(Def(name)), Uniformity::kQuad) << name;
  }
  for (const char* name : {"sample", "lod"}) {
    EXPECT_EQ(ClassifyConvergence(Def(name)).derivative, DerivativeKind::kImplicit) << name;
    EXPECT_EQ(Required(Def(name)), Uniformity::kQuad) << name;
  }
  EXPECT_EQ(ClassifyConvergence(Def("explicit")).flags, 0u);
  EXPECT_EQ(ClassifyConvergence(Def("add")).flags, 0u);
  EXPECT_EQ(Required(Def("add")), Uniformity::kDivergent);
}

TEST_F(ConvergenceClassesTest, BarriersNeedTheirExecutionScope) {
  ASSERT_EQ(barriers_.size(), 2u);
  const ConvergenceClass cls = ClassifyConvergence(*barriers_[0]);
  EXPECT_TRUE(cls.Has(kBarrier) && cls.Has(kConvergent));
  EXPECT_EQ(cls.scope_operand, 0u);
  EXPECT_EQ(Required(*barriers_[0]), Uniformity::kUniform);   // Workgroup
  EXPECT_EQ(Required(*barriers_[1]), Uniformity::kSubgroup);  // Subgroup
}

TEST_F(ConvergenceClassesTest, GroupOperations) {
  for (const char* name : {"ballot", "any", "sum", "bcast"}) {
    const ConvergenceClass cls = ClassifyConvergence(Def(name));
    EXPECT_TRUE(cls.Has(kCoConvergent) && cls.Has(kGroupOperation)) << name;
    EXPECT_EQ(Required(Def(name)), Uniformity::kSubgroup) << name;
  }
  const ConvergenceClass count = ClassifyConvergence(Def("count"));
  EXPECT_TRUE(count.Has(kConvergent) && count.Has(kGroupOperation));
  EXPECT_FALSE(count.Has(kCoConvergent));

  const ConvergenceClass bcast = ClassifyConvergence(Def("bcast"));
  EXPECT_EQ(bcast.uniform_operand, 2u);
  EXPECT_EQ(RequiredOperandUniformity(Def("bcast"), bcast, *index_), Uniformity::kSubgroup);

  const ConvergenceClass quad = ClassifyConvergence(Def("quad"));
  EXPECT_TRUE(quad.Has(kCoConvergent));
  EXPECT_EQ(Required(Def("quad")), Uniformity::kQuad);
  EXPECT_EQ(RequiredOperandUniformity(Def("quad"), quad, *index_), Uniformity::kQuad);
}

}  // namespace
}  // namespace analysis
}  // namespace spirv_conv
