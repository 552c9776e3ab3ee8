// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "io/message_capture.h"
#include "io/newer_spirv.h"
#include "spirv-tools/libspirv.hpp"
#include "spirv_conv/emit.h"

namespace spirv_conv {

Expected<std::string> Disassemble(const std::vector<uint32_t>& words, spv_target_env env,
                                  const DisassembleOptions& options, const std::string& name) {
  uint32_t flags = SPV_BINARY_TO_TEXT_OPTION_NONE;
  if (options.friendly_names) flags |= SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES;
  if (options.indent) flags |= SPV_BINARY_TO_TEXT_OPTION_INDENT;
  if (!options.header) flags |= SPV_BINARY_TO_TEXT_OPTION_NO_HEADER;
  if (options.offsets) flags |= SPV_BINARY_TO_TEXT_OPTION_SHOW_BYTE_OFFSET;
  if (options.comment) flags |= SPV_BINARY_TO_TEXT_OPTION_COMMENT;

  spvtools::SpirvTools tools(env);
  io::MessageCapture errors;
  tools.SetMessageConsumer(errors.Consumer());
  std::string text;
  if (!tools.Disassemble(words, &text, flags)) {
    const io::NewerSpirvScan scan = io::ScanForNewerSpirv(words, env);
    if (scan.FoundNewer()) {
      return MakeError(ExitCode::kBadInput, name,
                       "cannot disassemble: " + io::BundledSpirvTools() + " does not know " +
                           io::DescribeAll(scan.All()));
    }
    return MakeError(ExitCode::kBadInput, name,
                     "cannot disassemble: " + errors.First("malformed module"));
  }
  return text;
}

std::string WordsToBytes(const std::vector<uint32_t>& words) {
  std::string bytes;
  bytes.reserve(words.size() * 4);
  for (uint32_t word : words) {
    for (int shift = 0; shift < 32; shift += 8) bytes.push_back(static_cast<char>(word >> shift));
  }
  return bytes;
}

}  // namespace spirv_conv
