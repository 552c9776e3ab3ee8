// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Error values and process exit codes shared by the library and the CLI.

#ifndef INCLUDE_SPIRV_CONV_STATUS_H_
#define INCLUDE_SPIRV_CONV_STATUS_H_

#include <string>
#include <utility>
#include <variant>

namespace spirv_conv {

// The exit codes of the spirv-conv command (documented in docs/cli.md).
// Every library error carries the code the command exits with.
enum class ExitCode : int {
  kOk = 0,             // success
  kFindings = 1,       // the command ran and found problems (e.g. an invalid module)
  kBadInput = 2,       // bad usage, or input that cannot be read, parsed or validated
  kInvalidOutput = 3,  // the result failed validation; nothing was written
  kInternalError = 4,  // a bug in spirv-conv or SPIRV-Tools
  kOutputError = 5,    // the output could not be written (I/O failure)
};

// An error: a one-line message that already names the file it concerns, and
// the exit code the command should end with.
struct Error {
  ExitCode code = ExitCode::kInternalError;
  std::string message;
};

// Either a value or an Error.
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}      // NOLINT: implicit by design
  Expected(Error error) : state_(std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }

  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

// Success without a value, or an Error.
struct Ok {};
using Status = Expected<Ok>;

// Builds an Error of |code| whose message is "|subject|: |what|".
inline Error MakeError(ExitCode code, const std::string& subject, const std::string& what) {
  return Error{code, subject.empty() ? what : subject + ": " + what};
}

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_STATUS_H_
