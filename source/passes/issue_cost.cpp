// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/issue_cost.h"

#include <vector>

#include "source/opt/dominator_analysis.h"

namespace spirv_conv {
namespace passes {

namespace {

using spvtools::opt::BasicBlock;
using spvtools::opt::Instruction;

uint64_t IssuedInstructions(const BasicBlock& block) {
  uint64_t issued = 0;
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

}  // namespace

uint64_t DivergentIssueCost(spvtools::opt::IRContext* context, spvtools::opt::Function* function) {
  spvtools::opt::DominatorAnalysis* dominators = context->GetDominatorAnalysis(function);
  // The loop constructs: blocks a header dominates and its merge does not.
  std::vector<std::pair<const BasicBlock*, const BasicBlock*>> loops;  // (header, merge)
  for (BasicBlock& block : *function) {
    if (const Instruction* merge = block.GetLoopMergeInst()) {
      loops.emplace_back(&block, context->cfg()->block(merge->GetSingleWordInOperand(0)));
    }
  }
  uint64_t cost = 0;
  for (BasicBlock& block : *function) {
    if (!dominators->Dominates(function->entry().get(), &block)) continue;  // unreachable
    uint64_t weight = 1;
    for (const auto& [header, merge] : loops) {
      if (dominators->Dominates(header, &block) && !dominators->Dominates(merge, &block)) {
        weight *= kLoopTrips;
      }
    }
    cost += weight * IssuedInstructions(block);
  }
  return cost;
}

std::map<uint32_t, uint64_t> DivergentIssueCosts(spvtools::opt::IRContext* context) {
  std::map<uint32_t, uint64_t> costs;
  for (spvtools::opt::Function& function : *context->module()) {
    if (!function.IsDeclaration())
      costs[function.result_id()] = DivergentIssueCost(context, &function);
  }
  return costs;
}

}  // namespace passes
}  // namespace spirv_conv
