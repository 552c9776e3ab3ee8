// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// CheckMotion: analyse both modules, match their instructions, judge every
// checked instruction of AFTER.

#include "motion/check_motion.h"

#include <memory>
#include <utility>

#include "motion/instruction_matcher.h"
#include "motion/motion_checker.h"
#include "motion/motion_module.h"
#include "spirv_conv/motion.h"

namespace spirv_conv {
namespace motion {

Expected<std::unique_ptr<MotionModule>> AnalyseForMotion(spvtools::opt::IRContext& context,
                                                         const MotionOptions& options,
                                                         const std::string& path) {
  Expected<std::unique_ptr<UniformityInfo>> info =
      UniformityInfo::Compute(&context, options.uniformity);
  if (!info) return info.error();
  return std::make_unique<MotionModule>(context, std::move(*info), path);
}

std::vector<Finding> CheckAnalysedMotion(MotionModule& then, MotionModule& now) {
  spvtools::opt::IRContext& before = then.diag.ir;
  spvtools::opt::IRContext& after = now.diag.ir;
  const InstructionMatcher matcher(
      then.keys, now.keys, before, after,
      [&then](const spvtools::opt::Instruction& inst) { return IsChecked(inst, then.diag.index); },
      [&then](uint32_t function) { return then.diag.calls.Reached(function); });
  const MotionChecker checker(then, now, matcher);
  std::vector<Finding> findings;
  for (spvtools::opt::Function& function : *after.module()) {
    // Code no entry point reaches never runs (an inlined callee left behind).
    if (!now.diag.calls.Reached(function.result_id())) continue;
    function.ForEachInst(
        [&](const spvtools::opt::Instruction* inst) { checker.Check(*inst, &findings); },
        /*run_for_debug_line_insts=*/false);
  }
  return findings;
}

}  // namespace motion

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
  auto then = motion::AnalyseForMotion(before, options, options.before_path);
  if (!then) return then.error();
  auto now = motion::AnalyseForMotion(after, options, options.after_path);
  if (!now) return now.error();
  return motion::CheckAnalysedMotion(**then, **now);
}

}  // namespace spirv_conv
