// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Takes a function out of SSA form for the structurizer (LLVM calls it
// reg2mem): every OpPhi becomes a Function variable, stored at the end of
// each predecessor and loaded where the phi was, and every value used in a
// block other than its own is stored after its definition and loaded in the
// using block. The control flow can then be rebuilt freely; SPIRV-Tools'
// SSA rewriter turns the variables back into values afterwards.
//
// Values that cannot live in a Function variable (pointers, images,
// samplers, sampled images) are recomputed in the using block instead when
// their definition is an access chain, a copy, OpSampledImage, OpImage, or a
// load of an opaque handle; anything else is an error naming the value.
// Values of the entry block are left alone: the entry dominates every block
// of any CFG the structurizer builds.
//
// Debug lines: a phi's stores get the phi's location, a value's store its
// definition's, a load the location of the instruction using it, and a
// recomputation its definition's (DebugLocation, block_graph.h).

#ifndef SOURCE_PASSES_STRUCTURIZE_DEMOTE_SSA_H_
#define SOURCE_PASSES_STRUCTURIZE_DEMOTE_SSA_H_

#include <string>

#include "passes/structurize/block_graph.h"

namespace spirv_conv {
namespace structurize {

// Demotes |graph|'s phis and cross-block values. False, with |error| set,
// when a value can be neither stored nor recomputed.
bool DemoteSsa(BlockGraph* graph, std::string* error);

}  // namespace structurize
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_STRUCTURIZE_DEMOTE_SSA_H_
