// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/function_cfg.h"

#include <algorithm>

#include "analysis/compressed_lists.h"
#include "analysis/module_index.h"

namespace spirv_conv {
namespace analysis {

uint32_t FunctionCfg::IndexBySearch(uint32_t label) const {
  auto it = std::lower_bound(by_label.begin(), by_label.end(), std::make_pair(label, 0u));
  return it != by_label.end() && it->first == label ? it->second : ~0u;
}

FunctionCfg BuildFunctionCfg(const spvtools::opt::Function& function) {
  return BuildFunctionCfg(RecordFunctionBody(const_cast<spvtools::opt::Function&>(function)));
}

FunctionCfg BuildFunctionCfg(const FunctionBody& body) {
  FunctionCfg result;
  uint32_t low = ~0u;
  uint32_t high = 0;
  // The branch targets (OpLabel ids) of each block; they become block
  // indices below, once every label is known.
  CompressedLists targets;
  const uint32_t blocks = body.blocks();
  result.label_of.reserve(blocks);
  result.terminator_opcode.reserve(blocks);
  result.loop_merge.reserve(blocks);
  result.terminator_operand.reserve(blocks);
  targets.Reserve(blocks, 2 * static_cast<size_t>(blocks));
  for (uint32_t b = 0; b < blocks; ++b) {
    const uint32_t first = body.block_start[b];         // the OpLabel
    const uint32_t last = body.block_start[b + 1] - 1;  // the terminator
    const uint32_t label = body.rows[first].result_id;
    const spv::Op opcode = body.rows[last].opcode;
    result.label_of.push_back(label);
    result.terminator_opcode.push_back(opcode);
    // OpLoopMerge, when present, comes right before the terminator.
    result.loop_merge.push_back(last > first + 1 &&
                                        body.rows[last - 1].opcode == spv::Op::OpLoopMerge
                                    ? body.rows[last - 1].inst
                                    : nullptr);
    low = std::min(low, label);
    high = std::max(high, label);
    // In-operand ids: OpBranch (target), OpBranchConditional (condition,
    // targets), OpSwitch (selector, default, then the case targets: its
    // literals are not ids), OpReturnValue (value).
    const CompressedLists::Range ids = body.in_ids[last];
    uint32_t operand = 0;
    targets.StartList();
    switch (opcode) {
      case spv::Op::OpBranch:
        targets.Add(ids[0]);
        break;
      case spv::Op::OpBranchConditional:
      case spv::Op::OpSwitch:
        operand = ids[0];
        for (size_t i = 1; i < ids.size(); ++i) targets.Add(ids[i]);
        break;
      case spv::Op::OpReturnValue:
        operand = ids[0];
        break;
      default:
        break;
    }
    result.terminator_operand.push_back(operand);
  }
  targets.Finish();
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
    successors.reserve(targets[b].size());  // one allocation, not one per successor
    for (uint32_t label : targets[b]) {
      const uint32_t successor = result.Index(label);
      // OpSwitch may name a target more than once.
      if (successor != ~0u &&
          std::find(successors.begin(), successors.end(), successor) == successors.end()) {
        successors.push_back(successor);
      }
    }
  }
  return result;
}

}  // namespace analysis
}  // namespace spirv_conv
