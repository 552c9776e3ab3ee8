// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

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

}  // namespace

Expected<std::vector<uint32_t>> RunPipeline(const SpirvBinary& binary,
                                            const PipelineOptions& options, ChangeLog* log) {
  // Validate before building the IR: SPIRV-Tools' IR loader assumes valid input.
  if (!options.skip_input_validation) {
    Status valid = ValidateSpirv(binary.words, binary.target_env, options.validator, binary.name,
                                 ExitCode::kBadInput);
    if (!valid) return valid.error();
  }
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context = BuildIrContext(binary);
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
