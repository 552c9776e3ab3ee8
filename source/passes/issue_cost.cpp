// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/issue_cost.h"

#include <algorithm>
#include <list>
#include <set>
#include <unordered_map>
#include <vector>

#include "source/opt/dominator_analysis.h"

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

std::unordered_map<const BasicBlock*, double> LoopWeights(spvtools::opt::IRContext* context,
                                                          spvtools::opt::Function* function) {
  spvtools::opt::DominatorAnalysis* dominators = context->GetDominatorAnalysis(function);
  // The loop constructs: blocks a header dominates and its merge does not.
  std::vector<std::pair<const BasicBlock*, const BasicBlock*>> loops;  // (header, merge)
  for (BasicBlock& block : *function) {
    if (const Instruction* merge = block.GetLoopMergeInst()) {
      loops.emplace_back(&block, context->cfg()->block(merge->GetSingleWordInOperand(0)));
    }
  }
  std::unordered_map<const BasicBlock*, double> weights;
  for (BasicBlock& block : *function) {
    double weight = 1;
    for (const auto& [header, merge] : loops) {
      if (dominators->Dominates(header, &block) && !dominators->Dominates(merge, &block)) {
        weight *= kLoopTrips;
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
