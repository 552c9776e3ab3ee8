// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Running a control-flow pass (the structurizer, predicated reconvergence)
// on a binary: the input may break only the structured control-flow rules,
// which these passes exist to fix.

#ifndef SOURCE_PASSES_CONTROL_FLOW_BINARY_H_
#define SOURCE_PASSES_CONTROL_FLOW_BINARY_H_

#include <functional>
#include <string>

#include "source/opt/pass.h"
#include "spirv_conv/load.h"
#include "spirv_conv/status.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {
namespace passes {

// Validates |binary| tolerating only structured control-flow errors, runs
// |pass| on its IR and returns the emitted module (not validated).
Expected<SpirvBinary> RunControlFlowPass(const SpirvBinary& binary, const ValidatorFlags& validator,
                                         bool skip_input_validation, spvtools::opt::Pass* pass,
                                         const std::function<std::string()>& error);

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_CONTROL_FLOW_BINARY_H_
