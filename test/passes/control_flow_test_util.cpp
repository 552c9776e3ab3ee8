// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/control_flow_test_util.h"

#include "gtest/gtest.h"
#include "sim/sim_test_util.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/load.h"

namespace spirv_conv {
namespace test {

const char kControlFlowPrefix[] = R"(; SPIR-V
; Version: 1.3
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 16 1 1
OpDecorate %lid BuiltIn LocalInvocationIndex
OpDecorate %rt ArrayStride 4
OpMemberDecorate %buf 0 Offset 0
OpDecorate %buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ptr_in_uint = OpTypePointer Input %uint
%lid = OpVariable %ptr_in_uint Input
%rt = OpTypeRuntimeArray %uint
%buf = OpTypeStruct %rt
%ptr_buf = OpTypePointer StorageBuffer %buf
%out = OpVariable %ptr_buf StorageBuffer
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u5 = OpConstant %uint 5
%u7 = OpConstant %uint 7
%u8 = OpConstant %uint 8
%u10 = OpConstant %uint 10
%u100 = OpConstant %uint 100
%u999 = OpConstant %uint 999
)";

TransformOutcome RunControlFlowTransform(const std::string& module,
                                         const ControlFlowTransform& transform) {
  TransformOutcome outcome;
  const SpirvBinary input = MustLoad("case.spvasm", module);
  Expected<SpirvBinary> output = transform(input, &outcome);
  EXPECT_TRUE(output) << output.error().message;
  if (!output) return outcome;
  outcome.output = *output;

  const sim::Buffer out = Zeros(0, 64);
  // Unstructured input only runs under ipdom, and spirv-val refuses it.
  Expected<sim::RunResult> before = RunBinary(input, {out}, Options(sim::Model::kIpdom, 8), false);
  EXPECT_TRUE(before) << before.error().message;
  for (sim::Model model : {sim::Model::kMaximal, sim::Model::kIpdom}) {
    Expected<sim::RunResult> after = RunBinary(*output, {out}, Options(model, 8));
    EXPECT_TRUE(after) << after.error().message;
    if (!before || !after) return outcome;
    outcome.words = WordsOf(*after, 0);
    EXPECT_EQ(WordsOf(*before, 0), outcome.words) << sim::ModelName(model);
  }
  return outcome;
}

TransformOutcome RunStructurize(const std::string& module) {
  return RunControlFlowTransform(module, [](const SpirvBinary& input, TransformOutcome* outcome) {
    return StructurizeBinary(input, ValidatorFlags(), false, &outcome->stats);
  });
}

size_t CountOpcode(const SpirvBinary& binary, spv::Op op) {
  size_t count = 0;
  ForEachInstruction(binary,
                     [&](spv::Op seen, const std::vector<uint32_t>&) { count += seen == op; });
  return count;
}

size_t DeadValues(const SpirvBinary& binary) {
  auto context = BuildIrContext(binary);
  EXPECT_TRUE(context.ok());
  if (!context.ok()) return 0;
  size_t dead = 0;
  for (spvtools::opt::Function& function : *(*context)->module()) {
    function.ForEachInst([&](spvtools::opt::Instruction* inst) {
      dead += inst->HasResultId() && inst->opcode() != spv::Op::OpLabel &&
              inst->opcode() != spv::Op::OpVariable && (*context)->IsCombinatorInstruction(inst) &&
              (*context)->get_def_use_mgr()->NumUses(inst) == 0;
    });
  }
  return dead;
}

}  // namespace test
}  // namespace spirv_conv
