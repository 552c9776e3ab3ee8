// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// SPV_KHR_maximal_reconvergence's structural rules, which the pinned
// validator (SPIRV-Tools 2023.1) does not know. In every function that an
// entry point declaring the MaximallyReconvergesKHR execution mode executes
// (the entry and everything it calls):
//
//   1. OpBranchConditional's True Label and False Label differ;
//   2. a block with more than one unique predecessor is a loop header, a
//      merge block, a continue target, or a target of an OpSwitch.
//
// Rule 2 makes every join a place where the extension says invocations
// reconverge: a join that is none of those would be a point where the
// invocations arriving on different edges stay apart, which the extension
// forbids by construction (docs/maximal-reconvergence.md).

#ifndef SOURCE_IO_MAXIMAL_RECONVERGENCE_H_
#define SOURCE_IO_MAXIMAL_RECONVERGENCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.h"

namespace spirv_conv {
namespace io {

// MaximallyReconvergesKHR. SPIRV-Tools 2023.1's spv::ExecutionMode lacks it.
constexpr uint32_t kMaximallyReconvergesKHR = 6023;

// The first violation of the rules above in |words| (a module spirv-val
// accepted for |env|), as one line naming the function and block; empty
// when there is none or no entry point declares the mode.
std::string FindMaximalReconvergenceViolation(const std::vector<uint32_t>& words,
                                              spv_target_env env);

}  // namespace io
}  // namespace spirv_conv

#endif  // SOURCE_IO_MAXIMAL_RECONVERGENCE_H_
