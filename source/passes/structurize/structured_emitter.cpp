// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/structurize/structured_emitter.h"

#include <algorithm>
#include <map>
#include <set>

#include "passes/structurize/layout.h"

namespace spirv_conv {
namespace structurize {

namespace {

constexpr uint32_t kNone = BlockGraph::kNone;

// What encloses the code being emitted, innermost last.
struct Frame {
  enum Kind { kSelection, kLoop, kSequence } kind;
  uint32_t merge_node =
      kNone;  // kSelection: the follower its merge leads to (kNone: a dispatch block)
  uint32_t merge_label = 0;  // kSelection: the label branches to its merge use
  int loop = -1;             // kLoop
  uint32_t owner = 0;        // kSequence: the block whose followers are being emitted
  uint32_t current = 0;      // kSequence: followers emitted so far, the one being emitted included
  uint32_t arm = kNone;      // kSelection: the arm being emitted
};

// Where a branch to some block goes from the current position.
struct Hop {
  uint32_t label = 0;    // the label to branch to (a placeholder for a follower)
  bool cascade = false;  // the real target must be stored in the cascade variable
  bool seen = true;      // |label| is a merge or continue target declared by an enclosing header
};

class Emitter {
 public:
  Emitter(BlockGraph* graph, const LoopForest& forest, const std::map<uint32_t, uint32_t>& hints)
      : graph_(graph), forest_(forest), hints_(hints) {}

  bool Run(std::vector<uint32_t>* order, std::string* error) {
    error_ = error;
    layout_ = PlanLayout(graph_, forest_, hints_);
    if (!EmitRegion(0)) return false;
    std::set<uint32_t> placed(order_.begin(), order_.end());
    if (placed.size() != order_.size()) return Fail("a block was placed twice");
    for (uint32_t n : layout_.rpo) {
      if (!placed.count(n))
        return Fail("block %" + std::to_string(graph_->label(n)) + " was not placed");
    }
    for (uint32_t n : order_) {
      bool ok = true;
      graph_->ForEachLabelOperand(n, [&](uint32_t* label) {
        if (!placeholder_node_.count(*label)) return;
        auto resolved = resolved_.find(*label);
        if (resolved == resolved_.end()) {
          ok = false;
        } else {
          *label = resolved->second;
        }
      });
      if (!ok) return Fail("a follower's placeholder was never resolved");
    }
    *order = order_;
    return true;
  }

 private:
  bool Fail(const std::string& message) {
    *error_ = "internal error: " + message;
    return false;
  }

  uint32_t CascadeVariable() {
    if (cascade_ == 0) cascade_ = graph_->NewVariable(graph_->UintType(), graph_->UintConstant(0));
    return cascade_;
  }

  uint32_t Placeholder(uint32_t follower) {
    auto [it, fresh] = placeholder_.emplace(follower, 0);
    if (fresh) {
      it->second = graph_->TakeId();
      placeholder_node_[it->second] = follower;
    }
    return it->second;
  }

  // Where a branch to |target| goes from here; with |commit|, a cascade is
  // recorded at the guard it goes to.
  bool NextHop(uint32_t target, bool commit, Hop* hop) {
    for (size_t i = stack_.size(); i-- > 0;) {
      if (stack_[i].kind != Frame::kLoop) continue;
      const ShapedLoop& loop = forest_.loops[stack_[i].loop];
      if (target == loop.continue_target || target == loop.merge || target == loop.header) {
        *hop = {graph_->label(target), false, true};
        return true;
      }
      break;
    }
    for (size_t i = stack_.size(); i-- > 0;) {
      const Frame& frame = stack_[i];
      if (frame.kind == Frame::kLoop) {
        return Fail("a branch to %" + std::to_string(graph_->label(target)) + " leaves a loop");
      }
      if (frame.kind == Frame::kSelection) {
        // The case this branch is in falls through into |target|: a legal
        // branch to the next case target of the switch.
        auto fall = layout_.fall_through.find(target);
        if (fall != layout_.fall_through.end() && frame.arm == fall->second.from_case) {
          *hop = {graph_->label(target), false, true};
          return true;
        }
        *hop = {frame.merge_label, frame.merge_node != target, true};
      } else {
        const std::vector<uint32_t>& ys = layout_.followers[frame.owner];
        if (frame.current >= ys.size()) continue;
        const uint32_t next = ys[frame.current];
        *hop = {Placeholder(next), next != target, false};
      }
      if (hop->cascade && commit) Pend(hop->label, {target});
      return true;
    }
    return Fail("no structured path to %" + std::to_string(graph_->label(target)));
  }

  // Cascades to |targets| arrive at the guard |label|, which gets the
  // location of the first branch sending one there (the current location).
  void Pend(uint32_t label, const std::set<uint32_t>& targets) {
    pending_[label].insert(targets.begin(), targets.end());
    pending_at_.emplace(label, graph_->location());
  }
  BlockGraph::ScopedLocation AtGuard(uint32_t label) {
    auto at = pending_at_.find(label);
    return {graph_, at == pending_at_.end() ? DebugLocation() : at->second};
  }

  bool EmitRegion(uint32_t x) {
    BlockGraph::ScopedLocation none(graph_, nullptr);  // no location leaks in
    auto it = layout_.loop_of_header.find(x);
    if (it == layout_.loop_of_header.end()) return EmitBody(x);
    const ShapedLoop& loop = forest_.loops[it->second];
    graph_->AddLoopMerge(x, graph_->label(loop.merge), graph_->label(loop.continue_target));
    stack_.push_back({Frame::kLoop, kNone, 0, it->second});
    if (!EmitBody(x)) return false;
    if (loop.continue_target != x) order_.push_back(loop.continue_target);
    stack_.pop_back();
    return EmitRegion(loop.merge);
  }

  // Stores |value| (an id) into the cascade variable before |node|'s terminator.
  void StoreCascade(uint32_t node, uint32_t value) {
    graph_->Insert(node, spv::Op::OpStore, 0, 0, {CascadeVariable(), value});
  }

  bool EmitBody(uint32_t x) {
    order_.push_back(x);
    const std::vector<uint32_t>& ys = layout_.followers[x];
    if (!ys.empty()) stack_.push_back({Frame::kSequence, kNone, 0, -1, x, 0});
    spvtools::opt::Instruction* terminator = graph_->Terminator(x);
    BlockGraph::ScopedLocation at(graph_, terminator);  // for cascades and replacements
    std::vector<uint32_t> arms, others;
    for (uint32_t t : graph_->Successors(x)) {
      // A fall-through target is an arm of its switch, not of the case
      // branching into it.
      auto fall = layout_.fall_through.find(t);
      const bool arm =
          layout_.arm[t] && (fall == layout_.fall_through.end() || fall->second.switch_node == x);
      (arm ? arms : others).push_back(t);
    }
    const bool is_switch = terminator->opcode() == spv::Op::OpSwitch;
    size_t unseen = arms.size();
    bool unseen_hop = false;
    for (uint32_t t : others) {
      Hop hop;
      if (!NextHop(t, false, &hop)) return false;
      unseen_hop |= !hop.seen;
    }
    unseen += unseen_hop ? 1 : 0;
    const bool selection = is_switch || unseen >= 2;
    uint32_t dispatch = kNone;
    if (selection) {
      if (layout_.loop_of_header.count(x)) return Fail("a loop header needs a selection merge");
      Frame frame{Frame::kSelection};
      if (!ys.empty()) {
        frame.merge_node = ys[0];
        frame.merge_label = Placeholder(ys[0]);
      } else {
        dispatch = graph_->NewBlock();
        frame.merge_label = graph_->label(dispatch);
      }
      graph_->AddSelectionMerge(x, frame.merge_label);
      stack_.push_back(frame);
    }
    std::map<uint32_t, Hop> hops;
    for (uint32_t t : others) {
      if (!NextHop(t, true, &hops[t])) return false;
    }
    if (!RewriteTerminator(x, hops, selection ? stack_.back().merge_label : 0)) return false;
    const size_t selection_frame = selection ? stack_.size() - 1 : 0;
    for (uint32_t k : layout_.kids[x]) {
      if (selection) stack_[selection_frame].arm = k;
      if (!EmitRegion(k)) return false;
    }
    if (selection) stack_.pop_back();
    if (dispatch != kNone) {
      const BlockGraph::ScopedLocation guard_at = AtGuard(graph_->label(dispatch));
      const std::set<uint32_t> targets = pending_[graph_->label(dispatch)];
      if (!EmitDispatch(dispatch, targets, kNone, false)) return false;
    }
    for (size_t k = 1; k <= ys.size(); ++k) {
      stack_.back().current = static_cast<uint32_t>(k);
      if (!EmitFollower(x, k)) return false;
    }
    if (!ys.empty()) stack_.pop_back();
    return true;
  }

  // Points |x|'s non-arm targets at their hops, storing cascades.
  bool RewriteTerminator(uint32_t x, const std::map<uint32_t, Hop>& hops, uint32_t merge_label) {
    if (hops.empty()) return true;
    spvtools::opt::Instruction* terminator = graph_->Terminator(x);
    switch (terminator->opcode()) {
      case spv::Op::OpBranch: {
        const auto& [target, hop] = *hops.begin();
        if (hop.cascade) StoreCascade(x, graph_->UintConstant(graph_->label(target)));
        graph_->RetargetLabel(x, graph_->label(target), hop.label);
        return true;
      }
      case spv::Op::OpBranchConditional: {
        uint32_t value[2] = {0, 0};
        bool any_cascade = false;
        for (uint32_t side = 0; side < 2; ++side) {
          const uint32_t target = graph_->Node(terminator->GetSingleWordInOperand(1 + side));
          auto hop = hops.find(target);
          const bool cascade = hop != hops.end() && hop->second.cascade;
          any_cascade |= cascade;
          value[side] = graph_->UintConstant(cascade ? graph_->label(target) : 0);
        }
        if (any_cascade) {
          uint32_t stored = value[0];
          if (value[0] != value[1]) {
            stored = graph_->TakeId();
            graph_->Insert(x, spv::Op::OpSelect, graph_->UintType(), stored,
                           {terminator->GetSingleWordInOperand(0), value[0], value[1]});
          }
          StoreCascade(x, stored);
        }
        for (const auto& [target, hop] : hops)
          graph_->RetargetLabel(x, graph_->label(target), hop.label);
        if (terminator->GetSingleWordInOperand(1) == terminator->GetSingleWordInOperand(2)) {
          if (graph_->block(x)->GetMergeInst() != nullptr)
            return Fail("a selection lost its second arm");
          const uint32_t label = terminator->GetSingleWordInOperand(1);
          graph_->RemoveTerminator(x);
          graph_->AddBranchToLabel(x, label);
        }
        return true;
      }
      case spv::Op::OpSwitch:
        for (const auto& [target, hop] : hops) {
          if (!hop.cascade && hop.label == merge_label) {
            graph_->RetargetLabel(x, graph_->label(target), hop.label);
            continue;
          }
          // A case that leaves the switch goes through a block of its own.
          const uint32_t edge = graph_->NewBlock();
          if (hop.cascade) {
            graph_->Add(edge, spv::Op::OpStore, 0, 0,
                        {CascadeVariable(), graph_->UintConstant(graph_->label(target))});
          }
          graph_->AddBranchToLabel(edge, hop.label);
          graph_->RetargetLabel(x, graph_->label(target), graph_->label(edge));
          order_.push_back(edge);
        }
        return true;
      default:
        return Fail("unexpected terminator with branch targets");
    }
  }

  bool EmitFollower(uint32_t owner, size_t k) {
    const std::vector<uint32_t>& ys = layout_.followers[owner];
    const uint32_t y = ys[k - 1];
    const uint32_t placeholder = Placeholder(y);
    const BlockGraph::ScopedLocation at = AtGuard(placeholder);
    std::set<uint32_t> rest = pending_[placeholder];
    const bool arrives = rest.erase(y) > 0;
    if (rest.empty()) {
      resolved_[placeholder] = graph_->label(y);
      if (arrives) {  // the cascade ends here: reset it
        graph_->location().ApplyTo(
            graph_->block(y)->begin()->InsertBefore(std::make_unique<spvtools::opt::Instruction>(
                graph_->context(), spv::Op::OpStore, 0, 0,
                spvtools::opt::Instruction::OperandList{
                    {SPV_OPERAND_TYPE_ID, {CascadeVariable()}},
                    {SPV_OPERAND_TYPE_ID, {graph_->UintConstant(0)}}})));
      }
      return EmitRegion(y);
    }
    const uint32_t guard = graph_->NewBlock();
    resolved_[placeholder] = graph_->label(guard);
    if (k == ys.size()) return EmitDispatch(guard, rest, y, arrives);
    // Not the last follower: everything else passes on to the next one.
    const uint32_t next = Placeholder(ys[k]);
    Pend(next, rest);
    order_.push_back(guard);
    const uint32_t hit = GuardTest(guard, y, arrives);
    graph_->Add(guard, spv::Op::OpBranchConditional, 0, 0, {hit, graph_->label(y), next});
    graph_->AddSelectionMerge(guard, next);
    Frame frame{Frame::kSelection};
    frame.merge_node = ys[k];
    frame.merge_label = next;
    stack_.push_back(frame);
    const bool ok = EmitRegion(y);
    stack_.pop_back();
    return ok;
  }

  // Loads the cascade variable at the end of |block|; returns the value.
  uint32_t LoadCascade(uint32_t block) {
    const uint32_t value = graph_->TakeId();
    graph_->Add(block, spv::Op::OpLoad, graph_->UintType(), value, {CascadeVariable()});
    return value;
  }

  // Appends to |block| "cascade |value| is none, or (with |arrives|) one that
  // ends at |y|"; returns the bool.
  uint32_t GoesOnTo(uint32_t block, uint32_t value, uint32_t y, bool arrives) {
    std::vector<uint32_t> ending{0};
    if (arrives) ending.push_back(graph_->label(y));
    return graph_->AddIsOneOf(block, value, ending);
  }

  // The test of the guard in front of follower |y|: "no cascade, or one that
  // ends at |y|" (only "no cascade" unless |arrives|), with the variable
  // cleared where the cascade ends.
  uint32_t GuardTest(uint32_t guard, uint32_t y, bool arrives) {
    const uint32_t value = LoadCascade(guard);
    const uint32_t hit = GoesOnTo(guard, value, y, arrives);
    if (arrives) {
      const uint32_t cleared = graph_->TakeId();
      graph_->Add(guard, spv::Op::OpSelect, graph_->UintType(), cleared,
                  {hit, graph_->UintConstant(0), value});
      graph_->Add(guard, spv::Op::OpStore, 0, 0, {CascadeVariable(), cleared});
    }
    return hit;
  }

  // |block| sends every cascade in |targets| on (from the current position)
  // and, when |normal| is a block, everything else there (with
  // |normal_arrives|, also a cascade ending at |normal|); then emits |normal|.
  // Its instructions get the current location (the guard's, see AtGuard).
  bool EmitDispatch(uint32_t block, const std::set<uint32_t>& targets, uint32_t normal,
                    bool normal_arrives) {
    order_.push_back(block);
    if (targets.empty() && normal == kNone) {  // no cascade ever arrives
      graph_->Add(block, spv::Op::OpUnreachable, 0, 0, {});
      return true;
    }
    // The normal path's test ("no cascade, or one ending at |normal|") is
    // made where a branch needs it.
    const uint32_t value = LoadCascade(block);
    // Group the targets by hop; a cascade passing on keeps its value.
    std::map<uint32_t, std::vector<uint32_t>> by_hop;
    std::set<uint32_t> passing;
    uint32_t unseen = 0;
    for (uint32_t target : targets) {
      Hop hop;
      if (!NextHop(target, true, &hop)) return false;
      by_hop[hop.label].push_back(target);
      if (hop.cascade) passing.insert(target);
      if (!hop.seen) {
        if (unseen != 0 && unseen != hop.label)
          return Fail("two unstructured exits from one guard");
        unseen = hop.label;
      }
    }
    auto any_of = [&](uint32_t node, const std::vector<uint32_t>& targets) {
      std::vector<uint32_t> labels;
      for (uint32_t target : targets) labels.push_back(graph_->label(target));
      return graph_->AddIsOneOf(node, value, labels);
    };
    // Keep the cascade for targets passing on, clear it otherwise (when
    // every cascade arriving passes on, the variable keeps its value).
    // A cascade to |normal| (|normal_arrives|) ends here.
    if (normal_arrives || passing.size() != targets.size()) {
      const uint32_t keep = passing.empty() ? 0 : any_of(block, {passing.begin(), passing.end()});
      uint32_t stored = graph_->UintConstant(0);
      if (keep != 0) {
        stored = graph_->TakeId();
        graph_->Add(block, spv::Op::OpSelect, graph_->UintType(), stored,
                    {keep, value, graph_->UintConstant(0)});
      }
      graph_->Add(block, spv::Op::OpStore, 0, 0, {CascadeVariable(), stored});
    }

    // Tests for the hops a header declared, then the undeclared one (or the
    // last) as the final "else".
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> tests;
    for (auto& [label, ids] : by_hop) {
      if (label != unseen) tests.emplace_back(label, ids);
    }
    uint32_t final_else = unseen;
    if (normal == kNone && final_else == 0) {
      if (tests.empty()) {
        graph_->Add(block, spv::Op::OpUnreachable, 0, 0, {});
        return true;
      }
      final_else = tests.back().first;
      tests.pop_back();
    }
    uint32_t current = block;
    for (size_t i = 0; i < tests.size(); ++i) {
      const bool last = i + 1 == tests.size();
      const uint32_t condition = any_of(current, tests[i].second);
      if (last && normal == kNone) {
        graph_->Add(current, spv::Op::OpBranchConditional, 0, 0,
                    {condition, tests[i].first, final_else});
        return true;
      }
      if (last && unseen == 0) {
        graph_->Add(current, spv::Op::OpBranchConditional, 0, 0,
                    {condition, tests[i].first, graph_->label(normal)});
        return EmitRegion(normal);
      }
      const uint32_t next = graph_->NewBlock();
      graph_->Add(current, spv::Op::OpBranchConditional, 0, 0,
                  {condition, tests[i].first, graph_->label(next)});
      order_.push_back(next);
      current = next;
    }
    if (normal == kNone) {  // no tests: everything goes to the one hop
      graph_->AddBranchToLabel(current, final_else);
      return true;
    }
    if (unseen == 0) {
      graph_->AddBranch(current, normal);
      return EmitRegion(normal);
    }
    // The normal path and the undeclared hop: a selection whose merge is that hop.
    const uint32_t hit = GoesOnTo(current, value, normal, normal_arrives);
    graph_->Add(current, spv::Op::OpBranchConditional, 0, 0, {hit, graph_->label(normal), unseen});
    graph_->AddSelectionMerge(current, unseen);
    Frame frame{Frame::kSelection};
    frame.merge_node = placeholder_node_.at(unseen);
    frame.merge_label = unseen;
    stack_.push_back(frame);
    const bool ok = EmitRegion(normal);
    stack_.pop_back();
    return ok;
  }

  BlockGraph* graph_;
  const LoopForest& forest_;
  const std::map<uint32_t, uint32_t>& hints_;
  std::string* error_ = nullptr;
  Layout layout_;
  std::vector<Frame> stack_;
  std::vector<uint32_t> order_;
  std::map<uint32_t, uint32_t> placeholder_;        // follower -> placeholder label
  std::map<uint32_t, uint32_t> placeholder_node_;   // placeholder label -> follower
  std::map<uint32_t, uint32_t> resolved_;           // placeholder label -> real label
  std::map<uint32_t, std::set<uint32_t>> pending_;  // guard label -> cascade targets arriving
  std::map<uint32_t, DebugLocation> pending_at_;    // guard label -> its location
  uint32_t cascade_ = 0;
};

}  // namespace

bool EmitStructured(BlockGraph* graph, const LoopForest& forest,
                    const std::map<uint32_t, uint32_t>& merge_hints, std::vector<uint32_t>* order,
                    std::string* error) {
  return Emitter(graph, forest, merge_hints).Run(order, error);
}

}  // namespace structurize
}  // namespace spirv_conv
