// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "spirv_conv/emit.h"

namespace spirv_conv {
namespace {

namespace fs = std::filesystem;

Error IoError(const std::string& path, const std::string& what) {
  return MakeError(ExitCode::kOutputError, path, what + ": " + std::strerror(errno));
}

// Writes all of |contents| to |fd|.
bool WriteAll(int fd, const std::string& contents) {
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

}  // namespace

Status WriteOutput(const std::string& path, const std::string& contents,
                   const std::vector<std::string>& inputs) {
  if (path == "-") {
    std::cout.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    std::cout.flush();
    if (!std::cout) return MakeError(ExitCode::kOutputError, "<stdout>", "write failed");
    return Ok{};
  }
  for (const std::string& input : inputs) {
    if (input != "-" && SameFile(input, path)) {
      return MakeError(ExitCode::kBadInput, path,
                       "refusing to overwrite the input file; name another output");
    }
  }

  // Through a symbolic link, replace the file it points to, not the link.
  std::error_code ec;
  fs::path target(path);
  if (fs::is_symlink(target, ec)) {
    const fs::path resolved = fs::weakly_canonical(target, ec);
    if (!ec) target = resolved;
  }
  const fs::file_status status = fs::status(target, ec);
  if (fs::is_directory(status)) {
    return MakeError(ExitCode::kOutputError, path, "is a directory");
  }
  // A FIFO or a device (-o /dev/stdout) cannot be replaced: write straight to it.
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return IoError(path, "cannot open");
    if (!WriteAll(fd, contents)) {
      Error error = IoError(path, "write failed");  // before close() changes errno
      ::close(fd);
      return error;
    }
    ::close(fd);
    return Ok{};
  }

  // A temporary file next to the target, so the rename stays on one file system.
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string temp = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return IoError(path, "cannot create a temporary file in '" + dir.string() + "'");

  // Keep the permissions an existing file had; otherwise the usual 0666 & ~umask.
  struct stat existing;
  if (::stat(target.c_str(), &existing) == 0) {
    ::fchmod(fd, existing.st_mode & 07777);
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
  }

  if (!WriteAll(fd, contents) || ::fsync(fd) != 0) {
    Error error = IoError(path, "write failed");
    ::close(fd);
    ::unlink(temp.c_str());
    return error;
  }
  if (::close(fd) != 0) {
    Error error = IoError(path, "write failed");
    ::unlink(temp.c_str());
    return error;
  }
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    Error error = IoError(path, "cannot replace the output file");
    ::unlink(temp.c_str());
    return error;
  }
  return Ok{};
}

}  // namespace spirv_conv
