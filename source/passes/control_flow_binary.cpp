// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/control_flow_binary.h"

#include "io/message_capture.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/structurize_pass.h"

namespace spirv_conv {
namespace passes {

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

}  // namespace passes

Expected<SpirvBinary> StructurizeBinary(const SpirvBinary& binary, const ValidatorFlags& validator,
                                        bool skip_input_validation, StructurizeStats* stats) {
  StructurizePass pass;
  Expected<SpirvBinary> result = passes::RunControlFlowPass(
      binary, validator, skip_input_validation, &pass, [&] { return pass.error(); });
  if (!result) return result;
  if (stats != nullptr) *stats = pass.stats();
  Status valid_output = ValidateSpirv(result->words, binary.target_env, validator,
                                      binary.name + " (structurized)", ExitCode::kInvalidOutput);
  if (!valid_output) return valid_output.error();
  return result;
}

}  // namespace spirv_conv
