// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The last stage: turn words into bytes or text and write them without ever
// losing data.

#ifndef INCLUDE_SPIRV_CONV_EMIT_H_
#define INCLUDE_SPIRV_CONV_EMIT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.h"
#include "spirv_conv/status.h"

namespace spirv_conv {

struct DisassembleOptions {
  bool friendly_names = true;  // %main instead of %4 (spirv-dis' default)
  bool indent = true;
  bool header = true;  // the "; SPIR-V" header comment
  bool offsets = false;
  bool comment = false;  // spirv-dis --comment
};

// Disassembles |words|. Errors name |name| and carry kBadInput.
Expected<std::string> Disassemble(const std::vector<uint32_t>& words, spv_target_env env,
                                  const DisassembleOptions& options, const std::string& name);

// |words| as little-endian bytes.
std::string WordsToBytes(const std::vector<uint32_t>& words);

// Writes |contents| to |path| ("-": standard output). A file is written to a
// temporary file in the same directory and renamed over |path| only when
// complete, so a reader never sees a partial file and a failure leaves any
// previous file untouched. Refuses (kBadInput) when |path| is one of
// |inputs| (the input is never overwritten). I/O errors carry kOutputError.
Status WriteOutput(const std::string& path, const std::string& contents,
                   const std::vector<std::string>& inputs);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_EMIT_H_
