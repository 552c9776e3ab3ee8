// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Everything the uniformity analysis needs to know about one CFG, computed
// once: predecessors, reverse post-order, cycles, dominators and
// post-dominators.

#ifndef SOURCE_ANALYSIS_CFG_ANALYSES_H_
#define SOURCE_ANALYSIS_CFG_ANALYSES_H_

#include <cstdint>
#include <vector>

#include "analysis/dominance.h"
#include "spirv_conv/cycle_info.h"

namespace spirv_conv {
namespace analysis {

struct CfgAnalyses {
  // |also_exit|: blocks that may end the invocation before their terminator.
  explicit CfgAnalyses(Cfg graph, const std::vector<char>& also_exit = {});
  // The same over |*graph|, which is not copied and must outlive this (the
  // uniformity model's FunctionCfg: a copy of a 100,000-block CFG is as
  // many allocations).
  explicit CfgAnalyses(const Cfg* graph, const std::vector<char>& also_exit = {});
  CfgAnalyses(const CfgAnalyses&) = delete;
  CfgAnalyses& operator=(const CfgAnalyses&) = delete;

 private:
  CfgAnalyses(Cfg owned, const Cfg* borrowed, const std::vector<char>& also_exit);
  Cfg owned_;  // the graph when it was handed over, else empty

 public:
  const Cfg& cfg;
  CompressedLists predecessors;     // per block, in block order
  std::vector<uint32_t> rpo;        // the reachable blocks in reverse post-order
  std::vector<uint32_t> rpo_index;  // position in |rpo|; ~0u if unreachable
  CycleInfo cycles;
  DominatorTree dominators;
  DominatorTree post_dominators;  // virtual exit = cfg.size()
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_CFG_ANALYSES_H_
