// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The validation gate: spirv-val (SPIRV-Tools' validator) on input and output.

#ifndef INCLUDE_SPIRV_CONV_VALIDATE_H_
#define INCLUDE_SPIRV_CONV_VALIDATE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.h"
#include "spirv_conv/status.h"

namespace spirv_conv {

// spirv-val's relaxations, under the same names as its command-line flags.
struct ValidatorFlags {
  bool relax_block_layout = false;
  bool uniform_buffer_standard_layout = false;
  bool scalar_block_layout = false;
  bool workgroup_scalar_block_layout = false;
  bool skip_block_layout = false;
  bool relax_logical_pointer = false;
  bool relax_struct_store = false;
  bool before_hlsl_legalization = false;
  bool allow_localsizeid = false;
};

// Validates |words| for |env|. On failure the error's message reads
// "|name|: invalid SPIR-V for <env>: <spirv-val's message>" and its code is
// |failure_code| (kBadInput for input, kInvalidOutput for output, kFindings
// for the validate command).
Status ValidateSpirv(const std::vector<uint32_t>& words, spv_target_env env,
                     const ValidatorFlags& flags, const std::string& name, ExitCode failure_code);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_VALIDATE_H_
