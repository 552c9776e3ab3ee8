// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include <cstring>
#include <iomanip>
#include <sstream>

#include "io/input_formats.h"

namespace spirv_conv {
namespace io {
namespace {

std::string Hex(uint32_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << std::setw(8) << std::setfill('0') << value;
  return out.str();
}

}  // namespace

Expected<std::vector<uint32_t>> WordsFromBinary(const std::string& name, const std::string& bytes) {
  if (bytes.empty()) return MakeError(ExitCode::kBadInput, name, "empty file");
  if (bytes.size() < 4) {
    return MakeError(ExitCode::kBadInput, name,
                     "truncated: " + std::to_string(bytes.size()) +
                         " bytes, too short for the SPIR-V magic number");
  }
  uint32_t first;
  std::memcpy(&first, bytes.data(), 4);
  const bool swap = first != kSpirvMagic;
  if (swap && __builtin_bswap32(first) != kSpirvMagic) {
    return MakeError(ExitCode::kBadInput, name,
                     "not a SPIR-V binary: wrong magic number " + Hex(first) + " (expected " +
                         Hex(kSpirvMagic) + ")");
  }
  if (bytes.size() % 4 != 0) {
    return MakeError(ExitCode::kBadInput, name,
                     "truncated word stream: " + std::to_string(bytes.size()) +
                         " bytes is not a whole number of 32-bit words");
  }
  if (bytes.size() < kSpirvHeaderWords * 4) {
    return MakeError(ExitCode::kBadInput, name,
                     "truncated header: " + std::to_string(bytes.size() / 4) +
                         " words, a SPIR-V module has a " + std::to_string(kSpirvHeaderWords) +
                         "-word header");
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  if (swap) {
    for (uint32_t& word : words) word = __builtin_bswap32(word);
  }
  return words;
}

}  // namespace io
}  // namespace spirv_conv
