// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/fast_forward_cost.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <unordered_map>
#include <vector>

#include "passes/issue_cost.h"

namespace spirv_conv {
namespace passes {

namespace {

using spvtools::opt::BasicBlock;
using spvtools::opt::Function;
using spvtools::opt::Instruction;
using spvtools::opt::IRContext;

// Subgroups drawn, and iterations per lane: enough for the window sizes of
// kFastForwardWindows to reach a steady state.
constexpr int kSamples = 64;
constexpr int kTrips = 32;

double FunctionCost(IRContext* context, Function* function, std::set<uint32_t>* open);

double BlockCost(IRContext* context, const BasicBlock& block, std::set<uint32_t>* open) {
  double cost = IssuedInstructions(block);
  for (const Instruction& inst : block) {
    if (inst.opcode() != spv::Op::OpFunctionCall) continue;
    Function* callee = context->GetFunction(inst.GetSingleWordInOperand(0));
    if (callee != nullptr && !callee->IsDeclaration()) cost += FunctionCost(context, callee, open);
  }
  return cost;
}

double FunctionCost(IRContext* context, Function* function, std::set<uint32_t>* open) {
  if (!open->insert(function->result_id()).second) return 0;  // recursion: counted once
  const std::unordered_map<const BasicBlock*, double> weights = LoopWeights(context, function);
  double cost = 0;
  for (const BasicBlock& block : *function)
    cost += weights.at(&block) * BlockCost(context, block, open);
  open->erase(function->result_id());
  return cost;
}

}  // namespace

double IssuedWithCallees(IRContext* context, const BasicBlock& block) {
  std::set<uint32_t> open;
  return BlockCost(context, block, &open);
}

FastForwardEstimate EstimateFastForward(const LoopPartCosts& costs, double probability,
                                        uint32_t window, uint32_t width) {
  static_assert(kTrips == 32, "a lane's iterations are the bits of one word");
  std::mt19937 random(2);  // fixed: the estimate is a function of its arguments
  // A lane takes E when a 32-bit draw falls below p 2^32 (a direct compare:
  // std::bernoulli_distribution takes a logarithm per draw).
  const double threshold = std::clamp(probability, 0.0, 1.0) * 4294967296.0;
  const double trip = costs.before_branch + costs.cheap + costs.tail;
  FastForwardEstimate estimate;
  estimate.window = window;
  std::vector<uint32_t> arms(width);  // per lane, bit k: iteration k takes E
  std::vector<uint32_t> next(width);  // per lane, its next iteration
  for (int sample = 0; sample < kSamples; ++sample) {
    uint32_t any_e = 0, any_c = 0;
    for (uint32_t& lane : arms) {
      lane = 0;
      for (int k = 0; k < kTrips; ++k) {
        if (static_cast<double>(random()) < threshold) lane |= 1u << k;
      }
      any_e |= lane;
      any_c |= ~lane;
    }
    // Before: trip k issues E when any lane takes it, C when any lane does not.
    estimate.before += kTrips * (costs.before_branch + costs.tail) +
                       __builtin_popcount(any_c) * costs.cheap +
                       __builtin_popcount(any_e) * costs.expensive;
    // After: each lane's next iteration; outer trips until all are done.
    std::fill(next.begin(), next.end(), 0);
    for (bool running = true; running;) {
      uint32_t longest = 0;  // inner-loop entries of the longest-running lane
      bool any_parked = false;
      running = false;
      for (uint32_t l = 0; l < width; ++l) {
        if (next[l] >= kTrips) continue;
        // The inner loop runs the cheap iterations up to the next one taking
        // E (which parks, E then runs at the confluence node), at most the
        // window, at most the iterations left.
        const uint32_t ahead = arms[l] >> next[l];
        const uint32_t cheap_run =
            ahead == 0 ? kTrips - next[l] : static_cast<uint32_t>(__builtin_ctz(ahead));
        const bool parks = ahead != 0 && cheap_run < window;
        const uint32_t entries = parks ? cheap_run + 1 : std::min(window, cheap_run);
        longest = std::max(longest, entries);
        any_parked = any_parked || parks;
        next[l] += parks ? cheap_run + 1 : entries;
        running = running || next[l] < kTrips;
      }
      estimate.after += longest * (trip + kInnerTripOverhead) + kOuterTripOverhead +
                        (any_parked ? costs.expensive + costs.tail : 0);
    }
  }
  estimate.before /= kSamples;
  estimate.after /= kSamples;
  return estimate;
}

FastForwardEstimate EstimateMerge(double inner_trip, double rest, const MergeProfile& profile) {
  const double t = profile.outer_trips, l = profile.subgroup_trips;
  const double mu = std::min(profile.invocation_trips, l);
  FastForwardEstimate estimate;
  estimate.before = t * (l * inner_trip + rest);
  const double iterations = std::min(t * l, t * mu + (l - mu) * std::sqrt(t));
  estimate.after = iterations * (inner_trip + kMergeOverhead) + std::min(iterations, t * mu) * rest;
  return estimate;
}

}  // namespace passes
}  // namespace spirv_conv
