// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/structurize/layout.h"

#include <algorithm>
#include <utility>

#include "analysis/dominance.h"

namespace spirv_conv {
namespace structurize {

namespace {

constexpr uint32_t kNone = BlockGraph::kNone;

class Planner {
 public:
  Planner(BlockGraph* graph, const LoopForest& forest, const std::map<uint32_t, uint32_t>& hints)
      : graph_(graph), forest_(forest), hints_(hints) {}

  Layout Run() {
    Plan();
    return std::move(layout_);
  }

 private:
  bool InLoop(int loop, uint32_t node) const {
    const std::vector<uint32_t>& blocks = forest_.loops[loop].blocks;
    return std::binary_search(blocks.begin(), blocks.end(), node);
  }

  void Plan() {
    const uint32_t size = graph_->size();
    for (size_t i = 0; i < forest_.loops.size(); ++i) {
      const ShapedLoop& loop = forest_.loops[i];
      layout_.loop_of_header[loop.header] = static_cast<int>(i);
      if (loop.continue_target != loop.header)
        layout_.continue_targets.insert(loop.continue_target);
    }
    // The forward graph: without the back edges (continue target -> header).
    Cfg forward;
    forward.successors.resize(size);
    layout_.forward_preds.resize(size);
    for (uint32_t n = 0; n < size; ++n) {
      for (uint32_t s : graph_->Successors(n)) {
        auto header = layout_.loop_of_header.find(s);
        if (header != layout_.loop_of_header.end() && InLoop(header->second, n)) continue;
        forward.successors[n].push_back(s);
        layout_.forward_preds[s].insert(n);
      }
    }
    layout_.rpo = analysis::ReversePostOrder(forward.successors, 0);
    analysis::DominatorTree dominators(forward, false);
    std::vector<uint32_t>& parent = parent_;
    parent.assign(size, kNone);
    for (uint32_t n : layout_.rpo) {
      if (n != 0) parent[n] = dominators.Idom(n);
    }
    for (const ShapedLoop& loop : forest_.loops) parent[loop.merge] = loop.header;
    layout_.kids.resize(size);
    layout_.followers.resize(size);
    layout_.arm.assign(size, 0);
    for (uint32_t n : layout_.rpo) {  // in reverse post-order, so the lists are sorted
      if (n == 0 || layout_.continue_targets.count(n)) continue;
      const uint32_t p = parent[n];
      auto loop = layout_.loop_of_header.find(p);
      if (loop != layout_.loop_of_header.end() && forest_.loops[loop->second].merge == n) continue;
      if (layout_.forward_preds[n].size() == 1 && *layout_.forward_preds[n].begin() == p) {
        layout_.arm[n] = 1;
        layout_.kids[p].push_back(n);
      } else {
        layout_.followers[p].push_back(n);
      }
    }
    // A selection of two or more arms and no follower: one arm becomes its
    // merge (the input's merge when it named an arm, else the last target),
    // so `if (c) { ...; continue; } rest` keeps its shape.
    for (uint32_t x : layout_.rpo) {
      if (!layout_.followers[x].empty() || layout_.kids[x].size() < 2 ||
          layout_.loop_of_header.count(x))
        continue;
      auto hint = hints_.find(x);
      uint32_t chosen = kNone, last = kNone;
      size_t arms = 0;
      for (uint32_t t : graph_->Successors(x)) {
        if (!layout_.arm[t]) continue;
        ++arms;
        last = t;
        if (hint != hints_.end() && hint->second == t) chosen = t;
      }
      if (arms < 2) continue;
      if (chosen == kNone) chosen = last;
      layout_.arm[chosen] = 0;
      layout_.kids[x].erase(std::find(layout_.kids[x].begin(), layout_.kids[x].end(), chosen));
      layout_.followers[x].push_back(chosen);
    }
    for (uint32_t x : layout_.rpo) PrepareFallThrough(x);
  }

  // Switch fall-through: a case block |y| of the switch |x| that the switch
  // and one other case block |a| branch to (`case 0: v += 1; case 1: ...`)
  // has two forward predecessors, so it is a follower of |x|, and as the
  // merge it would send every other case that breaks through a guard.
  // SPIR-V lets a case construct branch to the next case target instead: |y|
  // becomes an arm after |a|, and the OpSwitch lists |y|'s targets right
  // after |a|'s. A fall-through into the default needs no order (the
  // default comes first; spirv-val's rule then looks at where the default
  // falls through to, and here it never does), unless the default's label
  // is also a case's. Only when |y| has no other forward predecessor, |a| is
  // not the default, another follower is left to be the merge, and the
  // branch into |y| ends |a|'s case construct (below).
  //
  //      x: switch            x: switch, merge M   (case a; case y; ...)
  //     / | \                /  |  \
  //    a  |  b      ==>     a -> y   b            a falls through into y
  //     \ |  |                  |   |
  //      y -> M <-'              '-> M <-'
  void PrepareFallThrough(uint32_t x) {
    spvtools::opt::Instruction* terminator = graph_->Terminator(x);
    if (terminator->opcode() != spv::Op::OpSwitch || layout_.loop_of_header.count(x)) return;
    const uint32_t default_label = terminator->GetSingleWordInOperand(1);
    const uint32_t default_node = graph_->Node(default_label);
    bool default_is_a_case = false;
    for (uint32_t i = 3; i < terminator->NumInOperands(); i += 2) {
      default_is_a_case |= terminator->GetSingleWordInOperand(i) == default_label;
    }
    for (size_t i = 0; i < layout_.followers[x].size() && layout_.followers[x].size() >= 2;) {
      const uint32_t y = layout_.followers[x][i];
      const std::set<uint32_t>& preds = layout_.forward_preds[y];
      // The one other forward predecessor, and the arm of |x| above it.
      uint32_t from = kNone;
      for (uint32_t p : preds) {
        if (p != x) from = p;
      }
      // |from| must end |a|'s case construct at its top level: up the tree
      // from it, each block is the last follower of its parent, or the only
      // arm of a parent that branches unconditionally. Then no construct is
      // open when |from| branches, and its unconditional branch is the
      // fall-through itself. (From inside a nested construct the branch
      // would need a guard whose conditional branch mixes the fall-through
      // with a path inside the case, without a merge of its own.)
      bool top_level = from != kNone && graph_->Terminator(from)->opcode() == spv::Op::OpBranch;
      uint32_t a = from;
      while (top_level && a != 0 && parent_[a] != kNone && parent_[a] != x) {
        const uint32_t q = parent_[a];
        const auto& ys = layout_.followers[q];
        const auto& arms = layout_.kids[q];
        top_level = (!ys.empty() && ys.back() == a) ||
                    (ys.empty() && arms.size() == 1 && arms[0] == a &&
                     graph_->Terminator(q)->opcode() == spv::Op::OpBranch);
        a = q;
      }
      const bool plain = top_level && !(y == default_node && default_is_a_case) &&
                         preds.size() == 2 && preds.count(x) && a != 0 && parent_[a] == x &&
                         a != default_node && layout_.arm[a];
      if (!plain) {
        ++i;
        continue;
      }
      layout_.followers[x].erase(layout_.followers[x].begin() + static_cast<std::ptrdiff_t>(i));
      layout_.arm[y] = 1;
      layout_.kids[x].insert(std::find(layout_.kids[x].begin(), layout_.kids[x].end(), a) + 1, y);
      layout_.fall_through[y] = {x, a};
    }
    // The OpSwitch order follows from the fall-throughs of |x|.
    std::map<uint32_t, uint32_t> falls_into;  // case label a -> case label y
    for (const auto& [y, fall] : layout_.fall_through) {
      if (fall.switch_node == x && y != default_node) {
        falls_into[graph_->label(fall.from_case)] = graph_->label(y);
      }
    }
    if (!falls_into.empty()) OrderSwitchTargets(terminator, falls_into);
  }

  // Reorders the (literal, label) pairs of |op_switch| so that the pairs of
  // every label in |falls_into| are followed by those of the label it falls
  // into; otherwise labels keep their first-appearance order.
  static void OrderSwitchTargets(spvtools::opt::Instruction* op_switch,
                                 const std::map<uint32_t, uint32_t>& falls_into) {
    std::vector<uint32_t> labels;                                   // first-appearance order
    std::map<uint32_t, std::vector<spvtools::opt::Operand>> pairs;  // label -> its pairs
    for (uint32_t i = 2; i + 1 < op_switch->NumInOperands(); i += 2) {
      const uint32_t label = op_switch->GetSingleWordInOperand(i + 1);
      if (!pairs.count(label)) labels.push_back(label);
      pairs[label].push_back(op_switch->GetInOperand(i));
      pairs[label].push_back(op_switch->GetInOperand(i + 1));
    }
    std::set<uint32_t> fallen_into;
    for (const auto& [a, y] : falls_into) fallen_into.insert(y);
    spvtools::opt::Instruction::OperandList operands{op_switch->GetInOperand(0),
                                                     op_switch->GetInOperand(1)};
    for (uint32_t label : labels) {
      if (fallen_into.count(label)) continue;  // placed after the case that falls into it
      // Label ids are never 0: 0 ends the chain.
      for (uint32_t l = label; l != 0;) {
        const auto& own = pairs[l];
        operands.insert(operands.end(), own.begin(), own.end());
        const auto next = falls_into.find(l);
        l = next == falls_into.end() ? 0 : next->second;
      }
    }
    op_switch->SetInOperands(std::move(operands));
  }

  BlockGraph* graph_;
  const LoopForest& forest_;
  const std::map<uint32_t, uint32_t>& hints_;
  Layout layout_;
  std::vector<uint32_t> parent_;  // per node: its parent in the layout's tree
};

}  // namespace

Layout PlanLayout(BlockGraph* graph, const LoopForest& forest,
                  const std::map<uint32_t, uint32_t>& merge_hints) {
  return Planner(graph, forest, merge_hints).Run();
}

}  // namespace structurize
}  // namespace spirv_conv
