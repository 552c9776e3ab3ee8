// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// CheckMotion: analyse both modules, match their instructions, judge every
// checked instruction of AFTER.

#include <memory>
#include <utility>

#include "motion/instruction_matcher.h"
#include "motion/motion_checker.h"
#include "motion/motion_module.h"
#include "spirv_conv/motion.h"

namespace spirv_conv {
namespace {

Expected<std::unique_ptr<motion::MotionModule>> Analyse(spvtools::opt::IRContext& context,
                                                        const MotionOptions& options,
                                                        const std::string& path) {
  Expected<std::unique_ptr<UniformityInfo>> info =
      UniformityInfo::Compute(&context, options.uniformity);
  if (!info) return info.error();
  return std::make_unique<motion::MotionModule>(context, std::move(*info), path);
}

}  // namespace

const std::vector<RuleInfo>& MotionRules() {
  static const std::vector<RuleInfo> kRules = {
      {"motion-convergent-gained-divergence", Severity::kError,
       "a convergent instruction (derivative, implicit-LOD sampling, barrier, group operation) "
       "gained divergent control dependence"},
      {"motion-coconvergent-changed-divergence", Severity::kError,
       "a co-convergent instruction (ballot, vote, reduction, scan, shuffle, quad operation) "
       "gained or lost divergent control dependence"},
      {"motion-uniform-operand", Severity::kError,
       "an operand that must stay uniform (image, sampler, implicit-derivative coordinate, "
       "broadcast id) became less uniform"},
      {"motion-unmatched", Severity::kError,
       "a checked instruction of the transformed module matches nothing in the original"},
  };
  return kRules;
}

Expected<std::vector<Finding>> CheckMotion(spvtools::opt::IRContext& before,
                                           spvtools::opt::IRContext& after,
                                           const MotionOptions& options) {
  auto before_module = Analyse(before, options, options.before_path);
  if (!before_module) return before_module.error();
  auto after_module = Analyse(after, options, options.after_path);
  if (!after_module) return after_module.error();
  motion::MotionModule& then = **before_module;
  motion::MotionModule& now = **after_module;

  const motion::InstructionMatcher matcher(then.keys, now.keys, before, after,
                                           [&then](const spvtools::opt::Instruction& inst) {
                                             return motion::IsChecked(inst, then.lint.index);
                                           });
  const motion::MotionChecker checker(then, now, matcher);
  std::vector<Finding> findings;
  for (spvtools::opt::Function& function : *after.module()) {
    // Code no entry point reaches never runs (an inlined callee left behind).
    if (!now.lint.calls.Reached(function.result_id())) continue;
    function.ForEachInst(
        [&](const spvtools::opt::Instruction* inst) { checker.Check(*inst, &findings); },
        /*run_for_debug_line_insts=*/false);
  }
  return findings;
}

}  // namespace spirv_conv
