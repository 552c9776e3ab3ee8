// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The bridge to the SPIRV-Tools optimizer IR (spvtools::opt::IRContext), on
// which every analysis and pass of spirv-conv works.

#ifndef INCLUDE_SPIRV_CONV_IR_H_
#define INCLUDE_SPIRV_CONV_IR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "spirv_conv/load.h"
#include "spirv_conv/status.h"

namespace spvtools {
namespace opt {
class IRContext;
}  // namespace opt
}  // namespace spvtools

namespace spirv_conv {

// How BuildIrContext treats a module whose declarations the bundled
// SPIRV-Tools 2023.1 cannot parse (docs/cli.md#input-from-newer-toolchains).
enum class IrLoad {
  // For analyses (uniformity, lint, cfg, check-motion, run): an OpCapability,
  // an OpExecutionMode(Id) of a mode in spirv-conv's table of newer SPIR-V,
  // or an OpSource of a newer language is left out, and a warning names it.
  kAnalysis,
  // For a module whose result is written (opt): the module as it is, or an
  // error naming what the bundled SPIRV-Tools does not know.
  kExact,
};

// Builds the optimizer IR of |binary|. SPIRV-Tools' IR loader trusts its
// input more than its validator does: validate first. Errors carry kBadInput;
// one about an enumerant or instruction newer than the bundled SPIRV-Tools
// names it.
Expected<std::unique_ptr<spvtools::opt::IRContext>> BuildIrContext(const SpirvBinary& binary,
                                                                   IrLoad mode = IrLoad::kExact);

// Where BuildIrContext's warnings go: one line each, naming the module. The
// default writes "spirv-conv: warning: <line>" to standard error. Calls are
// serialized; set it before loading modules on several threads.
void SetIrWarningHandler(std::function<void(const std::string& line)> handler);

// Serializes |context| back to words (all instructions, OpNop included).
std::vector<uint32_t> EmitBinary(spvtools::opt::IRContext& context);

// The string of the first OpName of |id| in |context|, as written (glslang's
// function names keep their signature, "helper(f1;"); empty when it has none.
std::string OpNameOf(spvtools::opt::IRContext& context, uint32_t id);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_IR_H_
