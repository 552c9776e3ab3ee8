// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The two per-instruction questions the rules ask the uniformity analysis,
// answered from the per-id and per-block answers where those decide:
// UniformityInfo::UseLevel and ControlFlowLevel(inst) look up the block of
// the instruction through SPIRV-Tools' instruction-to-block map, which they
// build on first use (a hash map over every instruction of the module).

#ifndef SOURCE_ANALYSIS_LEVELS_H_
#define SOURCE_ANALYSIS_LEVELS_H_

#include <cstdint>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/ir_tables.h"
#include "analysis/module_index.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace analysis {

class Levels {
 public:
  Levels(spvtools::opt::IRContext& context, const UniformityInfo& info, const ModuleIndex& index,
         const BlockTable& blocks, const CallGraph& calls)
      : context_(context), info_(info), index_(index), blocks_(blocks), calls_(calls) {}

  // UniformityInfo::UseLevel(user, operand). It differs from the value's
  // level only by temporal divergence: for a value defined in a cycle with a
  // divergent exit and used outside it.
  Uniformity UseLevel(const spvtools::opt::Instruction& user, uint32_t operand) const;
  // UniformityInfo::ControlFlowLevel(inst). Only a call that may end
  // invocations makes |inst| less uniform than the start of its block.
  Uniformity ControlFlowLevel(const spvtools::opt::Instruction& inst) const;

 private:
  // Whether block |label| lies in a cycle that threads may leave on
  // different iterations (a divergent exit, or not m-converged), or is one
  // of its break blocks.
  bool InCycleLeftOnDifferentIterations(uint32_t label) const;

  spvtools::opt::IRContext& context_;
  const UniformityInfo& info_;
  const ModuleIndex& index_;
  const BlockTable& blocks_;
  const CallGraph& calls_;
  mutable std::vector<bool> left_apart_blocks_;  // by label id; filled on first use
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_LEVELS_H_
