// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The CFG of one SPIR-V function as a Cfg over block indices, so the graph
// algorithms (cycles, joins) run on plain integers.

#ifndef SOURCE_ANALYSIS_FUNCTION_CFG_H_
#define SOURCE_ANALYSIS_FUNCTION_CFG_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/module_index.h"
#include "source/opt/function.h"
#include "spirv_conv/cycle_info.h"

namespace spirv_conv {
namespace analysis {

struct FunctionCfg {
  Cfg cfg;                         // block i is the i-th block of the function
  std::vector<uint32_t> label_of;  // block index -> OpLabel id
  // Per block: its terminator's opcode, its OpLoopMerge or null, and the
  // terminator's first id (the condition of OpBranchConditional, the
  // selector of OpSwitch, the value of OpReturnValue; 0 for the others).
  // Found in the one walk over the blocks that builds the CFG, so that
  // later passes need not visit SPIRV-Tools' blocks again for them (on a
  // large function each visit is a few cache misses per block).
  std::vector<spv::Op> terminator_opcode;
  std::vector<const spvtools::opt::Instruction*> loop_merge;
  std::vector<uint32_t> terminator_operand;
  // The block index of OpLabel |label|, or ~0u when it is not a block of
  // the function. Constant time when the function's labels lie in a range
  // of ids at most 16 times its block count (compilers number a
  // function's ids in sequence); else a binary search.
  uint32_t Index(uint32_t label) const {
    if (!by_label.empty()) return IndexBySearch(label);
    const uint32_t offset = label - first_label;  // wraps below the range
    return offset < dense.size() ? dense[offset] : ~0u;
  }

  uint32_t first_label = 0;     // the smallest label id
  std::vector<uint32_t> dense;  // label - first_label -> block index, or ~0u
  // (OpLabel id, block index), sorted; used instead of |dense| when the
  // labels are spread too widely.
  std::vector<std::pair<uint32_t, uint32_t>> by_label;

 private:
  uint32_t IndexBySearch(uint32_t label) const;
};

// Builds the CFG of |function|: blocks in the function's order (the entry
// first), successors in the order the terminator names them, each once.
FunctionCfg BuildFunctionCfg(const spvtools::opt::Function& function);
// The same from the rows ModuleIndex recorded (no walk over SPIRV-Tools' blocks).
FunctionCfg BuildFunctionCfg(const FunctionBody& body);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_FUNCTION_CFG_H_
