// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Break blocks of structured loops: the blocks of a loop construct that lie
// outside the loop's cycle.
//
//   header <----------.        The loop construct of a structured loop is
//     |               |        every block the header dominates and the
//   branch --> body --'        merge does not (SPIR-V 2.11). Blocks of it
//     |                        outside the cycle are break blocks: an
//   break block (construct)    invocation runs one on the iteration it
//     |                        leaves, so with a divergent exit invocations
//   merge                      run it on different iterations, never
//                              together (SPV_KHR_maximal_reconvergence).
//
// LLVM's cycles end at the branch; SPIR-V's dynamic instances end at the
// merge. Unstructured code (no OpLoopMerge) has no break blocks.

#ifndef SOURCE_ANALYSIS_LOOP_CONSTRUCTS_H_
#define SOURCE_ANALYSIS_LOOP_CONSTRUCTS_H_

#include <cstdint>
#include <vector>

#include "analysis/cfg_analyses.h"
#include "analysis/compressed_lists.h"
#include "analysis/function_cfg.h"
#include "source/opt/function.h"

namespace spirv_conv {
namespace analysis {

struct BreakBlocks {
  // Per cycle index (Cycle::index()): its break blocks.
  std::vector<std::vector<uint32_t>> of_cycle;
  // Per block index: the cycles it is a break block of. Asked for the
  // defining block of every operand the solver reads across blocks.
  CompressedLists cycles_of;
};

// The break blocks of the structured loops of the function whose CFG is
// |blocks| (with its OpLoopMerge instructions) with analyses |graph|.
BreakBlocks FindBreakBlocks(const FunctionCfg& blocks, const CfgAnalyses& graph);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_LOOP_CONSTRUCTS_H_
