// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// UniformityAnalysisPass: the uniformity analysis inside a SPIRV-Tools pass
// pipeline (spvtools::Optimizer, after a real SPIRV-Tools pass) and run
// directly on an IRContext. Every verdict is reasoned from the sources table
// of docs/uniformity.md next to the module, never copied from a run: loads of
// WorkgroupId and kernel arguments are uniform, LocalInvocationId divergent, a
// phi at the join of a divergent branch divergent, the blocks only one side of
// a divergent branch runs divergent, and a block every invocation reaches
// uniform.

#include "spirv_conv/uniformity_pass.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "source/opt/ir_context.h"
#include "spirv-tools/optimizer.hpp"
#include "spirv_conv/ir.h"
#include "spirv_conv/uniformity.h"
#include "spirv_conv/validate.h"
#include "test/analysis/uniformity_test_fixture.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

using spvtools::opt::IRContext;
using spvtools::opt::Pass;
using test::kDivergent;
using test::kUniform;

// A Vulkan-style compute shader (SPIR-V 1.0, structured control flow):
//
//   Entry     group = WorkgroupId.x, lane = LocalInvocationId.x
//     |  \    branch on group == 0: uniform (WorkgroupId is the same for the
//     |  First  whole workgroup, the invocation group of a dispatch)
//     |  /
//   Mid       group.pick = phi(1 from First, 0 from Entry): uniform, a join of
//     |  \    a uniform branch; branch on lane < 4: divergent
//     |  Low  low.val = group.pick + 1: uniform (uniform operands; only
//     |  /    some invocations run Low, but those agree)
//   Join      lane.pick = phi(low.val from Low, group.pick from Mid):
//             divergent, a join of the divergent branch in Mid
//
// First runs in uniform control flow (all invocations of the workgroup take
// the same side), Low in divergent control flow; Mid and Join post-dominate
// Entry, so every invocation runs them together: uniform.
constexpr char kCompute[] = R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %wid %lid
OpExecutionMode %main LocalSize 64 1 1
OpSource GLSL 450
OpName %main "main"
OpName %wid "wid"
OpName %lid "lid"
OpName %Entry "Entry"
OpName %group "group"
OpName %lane "lane"
OpName %First "First"
OpName %Mid "Mid"
OpName %group_pick "group.pick"
OpName %Low "Low"
OpName %low_val "low.val"
OpName %Join "Join"
OpName %lane_pick "lane.pick"
OpDecorate %wid BuiltIn WorkgroupId
OpDecorate %lid BuiltIn LocalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%ptr_Input_v3uint = OpTypePointer Input %v3uint
%wid = OpVariable %ptr_Input_v3uint Input
%lid = OpVariable %ptr_Input_v3uint Input
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%main = OpFunction %void None %fn
%Entry = OpLabel
%wid_v = OpLoad %v3uint %wid
%group = OpCompositeExtract %uint %wid_v 0
%lid_v = OpLoad %v3uint %lid
%lane = OpCompositeExtract %uint %lid_v 0
%group_cond = OpIEqual %bool %group %uint_0
OpSelectionMerge %Mid None
OpBranchConditional %group_cond %First %Mid
%First = OpLabel
OpBranch %Mid
%Mid = OpLabel
%group_pick = OpPhi %uint %uint_1 %First %uint_0 %Entry
%lane_cond = OpULessThan %bool %lane %uint_4
OpSelectionMerge %Join None
OpBranchConditional %lane_cond %Low %Join
%Low = OpLabel
%low_val = OpIAdd %uint %group_pick %uint_1
OpBranch %Join
%Join = OpLabel
%lane_pick = OpPhi %uint %low_val %Low %group_pick %Mid
OpReturn
OpFunctionEnd
)";

// A Kernel (uniformity_test_fixture.h adds %lid, the types and constants):
//
//   Entry     branch on n < 10: uniform (n is a kernel argument, the same
//     |  \    for every work-item of the dispatch)
//     |  Then then.val = n + 1: uniform
//     |  /
//   Merge     merged = phi(then.val, n): uniform, a join of a uniform branch;
//     |  \    branch on tid < merged: divergent (tid is LocalInvocationId.x)
//     |  Lane lane.val = merged + 1: uniform operands, uniform
//     |  /
//   Exit      result = phi(lane.val, merged): divergent, a join of the
//             divergent branch in Merge
//
// Flow: Then uniform, Lane divergent, Merge and Exit uniform (they
// post-dominate Entry).
constexpr char kKernelFunction[] = R"(
OpName %n "n"
OpName %Entry "Entry"
OpName %tid "tid"
OpName %Then "Then"
OpName %then_val "then.val"
OpName %Merge "Merge"
OpName %merged "merged"
OpName %Lane "Lane"
OpName %lane_val "lane.val"
OpName %Exit "Exit"
OpName %result "result"
%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%arg_cond = OpULessThan %bool %n %uint_10
OpBranchConditional %arg_cond %Then %Merge
%Then = OpLabel
%then_val = OpIAdd %uint %n %uint_1
OpBranch %Merge
%Merge = OpLabel
%merged = OpPhi %uint %then_val %Then %n %Entry
%lane_cond = OpULessThan %bool %tid %merged
OpBranchConditional %lane_cond %Lane %Exit
%Lane = OpLabel
%lane_val = OpIAdd %uint %merged %uint_1
OpBranch %Exit
%Exit = OpLabel
%result = OpPhi %uint %lane_val %Lane %merged %Merge
OpReturn
OpFunctionEnd
)";

// A Kernel that reads the global memory behind its pointer argument %p and
// stores nothing. The address is uniform (a kernel argument), the content
// is not by default: another work-item may write it concurrently (the
// CrossWorkgroup row of the sources table). With
// assume_no_concurrent_writes the content is what the kernel stores:
// nothing, so the loaded value is uniform.
constexpr char kPointerKernelFunction[] = R"(
OpName %p "p"
OpName %x "x"
%ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
%fn_ptr = OpTypeFunction %void %ptr_CrossWorkgroup_uint
%f = OpFunction %void None %fn_ptr
%p = OpFunctionParameter %ptr_CrossWorkgroup_uint
%Entry = OpLabel
%x = OpLoad %uint %p Aligned 4
OpReturn
OpFunctionEnd
)";

// The validated binary of |text|.
SpirvBinary ValidBinary(const std::string& text) {
  SpirvBinary binary = test::MustAssemble(text);
  const Status valid =
      ValidateSpirv(binary.words, binary.target_env, {}, "test.spvasm", ExitCode::kBadInput);
  EXPECT_TRUE(valid.ok()) << valid.error().message;
  return binary;
}

// The ids of the OpNames of |context|.
std::map<std::string, uint32_t> IdsByName(IRContext& context) {
  std::map<std::string, uint32_t> ids;
  for (const spvtools::opt::Instruction& inst : context.module()->debugs2()) {
    if (inst.opcode() != spv::Op::OpName) continue;
    ids[inst.GetInOperand(1).AsString()] = inst.GetSingleWordInOperand(0);
  }
  return ids;
}

// Levels and statuses compare by name, so that a failure prints
// "uniform"/"divergent" or "SuccessWithoutChange"/"Failure".
#define EXPECT_LEVEL(actual, expected) \
  EXPECT_STREQ(UniformityName(actual), UniformityName(expected))

const char* StatusName(Pass::Status status) {
  switch (status) {
    case Pass::Status::Failure:
      return "Failure";
    case Pass::Status::SuccessWithChange:
      return "SuccessWithChange";
    case Pass::Status::SuccessWithoutChange:
      return "SuccessWithoutChange";
  }
  return "?";
}
constexpr char kWithoutChange[] = "SuccessWithoutChange";

// Runs |binary| through an Optimizer with |passes| registered in order;
// fails the test when the run fails or reports an error.
std::vector<uint32_t> RunOptimizer(const SpirvBinary& binary,
                                   std::vector<spvtools::Optimizer::PassToken> passes) {
  spvtools::Optimizer optimizer(binary.target_env);
  std::string errors;
  optimizer.SetMessageConsumer(
      [&errors](spv_message_level_t level, const char*, const spv_position_t&, const char* text) {
        if (level <= SPV_MSG_ERROR) errors += std::string(text) + "\n";
      });
  for (auto& pass : passes) optimizer.RegisterPass(std::move(pass));
  std::vector<uint32_t> out;
  EXPECT_TRUE(optimizer.Run(binary.words.data(), binary.words.size(), &out)) << errors;
  EXPECT_EQ(errors, "");
  return out;
}

TEST(UniformityAnalysisPass, NameMatchesTheSpirvOptFlagStyle) {
  EXPECT_STREQ(UniformityAnalysisPass().name(), "uniformity-analysis");
}

// (1) In an Optimizer pipeline after spirv-opt's strip-debug pass: the
// callback sees the stripped IR (the earlier pass ran and changed it) and
// answers for it; the pipeline succeeds, and its output is exactly what the
// pipeline without the analysis gives.
TEST(UniformityAnalysisPass, InOptimizerPipelineAfterStripDebugInfo) {
  const SpirvBinary binary = ValidBinary(kCompute);
  ASSERT_FALSE(binary.words.empty());
  // Names from the input: strip-debug removes the OpNames but renumbers nothing.
  std::unique_ptr<IRContext> input = test::MustBuildContext(binary);
  ASSERT_NE(input, nullptr);
  const std::map<std::string, uint32_t> ids = IdsByName(*input);
  auto id = [&ids](const std::string& name) {
    auto found = ids.find(name);
    EXPECT_NE(found, ids.end()) << "no OpName \"" << name << "\"";
    return found == ids.end() ? 0u : found->second;
  };

  int calls = 0;
  std::vector<spvtools::Optimizer::PassToken> passes;
  passes.push_back(spvtools::CreateStripDebugInfoPass());
  passes.push_back(
      CreateUniformityAnalysisPass([&](const UniformityInfo& info, IRContext* context) {
        ++calls;
        ASSERT_NE(context, nullptr);
        EXPECT_TRUE(context->module()->debugs2().empty()) << "strip-debug ran before";
        // WorkgroupId: uniform value, branch, join and flow.
        EXPECT_LEVEL(info.ValueLevel(id("group")), kUniform);
        EXPECT_LEVEL(info.BranchLevel(id("Entry")), kUniform);
        EXPECT_FALSE(info.HasDivergentBranch(id("Entry")));
        EXPECT_LEVEL(info.ControlFlowLevel(id("First")), kUniform);
        EXPECT_LEVEL(info.ValueLevel(id("group.pick")), kUniform);
        // LocalInvocationId: divergent value, branch, flow and join.
        EXPECT_LEVEL(info.ValueLevel(id("lane")), kDivergent);
        EXPECT_LEVEL(info.BranchLevel(id("Mid")), kDivergent);
        EXPECT_TRUE(info.HasDivergentBranch(id("Mid")));
        EXPECT_LEVEL(info.ControlFlowLevel(id("Low")), kDivergent);
        EXPECT_LEVEL(info.ValueLevel(id("low.val")), kUniform);
        EXPECT_LEVEL(info.ValueLevel(id("lane.pick")), kDivergent);
        // Blocks every invocation runs together.
        EXPECT_LEVEL(info.ControlFlowLevel(id("Mid")), kUniform);
        EXPECT_LEVEL(info.ControlFlowLevel(id("Join")), kUniform);
        // lane.pick is explained by the join of the branch in Mid, back to
        // the LocalInvocationId load.
        const std::vector<UniformityStep> steps = info.ExplainValue(id("lane.pick"));
        ASSERT_FALSE(steps.empty());
        EXPECT_EQ(steps.front().kind, UniformityStep::Kind::kJoin);
        EXPECT_EQ(steps.front().cause, id("Mid"));
        EXPECT_EQ(steps.back().kind, UniformityStep::Kind::kSource);
        EXPECT_EQ(steps.back().cause, id("lid"));
      }));
  const std::vector<uint32_t> with_analysis = RunOptimizer(binary, std::move(passes));
  EXPECT_EQ(calls, 1);

  std::vector<spvtools::Optimizer::PassToken> strip_only;
  strip_only.push_back(spvtools::CreateStripDebugInfoPass());
  const std::vector<uint32_t> without_analysis = RunOptimizer(binary, std::move(strip_only));
  EXPECT_FALSE(test::HasOpcode(without_analysis, static_cast<uint32_t>(spv::Op::OpName)));
  EXPECT_EQ(with_analysis, without_analysis) << "the analysis changed the binary";
}

// The analysis alone in a pipeline: the output is the input, word for word.
TEST(UniformityAnalysisPass, AloneInOptimizerPipelineLeavesTheBinaryUnchanged) {
  const SpirvBinary binary = ValidBinary(kCompute);
  int calls = 0;
  std::vector<spvtools::Optimizer::PassToken> passes;
  passes.push_back(
      CreateUniformityAnalysisPass([&calls](const UniformityInfo&, IRContext*) { ++calls; }));
  EXPECT_EQ(RunOptimizer(binary, std::move(passes)), binary.words);
  EXPECT_EQ(calls, 1);
}

// (2) Run directly on an IRContext: status, callback and info() agree, and
// the verdicts are those reasoned above kKernelFunction.
TEST(UniformityAnalysisPass, RunOnIrContext) {
  const SpirvBinary binary = ValidBinary(test::KernelModule("branches", kKernelFunction));
  std::unique_ptr<IRContext> context = test::MustBuildContext(binary);
  ASSERT_NE(context, nullptr);
  const std::map<std::string, uint32_t> ids = IdsByName(*context);

  const UniformityInfo* seen = nullptr;
  IRContext* seen_context = nullptr;
  UniformityAnalysisPass pass([&](const UniformityInfo& info, IRContext* ctx) {
    seen = &info;
    seen_context = ctx;
  });
  EXPECT_EQ(pass.info(), nullptr) << "no result before Run";
  ASSERT_STREQ(StatusName(pass.Run(context.get())), kWithoutChange);
  ASSERT_NE(pass.info(), nullptr);
  EXPECT_EQ(seen, pass.info()) << "the callback receives the kept result";
  EXPECT_EQ(seen_context, context.get());

  const UniformityInfo& info = *pass.info();
  EXPECT_LEVEL(info.ValueLevel(ids.at("n")), kUniform);
  EXPECT_LEVEL(info.BranchLevel(ids.at("Entry")), kUniform);
  EXPECT_LEVEL(info.ValueLevel(ids.at("then.val")), kUniform);
  EXPECT_LEVEL(info.ControlFlowLevel(ids.at("Then")), kUniform);
  EXPECT_LEVEL(info.ValueLevel(ids.at("merged")), kUniform);
  EXPECT_LEVEL(info.ValueLevel(ids.at("tid")), kDivergent);
  EXPECT_LEVEL(info.BranchLevel(ids.at("Merge")), kDivergent);
  EXPECT_LEVEL(info.ControlFlowLevel(ids.at("Lane")), kDivergent);
  EXPECT_LEVEL(info.ValueLevel(ids.at("lane.val")), kUniform);
  EXPECT_LEVEL(info.ValueLevel(ids.at("result")), kDivergent);
  EXPECT_LEVEL(info.ControlFlowLevel(ids.at("Merge")), kUniform);
  EXPECT_LEVEL(info.ControlFlowLevel(ids.at("Exit")), kUniform);

  // TakeInfo moves the result out; it stays usable while the context lives.
  std::unique_ptr<UniformityInfo> taken = pass.TakeInfo();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(pass.info(), nullptr);
  EXPECT_LEVEL(taken->ValueLevel(ids.at("result")), kDivergent);
}

// The options given to the pass reach the analysis.
TEST(UniformityAnalysisPass, PassesItsOptionsToTheAnalysis) {
  const SpirvBinary binary = ValidBinary(test::KernelModule("pointer", kPointerKernelFunction));
  for (bool assume : {false, true}) {
    SCOPED_TRACE(assume ? "assume_no_concurrent_writes" : "default options");
    std::unique_ptr<IRContext> context = test::MustBuildContext(binary);
    ASSERT_NE(context, nullptr);
    const std::map<std::string, uint32_t> ids = IdsByName(*context);
    UniformityOptions options;
    options.assume_no_concurrent_writes = assume;
    UniformityAnalysisPass pass(nullptr, options);
    ASSERT_STREQ(StatusName(pass.Run(context.get())), kWithoutChange);
    ASSERT_NE(pass.info(), nullptr);
    EXPECT_LEVEL(pass.info()->ValueLevel(ids.at("p")), kUniform);
    EXPECT_LEVEL(pass.info()->ValueLevel(ids.at("x")), assume ? kUniform : kDivergent);
  }
}

// (3) UniformityInfo::Compute has no failure on valid IR today (Impl::Run
// always succeeds), so the failure branch cannot be reached from a test.
// What the pass promises instead: SuccessWithoutChange, the IR untouched, the
// context's analyses still valid, and every analysis declared preserved.
TEST(UniformityAnalysisPass, ChangesNothingAndPreservesAnalyses) {
  const SpirvBinary binary = ValidBinary(test::KernelModule("branches", kKernelFunction));
  std::unique_ptr<IRContext> context = test::MustBuildContext(binary);
  ASSERT_NE(context, nullptr);
  const std::vector<uint32_t> before = EmitBinary(*context);
  const uint32_t id_bound = context->module()->id_bound();

  // Build some analyses the pipeline's next pass would reuse.
  spvtools::opt::Function* function = &*context->module()->begin();
  context->get_def_use_mgr();
  context->get_decoration_mgr();
  context->cfg();
  context->GetDominatorAnalysis(function);
  const auto built = IRContext::kAnalysisDefUse | IRContext::kAnalysisDecorations |
                     IRContext::kAnalysisCFG | IRContext::kAnalysisDominatorAnalysis;
  ASSERT_TRUE(context->AreAnalysesValid(built));

  UniformityAnalysisPass pass;
  EXPECT_STREQ(StatusName(pass.Run(context.get())), kWithoutChange);
  EXPECT_TRUE(context->AreAnalysesValid(built)) << "the pass invalidated an analysis";
  EXPECT_EQ(EmitBinary(*context), before);
  EXPECT_EQ(context->module()->id_bound(), id_bound);

  const IRContext::Analysis preserved = pass.GetPreservedAnalyses();
  for (uint32_t bit = IRContext::kAnalysisBegin; bit <= IRContext::kAnalysisEnd; bit <<= 1) {
    EXPECT_NE(static_cast<uint32_t>(preserved) & bit, 0u)
        << "analysis bit " << bit << " not preserved";
  }
}

// A pass instance runs once (spvtools::opt::Pass::Run): a second Run fails
// without calling the callback again.
TEST(UniformityAnalysisPass, SecondRunOfOneInstanceFails) {
  const SpirvBinary binary = ValidBinary(test::KernelModule("branches", kKernelFunction));
  std::unique_ptr<IRContext> context = test::MustBuildContext(binary);
  ASSERT_NE(context, nullptr);
  int calls = 0;
  UniformityAnalysisPass pass([&calls](const UniformityInfo&, IRContext*) { ++calls; });
  EXPECT_STREQ(StatusName(pass.Run(context.get())), kWithoutChange);
  EXPECT_STREQ(StatusName(pass.Run(context.get())), "Failure");
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace spirv_conv
