// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Break blocks of structured loops (analysis/loop_constructs.h): an
// invocation runs the break block on the iteration it leaves the loop, so
// when invocations leave on different iterations they never run it
// together (SPV_KHR_maximal_reconvergence: "as if they were still diverged
// according to the loop iteration"). The verdicts below follow from that
// rule; LLVM's maximal convergence, which ends the dynamic instance at the
// cycle, would call the block uniform once it post-dominates the loop.

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/uniformity.h"
#include "test/analysis/uniformity_test_fixture.h"
#include "test/motion/motion_test_modules.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

using test::kDivergent;
using test::kUniform;

struct Analysed {
  std::unique_ptr<spvtools::opt::IRContext> context;
  std::unique_ptr<UniformityInfo> info;
};

Analysed Analyse(const std::string& text) {
  Analysed result;
  const SpirvBinary binary = test::MustAssemble(text);
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context = BuildIrContext(binary);
  EXPECT_TRUE(context.ok());
  if (!context.ok()) return result;
  result.context = std::move(*context);
  Expected<std::unique_ptr<UniformityInfo>> info = UniformityInfo::Compute(result.context.get());
  EXPECT_TRUE(info.ok());
  if (info.ok()) result.info = std::move(*info);
  return result;
}

// Once the dead test is folded the break block post-dominates the loop
// body, yet the invocations run it on different iterations: divergent
// control flow, however the CFG looks.
TEST(StructuredBreak, BreakBlockOfALoopWithADivergentExitIsDiverged) {
  for (const char* check : {"OpBranch %body", "OpBranchConditional %true %body %merge"}) {
    const Analysed a = Analyse(test::ComputeModule(test::BallotInBreakBlock(check)));
    ASSERT_TRUE(a.info) << check;
    const spvtools::opt::BasicBlock* brk = a.context->get_instr_block(100);
    ASSERT_NE(brk, nullptr);
    const uint32_t brk_label = brk->id();
    EXPECT_EQ(a.info->ControlFlowLevel(brk_label), kDivergent) << check;
  }
}

// The ballot is the same for the invocations leaving on one iteration (one
// dynamic instance of the break block), not for those of different
// iterations: used in the break block it is subgroup-uniform, used past the
// merge, where all of them meet, it is divergent (temporal divergence over
// the loop construct).
TEST(StructuredBreak, BallotFromABreakBlockIsDivergentPastTheMerge) {
  const Analysed a = Analyse(test::ComputeModule(
      test::BallotInBreakBlock("OpBranch %body", "%101 = OpBitwiseAnd %v4u %100 %100\n")));
  ASSERT_TRUE(a.info);
  const spvtools::opt::Instruction* in_break = a.context->get_def_use_mgr()->GetDef(100);
  const spvtools::opt::Instruction* past_merge = a.context->get_def_use_mgr()->GetDef(101);
  ASSERT_NE(in_break, nullptr);
  ASSERT_NE(past_merge, nullptr);
  EXPECT_EQ(a.info->ValueLevel(100), Uniformity::kSubgroup);
  EXPECT_EQ(a.info->UseLevel(*past_merge, 0), kDivergent);
  EXPECT_EQ(a.info->ValueLevel(101), kDivergent);
}

// The same loop, exited on an iteration every invocation agrees on (n == 1):
// the break block runs once, with everybody: uniform, and so is the ballot's
// control flow.
TEST(StructuredBreak, BreakBlockOfALoopWithAUniformExitIsUniform) {
  std::string body = test::BallotInBreakBlock("OpBranch %body");
  const std::string divergent_test = "%lane = OpBitwiseAnd %uint %i %uint_3\n";
  body.replace(body.find(divergent_test), divergent_test.size(),
               "%lane = OpBitwiseAnd %uint %uint_1 %uint_3\n");
  const Analysed a = Analyse(test::ComputeModule(body));
  ASSERT_TRUE(a.info);
  const spvtools::opt::BasicBlock* brk = a.context->get_instr_block(100);
  ASSERT_NE(brk, nullptr);
  EXPECT_EQ(a.info->ControlFlowLevel(brk->id()), kUniform);
}

}  // namespace
}  // namespace spirv_conv
