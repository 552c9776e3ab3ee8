// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// structurize: rewrites functions with arbitrary control flow (no or wrong
// merge instructions, multi-level breaks, early exits, loops with several
// exits or back edges, irreducible cycles) into SPIR-V structured control
// flow that spirv-val accepts for Shader modules (docs/structurize.md).
// The computation is unchanged: values that cross the rebuilt control flow
// go through Function variables, turned back into SSA at the end.
//
// A pass header: it includes SPIRV-Tools' internal source/opt/pass.h, so
// its users compile against SPIRV-Tools' source tree (docs/architecture.md).

#ifndef INCLUDE_SPIRV_CONV_STRUCTURIZE_PASS_H_
#define INCLUDE_SPIRV_CONV_STRUCTURIZE_PASS_H_

#include <cstdint>
#include <string>

#include "source/opt/pass.h"
#include "spirv_conv/load.h"
#include "spirv_conv/status.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {

struct StructurizeStats {
  uint32_t irreducible_cycles = 0;  // cycles given a dispatch header
  // Step 7's tidying of the structurizer's own code (passes/structurize/tidy.h):
  uint32_t guards_removed = 0;  // guards whose sides met at once
  uint32_t phis_folded = 0;     // phis of one value (or undefined)
  uint32_t dead_deleted = 0;    // instructions nothing used
};

class StructurizePass : public spvtools::opt::Pass {
 public:
  const char* name() const override { return "structurize"; }
  // Why Process() failed, naming the function.
  const std::string& error() const { return error_; }
  const StructurizeStats& stats() const { return stats_; }

 private:
  Status Process() override;

  std::string error_;
  StructurizeStats stats_;
};

// True if spirv-val's |message| reports a structured control-flow rule only
// (merge instructions, constructs, back edges): the input --structurize
// accepts.
bool IsStructuredControlFlowError(const std::string& message);

// Structurizes |binary| (PipelineOptions::structurize): the validated output
// in the same target environment; |stats| may be null. The input may break
// the structured control-flow rules of spirv-val, and only those.
Expected<SpirvBinary> StructurizeBinary(const SpirvBinary& binary, const ValidatorFlags& validator,
                                        bool skip_input_validation,
                                        StructurizeStats* stats = nullptr);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_STRUCTURIZE_PASS_H_
