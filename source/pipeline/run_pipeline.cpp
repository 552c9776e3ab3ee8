// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "io/message_capture.h"
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
  if (options.optimizer.flags.empty()) return BuildIrContext(binary);
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
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context = BuildIrContext(binary);
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

Expected<SpirvBinary> ReconvergeBinary(const SpirvBinary& binary, const ValidatorFlags& validator,
                                       bool skip_input_validation, ReconvergeStats* stats,
                                       StructurizeStats* structurize_stats) {
  ReconvergePass pass;
  Expected<SpirvBinary> predicated = RunControlFlowPass(binary, validator, skip_input_validation,
                                                        &pass, [&] { return pass.error(); });
  if (!predicated) return predicated;
  if (stats != nullptr) *stats = pass.stats();
  return StructurizeBinary(*predicated, validator, false, structurize_stats);
}

Expected<std::vector<uint32_t>> RunPipeline(const SpirvBinary& input,
                                            const PipelineOptions& options, ChangeLog* log,
                                            std::vector<OptimizerPassResult>* optimizer_log) {
  SpirvBinary structurized;
  if (options.structurize || options.reconverge) {
    Expected<SpirvBinary> rebuilt =
        options.reconverge
            ? ReconvergeBinary(input, options.validator, options.skip_input_validation)
            : StructurizeBinary(input, options.validator, options.skip_input_validation);
    if (!rebuilt) return rebuilt.error();
    structurized = std::move(*rebuilt);
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
