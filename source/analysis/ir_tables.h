// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Tables the rules share, each built in one pass: the block of an
// instruction and the uses of an id, which SPIRV-Tools answers only through
// its managers (IRContext::get_instr_block builds a hash map over every
// instruction, and for a label id the whole def-use manager, with its
// per-id trees of users), and the instructions of a convergence class.
// Building and destroying the def-use manager would dominate `spirv-conv
// lint` on a large shader (docs/lint-performance.md).
// Definitions and decorations come from ModuleIndex.

#ifndef SOURCE_ANALYSIS_IR_TABLES_H_
#define SOURCE_ANALYSIS_IR_TABLES_H_

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/convergence_classes.h"
#include "analysis/module_index.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace analysis {

// Where each instruction of a function body is: its block, its place in
// module order and the calls before it in its block. One pass over the
// functions fills tables indexed by result id; an instruction without a
// result (a store, a branch) is found from the nearest one before it in its
// block.
class BlockTable {
 public:
  BlockTable(spvtools::opt::IRContext& context, const ModuleIndex& index);

  // The block of |inst| (an instruction of a block, or its OpLabel), or null
  // for instructions outside blocks.
  const spvtools::opt::BasicBlock* Of(const spvtools::opt::Instruction& inst) const;
  // The block whose label is |label|, or null.
  const spvtools::opt::BasicBlock* OfLabel(uint32_t label) const;
  // The function containing |inst| (0 outside blocks).
  uint32_t FunctionOf(const spvtools::opt::Instruction& inst) const;
  // Module order of the instructions in blocks; others come after them all.
  size_t Position(const spvtools::opt::Instruction& inst) const;
  // The OpFunctionCall instructions before |inst| in its block.
  uint32_t CallsBefore(const spvtools::opt::Instruction& inst) const;

 private:
  static constexpr uint32_t kNoBlock = ~0u;
  struct Place {
    uint32_t block = kNoBlock;  // index into blocks_
    uint32_t position = 0;
    uint32_t calls_before = 0;
  };
  Place Find(const spvtools::opt::Instruction& inst) const;

  const ModuleIndex& index_;
  std::vector<const spvtools::opt::BasicBlock*> blocks_;  // module order
  std::vector<Place> by_id_;                              // by result id
  // The first instruction of each block that starts without a result id.
  std::unordered_map<const spvtools::opt::Instruction*, Place> first_;
};

// An instruction of a convergence class (ClassifyConvergence) and
// its block.
struct ConvergentInstruction {
  const spvtools::opt::Instruction* inst;
  const spvtools::opt::BasicBlock* block;
  ConvergenceClass cls;
};
// Every one in the function bodies, in module order: the derivative, barrier
// and subgroup rules share one classification of each instruction.
std::vector<ConvergentInstruction> FindConvergentInstructions(spvtools::opt::IRContext& context);

// The uses of every id as (user, in-operand index), users in module order.
// Built on first use: only the descriptor rules and some explanations need it.
class UseTable {
 public:
  struct Use {
    const spvtools::opt::Instruction* user;
    uint32_t operand;  // an "in" operand index, as GetSingleWordInOperand counts
  };
  struct Range {
    const Use* first;
    const Use* last;
    const Use* begin() const { return first; }
    const Use* end() const { return last; }
  };

  explicit UseTable(spvtools::opt::IRContext& context) : context_(context) {}

  Range UsesOf(uint32_t id) const;

 private:
  void Build() const;

  spvtools::opt::IRContext& context_;
  mutable bool built_ = false;
  mutable std::vector<uint32_t> start_;  // uses of id i: uses_[start_[i], start_[i + 1])
  mutable std::vector<Use> uses_;
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_IR_TABLES_H_
