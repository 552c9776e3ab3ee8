// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Divergent branches whose rejoin the subgroup-operation rules do not count
// as one (docs/rules/subgroup-op-after-rejoin.md, "What is not a rejoin"):
//
//   - a test of the first active invocation: `subgroupElect()`, or
//     `subgroupBroadcastFirst(x) == x` (also `!=`). The elect-then-atomic
//     idiom (`if (subgroupElect()) base = atomicAdd(...)`, then a broadcast
//     of `base`) and waterfall loops branch on these on purpose; compilers
//     emit the same shapes themselves (Mesa's nir_opt_uniform_atomics, the
//     waterfall loops of non-uniform descriptor indices).
//   - a selection without effects: its blocks only compute values and store
//     to the function's own variables, with no loop, call, tangled
//     instruction or end of the invocation. glslang emits `&&`, `||` and
//     `?:` that way at -O0 and spirv-opt -O turns them into OpSelect, so
//     counting their merge would make a finding depend on the optimizer.
//
// And subgroup operations written for whichever invocations execute them
// together (docs/rules/subgroup-op-divergent-cf.md, "Set-agnostic
// operations"), which the subgroup-operation rules do not report:
//
//   - `subgroupBroadcastFirst(x)` compared with `x`, and the ballot of that
//     comparison: the waterfall and partition loops, which pick a value of
//     one of the invocations present and serve the ones holding it;
//   - `subgroupBroadcastFirst(R(x))`, R an idempotent reduction (min, max,
//     and, or), and R itself when that broadcast is its only use: a
//     scalarized bound, which bounds the value of every invocation present.

#ifndef SOURCE_LINT_BRANCH_IDIOMS_H_
#define SOURCE_LINT_BRANCH_IDIOMS_H_

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "analysis/ir_tables.h"
#include "analysis/module_index.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace lint {

// The stores to the Function variable |pointer| (whole, in module order)
// when it is otherwise only loaded as a whole; nullopt when it is passed to
// a call, chained into or copied, or is not a Function variable.
std::optional<std::vector<const spvtools::opt::Instruction*>> PlainLocalStores(
    const analysis::ModuleIndex& index, const analysis::UseTable& uses, uint32_t pointer);

enum class BranchIdiom : uint8_t {
  kNone,
  kFirstActiveTest,          // subgroupElect(), subgroupBroadcastFirst(x) == x
  kSelectionWithoutEffects,  // a structured selection that only computes values
};

class BranchIdioms {
 public:
  BranchIdioms(spvtools::opt::IRContext& context, const analysis::ModuleIndex& index,
               const analysis::BlockTable& blocks, const analysis::UseTable& uses)
      : context_(context), index_(index), blocks_(blocks), uses_(uses) {}

  // The idiom the terminator of |block| is (computed once per block).
  BranchIdiom Of(const spvtools::opt::BasicBlock& block) const;

  // Whether the subgroup operation |inst| is set-agnostic (see above).
  bool IsSetAgnostic(const spvtools::opt::Instruction& inst) const;

 private:
  bool TestsFirstActiveInvocation(const spvtools::opt::Instruction& branch) const;
  bool IsSelectionWithoutEffects(const spvtools::opt::BasicBlock& header) const;
  bool HasNoEffect(const spvtools::opt::Instruction& inst) const;
  // Whether the result of |first|, a broadcast of the first active
  // invocation, is compared for equality with the value it broadcasts
  // (through copies and a Function variable stored once).
  bool ComparedWithItsValue(const spvtools::opt::Instruction& first) const;
  // Whether |inst| is a ballot of such a comparison.
  bool IsBallotOfFirstActiveTest(const spvtools::opt::Instruction& inst) const;
  // Whether |equality| compares a broadcast of the first active invocation
  // with the value it broadcasts.
  bool IsFirstActiveTest(const spvtools::opt::Instruction* equality) const;
  // The id whose value |id| is, through copies and loads of Function
  // variables stored exactly once.
  uint32_t Origin(uint32_t id) const;
  // Whether |a| and |b| hold the same value: one origin, or loads of one
  // Function variable (only loaded and stored as a whole) in one block with
  // no store to it between them, as glslang reads a local twice at -O0.
  bool SameValue(uint32_t a, uint32_t b) const;
  // The values stored to the Function variable |pointer| (whole, in module
  // order) when it is only loaded and stored as a whole; nullopt otherwise.
  std::optional<std::vector<uint32_t>> PlainLocalStores(uint32_t pointer) const;
  // The value stored into the Function variable |pointer| when it is stored
  // once, as a whole, and otherwise only loaded; 0 if not.
  uint32_t OnlyStoredValue(uint32_t pointer) const;

  spvtools::opt::IRContext& context_;
  const analysis::ModuleIndex& index_;
  const analysis::BlockTable& blocks_;
  const analysis::UseTable& uses_;
  mutable std::unordered_map<uint32_t, BranchIdiom> idioms_;  // by block label
};

}  // namespace lint
}  // namespace spirv_conv

#endif  // SOURCE_LINT_BRANCH_IDIOMS_H_
