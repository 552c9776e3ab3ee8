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

  Cfg cfg;
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
