// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The cost model of loop fast-forwarding (docs/fast-forward.md#the-cost-model):
// the instructions a subgroup is expected to issue for one loop, in lock
// step as under maximal reconvergence, before and after the transform.
//
// Before, every trip issues the iteration's common code (P, T) and C when a
// lane takes it, and E when any lane does: with W lanes each taking E with
// probability p, on a fraction 1 - (1 - p)^W of the trips. After, an outer
// trip issues the inner loop as often as its longest-running lane enters it
// (each entry: P, C, T and the window's counter), then E and T once if any
// lane parked, plus the dispatch of the confluence node. Lanes draw their
// arms independently; the expectation is taken over kSamples subgroups drawn
// with a fixed seed, every lane running kTrips iterations, so the estimate
// is deterministic. Both forms are priced on the same draws.

#ifndef SOURCE_PASSES_FAST_FORWARD_COST_H_
#define SOURCE_PASSES_FAST_FORWARD_COST_H_

#include <cstdint>

#include "source/opt/function.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace passes {

// Issued instructions of one iteration's parts.
struct LoopPartCosts {
  double before_branch = 0;  // P: the iteration up to the divergent branch
  double cheap = 0;          // C: the other arm
  double expensive = 0;      // E: the expensive arm
  double tail = 0;           // T: from the arms' merge to the back edge
};

// What the transform adds (after promotion to SSA): per inner trip, the
// window's increment, compare and branch; per outer trip, the outer
// header's branch and the confluence node's two compares and branches.
constexpr double kInnerTripOverhead = 3;
constexpr double kOuterTripOverhead = 5;

struct FastForwardEstimate {
  double before = 0;  // expected issues per subgroup, original loop
  double after = 0;   // with the window below
  uint32_t window = 0;
};

// The estimate for window |window| when each lane takes E with
// |probability| per iteration, in subgroups of |width| lanes.
FastForwardEstimate EstimateFastForward(const LoopPartCosts& costs, double probability,
                                        uint32_t window, uint32_t width = 32);

// Shape B, merging an inner loop into its outer loop, priced from a
// profile: per run of the outer loop (one subgroup), its trips, and per
// outer trip the inner loop's trips in lock step (the longest invocation's,
// header visits) and on average per invocation.
struct MergeProfile {
  double outer_trips = 0;       // T
  double subgroup_trips = 0;    // L
  double invocation_trips = 0;  // mu
};

// What the merged loop adds per iteration: the dispatch block's load,
// compare and branch, and the store of the state on the back edge.
constexpr double kMergeOverhead = 4;

// Before: T (L c_inner + c_rest). After, the merged loop runs as often as
// its longest invocation: on average T mu, plus the lock-step excess L - mu
// of one outer trip grown as the square root of T (sums of independent trips
// spread by sqrt(T), not T), never more than the T L trips it had; each of
// those iterations issues an inner trip and the dispatch. The rest of the
// outer iteration issues while invocations still take outer steps, which a
// typical invocation does over its T mu iterations.
FastForwardEstimate EstimateMerge(double inner_trip, double rest, const MergeProfile& profile);

// Issued instructions of |block| as the simulator counts them (issue_cost.h)
// plus, for each call, its callee's instructions (loops in it counted
// kLoopTrips times, calls in it recursively; a recursive cycle counts once).
double IssuedWithCallees(spvtools::opt::IRContext* context, const spvtools::opt::BasicBlock& block);

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_FAST_FORWARD_COST_H_
