// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/pipeline.h"

namespace spirv_conv {

Expected<std::vector<uint32_t>> RunPipeline(const SpirvBinary& binary,
                                            const PipelineOptions& options) {
  // Validate before building the IR: SPIRV-Tools' IR loader assumes valid input.
  if (!options.skip_input_validation) {
    Status valid = ValidateSpirv(binary.words, binary.target_env, options.validator, binary.name,
                                 ExitCode::kBadInput);
    if (!valid) return valid.error();
  }
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context = BuildIrContext(binary);
  if (!context) return context.error();

  // Passes are registered here as later stages land (lint, rewrite, structurize).

  std::vector<uint32_t> output = EmitBinary(**context);
  Status valid_output = ValidateSpirv(output, binary.target_env, options.validator,
                                      binary.name + " (output)", ExitCode::kInvalidOutput);
  if (!valid_output) return valid_output.error();
  return output;
}

}  // namespace spirv_conv
