// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The structurizer's last step (docs/structurize.md): lays out a reducible
// CFG with shaped loops (loop_forest.h) as SPIR-V structured control flow.
//
// Blocks are placed as layout.h plans: arms inside their parent's selection
// construct, followers after it, the first follower as its merge.
//
// A branch is kept when SPIR-V allows it where it is: to an arm, to the merge
// of the innermost selection, to the next follower, a break to the innermost
// loop's merge, a continue to its continue target. Any other branch leaves
// more than one construct (LLVM's structurizer would add Flow blocks). It
// becomes a *cascade*: the branch stores its real target in a Function
// variable and goes to the merge of the innermost construct, where a guard
// block sends it on, one construct at a time, until the target is a legal
// branch; normal arrivals find 0 there and run the merge block as before.
//
//      x: if (a) { if (b) goto J; ... }      x:  selection, merge G
//         ...                          ==>    b:  cascade = J; goto G
//      J:                                     G:  t = cascade; if (t == J) goto J
//                                                 else <x's merge>
//
// Nothing is predicated or duplicated where the input was already
// structured: a CFG that only lacked merge instructions keeps its blocks.

#ifndef SOURCE_PASSES_STRUCTURIZE_STRUCTURED_EMITTER_H_
#define SOURCE_PASSES_STRUCTURIZE_STRUCTURED_EMITTER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "passes/structurize/block_graph.h"
#include "passes/structurize/loop_forest.h"

namespace spirv_conv {
namespace structurize {

// Adds merge instructions, cascades and guards to |graph| and returns the
// block order in |order|. False, with |error| set, on an internal failure.
// |merge_hints| maps a block to the merge block its input OpSelectionMerge
// named: when a selection has no follower, that arm becomes its merge.
bool EmitStructured(BlockGraph* graph, const LoopForest& forest,
                    const std::map<uint32_t, uint32_t>& merge_hints, std::vector<uint32_t>* order,
                    std::string* error);

}  // namespace structurize
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_STRUCTURIZE_STRUCTURED_EMITTER_H_
