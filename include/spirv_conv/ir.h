// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The bridge to the SPIRV-Tools optimizer IR (spvtools::opt::IRContext), on
// which every analysis and pass of spirv-conv works.

#ifndef INCLUDE_SPIRV_CONV_IR_H_
#define INCLUDE_SPIRV_CONV_IR_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "spirv_conv/load.h"
#include "spirv_conv/status.h"

namespace spvtools {
namespace opt {
class IRContext;
}  // namespace opt
}  // namespace spvtools

namespace spirv_conv {

// Builds the optimizer IR of |binary|. SPIRV-Tools' IR loader trusts its
// input more than its validator does: validate first. Errors carry kBadInput.
Expected<std::unique_ptr<spvtools::opt::IRContext>> BuildIrContext(const SpirvBinary& binary);

// Serializes |context| back to words (all instructions, OpNop included).
std::vector<uint32_t> EmitBinary(spvtools::opt::IRContext& context);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_IR_H_
