// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "io/message_capture.h"
#include "passes/change_log.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/pass_registry.h"
#include "spirv_conv/pipeline.h"

namespace spirv_conv {

namespace {

// One step of PipelineOptions::passes: a run of spirv-opt flags under the
// motion guard, one of our NonUniform passes, or a control-flow pass
// (structurize, reconverge, fast-forward-loops), which works on the emitted
// binary.
struct Step {
  std::vector<std::string> flags;
  std::unique_ptr<NonUniformPass> pass;
  std::string control_flow;
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
    const PassInfo* info = FindPass(entry);
    if (info != nullptr && info->kind == PassKind::kControlFlow) {
      steps.push_back({{}, nullptr, entry});
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
      const std::string op_name = OpNameOf(**context, decision.function);
      if (!op_name.empty()) name = "function '" + op_name + "': ";
    }
    passes::RecordChange(
        log, "reconverge", decision.applied ? "reconverge" : "keep-structured",
        context ? context->get() : nullptr, function,
        name + "expected issues per subgroup: " + OneDecimal(decision.structurized_cost) +
            " structurized, " + OneDecimal(decision.reconverged_cost) + " reconverged");
  }
}

}  // namespace

Expected<std::vector<uint32_t>> RunPipeline(const SpirvBinary& input,
                                            const PipelineOptions& options, ChangeLog* log,
                                            std::vector<OptimizerPassResult>* optimizer_log) {
  Expected<std::vector<Step>> steps = CreateSteps(options, log);
  if (!steps) return steps.error();
  // Validate before building the IR: SPIRV-Tools' IR loader assumes valid
  // input. A control-flow pass first validates it itself, tolerating the
  // structured control-flow errors it is there to fix.
  const bool control_flow_first = !steps->empty() && !steps->front().control_flow.empty();
  if (!options.skip_input_validation && !control_flow_first) {
    Status valid = ValidateSpirv(input.words, input.target_env, options.validator, input.name,
                                 ExitCode::kBadInput);
    if (!valid) return valid.error();
  }
  SpirvBinary binary = input;  // the module while no step holds it as IR
  std::unique_ptr<spvtools::opt::IRContext> context;
  for (Step& step : *steps) {
    if (!step.control_flow.empty()) {
      if (context != nullptr) binary.words = EmitBinary(*context), context = nullptr;
      ReconvergeStats reconverge;
      FastForwardOptions fast_forward = options.fast_forward;
      fast_forward.log = log;
      Expected<SpirvBinary> rebuilt =
          step.control_flow == "reconverge"
              ? ReconvergeBinary(binary, options.validator, options.skip_input_validation,
                                 &reconverge, nullptr, options.reconverge_policy)
          : step.control_flow == "fast-forward-loops"
              ? FastForwardBinary(binary, options.validator, options.skip_input_validation,
                                  fast_forward)
              : StructurizeBinary(binary, options.validator, options.skip_input_validation);
      if (!rebuilt) return rebuilt.error();
      binary = std::move(*rebuilt);
      if (log != nullptr) RecordReconvergeDecisions(binary, reconverge, log);
      continue;
    }
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
