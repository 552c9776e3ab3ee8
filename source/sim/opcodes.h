// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Which executor family runs each opcode (program.h Family).

#ifndef SOURCE_SIM_OPCODES_H_
#define SOURCE_SIM_OPCODES_H_

#include "sim/program.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {

// SPV_KHR_quad_control's instructions, newer than the bundled headers.
constexpr spv::Op kOpGroupNonUniformQuadAllKHR = static_cast<spv::Op>(5110);
constexpr spv::Op kOpGroupNonUniformQuadAnyKHR = static_cast<spv::Op>(5111);

Family FamilyOf(spv::Op op);

// An OpenCL.std instruction (|*op|): kGlsl with |*op| replaced by its GLSL.std.450
// twin where the semantics are the same, else kOpenCL (opencl_std.cpp).
Family OpenClFamily(uint32_t* op);

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_OPCODES_H_
