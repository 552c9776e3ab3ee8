// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "io/message_capture.h"
#include "passes/change_log.h"
#include "passes/issue_cost.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/pipeline.h"

namespace spirv_conv {

namespace {

// One step of PipelineOptions::passes: a run of spirv-opt flags under the
// motion guard, or one of our passes.
struct Step {
  std::vector<std::string> flags;
  std::unique_ptr<NonUniformPass> pass;
};

bool IsOptimizerFlag(const std::string& entry) { return !entry.empty() && entry[0] == '-'; }

// The steps |options| asks for, in the order they run: |passes| in order,
// consecutive spirv-opt flags in one guarded run, and the passes
// --lower-nonuniform chooses before the first NonUniform pass (at the end
// when there is none).
Expected<std::vector<Step>> CreateSteps(const PipelineOptions& options, ChangeLog* log) {
  NonUniformPassOptions nonuniform = options.nonuniform;
  nonuniform.log = log;
  std::vector<Step> steps;
  bool lowered = !options.lower_for;
  auto lower = [&] {
    if (lowered) return;
    lowered = true;
    for (std::unique_ptr<NonUniformPass>& pass :
         LowerNonUniformPasses(*options.lower_for, nonuniform)) {
      steps.push_back({{}, std::move(pass)});
    }
  };
  for (const std::string& entry : options.passes) {
    if (IsOptimizerFlag(entry)) {
      if (steps.empty() || steps.back().pass != nullptr) steps.emplace_back();
      steps.back().flags.push_back(entry);
      continue;
    }
    std::unique_ptr<NonUniformPass> pass = CreateNonUniformPass(entry, nonuniform);
    if (pass == nullptr) return Error{ExitCode::kBadInput, "unknown pass '" + entry + "'"};
    lower();
    steps.push_back({{}, std::move(pass)});
  }
  lower();
  return steps;
}

// The guarded optimizer's run of |flags| over |context|'s module (or over
// |binary| when there is no IR yet): its result.
Expected<std::unique_ptr<spvtools::opt::IRContext>> Optimized(
    const SpirvBinary& binary, std::unique_ptr<spvtools::opt::IRContext> context,
    const std::vector<std::string>& flags, const PipelineOptions& options,
    std::vector<OptimizerPassResult>* optimizer_log) {
  GuardedOptimizerOptions optimizer = options.optimizer;
  optimizer.flags = flags;
  optimizer.validator = options.validator;
  optimizer.validate_each_pass = !options.skip_input_validation;
  SpirvBinary input;
  if (context != nullptr) {
    input = binary;
    input.words = EmitBinary(*context);
  }
  Expected<GuardedOptimizerResult> result =
      RunGuardedOptimizer(context != nullptr ? input : binary, optimizer, optimizer_log);
  if (!result) return result.error();
  return std::move(result->context);
}

}  // namespace

namespace {

// Validates |binary| tolerating only structured control-flow errors, runs
// |pass| on its IR and returns the emitted module (not validated).
Expected<SpirvBinary> RunControlFlowPass(const SpirvBinary& binary, const ValidatorFlags& validator,
                                         bool skip_input_validation, spvtools::opt::Pass* pass,
                                         const std::function<std::string()>& error) {
  if (!skip_input_validation) {
    // Only the structured control-flow rules may fail: they are what this fixes.
    Status valid =
        ValidateSpirv(binary.words, binary.target_env, validator, binary.name, ExitCode::kBadInput);
    if (!valid && !IsStructuredControlFlowError(valid.error().message)) return valid.error();
  }
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context =
      BuildIrContext(binary, IrLoad::kExact);
  if (!context) return context.error();
  io::MessageCapture errors;
  pass->SetMessageConsumer(errors.Consumer());
  if (pass->Run(context->get()) == spvtools::opt::Pass::Status::Failure) {
    return MakeError(ExitCode::kBadInput, binary.name, std::string(pass->name()) + ": " + error());
  }
  SpirvBinary result = binary;
  result.words = EmitBinary(**context);
  return result;
}

}  // namespace

Expected<SpirvBinary> StructurizeBinary(const SpirvBinary& binary, const ValidatorFlags& validator,
                                        bool skip_input_validation, StructurizeStats* stats) {
  StructurizePass pass;
  Expected<SpirvBinary> result = RunControlFlowPass(binary, validator, skip_input_validation, &pass,
                                                    [&] { return pass.error(); });
  if (!result) return result;
  if (stats != nullptr) *stats = pass.stats();
  Status valid_output = ValidateSpirv(result->words, binary.target_env, validator,
                                      binary.name + " (structurized)", ExitCode::kInvalidOutput);
  if (!valid_output) return valid_output.error();
  return result;
}

namespace {

// ReconvergePass on |functions| (none given: all) of |binary|, then the
// structurizer.
Expected<SpirvBinary> Reconverged(const SpirvBinary& binary, const ValidatorFlags& validator,
                                  std::optional<std::set<uint32_t>> functions,
                                  ReconvergeStats* stats, StructurizeStats* structurize_stats) {
  ReconvergePass pass(std::move(functions));
  Expected<SpirvBinary> predicated =
      RunControlFlowPass(binary, validator, true, &pass, [&] { return pass.error(); });
  if (!predicated) return predicated;
  *stats = pass.stats();
  // The pass leaves the structured control-flow rules to the structurizer;
  // any other rule its output breaks is the pass's fault, not the input's.
  Status valid = ValidateSpirv(predicated->words, binary.target_env, validator,
                               binary.name + " (reconverged)", ExitCode::kInvalidOutput);
  if (!valid && !IsStructuredControlFlowError(valid.error().message)) return valid.error();
  return StructurizeBinary(*predicated, validator, true, structurize_stats);
}

Expected<std::map<uint32_t, double>> IssueCosts(const SpirvBinary& binary) {
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context =
      BuildIrContext(binary, IrLoad::kExact);
  if (!context) return context.error();
  return passes::ExpectedIssuesPerFunction(context->get());
}

std::string OneDecimal(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", value);
  return text;
}

// One change per function ReconvergeBinary priced: "reconverge" where it
// applied the pass, "keep-structured" where --structurize alone was cheaper.
void RecordReconvergeDecisions(const SpirvBinary& output, const ReconvergeStats& stats,
                               ChangeLog* log) {
  if (stats.decisions.empty()) return;
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context =
      BuildIrContext(output, IrLoad::kExact);
  for (const ReconvergeStats::Decision& decision : stats.decisions) {
    const spvtools::opt::Instruction* function =
        context ? (*context)->get_def_use_mgr()->GetDef(decision.function) : nullptr;
    std::string name;
    if (context) {
      for (const auto& entry : (*context)->GetNames(decision.function)) {
        name = "function '" + entry.second->GetInOperand(1).AsString() + "': ";
      }
    }
    passes::RecordChange(
        log, "reconverge", decision.applied ? "reconverge" : "keep-structured",
        context ? context->get() : nullptr, function,
        name + "expected issues per subgroup: " + OneDecimal(decision.structurized_cost) +
            " structurized, " + OneDecimal(decision.reconverged_cost) + " reconverged");
  }
}

}  // namespace

// Three runs at most: --structurize alone, the pass on every function, and
// (when it pays on some functions only) the pass on those. The functions
// are independent in both passes, so a function of the last run is the one
// of the run that priced it.
Expected<SpirvBinary> ReconvergeBinary(const SpirvBinary& binary, const ValidatorFlags& validator,
                                       bool skip_input_validation, ReconvergeStats* stats,
                                       StructurizeStats* structurize_stats,
                                       ReconvergePolicy policy) {
  StructurizeStats structurized_stats;
  Expected<SpirvBinary> structurized =
      StructurizeBinary(binary, validator, skip_input_validation, &structurized_stats);
  if (!structurized) return structurized;
  ReconvergeStats all;
  StructurizeStats all_stats;
  Expected<SpirvBinary> reconverged =
      Reconverged(binary, validator, std::nullopt, &all, &all_stats);
  if (!reconverged) return reconverged;
  Expected<std::map<uint32_t, double>> before = IssueCosts(*structurized);
  if (!before) return before.error();
  Expected<std::map<uint32_t, double>> after = IssueCosts(*reconverged);
  if (!after) return after.error();
  std::set<uint32_t> pays;
  for (uint32_t function : all.changed) {
    ReconvergeStats::Decision& decision = all.decisions.emplace_back();
    decision.function = function;
    decision.structurized_cost = (*before)[function];
    decision.reconverged_cost = (*after)[function];
    decision.applied = policy == ReconvergePolicy::kEverywhere ||
                       decision.reconverged_cost < decision.structurized_cost;
    if (decision.applied) pays.insert(function);
  }
  Expected<SpirvBinary> result = structurized;
  ReconvergeStats chosen;
  StructurizeStats chosen_stats = structurized_stats;
  if (!pays.empty() && pays == all.changed) {
    result = std::move(reconverged);
    chosen = all;
    chosen_stats = all_stats;
  } else if (!pays.empty()) {
    result = Reconverged(binary, validator, pays, &chosen, &chosen_stats);
  }
  chosen.decisions = all.decisions;
  if (stats != nullptr) *stats = chosen;
  if (structurize_stats != nullptr) *structurize_stats = chosen_stats;
  return result;
}

Expected<std::vector<uint32_t>> RunPipeline(const SpirvBinary& input,
                                            const PipelineOptions& options, ChangeLog* log,
                                            std::vector<OptimizerPassResult>* optimizer_log) {
  SpirvBinary structurized;
  if (options.structurize || options.reconverge) {
    ReconvergeStats reconverge;
    Expected<SpirvBinary> rebuilt =
        options.reconverge
            ? ReconvergeBinary(input, options.validator, options.skip_input_validation, &reconverge,
                               nullptr, options.reconverge_policy)
            : StructurizeBinary(input, options.validator, options.skip_input_validation);
    if (!rebuilt) return rebuilt.error();
    structurized = std::move(*rebuilt);
    if (log != nullptr) RecordReconvergeDecisions(structurized, reconverge, log);
  }
  const bool rebuilt = options.structurize || options.reconverge;
  const SpirvBinary& binary = rebuilt ? structurized : input;
  // Validate before building the IR: SPIRV-Tools' IR loader assumes valid input.
  if (!options.skip_input_validation && !rebuilt) {
    Status valid = ValidateSpirv(binary.words, binary.target_env, options.validator, binary.name,
                                 ExitCode::kBadInput);
    if (!valid) return valid.error();
  }
  Expected<std::vector<Step>> steps = CreateSteps(options, log);
  if (!steps) return steps.error();
  std::unique_ptr<spvtools::opt::IRContext> context;
  for (Step& step : *steps) {
    if (!step.flags.empty()) {
      Expected<std::unique_ptr<spvtools::opt::IRContext>> optimized =
          Optimized(binary, std::move(context), step.flags, options, optimizer_log);
      if (!optimized) return optimized.error();
      context = std::move(*optimized);
      continue;
    }
    if (context == nullptr) {
      Expected<std::unique_ptr<spvtools::opt::IRContext>> built =
          BuildIrContext(binary, IrLoad::kExact);
      if (!built) return built.error();
      context = std::move(*built);
    }
    io::MessageCapture errors;
    step.pass->SetMessageConsumer(errors.Consumer());
    if (step.pass->Run(context.get()) == spvtools::opt::Pass::Status::Failure) {
      return MakeError(
          ExitCode::kBadInput, binary.name,
          errors.First(std::string(step.pass->name()) + ": cannot rewrite the module"));
    }
  }
  if (context == nullptr) {
    Expected<std::unique_ptr<spvtools::opt::IRContext>> built =
        BuildIrContext(binary, IrLoad::kExact);
    if (!built) return built.error();
    context = std::move(*built);
  }

  std::vector<uint32_t> output = EmitBinary(*context);
  Status valid_output = ValidateSpirv(output, binary.target_env, options.validator,
                                      binary.name + " (output)", ExitCode::kInvalidOutput);
  if (!valid_output) return valid_output.error();
  return output;
}

}  // namespace spirv_conv
