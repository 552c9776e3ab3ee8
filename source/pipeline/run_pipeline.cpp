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

// The passes |options| asks for, in the order they run.
Expected<std::vector<std::unique_ptr<NonUniformPass>>> CreatePasses(const PipelineOptions& options,
                                                                    ChangeLog* log) {
  NonUniformPassOptions nonuniform = options.nonuniform;
  nonuniform.log = log;
  std::vector<std::unique_ptr<NonUniformPass>> passes;
  if (options.lower_for) passes = LowerNonUniformPasses(*options.lower_for, nonuniform);
  for (const std::string& name : options.passes) {
    std::unique_ptr<NonUniformPass> pass = CreateNonUniformPass(name, nonuniform);
    if (pass == nullptr) return Error{ExitCode::kBadInput, "unknown pass '" + name + "'"};
    passes.push_back(std::move(pass));
  }
  return passes;
}

// The IR the NonUniform passes start from: |binary|'s, or the guarded
// optimizer's result.
Expected<std::unique_ptr<spvtools::opt::IRContext>> OptimizedIr(
    const SpirvBinary& binary, const PipelineOptions& options,
    std::vector<OptimizerPassResult>* optimizer_log) {
  if (options.optimizer.flags.empty()) return BuildIrContext(binary, IrLoad::kExact);
  GuardedOptimizerOptions optimizer = options.optimizer;
  optimizer.validator = options.validator;
  optimizer.validate_each_pass = !options.skip_input_validation;
  Expected<GuardedOptimizerResult> result = RunGuardedOptimizer(binary, optimizer, optimizer_log);
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
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context =
      OptimizedIr(binary, options, optimizer_log);
  if (!context) return context.error();

  Expected<std::vector<std::unique_ptr<NonUniformPass>>> passes = CreatePasses(options, log);
  if (!passes) return passes.error();
  for (std::unique_ptr<NonUniformPass>& pass : *passes) {
    io::MessageCapture errors;
    pass->SetMessageConsumer(errors.Consumer());
    if (pass->Run(context->get()) == spvtools::opt::Pass::Status::Failure) {
      return MakeError(ExitCode::kBadInput, binary.name,
                       errors.First(std::string(pass->name()) + ": cannot rewrite the module"));
    }
  }

  std::vector<uint32_t> output = EmitBinary(**context);
  Status valid_output = ValidateSpirv(output, binary.target_env, options.validator,
                                      binary.name + " (output)", ExitCode::kInvalidOutput);
  if (!valid_output) return valid_output.error();
  return output;
}

}  // namespace spirv_conv
