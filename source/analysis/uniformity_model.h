// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The context-independent view of one function the uniformity solver works
// on: its CFG analyses, its values as *nodes* (every result id, parameters
// included, plus the virtual phis and virtual inserts of promoted Function
// variables), their data operands and users, the memory effects, control
// dependence, and which values are invariant in which cycles.

#ifndef SOURCE_ANALYSIS_UNIFORMITY_MODEL_H_
#define SOURCE_ANALYSIS_UNIFORMITY_MODEL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/cfg_analyses.h"
#include "analysis/compressed_lists.h"
#include "analysis/function_cfg.h"
#include "analysis/loop_constructs.h"
#include "analysis/memory_ssa.h"
#include "analysis/module_index.h"
#include "analysis/sync_dependence.h"
#include "analysis/uniformity_sources.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace analysis {

constexpr uint32_t kNoNode = ~0u;

// Where a pointer points: the variable or parameter it is derived from.
struct PointerRoot {
  enum class Kind : uint8_t { kUnknown, kVariable, kParameter };
  Kind kind = Kind::kUnknown;
  uint32_t id = 0;  // OpVariable or OpFunctionParameter id
  spv::StorageClass storage = spv::StorageClass::Max;
};

// A value of the function: an instruction with a result, or a virtual phi
// or insert of memory SSA. Its result id and block are in the model's
// node_id and node_block arrays (FunctionModel), which the solver's hot
// paths read; a Node holds what only some rules need.
struct Node {
  spvtools::opt::Instruction* inst = nullptr;  // null for a virtual phi or insert
  InstructionRule rule;
  // Phis: (value id or 0 for undefined, node index or kNoNode, predecessor).
  struct Incoming {
    uint32_t id;
    uint32_t node;
    uint32_t predecessor;
  };
  // Phis: their incoming values lie in FunctionModel::incoming (IncomingOf).
  uint32_t virtual_phi = kNoNode;
  // A virtual insert (index into MemorySsa::inserts): a store through an
  // access chain into a promoted variable, the variable's new content. A
  // pure node (kFollow) over the previous definition, the stored value and
  // the access chain (its indices).
  uint32_t virtual_insert = kNoNode;
  uint32_t parameter = kNoNode;  // parameter index
  // Loads: the address operand's node and where it points.
  uint32_t address = kNoNode;
  PointerRoot root;
  // A trivial phi (ResolveTrivialPhis): its incoming values are all one
  // value, which it is; invariant where that value is.
  bool trivial = false;
  // Promoted loads: the reaching definition (a node, or uniform if none);
  // loads through an access chain also have the chain as |address| and as
  // an operand.
  bool promoted = false;
};

struct MemoryWrite {
  uint32_t block = 0;
  spvtools::opt::Instruction* inst = nullptr;
  PointerRoot root;
  uint32_t address = kNoNode;    // node of the pointer
  uint32_t value = kNoNode;      // node of the stored value (stores)
  uint32_t call_node = kNoNode;  // calls: the call, and which argument
  uint32_t argument = 0;
  bool opaque = false;  // an instruction the solver cannot see through
};

// The function's control flow: its blocks and CFG analyses, control
// dependence, cycles, the blocks that end invocations, and the sync
// dependence of its branches. Indexed by block (FunctionCfg's order).
struct FunctionControl {
  FunctionCfg blocks;
  std::unique_ptr<CfgAnalyses> graph;
  CompressedLists control_parents;       // per block: the blocks it is control dependent on
  CompressedLists control_children;      // per block: the blocks control dependent on it
  CompressedLists block_calls;           // per block: call nodes, in order
  std::vector<char> may_end_invocation;  // per block: a call that may kill
  std::vector<char> kills;               // per block: ends in OpKill etc.
  std::vector<const Cycle*> cycles;      // parents before children
  BreakBlocks break_blocks;              // of the structured loops
  std::unique_ptr<SyncDependence> sync;  // of |graph|'s branches
};

// The function's values as nodes and their data edges: operands, users,
// phis' incoming values, and which values are invariant in which cycles.
struct FunctionValues {
  std::vector<Node> nodes;
  // Per node: its block, its result id (0 for a virtual phi or insert), a
  // copy of nodes[n].rule.rule, and the widest level a Uniform/UniformId
  // decoration allows its value (kDivergent: none), in arrays of their own for
  // the solver's hot paths (temporal divergence is asked for every operand
  // of every evaluation, and most evaluations are of pure instructions that
  // need nothing else): a Node is 64 bytes, so reading one field of a Node
  // costs a cache miss each time, where these arrays hold the same field of
  // neighbouring nodes in one line. Filled as the nodes are made.
  // |node_invariant_depth|: node n is invariant in every enclosing cycle of
  // depth >= it (~0u: in none).
  std::vector<uint32_t> node_block;
  std::vector<uint32_t> node_id;
  std::vector<uint32_t> node_invariant_depth;
  std::vector<Rule> node_rule;
  std::vector<Uniformity> node_asserted;
  bool any_asserted = false;  // some node_asserted below kDivergent
  // The incoming values of every phi, real and virtual, each phi's in one
  // run: node n's are incoming[incoming_start[n] .. incoming_start[n + 1]]
  // (none for other nodes). A dense array, not fields of Node: the solver
  // reads a phi's values without the node's cache line.
  std::vector<Node::Incoming> incoming;
  std::vector<uint32_t> incoming_start;  // per node, and one past the last
  template <typename T>
  struct Span {
    T* first;
    T* last;
    T* begin() const { return first; }
    T* end() const { return last; }
    bool empty() const { return first == last; }
  };
  Span<const Node::Incoming> IncomingOf(uint32_t n) const {
    return {incoming.data() + incoming_start[n], incoming.data() + incoming_start[n + 1]};
  }
  Span<Node::Incoming> IncomingOf(uint32_t n) {
    return {incoming.data() + incoming_start[n], incoming.data() + incoming_start[n + 1]};
  }
  // Phi |n|: whether the defined incoming values on the edges from
  // |predecessors| (sorted block indices) differ, i.e. whether threads that
  // arrive along different ones of those edges may get different values.
  bool SelectsAmong(uint32_t n, CompressedLists::Range predecessors) const;
  // Data operands of each node (node indices); ids outside the function
  // (constants, globals) are uniform and not listed.
  CompressedLists operands;
  // Result id -> node, shared by every function of the module (ids are
  // unique module-wide); kNoNode for module-level ids.
  const std::vector<uint32_t>* node_of_id = nullptr;
  // Per node: the nodes with it as an operand or incoming value, and, as
  // nodes.size() + b, each block b whose branch condition it is
  // (UserBlock), so that a change reaches the branches it decides too.
  CompressedLists users;
  // Whether a user listed in |users| is a block's branch, not a node.
  bool IsBranchUser(uint32_t user) const { return user >= nodes.size(); }
  // The block of a user listed in |users|: the node's, or the branch's.
  uint32_t UserBlock(uint32_t user) const {
    return IsBranchUser(user) ? user - static_cast<uint32_t>(nodes.size()) : node_block[user];
  }
  CompressedLists block_nodes;         // per block, phis first
  std::vector<uint32_t> condition;     // per block: node of the branch condition
  std::vector<uint32_t> condition_id;  // per block: its id (0: none)
  std::vector<uint32_t> parameter_ids;
  std::vector<bool> parameter_is_pointer;
  // The node of |id| in this function, or kNoNode.
  uint32_t NodeOf(uint32_t id) const;
  // True if node |n| has the same value in every iteration of a cycle of
  // depth |cycle_depth| around it (CycleTree::depth, Cycle::depth).
  bool IsInvariantAtDepth(uint32_t n, uint32_t cycle_depth) const {
    return cycle_depth >= node_invariant_depth[n];
  }
};

// What the function does to memory: the virtual SSA of its promoted
// Function variables, and the reads and writes of the memory the solver
// tracks by root.
struct FunctionMemory {
  MemorySsa ssa;
  // Nodes that read memory the solver tracks: loads that are not promoted
  // and calls (what pointer arguments point to).
  std::vector<uint32_t> readers;
  std::vector<MemoryWrite> writes;
  // (call node, argument index) -> nodes of the values an argument
  // temporary holds at the call (kNoNode: a module-level value, uniform):
  // stored right before the call in its block, whole or part by part
  // (glslang copies a struct so for SPIR-V 1.0-1.3), and written nowhere else.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> argument_stores;
  // Loads from Workgroup memory no write can race with (barrier_intervals.h).
  std::unordered_set<uint32_t> barrier_separated_loads;
};

// One function as the solver sees it: which entry points reach it, and
// its control flow, values and memory.
struct FunctionModel {
  const ModuleIndex* index = nullptr;
  spvtools::opt::Function* function = nullptr;
  uint32_t models = 0;        // ModelBits of the entry points that reach it
  bool kernel_entry = false;  // parameters are kernel arguments
  FunctionControl control;
  FunctionValues values;
  FunctionMemory memory;
};

// Builds the model of |function|. |may_end| tells whether a callee (by
// function id) may end the invocation (OpKill, OpTerminateInvocation).
// |node_of_id| (sized to the id bound, kNoNode where unset) receives the
// node of each of the function's result ids and must outlive the model.
// |options|: kills_as_demotes leaves out the edges into blocks from which
// every path ends in OpKill or OpTerminateInvocation;
// without_helper_invocations reads OpIsHelperInvocationEXT as false;
// primitive_scope makes the subgroup- and quad-level results divergent.
// |helpers_apart| (UniformityOptions::helpers_apart, for a function helpers
// run without taking part in group operations) makes subgroup-level results
// divergent.
std::unique_ptr<FunctionModel> BuildFunctionModel(const ModuleIndex& index,
                                                  spvtools::opt::Function* function,
                                                  const std::unordered_map<uint32_t, bool>& may_end,
                                                  std::vector<uint32_t>* node_of_id,
                                                  const UniformityOptions& options = {},
                                                  bool helpers_apart = false);

// Where |pointer_id| points, following access chains and copies.
PointerRoot FindRoot(const ModuleIndex& index, uint32_t pointer_id);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_UNIFORMITY_MODEL_H_
