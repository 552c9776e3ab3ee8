// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Runs a function in a forked child process and returns what it wrote, so
// that a crash in third-party code (SPIRV-Tools 2023.1's
// --simplify-instructions segfaults on cooperative-matrix modules, see
// docs/motion.md) becomes an error instead of ending spirv-conv.

#ifndef SOURCE_PIPELINE_PASS_SANDBOX_H_
#define SOURCE_PIPELINE_PASS_SANDBOX_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "spirv_conv/status.h"

namespace spirv_conv {
namespace pipeline {

// Calls |work| in a child process. The words it returns (or its error
// message) come back through a pipe. A child that dies (signal, or exit
// without answering) is an error naming the signal. The child shares
// nothing written after the fork with the parent.
Expected<std::vector<uint32_t>> RunInChild(
    const std::function<Expected<std::vector<uint32_t>>()>& work);

}  // namespace pipeline
}  // namespace spirv_conv

#endif  // SOURCE_PIPELINE_PASS_SANDBOX_H_
