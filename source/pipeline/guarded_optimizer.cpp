// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// RunGuardedOptimizer: the whole sequence of SPIRV-Tools passes at once,
// its output checked against the input once; only when that check fails,
// one pass at a time, each checked against its input and rolled back when
// it breaks a convergence rule:
//
//   words_0 --pass 1--> words_1 --pass 2--> words_2 ...
//      |                   |
//   analysed once       analysed once: AFTER of pass 1, BEFORE of pass 2
//
// A rolled-back pass leaves the current module (and its analysis) in place,
// so the next pass starts from the module before it. Almost every sequence
// on almost every module is legal, so the first run is the common cost; a
// violation, a crash or an invalid output costs that run more than
// checking each pass alone.

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

// Runs the passes |flags| on |input| in one spvtools::Optimizer, as
// spirv-opt does; the error is SPIRV-Tools' message.
Expected<std::vector<uint32_t>> RunPasses(const std::vector<std::string>& flags,
                                          const SpirvBinary& input) {
  spvtools::Optimizer optimizer(input.target_env);
  io::MessageCapture errors;
  optimizer.SetMessageConsumer(errors.Consumer());
  for (const std::string& flag : flags) {
    if (!optimizer.RegisterPassFromFlag(flag)) {
      return Error{ExitCode::kBadInput, "'" + flag + "' is not a spirv-opt pass flag"};
    }
  }
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);  // the guard validates what it keeps
  std::vector<uint32_t> output;
  if (!optimizer.Run(input.words.data(), input.words.size(), &output, options)) {
    return Error{ExitCode::kInternalError, errors.First("the pass failed")};
  }
  return output;
}

// What the worker process runs (pass_sandbox.h).
Expected<std::vector<uint32_t>> RunJob(const pipeline::WorkerJob& job) {
  SpirvBinary input;
  input.target_env = job.target_env;
  input.words = job.words;
  return RunPasses(job.flags, input);
}

Expected<std::vector<uint32_t>> Run(const std::vector<std::string>& flags, const SpirvBinary& input,
                                    const GuardedOptimizerOptions& options) {
  if (!options.isolate_passes) return RunPasses(flags, input);
  return pipeline::RunInWorker(&RunJob, {input.target_env, flags, input.words});
}

// Validates |output| as the guard keeps modules (when the input was).
Status ValidateKept(const SpirvBinary& output, const GuardedOptimizerOptions& options) {
  if (!options.validate_each_pass) return Ok{};
  return ValidateSpirv(output.words, output.target_env, options.validator, "its output",
                       ExitCode::kInvalidOutput);
}

// Every pass of |options.flags| at once on |input|, checked against it:
// the module to return when the run succeeds, its output is valid, and it
// breaks no convergence rule; nullopt otherwise. |passes| gets one
// kApplied result per pass (kUnchanged when the sequence changed nothing).
// |input| is moved from only when the sequence changed nothing.
std::optional<CheckedModule> RunWholeSequence(CheckedModule* input,
                                              const GuardedOptimizerOptions& options,
                                              std::vector<OptimizerPassResult>* passes) {
  Expected<std::vector<uint32_t>> words = Run(options.flags, input->binary, options);
  if (!words) return std::nullopt;
  Outcome outcome = Outcome::kApplied;
  std::optional<CheckedModule> result;
  if (*words == input->binary.words) {
    outcome = Outcome::kUnchanged;
    result.emplace(std::move(*input));
  } else {
    SpirvBinary output = input->binary;
    output.words = std::move(*words);
    if (!ValidateKept(output, options)) return std::nullopt;
    Expected<CheckedModule> next = Analyse(std::move(output), options.motion);
    if (!next || !motion::CheckAnalysedMotion(*input->analysis, *next->analysis).empty()) {
      return std::nullopt;
    }
    result.emplace(std::move(*next));
  }
  for (const std::string& flag : options.flags) {
    OptimizerPassResult pass;
    pass.flag = flag;
    pass.outcome = outcome;
    passes->push_back(std::move(pass));
  }
  return result;
}

// Runs |result->flag| on |current|; returns the module to continue from when
// the pass is kept, and fills |result|.
std::optional<CheckedModule> RunCheckedPass(const CheckedModule& current,
                                            const GuardedOptimizerOptions& options,
                                            OptimizerPassResult* result) {
  auto start = std::chrono::steady_clock::now();
  Expected<std::vector<uint32_t>> words = Run({result->flag}, current.binary, options);
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
  if (Status valid = ValidateKept(output, options); !valid) {
    return roll_back(valid.error().message);
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

void StartOptimizerWorker() { pipeline::StartWorker(&RunJob); }

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kUnchanged:
      return "unchanged";
    case Outcome::kKept:
      return "kept";
    case Outcome::kRolledBack:
      return "rolled-back";
    case Outcome::kApplied:
      return "applied";
  }
  return "unknown";
}

Expected<GuardedOptimizerResult> RunGuardedOptimizer(const SpirvBinary& binary,
                                                     const GuardedOptimizerOptions& options,
                                                     std::vector<OptimizerPassResult>* passes) {
  Expected<CheckedModule> first = Analyse(binary, options.motion);
  if (!first) return first.error();
  if (!options.check_each_pass && !options.flags.empty()) {
    std::vector<OptimizerPassResult> together;
    if (std::optional<CheckedModule> done = RunWholeSequence(&*first, options, &together)) {
      if (passes != nullptr) passes->insert(passes->end(), together.begin(), together.end());
      return GuardedOptimizerResult{std::move(done->binary.words), std::move(done->context)};
    }
  }
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
