// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Where the structured emitter (structured_emitter.h) places each block
// (docs/structurize.md, "Layout"). Blocks are placed by the dominator tree of
// the forward graph (back edges removed), as in Ramsey's "Beyond Relooper"
// (ICFP 2022): a block's children with one forward predecessor (the block
// itself) are its *arms*, emitted inside its selection construct; children
// with several forward predecessors are its *followers*, emitted after it in
// order, and the first of them is the merge of its selection construct. A
// loop's exit block is placed after the loop. Switch fall-through is the one
// arm with two forward predecessors (PlanLayout reorders the OpSwitch for it).

#ifndef SOURCE_PASSES_STRUCTURIZE_LAYOUT_H_
#define SOURCE_PASSES_STRUCTURIZE_LAYOUT_H_

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "passes/structurize/block_graph.h"
#include "passes/structurize/loop_forest.h"

namespace spirv_conv {
namespace structurize {

struct Layout {
  std::map<uint32_t, int> loop_of_header;  // header node -> index into LoopForest::loops
  std::set<uint32_t> continue_targets;     // of loops whose continue target is not the header
  std::vector<std::set<uint32_t>> forward_preds;  // per node, without back edges
  std::vector<uint32_t> rpo;                      // reverse post-order of the forward graph
  std::vector<std::vector<uint32_t>> kids;        // per node: its arms, in emission order
  std::vector<std::vector<uint32_t>> followers;   // per node: its followers, in emission order
  std::vector<char> arm;                          // per node: it is an arm of its parent
  // Switch fall-through: case block -> the switch and the case (an arm of
  // the switch) whose construct branches into it. The only arms with two
  // forward predecessors.
  struct FallThrough {
    uint32_t switch_node;
    uint32_t from_case;
  };
  std::map<uint32_t, FallThrough> fall_through;
};

// Plans the layout of |graph| with shaped loops |forest|. |merge_hints| maps
// a block to the merge block its input OpSelectionMerge named: when a
// selection has no follower, that arm becomes its merge. Reorders the
// targets of an OpSwitch whose case falls through into another.
Layout PlanLayout(BlockGraph* graph, const LoopForest& forest,
                  const std::map<uint32_t, uint32_t>& merge_hints);

}  // namespace structurize
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_STRUCTURIZE_LAYOUT_H_
