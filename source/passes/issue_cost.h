// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// A static estimate of the instructions a structured function issues per
// subgroup: the cost model of predicated reconvergence (ReconvergeBinary,
// docs/structurize.md#the-cost-model).
//
// A SIMT machine issues a block once per subgroup (and per iteration of the
// loops around it) when at least one of its invocations reaches it,
// whatever their number. The estimate is the sum over blocks of
//   P(block reached) x trips of the loops around it x instructions issued,
// P being propagated along the forward edges from P(entry) = 1: a
// divergent branch (the uniformity analysis' BranchLevel) sends its
// subgroup down every side, so each successor gets the block's P; any
// other branch sends it down one side, each equally likely (P / sides); a
// loop header's successors all get its P (the body runs and the loop is
// left); a block's P is the sum of what its predecessors send, at most 1.
//
// That is what predicated reconvergence trades: guards, issued by every
// subgroup that passes them, against exits' code shared, which saves
// issues only where one subgroup reaches several exits, i.e. behind
// divergent branches.
//
// What counts as issued follows the simulator (`spirv-conv run --stats`):
// every instruction of a block but its label, phis (copies on the edges),
// merge instructions, debug lines and non-semantic instructions.

#ifndef SOURCE_PASSES_ISSUE_COST_H_
#define SOURCE_PASSES_ISSUE_COST_H_

#include <cstdint>
#include <map>
#include <unordered_map>

#include "source/opt/function.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace passes {

// Iterations assumed per loop whose trip count is not a constant the loop
// analysis finds: only the trade between code inside and outside a loop
// depends on it.
constexpr double kLoopTrips = 4;

// The instructions of |block| the simulator counts as issued.
double IssuedInstructions(const spvtools::opt::BasicBlock& block);

// Per block of |function| (structured): the product of the trip counts of
// the loop constructs it lies in, each its constant trip count when
// SPIRV-Tools' loop analysis finds one, else kLoopTrips.
std::unordered_map<const spvtools::opt::BasicBlock*, double> LoopWeights(
    spvtools::opt::IRContext* context, spvtools::opt::Function* function);

// The estimate for |function| of |context| (structured: loops are known by
// their OpLoopMerge), with branch levels from |uniformity|.
double ExpectedIssues(spvtools::opt::IRContext* context, spvtools::opt::Function* function,
                      const UniformityInfo& uniformity);

// The estimate for every function with a body, by result id.
Expected<std::map<uint32_t, double>> ExpectedIssuesPerFunction(spvtools::opt::IRContext* context);

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_ISSUE_COST_H_
