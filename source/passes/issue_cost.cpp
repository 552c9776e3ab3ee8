// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/issue_cost.h"

#include <algorithm>
#include <list>
#include <set>
#include <unordered_map>
#include <vector>

#include "source/opt/dominator_analysis.h"
#include "source/opt/loop_descriptor.h"

namespace spirv_conv {
namespace passes {

using spvtools::opt::BasicBlock;
using spvtools::opt::Instruction;

double IssuedInstructions(const BasicBlock& block) {
  double issued = 0;
  for (const Instruction& inst : block) {
    const spv::Op op = inst.opcode();
    if (op == spv::Op::OpPhi || op == spv::Op::OpSelectionMerge || op == spv::Op::OpLoopMerge ||
        op == spv::Op::OpLine || op == spv::Op::OpNoLine || inst.IsNonSemanticInstruction()) {
      continue;
    }
    ++issued;
  }
  return issued;
}

namespace {

// The loops of |function| whose trip count SPIRV-Tools' loop analysis
// finds (one induction variable against a constant bound, in SSA form), by
// header; at least 1, as the body of a loop entered runs its header once.
std::unordered_map<const BasicBlock*, double> KnownTrips(spvtools::opt::IRContext* context,
                                                         spvtools::opt::Function* function) {
  std::unordered_map<const BasicBlock*, double> trips;
  for (spvtools::opt::Loop& loop : *context->GetLoopDescriptor(function)) {
    const BasicBlock* condition = loop.FindConditionBlock();
    if (condition == nullptr) continue;
    const Instruction* induction = loop.FindConditionVariable(condition);
    size_t iterations = 0;
    if (induction != nullptr &&
        loop.FindNumberOfIterations(induction, &*condition->ctail(), &iterations)) {
      trips[loop.GetHeaderBlock()] = std::max<double>(1, static_cast<double>(iterations));
    }
  }
  return trips;
}

}  // namespace

std::unordered_map<const BasicBlock*, double> LoopWeights(spvtools::opt::IRContext* context,
                                                          spvtools::opt::Function* function) {
  spvtools::opt::DominatorAnalysis* dominators = context->GetDominatorAnalysis(function);
  const std::unordered_map<const BasicBlock*, double> known = KnownTrips(context, function);
  // The loop constructs: blocks a header dominates and its merge does not.
  struct Loop {
    const BasicBlock* header;
    const BasicBlock* merge;
    double trips;
  };
  std::vector<Loop> loops;
  for (BasicBlock& block : *function) {
    if (const Instruction* merge = block.GetLoopMergeInst()) {
      auto found = known.find(&block);
      loops.push_back({&block, context->cfg()->block(merge->GetSingleWordInOperand(0)),
                       found == known.end() ? kLoopTrips : found->second});
    }
  }
  std::unordered_map<const BasicBlock*, double> weights;
  for (BasicBlock& block : *function) {
    double weight = 1;
    for (const Loop& loop : loops) {
      if (dominators->Dominates(loop.header, &block) &&
          !dominators->Dominates(loop.merge, &block)) {
        weight *= loop.trips;
      }
    }
    weights[&block] = weight;
  }
  return weights;
}

double ExpectedIssues(spvtools::opt::IRContext* context, spvtools::opt::Function* function,
                      const UniformityInfo& uniformity) {
  spvtools::opt::DominatorAnalysis* dominators = context->GetDominatorAnalysis(function);
  const std::unordered_map<const BasicBlock*, double> weights = LoopWeights(context, function);
  std::list<BasicBlock*> order;  // every forward edge goes down the list
  context->cfg()->ComputeStructuredOrder(function, function->entry().get(), &order);
  std::unordered_map<const BasicBlock*, double> reached;
  reached[function->entry().get()] = 1;
  double cost = 0;
  for (BasicBlock* block : order) {
    const double p = std::min(1.0, reached[block]);
    cost += p * weights.at(block) * IssuedInstructions(*block);
    // Forward successors: a branch to a block that dominates this one is a
    // back edge.
    std::set<uint32_t> successors;
    block->ForEachSuccessorLabel([&](uint32_t label) {
      if (!dominators->Dominates(label, block->id())) successors.insert(label);
    });
    const bool every_side =
        block->GetLoopMergeInst() != nullptr || uniformity.HasDivergentBranch(block->id());
    for (uint32_t label : successors) {
      reached[context->cfg()->block(label)] += every_side ? p : p / successors.size();
    }
  }
  return cost;
}

Expected<std::map<uint32_t, double>> ExpectedIssuesPerFunction(spvtools::opt::IRContext* context) {
  Expected<std::unique_ptr<UniformityInfo>> uniformity = UniformityInfo::Compute(context);
  if (!uniformity) return uniformity.error();
  std::map<uint32_t, double> costs;
  for (spvtools::opt::Function& function : *context->module()) {
    if (!function.IsDeclaration()) {
      costs[function.result_id()] = ExpectedIssues(context, &function, **uniformity);
    }
  }
  return costs;
}

}  // namespace passes
}  // namespace spirv_conv
