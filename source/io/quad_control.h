// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// SPV_KHR_quad_control's rules, which the pinned validator (SPIRV-Tools
// 2023.1, which learns the enumerants and instructions only from the
// grammar overlay, cmake/spirv_grammar_overlay.py) does not know:
//
//   1. RequireFullQuadsKHR: "Only valid with the Fragment Execution Model";
//   2. QuadDerivativesKHR: on a Fragment or GLCompute entry point (newer
//      spirv-val's rule: the derivative group of other models is no quad);
//   3. OpGroupNonUniformQuadAllKHR / QuadAnyKHR: "Result Type must be a
//      Boolean Type. Predicate must be a Boolean Type."
//
// The generic rules spirv-val 2023.1 applies from the grammar (the
// QuadControlKHR capability for the modes and instructions, the
// SPV_KHR_quad_control extension for the capability, operand counts and
// id kinds) are not repeated here.

#ifndef SOURCE_IO_QUAD_CONTROL_H_
#define SOURCE_IO_QUAD_CONTROL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.h"

namespace spirv_conv {
namespace io {

// The first violation of the rules above in |words| (a module spirv-val
// accepted for |env|), as one line; empty when there is none or the module
// declares no QuadControlKHR capability.
std::string FindQuadControlViolation(const std::vector<uint32_t>& words, spv_target_env env);

}  // namespace io
}  // namespace spirv_conv

#endif  // SOURCE_IO_QUAD_CONTROL_H_
