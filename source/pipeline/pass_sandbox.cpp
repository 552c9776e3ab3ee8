// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "pipeline/pass_sandbox.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace spirv_conv {
namespace pipeline {
namespace {

// An answer: a header, then |size| words or, when |failed|, |size| bytes
// of message.
struct Header {
  uint32_t failed = 0;
  uint32_t size = 0;
};

// Waits for |child| to end; its status.
int Reap(pid_t child) {
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// The error of a child that ended (|status|) without answering: its
// signal, if any.
Error Ended(int status) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return Error{ExitCode::kInternalError,
                 "crashed (signal " + std::to_string(signal) + ", " + strsignal(signal) + ")"};
  }
  // A sanitizer's handler turns a crash into an exit with a status.
  return Error{ExitCode::kInternalError, WIFEXITED(status) && WEXITSTATUS(status) != 0
                                             ? "ended without an answer (exit status " +
                                                   std::to_string(WEXITSTATUS(status)) + ")"
                                             : "ended without an answer"};
}

// The worker's socket messages: sizes as 32-bit words, then the bytes.
// MSG_NOSIGNAL: a peer that is gone is an error, not SIGPIPE.
bool Send(int fd, const void* data, size_t size) {
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = send(fd, bytes, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool Receive(int fd, void* data, size_t size) {
  char* bytes = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = recv(fd, bytes, size, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool SendSized(int fd, const void* data, uint32_t size) {
  return Send(fd, &size, sizeof(size)) && Send(fd, data, size);
}

bool ReceiveSized(int fd, std::string* out) {
  uint32_t size = 0;
  if (!Receive(fd, &size, sizeof(size))) return false;
  out->resize(size);
  return Receive(fd, out->data(), size);
}

bool SendJob(int fd, const WorkerJob& job) {
  const uint32_t head[2] = {static_cast<uint32_t>(job.target_env),
                            static_cast<uint32_t>(job.flags.size())};
  if (!Send(fd, head, sizeof(head))) return false;
  for (const std::string& flag : job.flags) {
    if (!SendSized(fd, flag.data(), static_cast<uint32_t>(flag.size()))) return false;
  }
  return SendSized(fd, job.words.data(), static_cast<uint32_t>(job.words.size() * 4));
}

bool ReceiveJob(int fd, WorkerJob* job) {
  uint32_t head[2];
  if (!Receive(fd, head, sizeof(head))) return false;
  job->target_env = static_cast<spv_target_env>(head[0]);
  job->flags.assign(head[1], "");
  for (std::string& flag : job->flags) {
    if (!ReceiveSized(fd, &flag)) return false;
  }
  std::string bytes;
  if (!ReceiveSized(fd, &bytes)) return false;
  job->words.resize(bytes.size() / 4);
  if (!bytes.empty()) std::memcpy(job->words.data(), bytes.data(), job->words.size() * 4);
  return true;
}

// The answer: a Header, then the words or the message.
bool SendAnswer(int fd, const Expected<std::vector<uint32_t>>& result) {
  Header header;
  if (result) {
    header.size = static_cast<uint32_t>(result->size());
    return Send(fd, &header, sizeof(header)) &&
           Send(fd, result->data(), result->size() * sizeof(uint32_t));
  }
  header.failed = 1;
  header.size = static_cast<uint32_t>(result.error().message.size());
  return Send(fd, &header, sizeof(header)) && Send(fd, result.error().message.data(), header.size);
}

struct Worker {
  std::mutex mutex;
  WorkerHandler handler = nullptr;
  pid_t pid = -1;
  int fd = -1;  // the parent's end of the socket pair

  // Forks the worker (under |mutex|); false if the system refuses.
  bool Fork(WorkerHandler with) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return false;
    const pid_t child = fork();
    if (child < 0) {
      close(fds[0]);
      close(fds[1]);
      return false;
    }
    if (child == 0) {
      close(fds[0]);
      WorkerJob job;
      while (ReceiveJob(fds[1], &job)) {
        if (!SendAnswer(fds[1], with(job))) break;
      }
      // _exit: no destructors or atexit handlers of the parent's state run twice.
      _exit(0);
    }
    close(fds[1]);
    handler = with;
    pid = child;
    fd = fds[0];
    return true;
  }

  // The worker ended (crashed, or the socket broke): reaped, forgotten.
  Error Lost() {
    close(fd);
    fd = -1;
    const Error error = Ended(Reap(pid));
    pid = -1;
    return error;
  }
};

Worker& TheWorker() {
  // Never destroyed (a job may run while statics are torn down); at exit
  // the parent closes the socket, which ends the worker, and reaps it, so
  // that its time is the process's.
  static Worker* worker = [] {
    std::atexit([] {
      Worker& w = TheWorker();
      std::lock_guard<std::mutex> lock(w.mutex);
      if (w.pid >= 0) (void)w.Lost();
    });
    return new Worker();
  }();
  return *worker;
}

}  // namespace

void StartWorker(WorkerHandler handler) {
  Worker& worker = TheWorker();
  std::lock_guard<std::mutex> lock(worker.mutex);
  if (worker.pid < 0) worker.Fork(handler);
}

Expected<std::vector<uint32_t>> RunInWorker(WorkerHandler handler, const WorkerJob& job) {
  Worker& worker = TheWorker();
  std::lock_guard<std::mutex> lock(worker.mutex);
  if (worker.pid >= 0 && worker.handler != handler) (void)worker.Lost();
  if (worker.pid < 0 && !worker.Fork(handler)) {
    return Error{ExitCode::kInternalError, std::string("fork: ") + std::strerror(errno)};
  }
  if (!SendJob(worker.fd, job)) return worker.Lost();
  Header header;
  if (!Receive(worker.fd, &header, sizeof(header))) return worker.Lost();
  std::string body(header.failed ? header.size : size_t{header.size} * sizeof(uint32_t), '\0');
  if (!Receive(worker.fd, body.data(), body.size())) return worker.Lost();
  if (header.failed) return Error{ExitCode::kInternalError, body};
  std::vector<uint32_t> words(header.size);
  if (!words.empty()) std::memcpy(words.data(), body.data(), body.size());
  return words;
}

}  // namespace pipeline
}  // namespace spirv_conv
