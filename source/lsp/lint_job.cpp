// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lsp/lint_job.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>

#include "report/finding_json.h"
#include "spirv_conv/editor_support.h"
#include "spirv_conv/module.h"

namespace spirv_conv {
namespace lsp {

using nlohmann::json;

namespace {

json ValueJson(const SourceValue& value) {
  json explanation = json::array();
  for (const Note& note : value.explanation) explanation.push_back(report::NoteJson(note));
  return {{"kind", value.kind == SourceValue::Kind::kVariable ? "variable" : "condition"},
          {"name", value.name},
          {"location", report::NoteJson({"", value.location})["location"]},
          {"level", UniformityName(value.level)},
          {"explanation", explanation}};
}

json HoistJson(const GradientHoist& hoist) {
  return {{"sample", report::NoteJson({"", hoist.sample})["location"]},
          {"before_line", hoist.before_line},
          {"coordinate_components", hoist.coordinate_components},
          {"gradient_components", hoist.gradient_components}};
}

json Failure(const std::string& message) {
  return {{"error", message},
          {"source_files", json::array()},
          {"findings", json::array()},
          {"values", json::array()},
          {"hoists", json::array()}};
}

}  // namespace

json RunLint(const LintRequest& request) {
  try {
    Expected<SpirvBinary> binary =
        LoadSpirvFromBytes(request.path, request.text, request.input.module.load);
    if (!binary) return Failure(binary.error().message);
    json source_files = json::array();
    for (const std::string& file : binary->source_files) {
      source_files.push_back(UnsavedFileKey(file));
    }
    Expected<Module> module = LoadModule(std::move(*binary), request.input.module);
    if (!module) {
      json result = Failure(module.error().message);
      result["source_files"] = source_files;
      return result;
    }
    Expected<std::unique_ptr<UniformityInfo>> info =
        UniformityInfo::Compute(&module->ir(), request.lint.uniformity);
    if (!info) {
      json result = Failure(request.path + ": " + info.error().message);
      result["source_files"] = source_files;
      return result;
    }
    json result = Failure("");
    result["error"] = nullptr;
    result["source_files"] = source_files;
    for (const Finding& finding : Lint(module->ir(), **info, request.lint)) {
      result["findings"].push_back(report::FindingJson(finding));
    }
    for (const SourceValue& value : DescribeSourceValues(module->ir(), **info, request.lint)) {
      result["values"].push_back(ValueJson(value));
    }
    for (const GradientHoist& hoist : FindGradientHoists(module->ir(), **info, request.lint)) {
      result["hoists"].push_back(HoistJson(hoist));
    }
    return result;
  } catch (const std::exception& e) {
    return Failure(request.path + ": internal error: " + e.what());
  }
}

LintProcess::LintProcess(const LintRequest& request) : path_(request.path) {
  int fds[2];
  if (pipe(fds) != 0) {
    in_process_ = RunLint(request);
    return;
  }
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    in_process_ = RunLint(request);
    return;
  }
  if (child == 0) {
    close(fds[0]);
    // The protocol owns the server's standard input and output.
    const int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, STDIN_FILENO);
      dup2(null, STDOUT_FILENO);
      close(null);
    }
    const std::string bytes = RunLint(request).dump(-1, ' ', false, json::error_handler_t::replace);
    for (size_t written = 0; written < bytes.size();) {
      const ssize_t n = write(fds[1], bytes.data() + written, bytes.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) _exit(1);
      written += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  child_ = child;
  fd_ = fds[0];
}

LintProcess::~LintProcess() { Kill(); }

bool LintProcess::Read() {
  if (fd_ < 0) return true;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd_, buffer, sizeof(buffer));
    if (n > 0) {
      bytes_.append(buffer, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return false;
    close(fd_);  // end of file, or an error that ends the answer
    fd_ = -1;
    return true;
  }
}

json LintProcess::Finish() {
  if (child_ < 0) return in_process_;
  int status = 0;
  while (waitpid(child_, &status, 0) < 0 && errno == EINTR) {
  }
  child_ = -1;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    json result = json::parse(bytes_, nullptr, /*allow_exceptions=*/false);
    if (result.is_object()) return result;
  }
  const std::string how = WIFSIGNALED(status)
                              ? std::string("signal ") + std::to_string(WTERMSIG(status)) + ", " +
                                    strsignal(WTERMSIG(status))
                              : "exit status " + std::to_string(WEXITSTATUS(status));
  return Failure(path_ + ": spirv-conv crashed while linting this file (" + how +
                 "); please report it with the file");
}

void LintProcess::Kill() {
  if (fd_ >= 0) {
    close(fd_);
    fd_ = -1;
  }
  if (child_ > 0) {
    kill(child_, SIGKILL);
    while (waitpid(child_, nullptr, 0) < 0 && errno == EINTR) {
    }
    child_ = -1;
  }
}

}  // namespace lsp
}  // namespace spirv_conv
