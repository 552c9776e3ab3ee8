// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// RunGuardedOptimizer's two paths (docs/motion.md, "the guarded
// optimizer"): a legal -O runs as one sequence, checked once, and its output
// is SPIRV-Tools' own -O output; --check-each-pass runs each pass on its own.
// The fallback from a failed check to per-pass rollbacks is motion.repro's
// (the reproduced spirv-opt convergence bugs and the crashing pass).

#include "spirv_conv/guarded_optimizer.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "spirv-tools/optimizer.hpp"
#include "test/motion/motion_test_modules.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

using Outcome = OptimizerPassResult::Outcome;

// A sample in a uniform branch, copied before it is stored, and a second
// sample nothing uses: -O folds the copy and deletes the dead sample, and
// moves no sample across divergent control flow.
const char* kBody = R"(OpSelectionMerge %m None
OpBranchConditional %ucond %a %m
%a = OpLabel
%101 = OpLoad %simg %tex
%102 = OpImageSampleImplicitLod %v4 %101 %c
%103 = OpCopyObject %v4 %102
%104 = OpImageSampleImplicitLod %v4 %101 %c
OpStore %out %103
OpBranch %m
%m = OpLabel
OpReturn
)";

std::vector<uint32_t> SpirvOptO(const SpirvBinary& binary) {
  spvtools::Optimizer optimizer(binary.target_env);
  optimizer.RegisterPerformancePasses();
  std::vector<uint32_t> out;
  EXPECT_TRUE(optimizer.Run(binary.words.data(), binary.words.size(), &out));
  return out;
}

GuardedOptimizerOptions Options(const SpirvBinary& binary, bool isolate, bool each) {
  GuardedOptimizerOptions options;
  Expected<std::vector<std::string>> flags = ExpandOptimizerFlags({"-O"}, binary.target_env);
  EXPECT_TRUE(flags.ok());
  if (flags.ok()) options.flags = *flags;
  options.isolate_passes = isolate;
  options.check_each_pass = each;
  return options;
}

TEST(GuardedOptimizer, LegalSequenceIsCheckedOnceAndIsSpirvOptsOutput) {
  const SpirvBinary binary = test::MustAssemble(test::FragmentModule(kBody));
  const std::vector<uint32_t> expected = SpirvOptO(binary);
  ASSERT_NE(expected, binary.words);
  for (bool isolate : {false, true}) {
    const GuardedOptimizerOptions options = Options(binary, isolate, /*each=*/false);
    std::vector<OptimizerPassResult> passes;
    Expected<GuardedOptimizerResult> result = RunGuardedOptimizer(binary, options, &passes);
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_EQ(result->words, expected) << "isolate " << isolate;
    ASSERT_EQ(passes.size(), options.flags.size());
    for (const OptimizerPassResult& pass : passes) {
      EXPECT_EQ(pass.outcome, Outcome::kApplied) << pass.flag;
    }
  }
}

TEST(GuardedOptimizer, CheckEachPassReportsEveryPass) {
  const SpirvBinary binary = test::MustAssemble(test::FragmentModule(kBody));
  const GuardedOptimizerOptions options = Options(binary, /*isolate=*/false, /*each=*/true);
  std::vector<OptimizerPassResult> passes;
  Expected<GuardedOptimizerResult> result = RunGuardedOptimizer(binary, options, &passes);
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(passes.size(), options.flags.size());
  size_t kept = 0;
  for (const OptimizerPassResult& pass : passes) {
    EXPECT_NE(pass.outcome, Outcome::kApplied) << pass.flag;
    EXPECT_NE(pass.outcome, Outcome::kRolledBack) << pass.flag << ": " << pass.reason;
    kept += pass.outcome == Outcome::kKept;
  }
  EXPECT_GT(kept, 0u);
}

TEST(GuardedOptimizer, SequenceThatChangesNothingIsUnchanged) {
  const SpirvBinary binary = test::MustAssemble(test::FragmentModule(kBody));
  SpirvBinary optimized = binary;
  optimized.words = SpirvOptO(binary);
  GuardedOptimizerOptions options = Options(optimized, /*isolate=*/false, /*each=*/false);
  options.flags = {"--eliminate-dead-code-aggressive"};
  std::vector<OptimizerPassResult> passes;
  Expected<GuardedOptimizerResult> result = RunGuardedOptimizer(optimized, options, &passes);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->words, optimized.words);
  ASSERT_EQ(passes.size(), 1u);
  EXPECT_EQ(passes[0].outcome, Outcome::kUnchanged);
}

}  // namespace
}  // namespace spirv_conv
