// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The structurizer's first two steps (docs/structurize.md):
//
// MakeReducible: every irreducible cycle gets one header. When its extra
// entries are small enough that copying them costs fewer instructions than a
// dispatch block (node_split.h: the cost rule, a per-function budget, no
// convergent instructions), the edges entering them from outside go to
// copies, and the kept entry is the only one. Otherwise all edges into any
// of its entries, from outside and from inside, go to a new dispatch block
// that stores nothing itself but branches on a Function variable the edges
// set to their original target (LLVM's FixIrreducible, nir_lower_goto_ifs).
// One block and one store per redirected edge.
//
//        A   B               A   B         (edges set %sel to C or D)
//        |   |                \ /
//        C<->D      ==>        H  <---+     H: switch %sel
//                             / \     |
//                            C   D ---+
//
// ShapeLoops: every (now natural) loop, innermost first, gets what a SPIR-V
// loop construct needs: one exit block all its exiting edges lead to (a new
// dispatch block when the loop leaves to several places, as LLVM's
// UnifyLoopExits), inside the enclosing loop; one continue target holding the
// only back edge; and a header whose own branch does not need a selection
// merge (else an empty header is put in front of it).

#ifndef SOURCE_PASSES_STRUCTURIZE_LOOP_FOREST_H_
#define SOURCE_PASSES_STRUCTURIZE_LOOP_FOREST_H_

#include <cstdint>
#include <vector>

#include "passes/structurize/block_graph.h"

namespace spirv_conv {
namespace structurize {

struct ShapedLoop {
  uint32_t header = 0;
  uint32_t continue_target = 0;  // may be the header itself
  uint32_t merge = 0;
  std::vector<uint32_t> blocks;  // header, body, continue target; sorted
};

struct LoopForest {
  std::vector<ShapedLoop> loops;  // by header
};

// Each dispatch block reads a Function variable of its own, which every edge
// into it sets. Returns the number of irreducible cycles given a header (by
// a dispatch block or by copying entries).
uint32_t MakeReducible(BlockGraph* graph);

// Shapes every loop of the (reducible) |graph|; dispatching exit blocks
// have a variable of their own as above.
LoopForest ShapeLoops(BlockGraph* graph);

}  // namespace structurize
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_STRUCTURIZE_LOOP_FOREST_H_
