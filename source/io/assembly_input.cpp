// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include <regex>

#include "io/input_formats.h"
#include "io/message_capture.h"
#include "io/newer_spirv.h"
#include "spirv-tools/libspirv.hpp"

namespace spirv_conv {
namespace io {

std::optional<spv_target_env> AssemblyVersionComment(const std::string& text) {
  // spirv-dis writes "; SPIR-V\n; Version: 1.3\n; Generator: ..." before the
  // first instruction; only comments before it count.
  static const std::regex kVersion(R"(^;\s*Version:\s*1\.([0-6])\s*$)");
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    const size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos) {
      if (line[first] != ';') return std::nullopt;  // reached the first instruction
      std::smatch match;
      if (std::regex_match(line, match, kVersion)) {
        static const spv_target_env kByMinor[] = {SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1,
                                                  SPV_ENV_UNIVERSAL_1_2, SPV_ENV_UNIVERSAL_1_3,
                                                  SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5,
                                                  SPV_ENV_UNIVERSAL_1_6};
        return kByMinor[std::stoi(match[1].str())];
      }
    }
    pos = end + 1;
  }
  return std::nullopt;
}

Expected<std::vector<uint32_t>> WordsFromAssembly(const std::string& name, const std::string& text,
                                                  spv_target_env env, bool preserve_numeric_ids) {
  spvtools::SpirvTools tools(env);
  MessageCapture errors;
  tools.SetMessageConsumer(errors.Consumer());
  std::vector<uint32_t> words;
  const uint32_t options =
      preserve_numeric_ids ? SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS : 0u;
  if (!tools.Assemble(text, &words, options)) {
    // Report as "file:line:col: message", the form editors jump to. The
    // assembler counts lines and columns from 0.
    if (errors.empty()) return MakeError(ExitCode::kBadInput, name, "cannot assemble");
    std::string message = errors.First("");
    // A name from a newer SPIR-V grammar: say so, and how to write it anyway.
    if (std::optional<UnknownEnumerant> newer = NewerEnumerantInAssemblerMessage(message)) {
      message = BundledSpirvTools() + " does not know " + newer->Describe() +
                (newer->kind == "Op"
                     ? std::string()
                     : "; its assembler takes the number, !" + std::to_string(newer->value));
    }
    return Error{ExitCode::kBadInput, name + ":" + std::to_string(errors.position().line + 1) +
                                          ":" + std::to_string(errors.position().column + 1) +
                                          ": " + message};
  }
  return words;
}

}  // namespace io
}  // namespace spirv_conv
