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

// The cycle hierarchy as dense arrays by Cycle::index() (a preorder of
// the cycle tree), for the solver's walks from a block outwards through
// its cycles, done for every value and use: the Cycle objects lie apart on
// the heap (at 100,000 blocks, megabytes of them), these arrays in a few
// hundred kilobytes. A copy of what the Cycle objects hold, made once.
//
//   cycles by index:  0 [1 [2] 3] 4      parent: -, 0, 1, 0, -
//                                          end:  4, 3, 3, 4, 5
//   cycle c contains block b  <=>  c <= innermost[b] < end[c]
struct CycleTree {
  static constexpr uint32_t kNone = ~0u;
  CycleTree(const CycleInfo& cycles, uint32_t blocks);

  std::vector<uint32_t> innermost;  // per block: its innermost cycle, or kNone
  std::vector<uint32_t> parent;     // per cycle: the enclosing cycle, or kNone
  std::vector<uint32_t> end;        // per cycle: one past the last index of its subtree
  std::vector<uint32_t> depth;      // per cycle: 1 for a top-level cycle

  bool Contains(uint32_t cycle, uint32_t block) const {
    const uint32_t inner = innermost[block];
    return inner != kNone && cycle <= inner && inner < end[cycle];
  }
};

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
  CompressedLists predecessors;  // per block, in block order
  // The reachable blocks in reverse post-order, of the search that found
  // the cycles (set by |cycles|, which is constructed after it).
  std::vector<uint32_t> rpo;
  std::vector<uint32_t> rpo_index;  // position in |rpo|; ~0u if unreachable
  CycleInfo cycles;
  CycleTree cycle_tree;  // |cycles| as dense arrays
  DominatorTree dominators;
  DominatorTree post_dominators;  // virtual exit = cfg.size()
};

// The first post-dominator of |block| that lies in no cycle: every thread
// that executes |block| reaches it exactly once afterwards, with every
// diverged path merged, so nothing beyond it can be a join. ~0u if the only
// such post-dominator is the virtual exit.
uint32_t AcyclicPostDominator(const CfgAnalyses& graph, uint32_t block);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_CFG_ANALYSES_H_
