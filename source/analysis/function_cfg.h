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

#include "source/opt/function.h"
#include "spirv_conv/cycle_info.h"

namespace spirv_conv {
namespace analysis {

struct FunctionCfg {
  Cfg cfg;                         // block i is the i-th block of the function
  std::vector<uint32_t> label_of;  // block index -> OpLabel id
  // The block index of OpLabel |label|, or ~0u when it is not a block of
  // the function. O(log blocks).
  uint32_t Index(uint32_t label) const;

  std::vector<std::pair<uint32_t, uint32_t>> by_label;  // (OpLabel id, block index), sorted
};

// Builds the CFG of |function|: blocks in the function's order (the entry
// first), successors in the order the terminator names them, each once.
FunctionCfg BuildFunctionCfg(const spvtools::opt::Function& function);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_FUNCTION_CFG_H_
