// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Function variables into SSA values: SPIRV-Tools' SSA rewriter (what
// spirv-opt --ssa-rewrite runs) on chosen functions, then the stores it
// leaves to variables nothing reads any more are deleted, with the values
// only they used. The structurizer runs it on the functions it rebuilt
// (step 6); predicated reconvergence before it compares the exits' code,
// which at glslang's -O0 is loads and stores of one variable per exit.

#ifndef SOURCE_PASSES_PROMOTE_VARIABLES_H_
#define SOURCE_PASSES_PROMOTE_VARIABLES_H_

#include <vector>

#include "source/opt/function.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace passes {

// Promotes what the SSA rewriter can in |functions| of |context|; false if
// it fails (the functions may then be half rewritten).
bool PromoteFunctionVariables(spvtools::opt::IRContext* context,
                              const std::vector<spvtools::opt::Function*>& functions);

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_PROMOTE_VARIABLES_H_
