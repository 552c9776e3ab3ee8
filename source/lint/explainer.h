// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Turns the uniformity analysis' explanations (UniformityStep chains) into
// the notes of a finding, each at the place it talks about: the branch the
// control flow depends on, how its condition is computed, through stores to
// variables, phis at joins, loops left on different iterations, parameters
// and return values of calls, back to a source such as a shader input.

#ifndef SOURCE_LINT_EXPLAINER_H_
#define SOURCE_LINT_EXPLAINER_H_

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/ir_tables.h"
#include "analysis/module_index.h"
#include "diagnostics/locator.h"
#include "diagnostics/names.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/lint.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace lint {

class Explainer {
 public:
  Explainer(spvtools::opt::IRContext& context, const UniformityInfo& info,
            const analysis::ModuleIndex& index, const analysis::BlockTable& blocks,
            const analysis::UseTable& uses, const diagnostics::Names& names,
            const diagnostics::Locator& locator, const analysis::CallGraph& calls);

  // Why |inst| runs in non-uniform control flow. (Instructions of one block
  // share the explanation: it is computed once per block.)
  std::vector<Note> ControlFlowAt(const spvtools::opt::Instruction& inst) const;
  // Why in-operand |operand| of |user| is not uniform where |user| uses it.
  std::vector<Note> Use(const spvtools::opt::Instruction& user, uint32_t operand) const;
  // Why the value |id| is not uniform where it is defined.
  std::vector<Note> Value(uint32_t id) const;

  // |user|, or when it has no source line and uses |id|, a phi merging
  // short-circuit operands (glslang writes no line for the branch on
  // `a && b`), the instruction with the first line among the phi's
  // incoming values and the branches that feed it: the `if`'s line.
  const spvtools::opt::Instruction* WithLine(const spvtools::opt::Instruction& user,
                                             uint32_t id) const;

 private:
  class Chain;  // one explanation being built

  // A call earlier in |inst|'s block may end some invocations, so |inst|
  // runs in less uniform control flow than the start of |block|.
  bool AfterEndingCall(const spvtools::opt::Instruction& inst,
                       const spvtools::opt::BasicBlock& block) const;

  // The first store of a value that is not uniform into |variable| (or
  // through a pointer into it), or null; indexed on first use.
  const spvtools::opt::Instruction* NonUniformStore(
      const spvtools::opt::Instruction& variable) const;

  spvtools::opt::IRContext& context_;
  const UniformityInfo& info_;
  const analysis::ModuleIndex& index_;
  const analysis::BlockTable& blocks_;
  const analysis::UseTable& uses_;
  const diagnostics::Names& names_;
  const diagnostics::Locator& locator_;
  const analysis::CallGraph& calls_;
  mutable std::unordered_map<uint32_t, std::vector<Note>> block_notes_;
  mutable std::unordered_map<const spvtools::opt::Instruction*, const spvtools::opt::Instruction*>
      non_uniform_stores_;
  mutable bool stores_indexed_ = false;
  // Parameter -> the call that passes its least uniform argument.
  mutable std::unordered_map<const spvtools::opt::Instruction*, const spvtools::opt::Instruction*>
      widest_calls_;
};

}  // namespace lint
}  // namespace spirv_conv

#endif  // SOURCE_LINT_EXPLAINER_H_
