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

Family FamilyOf(spv::Op op);

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_OPCODES_H_
