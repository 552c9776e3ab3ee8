// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/validate.h"

#include "spirv-tools/libspirv.hpp"
#include "spirv_conv/target_env.h"

namespace spirv_conv {
namespace {

spvtools::ValidatorOptions ToValidatorOptions(const ValidatorFlags& flags) {
  spvtools::ValidatorOptions options;
  options.SetRelaxBlockLayout(flags.relax_block_layout);
  options.SetUniformBufferStandardLayout(flags.uniform_buffer_standard_layout);
  options.SetScalarBlockLayout(flags.scalar_block_layout);
  options.SetWorkgroupScalarBlockLayout(flags.workgroup_scalar_block_layout);
  options.SetSkipBlockLayout(flags.skip_block_layout);
  options.SetRelaxLogicalPointer(flags.relax_logical_pointer);
  options.SetRelaxStructStore(flags.relax_struct_store);
  options.SetBeforeHlslLegalization(flags.before_hlsl_legalization);
  options.SetAllowLocalSizeId(flags.allow_localsizeid);
  return options;
}

// spirv-val's diagnostic is a sentence, often followed by the offending
// instruction on the next lines; keep it on one line.
std::string OneLine(std::string message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
    message.pop_back();
  }
  std::string result;
  bool in_space = false;
  for (char c : message) {
    if (c == '\n') {
      result += " |";
      in_space = true;
      continue;
    }
    if (c == ' ' && in_space) continue;
    in_space = c == ' ' || c == '|';
    result += c;
  }
  return result;
}

}  // namespace

Status ValidateSpirv(const std::vector<uint32_t>& words, spv_target_env env,
                     const ValidatorFlags& flags, const std::string& name, ExitCode failure_code) {
  spvtools::SpirvTools tools(env);
  std::string first_error;
  tools.SetMessageConsumer([&first_error](spv_message_level_t level, const char*,
                                          const spv_position_t&, const char* message) {
    if (first_error.empty() && level <= SPV_MSG_ERROR) first_error = message;
  });
  if (tools.Validate(words.data(), words.size(), ToValidatorOptions(flags))) return Ok{};
  return MakeError(failure_code, name,
                   "invalid SPIR-V for " + TargetEnvName(env) + ": " +
                       (first_error.empty() ? "rejected by the validator" : OneLine(first_error)));
}

}  // namespace spirv_conv
