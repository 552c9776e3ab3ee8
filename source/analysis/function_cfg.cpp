// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/function_cfg.h"

#include <algorithm>

namespace spirv_conv {
namespace analysis {

uint32_t FunctionCfg::Index(uint32_t label) const {
  auto it = std::lower_bound(by_label.begin(), by_label.end(), std::make_pair(label, 0u));
  return it != by_label.end() && it->first == label ? it->second : ~0u;
}

FunctionCfg BuildFunctionCfg(const spvtools::opt::Function& function) {
  FunctionCfg result;
  for (const auto& block : function) {
    result.by_label.emplace_back(block.id(), static_cast<uint32_t>(result.label_of.size()));
    result.label_of.push_back(block.id());
  }
  std::sort(result.by_label.begin(), result.by_label.end());
  result.cfg.successors.resize(result.label_of.size());
  uint32_t index = 0;
  for (const auto& block : function) {
    std::vector<uint32_t>& successors = result.cfg.successors[index++];
    const spvtools::opt::Instruction& terminator = *block.ctail();
    auto add = [&](uint32_t in_operand) {
      const uint32_t successor = result.Index(terminator.GetSingleWordInOperand(in_operand));
      // OpSwitch may name a target more than once.
      if (successor != ~0u &&
          std::find(successors.begin(), successors.end(), successor) == successors.end()) {
        successors.push_back(successor);
      }
    };
    switch (terminator.opcode()) {
      case spv::Op::OpBranch:
        add(0);
        break;
      case spv::Op::OpBranchConditional:
        add(1);
        add(2);
        break;
      case spv::Op::OpSwitch:  // selector, default, then (literal, label) pairs
        for (uint32_t i = 1; i < terminator.NumInOperands(); i += 2) add(i);
        break;
      default:
        break;
    }
  }
  return result;
}

}  // namespace analysis
}  // namespace spirv_conv
