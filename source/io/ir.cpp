// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/ir.h"

#include "io/message_capture.h"
#include "source/opt/build_module.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {

Expected<std::unique_ptr<spvtools::opt::IRContext>> BuildIrContext(const SpirvBinary& binary) {
  io::MessageCapture errors;
  std::unique_ptr<spvtools::opt::IRContext> context = spvtools::BuildModule(
      binary.target_env, errors.Consumer(), binary.words.data(), binary.words.size());
  if (!context) {
    return MakeError(ExitCode::kBadInput, binary.name,
                     "cannot parse SPIR-V: " + errors.First("malformed module"));
  }
  // The context keeps its consumer, and |errors| dies here: passes that run
  // later install their own.
  context->SetMessageConsumer(
      [](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
  return context;
}

std::vector<uint32_t> EmitBinary(spvtools::opt::IRContext& context) {
  std::vector<uint32_t> words;
  context.module()->ToBinary(&words, /* skip_nop = */ false);
  return words;
}

}  // namespace spirv_conv
