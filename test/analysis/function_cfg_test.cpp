// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The CFG of a SPIR-V function, and its cycles, on an unstructured Kernel.

#include "analysis/function_cfg.h"

#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

// An OpenCL kernel with an irreducible cycle (no merge instructions):
//   entry -> a, b (on %c);  a -> b;  b -> a, exit (on %d)
const char* kIrreducibleKernel = R"(; Version: 1.2
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bool = OpTypeBool
%fn = OpTypeFunction %void %bool %bool
%k = OpFunction %void None %fn
%c = OpFunctionParameter %bool
%d = OpFunctionParameter %bool
%entry = OpLabel
OpBranchConditional %c %a %b
%a = OpLabel
OpBranch %b
%b = OpLabel
OpBranchConditional %d %a %exit
%exit = OpLabel
OpReturn
OpFunctionEnd
)";

TEST(FunctionCfg, IrreducibleKernel) {
  const SpirvBinary binary = test::MustAssemble(kIrreducibleKernel);
  auto context = BuildIrContext(binary);
  ASSERT_TRUE(context.ok()) << context.error().message;
  const spvtools::opt::Function& function = *(*context)->module()->begin();
  const analysis::FunctionCfg cfg = analysis::BuildFunctionCfg(function);
  ASSERT_EQ(cfg.cfg.size(), 4u);
  EXPECT_EQ(cfg.cfg.successors[0], (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(cfg.cfg.successors[2], (std::vector<uint32_t>{1, 3}));

  const CycleInfo cycles(cfg.cfg);
  ASSERT_EQ(cycles.TopLevelCycles().size(), 1u);
  const Cycle* cycle = cycles.TopLevelCycles()[0];
  EXPECT_EQ(cfg.label_of[cycle->header()], cfg.label_of[1]);  // %a, reached first
  EXPECT_EQ(cycle->entries().size(), 2u);
  EXPECT_EQ(cycle->exits(), std::vector<uint32_t>{3});
}

TEST(FunctionCfg, SwitchTargetsAppearOnce) {
  const SpirvBinary binary = test::MustAssemble(R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%zero = OpConstant %int 0
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpSwitch %zero %merge 1 %case 2 %case 3 %merge
%case = OpLabel
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)");
  auto context = BuildIrContext(binary);
  ASSERT_TRUE(context.ok()) << context.error().message;
  const analysis::FunctionCfg cfg = analysis::BuildFunctionCfg(*(*context)->module()->begin());
  EXPECT_EQ(cfg.cfg.successors[0], (std::vector<uint32_t>{2, 1}));  // default %merge first
}

}  // namespace
}  // namespace spirv_conv
