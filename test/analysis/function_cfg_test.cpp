// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The CFG of a SPIR-V function, and its cycles, on an unstructured Kernel.

#include "analysis/function_cfg.h"

#include <string>

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
  const auto context = test::MustBuildContext(binary);
  ASSERT_NE(context, nullptr);
  const spvtools::opt::Function& function = *context->module()->begin();
  const analysis::FunctionCfg cfg = analysis::BuildFunctionCfg(function);
  ASSERT_EQ(cfg.cfg.size(), 4u);
  EXPECT_EQ(cfg.cfg.successors[0], (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(cfg.cfg.successors[2], (std::vector<uint32_t>{1, 3}));
  // The conditions %c and %d (the kernel's parameters) of the two
  // OpBranchConditional; nothing for OpBranch and OpReturn.
  std::vector<uint32_t> params;
  function.ForEachParam(
      [&](const spvtools::opt::Instruction* p) { params.push_back(p->result_id()); });
  EXPECT_EQ(cfg.terminator_operand, (std::vector<uint32_t>{params[0], 0, params[1], 0}));
  EXPECT_EQ(cfg.terminator_opcode,
            (std::vector<spv::Op>{spv::Op::OpBranchConditional, spv::Op::OpBranch,
                                  spv::Op::OpBranchConditional, spv::Op::OpReturn}));

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
  const auto context = test::MustBuildContext(binary);
  ASSERT_NE(context, nullptr);
  const analysis::FunctionCfg cfg = analysis::BuildFunctionCfg(*context->module()->begin());
  EXPECT_EQ(cfg.cfg.successors[0], (std::vector<uint32_t>{2, 1}));  // default %merge first
  // The selector %zero.
  EXPECT_EQ(cfg.terminator_operand[0],
            context->module()->begin()->begin()->tail()->GetSingleWordInOperand(0));
  EXPECT_NE(cfg.terminator_operand[0], 0u);
}

// OpReturnValue's value is the terminator operand the function summary reads.
TEST(FunctionCfg, ReturnValueIsTheTerminatorOperand) {
  const SpirvBinary binary = test::MustAssemble(R"(; Version: 1.2
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%kfn = OpTypeFunction %void
%fn = OpTypeFunction %uint %uint
%k = OpFunction %void None %kfn
%k0 = OpLabel
OpReturn
OpFunctionEnd
%f = OpFunction %uint None %fn
%x = OpFunctionParameter %uint
%f0 = OpLabel
OpReturnValue %x
OpFunctionEnd
)");
  const auto context = test::MustBuildContext(binary);
  ASSERT_NE(context, nullptr);
  std::vector<const spvtools::opt::Function*> functions;  // %k, %f
  for (const auto& function : *context->module()) functions.push_back(&function);
  ASSERT_EQ(functions.size(), 2u);
  const spvtools::opt::Function& f = *functions[1];
  const analysis::FunctionCfg cfg = analysis::BuildFunctionCfg(f);
  uint32_t x = 0;
  f.ForEachParam([&](const spvtools::opt::Instruction* p) { x = p->result_id(); });
  EXPECT_EQ(cfg.terminator_opcode, std::vector<spv::Op>{spv::Op::OpReturnValue});
  EXPECT_EQ(cfg.terminator_operand, std::vector<uint32_t>{x});
}

// Index answers by a table over the label range, or by a search when the
// labels are spread too widely for one (ids given by number here): both
// find every block and nothing else.
TEST(FunctionCfg, IndexFindsEveryLabelWhateverTheirSpread) {
  for (const char* far : {"%20", "%900000"}) {
    const std::string text = std::string(R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %1 "main"
OpExecutionMode %1 LocalSize 1 1 1
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeBool
%5 = OpConstantTrue %4
%1 = OpFunction %2 None %3
%10 = OpLabel
OpSelectionMerge %12 None
OpBranchConditional %5 )") + far +
                             R"( %12
)" + far + R"( = OpLabel
%11 = OpLogicalNot %4 %5
OpBranch %12
%12 = OpLabel
OpReturn
OpFunctionEnd
)";
    const SpirvBinary binary = test::MustAssemble(text.c_str());
    const auto context = test::MustBuildContext(binary);
    ASSERT_NE(context, nullptr);
    const analysis::FunctionCfg cfg = analysis::BuildFunctionCfg(*context->module()->begin());
    ASSERT_EQ(cfg.cfg.size(), 3u) << far;
    EXPECT_EQ(cfg.by_label.empty(), std::string(far) == "%20") << far;  // each way once
    for (uint32_t b = 0; b < cfg.cfg.size(); ++b) EXPECT_EQ(cfg.Index(cfg.label_of[b]), b) << far;
    EXPECT_EQ(cfg.cfg.successors[0], (std::vector<uint32_t>{1, 2})) << far;
    for (uint32_t other : {0u, 1u, 5u, 9u, 11u, 13u, 19u, 21u, 899999u, 900001u, ~0u}) {
      if (other == cfg.label_of[1]) continue;
      EXPECT_EQ(cfg.Index(other), ~0u) << far << ": id " << other;
    }
  }
}

}  // namespace
}  // namespace spirv_conv
