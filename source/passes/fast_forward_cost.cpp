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
  std::mt19937 random(2);  // fixed: the estimate is a function of its arguments
  std::bernoulli_distribution takes_e(std::clamp(probability, 0.0, 1.0));
  const double trip = costs.before_branch + costs.cheap + costs.tail;
  FastForwardEstimate estimate;
  estimate.window = window;
  std::vector<std::vector<bool>> arms(width, std::vector<bool>(kTrips));
  for (int sample = 0; sample < kSamples; ++sample) {
    for (auto& lane : arms) {
      for (int k = 0; k < kTrips; ++k) lane[k] = takes_e(random);
    }
    // Before: trip k issues E when any lane takes it, C when any lane does not.
    for (int k = 0; k < kTrips; ++k) {
      bool any_e = false, any_c = false;
      for (const auto& lane : arms) (lane[k] ? any_e : any_c) = true;
      estimate.before += costs.before_branch + costs.tail + (any_c ? costs.cheap : 0) +
                         (any_e ? costs.expensive : 0);
    }
    // After: each lane's next iteration; outer trips until all are done.
    std::vector<int> next(width, 0);
    std::vector<bool> parked(width);
    for (bool running = true; running;) {
      uint32_t longest = 0;  // inner-loop entries of the longest-running lane
      bool any_parked = false;
      for (uint32_t l = 0; l < width; ++l) {
        uint32_t entries = 0;
        parked[l] = false;
        while (next[l] < kTrips && entries < window && !parked[l]) {
          ++entries;
          parked[l] = arms[l][next[l]];  // E runs at the confluence node
          if (!parked[l]) ++next[l];
        }
        longest = std::max(longest, entries);
        any_parked = any_parked || parked[l];
      }
      running = false;
      for (uint32_t l = 0; l < width; ++l) {
        if (parked[l]) ++next[l];  // the parked iteration completes after E
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
