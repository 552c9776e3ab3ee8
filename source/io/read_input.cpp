// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "io/input_formats.h"

namespace spirv_conv {
namespace io {
namespace {

// Appends everything left in `in` to `contents` in large blocks (a
// character-by-character stream iterator does per-byte work that shows on
// large modules).
// Returns false on a read error.
bool ReadAll(std::istream& in, std::string& contents) {
  constexpr std::size_t kBlock = 1 << 16;
  while (in) {
    const std::size_t old_size = contents.size();
    contents.resize(old_size + kBlock);
    in.read(contents.data() + old_size, kBlock);
    contents.resize(old_size + static_cast<std::size_t>(in.gcount()));
  }
  return !in.bad();
}

}  // namespace

Expected<std::string> ReadInput(const std::string& path, const std::string& display_name) {
  if (path == "-") {
    std::string contents;
    if (!ReadAll(std::cin, contents)) {
      return MakeError(ExitCode::kBadInput, display_name, "cannot read standard input");
    }
    return contents;
  }
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) {
    return MakeError(ExitCode::kBadInput, display_name,
                     std::string("cannot open: ") + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) {
    return MakeError(ExitCode::kBadInput, display_name, "is a directory, not a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return MakeError(ExitCode::kBadInput, display_name,
                     std::string("cannot open: ") + std::strerror(errno));
  }
  std::string contents;
  if (S_ISREG(info.st_mode)) contents.reserve(static_cast<std::size_t>(info.st_size));
  if (!ReadAll(in, contents)) {
    return MakeError(ExitCode::kBadInput, display_name, "read error");
  }
  return contents;
}

}  // namespace io
}  // namespace spirv_conv
