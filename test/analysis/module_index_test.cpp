// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// ModuleIndex's call graph: the calls of the function bodies as (caller,
// callee) pairs in module order, and the functions that end an invocation
// themselves. The uniformity analysis closes "may end the invocation" over
// these calls, so a kill in a helper makes its callers' post-dominance see an
// extra exit.

#include "analysis/module_index.h"

#include <string>
#include <utility>
#include <vector>

#include "analysis/function_cfg.h"
#include "source/opcode.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

// main calls helper twice and kill once; helper calls kill; kill ends the
// invocation in one of its two blocks; unused calls nothing.
const char* kCalls = R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%void = OpTypeVoid
%bool = OpTypeBool
%fn = OpTypeFunction %void
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%m0 = OpLabel
%r0 = OpFunctionCall %void %helper
%r1 = OpFunctionCall %void %kill
OpBranch %m1
%m1 = OpLabel
%r2 = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %fn
%h0 = OpLabel
%r3 = OpFunctionCall %void %kill
OpReturn
OpFunctionEnd
%kill = OpFunction %void None %fn
%k0 = OpLabel
OpSelectionMerge %k2 None
OpBranchConditional %true %k1 %k2
%k1 = OpLabel
OpKill
%k2 = OpLabel
OpReturn
OpFunctionEnd
%unused = OpFunction %void None %fn
%u0 = OpLabel
OpReturn
OpFunctionEnd
)";

TEST(ModuleIndex, CallsAndKillsOfTheFunctionBodies) {
  const SpirvBinary binary = test::MustAssemble(kCalls);
  const auto context = test::MustBuildContext(binary);
  ASSERT_NE(context, nullptr);
  const analysis::ModuleIndex index(context.get());
  std::vector<uint32_t> functions;  // main, helper, kill, unused
  for (const auto& function : *context->module()) functions.push_back(function.result_id());
  ASSERT_EQ(functions.size(), 4u);
  const uint32_t main = functions[0], helper = functions[1], kill = functions[2];
  const std::vector<std::pair<uint32_t, uint32_t>> calls = {
      {main, helper}, {main, kill}, {main, helper}, {helper, kill}};
  EXPECT_EQ(index.Calls(), calls);
  EXPECT_EQ(index.KillingFunctions(), std::vector<uint32_t>{kill});
}

// A loop whose latch branches with weights (literals, not ids), a helper
// with a parameter, and %string / %dbg only in the NonSemantic variant:
//   main: entry -> header; header (OpLoopMerge) -> body;
//         body -> header, exit (weights 3 1); exit: return
//   helper(%p): return %p
std::string BodiesModule(bool non_semantic) {
  return std::string(R"(; Version: 1.0
OpCapability Shader
)") +
         (non_semantic ? "OpExtension \"SPV_KHR_non_semantic_info\"\n"
                         "%ns = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n"
                       : "") +
         R"(OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
)" + (non_semantic ? "%string = OpString \"x\"\n" : "") +
         R"(%void = OpTypeVoid
%bool = OpTypeBool
%int = OpTypeInt 32 1
%fn = OpTypeFunction %void
%hfn = OpTypeFunction %int %int
%true = OpConstantTrue %bool
%one = OpConstant %int 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %body None
OpBranch %body
%body = OpLabel
%x = OpFunctionCall %int %helper %one
OpBranchConditional %true %header %exit 3 1
%exit = OpLabel
OpReturn
OpFunctionEnd
%helper = OpFunction %int None %hfn
%p = OpFunctionParameter %int
%h0 = OpLabel
%y = OpIAdd %int %p %one
OpReturnValue %y
OpFunctionEnd
)" + (non_semantic ? "%dbg = OpExtInst %void %ns DebugSource %string\n" : "");
}

// ModuleIndex records each body's instructions as rows: the OpLabel starts
// a block, the rows carry the opcode, the result id and the in-operand ids
// (literals left out), the non-semantic instruction trailing the last
// function is not a row. The same rows whether the walk goes through
// SPIRV-Tools' blocks itself or, with a NonSemantic import, through
// Function::ForEachInst, and the same as RecordFunctionBody's.
TEST(ModuleIndex, RecordsTheRowsOfEachFunctionBody) {
  using Op = spv::Op;
  for (const bool non_semantic : {false, true}) {
    const SpirvBinary binary = test::MustAssemble(BodiesModule(non_semantic).c_str());
    const auto context = test::MustBuildContext(binary);
    ASSERT_NE(context, nullptr);
    const analysis::ModuleIndex index(context.get(), /*record_bodies=*/true);
    std::vector<spvtools::opt::Function*> functions;
    for (auto& function : *context->module()) functions.push_back(&function);
    ASSERT_EQ(functions.size(), 2u);
    const analysis::FunctionBody* main = index.Body(functions[0]);
    const analysis::FunctionBody* helper = index.Body(functions[1]);
    ASSERT_NE(main, nullptr);
    ASSERT_NE(helper, nullptr);
    std::vector<Op> opcodes;
    for (const auto& row : main->rows) opcodes.push_back(row.opcode);
    EXPECT_EQ(opcodes, (std::vector<Op>{Op::OpLabel, Op::OpBranch, Op::OpLabel, Op::OpLoopMerge,
                                        Op::OpBranch, Op::OpLabel, Op::OpFunctionCall,
                                        Op::OpBranchConditional, Op::OpLabel, Op::OpReturn}))
        << non_semantic;
    EXPECT_EQ(main->block_start, (std::vector<uint32_t>{0, 2, 5, 8, 10})) << non_semantic;
    EXPECT_EQ(main->blocks(), 4u);
    // Result ids where the instruction has one, in-operand ids as the
    // instruction reads them: the call's callee and argument, the latch's
    // condition and two targets without its two weights.
    for (uint32_t r = 0; r < main->rows.size(); ++r) {
      const spvtools::opt::Instruction& inst = *main->rows[r].inst;
      EXPECT_EQ(main->rows[r].result_id, inst.result_id()) << r;
      std::vector<uint32_t> expected;
      inst.ForEachInId([&](const uint32_t* in) { expected.push_back(*in); });
      const auto ids = main->in_ids[r];
      EXPECT_EQ(std::vector<uint32_t>(ids.begin(), ids.end()), expected) << r;
    }
    EXPECT_EQ(main->in_ids[7].size(), 3u);  // %true %header %exit
    EXPECT_EQ(main->in_ids[6].size(), 2u);  // %helper %one
    opcodes.clear();
    for (const auto& row : helper->rows) opcodes.push_back(row.opcode);
    EXPECT_EQ(opcodes, (std::vector<Op>{Op::OpLabel, Op::OpIAdd, Op::OpReturnValue}))
        << non_semantic;
    // The CFG from these rows: the header's OpLoopMerge (the row before its
    // terminator), the latch's two targets (its weights are no targets).
    const analysis::FunctionCfg cfg = analysis::BuildFunctionCfg(*main);
    EXPECT_EQ(cfg.loop_merge, (std::vector<const spvtools::opt::Instruction*>{
                                  nullptr, main->rows[3].inst, nullptr, nullptr}));
    EXPECT_EQ(cfg.cfg.successors[2], (std::vector<uint32_t>{1, 3}));
    EXPECT_EQ(cfg.terminator_operand[2], main->in_ids[7][0]);  // %true
    // RecordFunctionBody, the walk of a caller without an index, agrees.
    for (size_t f = 0; f < functions.size(); ++f) {
      const analysis::FunctionBody own = analysis::RecordFunctionBody(*functions[f]);
      const analysis::FunctionBody& kept = *index.Body(functions[f]);
      ASSERT_EQ(own.rows.size(), kept.rows.size());
      for (size_t r = 0; r < own.rows.size(); ++r) {
        EXPECT_EQ(own.rows[r].inst, kept.rows[r].inst);
        EXPECT_EQ(own.rows[r].opcode, kept.rows[r].opcode);
        EXPECT_EQ(own.rows[r].result_id, kept.rows[r].result_id);
        const auto a = own.in_ids[static_cast<uint32_t>(r)];
        const auto b = kept.in_ids[static_cast<uint32_t>(r)];
        EXPECT_EQ(std::vector<uint32_t>(a.begin(), a.end()),
                  std::vector<uint32_t>(b.begin(), b.end()));
      }
      EXPECT_EQ(own.block_start, kept.block_start);
    }
    // Without record_bodies there are none.
    const analysis::ModuleIndex plain(context.get());
    EXPECT_EQ(plain.Body(functions[0]), nullptr);
  }
}

// The inline debug-opcode test agrees with SPIRV-Tools' spvOpcodeIsDebug
// on every opcode value up to past the last one 2023.1 knows.
TEST(ModuleIndex, IsDebugOpcodeMatchesSpirvTools) {
  size_t debug = 0;
  for (uint32_t op = 0; op < 8192; ++op) {
    const auto opcode = static_cast<spv::Op>(op);
    EXPECT_EQ(analysis::IsDebugOpcode(opcode), spvOpcodeIsDebug(opcode)) << op;
    debug += analysis::IsDebugOpcode(opcode);
  }
  EXPECT_EQ(debug, 9u);  // OpName ... OpModuleProcessed
}

}  // namespace
}  // namespace spirv_conv
