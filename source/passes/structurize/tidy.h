// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Step 7 of the structurizer: removes what its own bookkeeping left behind
// once SPIRV-Tools' SSA rewriter has turned the variables back into values.
// Only code the pass made is touched (result ids from |first_new_id| on: the
// guards' tests, the cascade's phis, recomputed access chains); the input's
// instructions stay, dead or not (spirv-opt's business, not ours).
//
//   guard:  %hit = OpIEqual %cascade %exit          guard:
//           OpBranchConditional %hit %T %E   ==>     OpBranch %T
//   %E:     OpBranch %T     (empty)
//
//  - a guard whose two sides reach one block T, one of them through an
//    empty block E of its own with the same phi values in T (or undefined
//    ones), branches to T;
//  - a phi whose incoming values are one value V or undefined becomes V
//    (V's definition dominates the phi's block): the SSA rewriter makes
//    such phis where a variable is read on some paths only;
//  - an instruction without side effects that nothing uses is deleted.

#ifndef SOURCE_PASSES_STRUCTURIZE_TIDY_H_
#define SOURCE_PASSES_STRUCTURIZE_TIDY_H_

#include <cstdint>

#include "source/opt/function.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace structurize {

struct TidyStats {
  uint32_t guards_removed = 0;
  uint32_t phis_folded = 0;
  uint32_t dead_deleted = 0;
};

// Tidies |function| of |context|; ids below |first_new_id| are the input's.
TidyStats Tidy(spvtools::opt::IRContext* context, spvtools::opt::Function* function,
               uint32_t first_new_id);

}  // namespace structurize
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_STRUCTURIZE_TIDY_H_
