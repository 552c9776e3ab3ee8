// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Fuzz target for the language server's input: the bytes a client sends
// (framing, JSON-RPC, every method's parameters). Whatever arrives, the
// server answers or ignores it and ends with status 0 or 1, never a crash.
// Seeds: recorded sessions (test/fuzz/lsp-seeds/).

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "spirv_conv/lsp.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int input = memfd_create("lsp-input", 0);
  const int output = memfd_create("lsp-output", 0);
  if (input < 0 || output < 0) std::abort();
  for (size_t written = 0; written < size;) {
    const ssize_t n = write(input, data + written, size - written);
    if (n <= 0) std::abort();
    written += static_cast<size_t>(n);
  }
  lseek(input, 0, SEEK_SET);
  spirv_conv::LanguageServerOptions options;
  options.jobs = 1;
  const int status = spirv_conv::RunLanguageServer(input, output, options);
  close(input);
  close(output);
  if (status != 0 && status != 1) std::abort();
  return 0;
}
