// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "test/file_check.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace spirv_conv {
namespace test {
namespace {

// A new file in the test's temporary directory holding |contents|.
std::string WriteTemporary(const std::string& contents) {
  std::string path = ::testing::TempDir() + "file_check_XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) return "";
  close(fd);
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

std::string Quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

::testing::AssertionResult FileCheck(const std::string& checks, const std::string& input,
                                     const std::vector<std::string>& implicit_check_not) {
  const std::string file_check = SPIRV_CONV_FILECHECK;
  if (file_check.empty() || access(file_check.c_str(), X_OK) != 0) {
    return ::testing::AssertionFailure()
           << "FileCheck not found (" << file_check
           << "): install llvm-19-tools (scripts/setup-deps.sh) and reconfigure";
  }
  const std::string checks_path = WriteTemporary(checks);
  const std::string input_path = WriteTemporary(input);
  const std::string report_path = WriteTemporary("");
  if (checks_path.empty() || input_path.empty() || report_path.empty()) {
    return ::testing::AssertionFailure() << "cannot write in " << ::testing::TempDir();
  }
  std::string command = Quoted(file_check) + " " + Quoted(checks_path) +
                        " --input-file=" + Quoted(input_path) + " --dump-input=fail";
  for (const std::string& pattern : implicit_check_not) {
    command += " --implicit-check-not=" + Quoted(pattern);
  }
  command += " > " + Quoted(report_path) + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream report_file(report_path, std::ios::binary);
  const std::string report((std::istreambuf_iterator<char>(report_file)),
                           std::istreambuf_iterator<char>());
  for (const std::string& path : {checks_path, input_path, report_path}) std::remove(path.c_str());
  if (status == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "FileCheck failed:\n" << report;
}

}  // namespace test
}  // namespace spirv_conv
