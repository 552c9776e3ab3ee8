// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Bounded node splitting for MakeReducible (docs/structurize.md): an
// irreducible cycle whose extra entries are small is given copies of them
// for the edges that enter from outside, so it keeps one entry and needs no
// dispatch block.
//
//        E                E
//       / \              / \      (edges point down or as marked)
//      A <-> B    ==>    A <- B'      B' = a copy of B for the edge E -> B;
//      |                 |<-> B       B is now entered only from A
//      X                 X
//
// The cost rule, in instructions (labels count as one):
//   dispatch = 2 (its label and the selector variable)
//            + 1 per edge into an entry of the cycle (the store of the selector)
//            + 3 per entry (load, compare, branch target)
//   split    = the instructions and labels of every copied block.
// A cycle is split when some choice of the entry to keep costs at most the
// dispatch and fits in what is left of the function's budget
// (kBudgetBase + instructions / kBudgetDivisor, counted once before any
// change). The blocks copied are the other entries plus, transitively, their
// successors in the cycle other than the kept entry, so that no copy enters
// the cycle anywhere but at the kept entry; they must form no cycle among
// themselves, and every one of them must be copyable:
//   - no phi and no value used in another block or defined in another block
//     than the function's entry (DemoteSsa has put those in variables), so a
//     copy only needs fresh result ids for its own values;
//   - no convergent or co-convergent instruction (analysis::ClassifyConvergence:
//     derivatives, implicit-LOD sampling, barriers, group and subgroup
//     operations) and no function call: a copy changes which invocations
//     execute them together.
// Otherwise MakeReducible falls back to the dispatch block.

#ifndef SOURCE_PASSES_STRUCTURIZE_NODE_SPLIT_H_
#define SOURCE_PASSES_STRUCTURIZE_NODE_SPLIT_H_

#include <cstdint>
#include <set>
#include <vector>

#include "passes/structurize/block_graph.h"
#include "spirv_conv/cycle_info.h"

namespace spirv_conv {
namespace structurize {

class NodeSplitter {
 public:
  static constexpr uint32_t kBudgetBase = 16;
  static constexpr uint32_t kBudgetDivisor = 4;

  // The budget is computed from |graph|'s size now.
  explicit NodeSplitter(BlockGraph* graph);

  // Splits |cycle| (irreducible, in the graph as it is now) when the rule
  // above allows it; false (and the graph unchanged) otherwise.
  bool TrySplit(const Cycle& cycle);

 private:
  // What the dispatch block of a cycle with |entries| entries and
  // |entering_edges| edges into them costs, by the rule above.
  static uint32_t DispatchCost(uint32_t entries, uint32_t entering_edges);
  // The instructions of |node| (its label included, debug lines not).
  uint32_t BlockCost(uint32_t node) const;
  // Whether |node| may be copied (see above).
  bool Copyable(uint32_t node) const;
  // Copies the blocks of |copied|; edges from outside |cycle| into them go
  // to the copies.
  void Split(const std::set<uint32_t>& cycle, const std::set<uint32_t>& copied);
  // Indexes definitions and uses of the graph as it is now.
  void IndexValues();

  BlockGraph* graph_;
  uint32_t budget_ = 0;
  uint32_t spent_ = 0;  // instructions (labels included) copied so far
  // Per node, from IndexValues: it uses a value of another block than the
  // entry, or a value of its own is used in another block.
  std::vector<char> imports_;
  std::vector<char> exports_;
};

}  // namespace structurize
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_STRUCTURIZE_NODE_SPLIT_H_
