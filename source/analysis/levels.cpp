// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/levels.h"

namespace spirv_conv {
namespace analysis {

using spvtools::opt::Instruction;

Uniformity Levels::UseLevel(const Instruction& user, uint32_t operand) const {
  const uint32_t id = user.GetSingleWordInOperand(operand);
  const Uniformity defined = info_.ValueLevel(id);
  if (defined == Uniformity::kDivergent) return defined;
  const Instruction* def = index_.Def(id);
  const spvtools::opt::BasicBlock* block = def == nullptr ? nullptr : blocks_.Of(*def);
  if (block == nullptr || !InCycleLeftOnDifferentIterations(block->id())) return defined;
  return info_.UseLevel(user, operand);
}

Uniformity Levels::ControlFlowLevel(const Instruction& inst) const {
  const spvtools::opt::BasicBlock* block = blocks_.Of(inst);
  if (block == nullptr) return Uniformity::kUniform;
  if (blocks_.CallsBefore(inst) != 0) {
    for (const Instruction& earlier : *block) {
      if (&earlier == &inst) break;
      if (earlier.opcode() == spv::Op::OpFunctionCall &&
          calls_.InvocationEnd(earlier.GetSingleWordInOperand(0)) != nullptr) {
        return info_.ControlFlowLevel(inst);
      }
    }
  }
  return info_.ControlFlowLevel(block->id());
}

bool Levels::InCycleLeftOnDifferentIterations(uint32_t label) const {
  if (left_apart_blocks_.empty()) {
    left_apart_blocks_.assign(context_.module()->IdBound(), false);
    for (const spvtools::opt::Function& function : *context_.module()) {
      for (const UniformityCycle& cycle : info_.Cycles(function.result_id())) {
        if (cycle.divergent_exit == Uniformity::kUniform &&
            cycle.assumed_divergent == Uniformity::kUniform) {
          continue;
        }
        for (const std::vector<uint32_t>* blocks : {&cycle.blocks, &cycle.break_blocks}) {
          for (uint32_t b : *blocks) {
            if (b < left_apart_blocks_.size()) left_apart_blocks_[b] = true;
          }
        }
      }
    }
  }
  return label < left_apart_blocks_.size() && left_apart_blocks_[label];
}

}  // namespace analysis
}  // namespace spirv_conv
