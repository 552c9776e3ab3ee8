// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The branches that decide whether an instruction runs: the blocks it is
// control dependent on (post-dominance frontier), transitively, and across
// calls (a callee's blocks also depend on what its call sites depend on).
// docs/motion.md filters these by uniformity into the divergent control
// dependence that the motion rules compare.

#ifndef SOURCE_MOTION_CONTROL_DEPENDENCE_H_
#define SOURCE_MOTION_CONTROL_DEPENDENCE_H_

#include <cstdint>
#include <set>
#include <unordered_map>

#include "analysis/call_graph.h"
#include "analysis/ir_tables.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace motion {

class ControlDependence {
 public:
  ControlDependence(spvtools::opt::IRContext& context, const analysis::CallGraph& calls,
                    const analysis::BlockTable& blocks);

  // The labels of the blocks whose branch decides whether |inst| runs.
  std::set<uint32_t> Of(const spvtools::opt::Instruction& inst) const;

 private:
  // What every call of |function| depends on.
  const std::set<uint32_t>& CallContext(uint32_t function) const;
  // The branches that decide whether a call of |function| ends the
  // invocation (OpKill in it or in a function it calls): everything after
  // such a call depends on them, as after a branch to an OpKill block.
  const std::set<uint32_t>& EndDependence(uint32_t function) const;
  // EndDependence of the calls that run before |inst|: in its block before
  // it, or in a block that strictly dominates its block.
  std::set<uint32_t> EndsBefore(const spvtools::opt::Instruction& inst) const;
  void AddEndsOfCall(const spvtools::opt::Instruction& call, std::set<uint32_t>* out) const;
  // EndDependence of the calls in the blocks that strictly dominate block
  // |label| (memoized down the dominator tree).
  const std::set<uint32_t>& EndsAbove(uint32_t label) const;

  spvtools::opt::IRContext& context_;
  const analysis::CallGraph& calls_;
  const analysis::BlockTable& blocks_;
  std::unordered_map<uint32_t, std::set<uint32_t>> by_label_;  // within the function
  std::unordered_map<uint32_t, uint32_t> idom_;  // label -> its immediate dominator's label
  mutable std::unordered_map<uint32_t, std::set<uint32_t>> call_context_;
  mutable std::unordered_map<uint32_t, std::set<uint32_t>> end_dependence_;
  mutable std::unordered_map<uint32_t, std::set<uint32_t>> ends_above_;
};

}  // namespace motion
}  // namespace spirv_conv

#endif  // SOURCE_MOTION_CONTROL_DEPENDENCE_H_
