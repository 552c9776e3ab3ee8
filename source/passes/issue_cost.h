// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// A static estimate of what a structured function costs a subgroup whose
// invocations take every path: the cost model of predicated reconvergence
// (ReconvergeBinary, docs/structurize.md#reconverge).
//
// Under divergence a SIMT machine issues every block some invocation
// reaches, once per subgroup (and per iteration of the loops around it),
// whatever the number of invocations in it. When every branch diverges,
// every block is reached, so the issues are the instructions of all blocks,
// each block weighted by kLoopTrips per loop construct it lies in. That is
// the case predicated reconvergence is for: it adds guards (issued on
// every path) to share the exits' code (issued once instead of once per
// exit); on a function whose branches happen to go one way in a subgroup
// it only adds the guards, which the estimate does not reward.
//
// What counts as issued follows the simulator (`spirv-conv run --stats`):
// every instruction of a block but its label, phis (copies on the edges),
// merge instructions, debug lines and non-semantic instructions.

#ifndef SOURCE_PASSES_ISSUE_COST_H_
#define SOURCE_PASSES_ISSUE_COST_H_

#include <cstdint>
#include <map>

#include "source/opt/function.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace passes {

// Iterations assumed per loop: only the trade between code inside and
// outside a loop depends on it.
constexpr uint64_t kLoopTrips = 4;

// The estimate for |function| of |context| (structured: loops are known by
// their OpLoopMerge).
uint64_t DivergentIssueCost(spvtools::opt::IRContext* context, spvtools::opt::Function* function);

// The estimate for every function with a body, by result id.
std::map<uint32_t, uint64_t> DivergentIssueCosts(spvtools::opt::IRContext* context);

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_ISSUE_COST_H_
