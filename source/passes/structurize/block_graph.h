// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The blocks of one function, detached from it while the structurizer
// rewrites its control flow (docs/structurize.md). Blocks are numbered in the
// order they are created; the structurizer emits them back in an order of
// its own, and blocks it leaves out are deleted. Small builders append the
// few instructions the structurizer writes (loads, stores, compares,
// branches, merge instructions).

#ifndef SOURCE_PASSES_STRUCTURIZE_BLOCK_GRAPH_H_
#define SOURCE_PASSES_STRUCTURIZE_BLOCK_GRAPH_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "source/opt/basic_block.h"
#include "source/opt/function.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/cycle_info.h"

namespace spirv_conv {
namespace structurize {

// The source location of an instruction: its OpLine (or
// NonSemantic.Shader.DebugInfo.100 DebugLine, or OpNoLine) and its
// DebugScope, copied, so it outlives the instruction it was taken from.
class DebugLocation {
 public:
  DebugLocation() = default;
  explicit DebugLocation(const spvtools::opt::Instruction* from);  // null: none
  // Gives |to| this location (nothing when there is none).
  void ApplyTo(spvtools::opt::Instruction* to) const;

 private:
  std::shared_ptr<const spvtools::opt::Instruction> carrier_;  // an OpNop with it
};

class BlockGraph {
 public:
  static constexpr uint32_t kNone = ~0u;

  // While one lives, the instructions the builders below make get
  // |location| (merge instructions get their terminator's); an outer one is
  // restored after it. The graph starts with none: new instructions get a
  // line only where a caller names the instruction they stand in for.
  class ScopedLocation {
   public:
    ScopedLocation(BlockGraph* graph, DebugLocation location)
        : graph_(graph), outer_(std::exchange(graph->location_, std::move(location))) {}
    ScopedLocation(BlockGraph* graph, const spvtools::opt::Instruction* from)
        : ScopedLocation(graph, DebugLocation(from)) {}
    ScopedLocation(const ScopedLocation&) = delete;
    ScopedLocation& operator=(const ScopedLocation&) = delete;
    ~ScopedLocation() { graph_->location_ = std::move(outer_); }

   private:
    BlockGraph* graph_;
    DebugLocation outer_;
  };
  const DebugLocation& location() const { return location_; }

  // Takes the blocks out of |function| (the entry is block 0).
  BlockGraph(spvtools::opt::IRContext* context, spvtools::opt::Function* function);
  // Returns the blocks in |order| (the entry first) to the function and
  // deletes every other block.
  void PutBack(const std::vector<uint32_t>& order);

  spvtools::opt::IRContext* context() const { return context_; }
  spvtools::opt::Function* function() const { return function_; }
  uint32_t size() const { return static_cast<uint32_t>(blocks_.size()); }
  spvtools::opt::BasicBlock* block(uint32_t node) const { return blocks_[node].get(); }
  uint32_t label(uint32_t node) const { return blocks_[node]->id(); }
  // The node of OpLabel |label|, or kNone.
  uint32_t Node(uint32_t label) const;

  // The distinct successors of |node|, in the order its terminator names them.
  std::vector<uint32_t> Successors(uint32_t node) const;
  // The graph as a Cfg over the nodes (entry 0).
  Cfg ToCfg() const;
  // The terminator of |node| (null while it has none).
  spvtools::opt::Instruction* Terminator(uint32_t node) const;
  // Replaces the branch target |from| by |to| everywhere in |node|'s terminator.
  void Retarget(uint32_t node, uint32_t from, uint32_t to);
  // The same on labels; |to_label| may be a placeholder resolved later.
  void RetargetLabel(uint32_t node, uint32_t from_label, uint32_t to_label);
  // Calls |f| on every label operand of |node|'s terminator and merge instruction.
  void ForEachLabelOperand(uint32_t node, const std::function<void(uint32_t*)>& f);

  // A new empty block (a label, no instructions yet).
  uint32_t NewBlock();
  // Copies of |nodes|, each value with a fresh id (and the original's
  // decorations); branches between copied blocks go to the copies, others to
  // the original targets. The blocks must not use each other's values (phis
  // and cross-block values demoted, DemoteSsa). Returns original -> copy.
  std::map<uint32_t, uint32_t> CopyBlocks(const std::set<uint32_t>& nodes);

  // --- builders; "Add" appends, "Insert" goes before the terminator ---
  uint32_t TakeId();
  spvtools::opt::Instruction* Add(uint32_t node, spv::Op op, uint32_t type, uint32_t result,
                                  std::initializer_list<uint32_t> ids);
  spvtools::opt::Instruction* Insert(uint32_t node, spv::Op op, uint32_t type, uint32_t result,
                                     std::initializer_list<uint32_t> ids);
  void AddBranch(uint32_t node, uint32_t target_node);
  void AddBranchToLabel(uint32_t node, uint32_t target_label);
  // OpSelectionMerge / OpLoopMerge before |node|'s terminator.
  void AddSelectionMerge(uint32_t node, uint32_t merge_label);
  void AddLoopMerge(uint32_t node, uint32_t merge_label, uint32_t continue_label);
  void AddConditionalBranch(uint32_t node, uint32_t condition, uint32_t true_node,
                            uint32_t false_node);
  // Appends "|value| equals one of |constants|" (OpIEqual per constant,
  // OpLogicalOr between them) to |node|; returns the bool's id. The same
  // test asked again in |node| returns the first one's.
  uint32_t AddIsOneOf(uint32_t node, uint32_t value, const std::vector<uint32_t>& constants);
  // Removes |node|'s merge instruction, if any; returns the node an
  // OpSelectionMerge named (kNone otherwise).
  uint32_t RemoveMergeInstruction(uint32_t node);
  // Removes |node|'s terminator (and a merge instruction before it).
  void RemoveTerminator(uint32_t node);
  // Replaces OpBranchConditional/OpSwitch whose targets are all one block by
  // OpBranch (with the old terminator's location).
  void SimplifyTerminator(uint32_t node);

  // Types and constants.
  uint32_t BoolType();
  uint32_t UintType();
  uint32_t UintConstant(uint32_t value);
  // A new Function-storage variable of |type| at the top of the entry block,
  // initialised with |initializer| when not 0.
  uint32_t NewVariable(uint32_t type, uint32_t initializer = 0);

 private:
  // The id of a Function-storage pointer to |type| (declared if missing).
  uint32_t FunctionPointerType(uint32_t type);

  spvtools::opt::IRContext* context_;
  spvtools::opt::Function* function_;
  std::vector<std::unique_ptr<spvtools::opt::BasicBlock>> blocks_;
  std::unordered_map<uint32_t, uint32_t> node_of_label_;
  DebugLocation location_;
  std::map<std::tuple<uint32_t, uint32_t, std::vector<uint32_t>>, uint32_t> is_one_of_;
};

// Values to store into one Function variable on chosen CFG edges, written in
// one go: a store in the source block when every edge that matters carries
// one value (conditional branches store an OpSelect), and an edge block
// otherwise, all with the location of the source block's terminator.
// Nothing is stored on other edges: the variable is only read after an edge
// that stored it.
class EdgeStores {
 public:
  // |variable| is a Function variable of |type|.
  EdgeStores(BlockGraph* graph, uint32_t variable, uint32_t type)
      : graph_(graph), variable_(variable), type_(type) {}
  void Set(uint32_t from, uint32_t to, uint32_t value_id) { stores_[from][to] = value_id; }
  // Writes the stores; edges that needed an edge block are retargeted to it.
  void Materialize();

 private:
  BlockGraph* graph_;
  uint32_t variable_;
  uint32_t type_;
  std::map<uint32_t, std::map<uint32_t, uint32_t>> stores_;  // from -> to -> value
};

}  // namespace structurize
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_STRUCTURIZE_BLOCK_GRAPH_H_
