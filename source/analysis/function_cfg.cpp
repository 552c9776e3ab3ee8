// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/function_cfg.h"

#include <algorithm>

namespace spirv_conv {
namespace analysis {

uint32_t FunctionCfg::IndexBySearch(uint32_t label) const {
  auto it = std::lower_bound(by_label.begin(), by_label.end(), std::make_pair(label, 0u));
  return it != by_label.end() && it->first == label ? it->second : ~0u;
}

FunctionCfg BuildFunctionCfg(const spvtools::opt::Function& function) {
  FunctionCfg result;
  uint32_t low = ~0u;
  uint32_t high = 0;
  for (const auto& block : function) {
    result.label_of.push_back(block.id());
    result.terminator.push_back(&*block.ctail());
    result.loop_merge.push_back(block.GetLoopMergeInst());
    low = std::min(low, block.id());
    high = std::max(high, block.id());
  }
  const size_t n = result.label_of.size();
  // A table over the label range costs 4 bytes per id in it. Up to 16 ids
  // per block (a compiler numbers a block's instructions between its
  // labels) is 64 bytes a block, less than the analysis keeps per block in
  // any case.
  if (n != 0 && high - low < 16 * n + 256) {
    result.first_label = low;
    result.dense.assign(high - low + 1, ~0u);
    for (uint32_t b = 0; b < n; ++b) result.dense[result.label_of[b] - low] = b;
  } else {
    for (uint32_t b = 0; b < n; ++b) result.by_label.emplace_back(result.label_of[b], b);
    std::sort(result.by_label.begin(), result.by_label.end());
  }
  result.cfg.successors.resize(n);
  for (uint32_t b = 0; b < n; ++b) {
    std::vector<uint32_t>& successors = result.cfg.successors[b];
    const spvtools::opt::Instruction& terminator = *result.terminator[b];
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
