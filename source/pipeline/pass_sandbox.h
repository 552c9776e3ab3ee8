// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Runs spirv-opt's passes in a child process and returns what they wrote,
// so that a crash in third-party code (SPIRV-Tools 2023.1's
// --simplify-instructions segfaults on cooperative-matrix modules, see
// docs/motion.md) becomes an error instead of ending spirv-conv.

#ifndef SOURCE_PIPELINE_PASS_SANDBOX_H_
#define SOURCE_PIPELINE_PASS_SANDBOX_H_

#include <cstdint>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.h"
#include "spirv_conv/status.h"

namespace spirv_conv {
namespace pipeline {

// A job for the worker: spirv-opt flags and the module to run them on.
struct WorkerJob {
  spv_target_env target_env = SPV_ENV_UNIVERSAL_1_0;
  std::vector<std::string> flags;
  std::vector<uint32_t> words;
};
using WorkerHandler = Expected<std::vector<uint32_t>> (*)(const WorkerJob& job);

// A long-lived child process that runs each job it is sent with |handler|
// and answers, forked by StartWorker while the process is still small (a
// fork copies the page tables of everything mapped, and every page either
// side then writes), and forked again after a job ended it: a crash
// ("crashed (signal 11, Segmentation fault)") is that job's error, not the
// process's end. One handler per process; calls are serialised.
void StartWorker(WorkerHandler handler);
Expected<std::vector<uint32_t>> RunInWorker(WorkerHandler handler, const WorkerJob& job);

}  // namespace pipeline
}  // namespace spirv_conv

#endif  // SOURCE_PIPELINE_PASS_SANDBOX_H_
