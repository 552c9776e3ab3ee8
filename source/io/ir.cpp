// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/ir.h"

#include "source/opt/build_module.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {

Expected<std::unique_ptr<spvtools::opt::IRContext>> BuildIrContext(const SpirvBinary& binary) {
  std::string first_error;
  auto consumer = [&first_error](spv_message_level_t level, const char*, const spv_position_t&,
                                 const char* message) {
    if (first_error.empty() && level <= SPV_MSG_ERROR) first_error = message;
  };
  std::unique_ptr<spvtools::opt::IRContext> context =
      spvtools::BuildModule(binary.target_env, consumer, binary.words.data(), binary.words.size());
  if (!context) {
    return MakeError(ExitCode::kBadInput, binary.name,
                     "cannot parse SPIR-V: " +
                         (first_error.empty() ? std::string("malformed module") : first_error));
  }
  return context;
}

std::vector<uint32_t> EmitBinary(spvtools::opt::IRContext& context) {
  std::vector<uint32_t> words;
  context.module()->ToBinary(&words, /* skip_nop = */ false);
  return words;
}

}  // namespace spirv_conv
