// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "io/input_formats.h"

namespace spirv_conv {
namespace io {

Expected<std::string> ReadInput(const std::string& path, const std::string& display_name) {
  if (path == "-") {
    std::ostringstream contents;
    contents << std::cin.rdbuf();
    if (std::cin.bad()) {
      return MakeError(ExitCode::kBadInput, display_name, "cannot read standard input");
    }
    return contents.str();
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
  std::string contents((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    return MakeError(ExitCode::kBadInput, display_name, "read error");
  }
  return contents;
}

}  // namespace io
}  // namespace spirv_conv
