// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "pipeline/pass_sandbox.h"

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace spirv_conv {
namespace pipeline {
namespace {

// The answer on the pipe: a header, then |size| words (kOk) or |size|
// bytes of message (kFailed).
struct Header {
  uint32_t failed = 0;
  uint32_t size = 0;
};

bool WriteAll(int fd, const void* data, size_t size) {
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = write(fd, bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

std::string ReadAll(int fd) {
  std::string data;
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buffer, static_cast<size_t>(n));
  }
  return data;
}

[[noreturn]] void Answer(int fd, const Expected<std::vector<uint32_t>>& result) {
  Header header;
  bool written;
  if (result) {
    header.size = static_cast<uint32_t>(result->size());
    written = WriteAll(fd, &header, sizeof(header)) &&
              WriteAll(fd, result->data(), result->size() * sizeof(uint32_t));
  } else {
    header.failed = 1;
    header.size = static_cast<uint32_t>(result.error().message.size());
    written = WriteAll(fd, &header, sizeof(header)) &&
              WriteAll(fd, result.error().message.data(), header.size);
  }
  // _exit: no destructors or atexit handlers of the parent's state run twice.
  _exit(written ? 0 : 1);
}

}  // namespace

Expected<std::vector<uint32_t>> RunInChild(
    const std::function<Expected<std::vector<uint32_t>>()>& work) {
  int fds[2];
  if (pipe(fds) != 0) {
    return Error{ExitCode::kInternalError, std::string("pipe: ") + std::strerror(errno)};
  }
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return Error{ExitCode::kInternalError, std::string("fork: ") + std::strerror(errno)};
  }
  if (child == 0) {
    close(fds[0]);
    Answer(fds[1], work());
  }
  close(fds[1]);
  const std::string data = ReadAll(fds[0]);
  close(fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return Error{ExitCode::kInternalError,
                 "crashed (signal " + std::to_string(signal) + ", " + strsignal(signal) + ")"};
  }
  Header header;
  if (data.size() < sizeof(header)) {
    return Error{ExitCode::kInternalError, "ended without an answer"};
  }
  std::memcpy(&header, data.data(), sizeof(header));
  const std::string body = data.substr(sizeof(header));
  if (header.failed) return Error{ExitCode::kInternalError, body};
  if (body.size() != header.size * sizeof(uint32_t)) {
    return Error{ExitCode::kInternalError, "answered with a truncated module"};
  }
  std::vector<uint32_t> words(header.size);
  if (!words.empty()) std::memcpy(words.data(), body.data(), body.size());
  return words;
}

}  // namespace pipeline
}  // namespace spirv_conv
