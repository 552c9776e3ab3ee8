// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/loop_constructs.h"

namespace spirv_conv {
namespace analysis {
namespace {

// The cycle whose header is |header|, or null.
const Cycle* CycleOfHeader(const CycleInfo& cycles, uint32_t header) {
  const Cycle* cycle = cycles.InnermostCycle(header);
  while (cycle != nullptr && cycle->header() != header) cycle = cycle->parent();
  return cycle;
}

}  // namespace

BreakBlocks FindBreakBlocks(const FunctionCfg& blocks, const CfgAnalyses& graph) {
  const DominatorTree& dom = graph.dominators;
  BreakBlocks result;
  result.of_cycle.assign(graph.cycles.AllCycles().size(), {});
  std::vector<uint32_t> seen_for(blocks.cfg.size(), ~0u);  // the header that visited it
  std::vector<std::pair<uint32_t, uint32_t>> break_of;     // (block, cycle index)
  for (uint32_t h = 0; h < blocks.cfg.size(); ++h) {
    const spvtools::opt::Instruction* loop_merge = blocks.loop_merge[h];
    if (loop_merge == nullptr || !dom.IsReachable(h)) continue;
    const Cycle* cycle = CycleOfHeader(graph.cycles, h);
    if (cycle == nullptr) continue;
    const uint32_t merge = blocks.Index(loop_merge->GetSingleWordInOperand(0));
    const bool merge_reachable = merge != ~0u && dom.IsReachable(merge);
    // Forward from the cycle's exits, within the construct.
    std::vector<uint32_t> work(cycle->exits().begin(), cycle->exits().end());
    while (!work.empty()) {
      const uint32_t x = work.back();
      work.pop_back();
      if (seen_for[x] == h || cycle->Contains(x) || !dom.Dominates(h, x) ||
          (merge_reachable && dom.Dominates(merge, x))) {
        continue;
      }
      seen_for[x] = h;
      result.of_cycle[cycle->index()].push_back(x);
      break_of.emplace_back(x, cycle->index());
      for (uint32_t s : blocks.cfg.successors[x]) work.push_back(s);
    }
  }
  result.cycles_of = CompressedLists::FromPairs(blocks.cfg.size(), break_of);
  return result;
}

}  // namespace analysis
}  // namespace spirv_conv
