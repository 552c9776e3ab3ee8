// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// RunGuardedOptimizer: one SPIRV-Tools pass at a time, each checked against
// its input, rolled back when it breaks a convergence rule.
//
//   words_0 --pass 1--> words_1 --pass 2--> words_2 ...
//      |                   |
//   analysed once       analysed once: AFTER of pass 1, BEFORE of pass 2
//
// A rolled-back pass leaves the current module (and its analysis) in place,
// so the next pass starts from the module before it.

#include "spirv_conv/guarded_optimizer.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/message_capture.h"
#include "motion/check_motion.h"
#include "pipeline/pass_sandbox.h"
#include "source/opt/ir_context.h"
#include "spirv-tools/optimizer.hpp"
#include "spirv_conv/ir.h"

namespace spirv_conv {
namespace {

using Outcome = OptimizerPassResult::Outcome;

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// A module the optimizer may continue from: its words, IR and analysis. The
// analysis refers to the IR: declared after it, it is destroyed first.
// (Replace a CheckedModule by destroying it, never by move-assignment.)
struct CheckedModule {
  SpirvBinary binary;
  std::unique_ptr<spvtools::opt::IRContext> context;
  std::unique_ptr<motion::MotionModule> analysis;
};

Expected<CheckedModule> Analyse(SpirvBinary binary, const MotionOptions& motion) {
  CheckedModule module{std::move(binary), nullptr, nullptr};
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context =
      BuildIrContext(module.binary, IrLoad::kExact);
  if (!context) return context.error();
  module.context = std::move(*context);
  auto analysis = motion::AnalyseForMotion(*module.context, motion, module.binary.name);
  if (!analysis) return analysis.error();
  module.analysis = std::move(*analysis);
  return module;
}

// Runs the single pass |flag| on |input|; the error is SPIRV-Tools' message.
Expected<std::vector<uint32_t>> RunPass(const std::string& flag, const SpirvBinary& input) {
  spvtools::Optimizer optimizer(input.target_env);
  io::MessageCapture errors;
  optimizer.SetMessageConsumer(errors.Consumer());
  if (!optimizer.RegisterPassFromFlag(flag)) {
    return Error{ExitCode::kBadInput, "'" + flag + "' is not a spirv-opt pass flag"};
  }
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);  // the guard validates what it keeps
  std::vector<uint32_t> output;
  if (!optimizer.Run(input.words.data(), input.words.size(), &output, options)) {
    return Error{ExitCode::kInternalError, errors.First("the pass failed")};
  }
  return output;
}

// Runs |result->flag| on |current|; returns the module to continue from when
// the pass is kept, and fills |result|.
std::optional<CheckedModule> RunCheckedPass(const CheckedModule& current,
                                            const GuardedOptimizerOptions& options,
                                            OptimizerPassResult* result) {
  auto start = std::chrono::steady_clock::now();
  auto run = [&] { return RunPass(result->flag, current.binary); };
  Expected<std::vector<uint32_t>> words =
      options.isolate_passes ? pipeline::RunInChild(run) : run();
  result->pass_ms = MillisecondsSince(start);
  start = std::chrono::steady_clock::now();
  auto roll_back = [&](std::string reason) -> std::optional<CheckedModule> {
    result->outcome = Outcome::kRolledBack;
    result->reason = std::move(reason);
    result->check_ms = MillisecondsSince(start);
    return std::nullopt;
  };
  if (!words) return roll_back("the pass failed: " + words.error().message);
  if (*words == current.binary.words) {
    result->outcome = Outcome::kUnchanged;
    return std::nullopt;
  }
  SpirvBinary output = current.binary;
  output.words = std::move(*words);
  if (options.validate_each_pass) {
    Status valid = ValidateSpirv(output.words, output.target_env, options.validator, "its output",
                                 ExitCode::kInvalidOutput);
    if (!valid) return roll_back(valid.error().message);
  }
  Expected<CheckedModule> next = Analyse(std::move(output), options.motion);
  if (!next) return roll_back("its output cannot be analysed: " + next.error().message);
  result->findings = motion::CheckAnalysedMotion(*current.analysis, *next->analysis);
  if (!result->findings.empty()) return roll_back("breaks a convergence rule");
  result->outcome = Outcome::kKept;
  result->check_ms = MillisecondsSince(start);
  return std::move(*next);
}

}  // namespace

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kUnchanged:
      return "unchanged";
    case Outcome::kKept:
      return "kept";
    case Outcome::kRolledBack:
      return "rolled-back";
  }
  return "unknown";
}

Expected<GuardedOptimizerResult> RunGuardedOptimizer(const SpirvBinary& binary,
                                                     const GuardedOptimizerOptions& options,
                                                     std::vector<OptimizerPassResult>* passes) {
  Expected<CheckedModule> first = Analyse(binary, options.motion);
  if (!first) return first.error();
  std::optional<CheckedModule> current(std::move(*first));
  for (size_t i = 0; i < options.flags.size(); ++i) {
    OptimizerPassResult result;
    result.flag = options.flags[i];
    std::optional<CheckedModule> next = RunCheckedPass(*current, options, &result);
    const bool rolled_back = result.outcome == Outcome::kRolledBack;
    std::string reason = result.reason;
    if (passes != nullptr) passes->push_back(std::move(result));
    if (rolled_back && options.strict) {
      return MakeError(ExitCode::kFindings, binary.name,
                       "spirv-opt pass " + options.flags[i] + " (pass " + std::to_string(i + 1) +
                           " of " + std::to_string(options.flags.size()) + ") " + reason);
    }
    if (next) {
      current.reset();
      current.emplace(std::move(*next));
    }
  }
  return GuardedOptimizerResult{std::move(current->binary.words), std::move(current->context)};
}

}  // namespace spirv_conv
