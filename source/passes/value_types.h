// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the control-flow passes (structurize, reconverge) may do with a value
// of a given type when they move it across blocks: store it in a Function
// variable or merge it with an OpPhi. Pointers (logical addressing without
// VariablePointers) and opaque handles (images, samplers, ...) can do
// neither; such values must be recomputed where they are needed.

#ifndef SOURCE_PASSES_VALUE_TYPES_H_
#define SOURCE_PASSES_VALUE_TYPES_H_

#include <cstdint>

#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace passes {

// The opcode of type |type_id|'s definition (OpNop when there is none).
spv::Op TypeOpcode(spvtools::opt::IRContext* context, uint32_t type_id);

// True for pointer and opaque types: no Function variable, no phi.
bool IsPointerOrOpaqueType(spvtools::opt::IRContext* context, uint32_t type_id);

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_VALUE_TYPES_H_
