// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// RenderSvg: Graphviz' `dot -Tsvg` as a subprocess. The DOT text goes
// through a temporary file (so nothing is written to a pipe the child may
// have closed); SVG and messages come back through pipes, read together.

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "spirv_conv/cfg_dot.h"

extern char** environ;

namespace spirv_conv {
namespace {

// A temporary file holding |text|, removed with the object.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    std::error_code error;
    std::string pattern =
        (std::filesystem::temp_directory_path(error) / "spirv-conv-XXXXXX.dot").string();
    if (error) pattern = "/tmp/spirv-conv-XXXXXX.dot";
    const int fd = mkstemps(pattern.data(), 4);
    if (fd < 0) return;
    path_ = pattern;
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = write(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    ok_ = done == text.size() && close(fd) == 0;
  }
  ~TempFile() {
    if (!path_.empty()) unlink(path_.c_str());
  }
  bool ok() const { return ok_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool ok_ = false;
};

// Reads |out| and |err| to their ends together (a child blocked on a full
// stderr pipe must not stall the stdout reader).
void ReadBoth(int out, int err, std::string* out_text, std::string* err_text) {
  pollfd fds[2] = {{out, POLLIN, 0}, {err, POLLIN, 0}};
  std::string* texts[2] = {out_text, err_text};
  int open = 2;
  char buffer[65536];
  while (open > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        texts[i]->append(buffer, static_cast<size_t>(n));
      } else {
        fds[i].fd = -1;
        --open;
      }
    }
  }
}

}  // namespace

Expected<std::string> RenderSvg(const std::string& dot) {
  const TempFile input(dot);
  if (!input.ok()) {
    return Error{ExitCode::kOutputError,
                 "cannot write a temporary file for Graphviz: " + std::string(strerror(errno))};
  }
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) return Error{ExitCode::kInternalError, "pipe failed"};
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(out[0]), close(out[1]);
    return Error{ExitCode::kInternalError, "pipe failed"};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  std::string program = "dot", format = "-Tsvg", path = input.path();
  char* argv[] = {program.data(), format.data(), path.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "dot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]), close(err[1]);
  if (spawned != 0) {
    close(out[0]), close(err[0]);
    if (spawned == ENOENT) {
      return Error{ExitCode::kBadInput,
                   "--format svg needs Graphviz' 'dot', which is not on PATH: install graphviz "
                   "(scripts/setup-deps.sh does) or use --format dot"};
    }
    return Error{ExitCode::kInternalError,
                 "cannot run Graphviz' dot: " + std::string(strerror(spawned))};
  }
  std::string svg, messages;
  ReadBoth(out[0], err[0], &svg, &messages);
  close(out[0]), close(err[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || svg.empty()) {
    while (!messages.empty() && messages.back() == '\n') messages.pop_back();
    for (char& c : messages) c = c == '\n' ? ' ' : c;
    return Error{ExitCode::kInternalError,
                 "Graphviz' dot failed" + (messages.empty() ? "" : ": " + messages)};
  }
  return svg;
}

}  // namespace spirv_conv
