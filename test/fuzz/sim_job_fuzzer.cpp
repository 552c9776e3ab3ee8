// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Fuzz target for the simulator's input files (`spirv-conv run --job FILE`,
// `--buffer SET:BINDING=FILE.json`): any bytes end in a job / buffer or in a
// kBadInput error naming the file, never a crash, an escaping exception or
// an allocation beyond the documented limits.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "spirv_conv/sim.h"

namespace {

// The input as a file: both readers take paths. One file per process.
const std::string& InputPath() {
  static const std::string path =
      "/tmp/spirv-conv-sim-job-fuzz-" + std::to_string(getpid()) + ".json";
  return path;
}

template <typename T>
void ExpectValueOrNamedBadInput(const spirv_conv::Expected<T>& result) {
  if (result) return;
  if (result.error().code != spirv_conv::ExitCode::kBadInput ||
      result.error().message.find(InputPath()) == std::string::npos) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace spirv_conv;
  {
    std::ofstream out(InputPath(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  ExpectValueOrNamedBadInput(sim::LoadJob(InputPath()));
  ExpectValueOrNamedBadInput(sim::LoadBufferFile(InputPath()));
  return 0;
}
