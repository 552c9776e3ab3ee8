// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/uniformity_solver.h"

#include <algorithm>

namespace spirv_conv {
namespace analysis {
namespace {

constexpr Uniformity kU = Uniformity::kUniform;
constexpr Uniformity kD = Uniformity::kDivergent;
using Kind = UniformityStep::Kind;

Uniformity Narrower(Uniformity a, Uniformity b) { return a < b ? a : b; }

}  // namespace

CallContext FitContext(const FunctionModel& model, CallContext context) {
  context.parameters.resize(model.values.parameter_ids.size(), kD);
  context.pointees.resize(model.values.parameter_ids.size(), kD);
  return context;
}

FunctionState::FunctionState(const FunctionModel& model, CallContext context)
    : model_(model), context_(FitContext(model, std::move(context))) {
  const size_t nodes = model.values.nodes.size();
  const size_t blocks = model.control.blocks.cfg.size();
  const size_t cycles = model.control.cycles.size();
  level_.assign(nodes, kU);
  why_.assign(nodes, {});
  branch_.assign(blocks, kU);
  branch_why_.assign(blocks, {});
  synced_.assign(blocks, kU);
  join_.assign(model_.values.nodes.size(), kU);
  join_cause_.assign(model_.values.nodes.size(), 0);
  cf_.assign(blocks, kU);
  cf_why_.assign(blocks, {});
  exit_.assign(cycles, kU);
  exit_cause_.assign(cycles, 0);
  assumed_.assign(cycles, kU);
  assumed_cause_.assign(cycles, 0);
  summary_.pointee_writes.assign(model.values.parameter_ids.size(), kU);
  queued_.Reset(nodes);
  branch_queued_.Reset(blocks);
  cf_queued_.assign(blocks, 0);
}

void FunctionState::Enqueue(uint32_t node) { queued_.Add(node); }

void FunctionState::EnqueueBranch(uint32_t block) { branch_queued_.Add(block); }

void FunctionState::EnqueueUser(uint32_t user) {
  if (model_.values.IsBranchUser(user)) {
    EnqueueBranch(model_.values.UserBlock(user));
  } else {
    Enqueue(user);
  }
}

void FunctionState::EnqueueControlFlow(uint32_t block) {
  if (cf_queued_[block]) return;
  cf_queued_[block] = 1;
  cf_work_.push_back(block);
}

void FunctionState::EnqueueCycle(const Cycle* cycle) {
  for (uint32_t b : cycle->blocks()) {
    for (uint32_t n : model_.values.block_nodes[b]) Enqueue(n);
    EnqueueControlFlow(b);
  }
}

void FunctionState::EnqueueTemporalUsers(const Cycle* cycle) {
  for (uint32_t b : model_.control.break_blocks.of_cycle[cycle->index()]) {
    EnqueueControlFlow(b);
    for (uint32_t n : model_.values.block_nodes[b]) {
      for (uint32_t user : model_.values.users[n]) EnqueueUser(user);
    }
  }
  // A user in the defining block lies in the cycle too; the others are
  // looked up in the dense cycle tree (a Cycle object per user is a cache
  // miss each on a large function).
  const CycleTree& tree = model_.control.graph->cycle_tree;
  const uint32_t ci = cycle->index();
  for (uint32_t b : cycle->blocks()) {
    for (uint32_t n : model_.values.block_nodes[b]) {
      for (uint32_t user : model_.values.users[n]) {
        const uint32_t user_block = model_.values.UserBlock(user);
        if (user_block != b && !tree.Contains(ci, user_block)) EnqueueUser(user);
      }
    }
  }
}

void FunctionState::EnqueueMemoryReaders() {
  for (uint32_t n : model_.memory.readers) Enqueue(n);
}

void FunctionState::ControlFlowRaised(uint32_t block) {
  for (uint32_t child : model_.control.control_children[block]) EnqueueControlFlow(child);
  for (uint32_t call : model_.control.block_calls[block]) Enqueue(call);
}

bool FunctionState::Raise(std::vector<Uniformity>& levels, uint32_t index, Uniformity level) {
  if (level <= levels[index]) return false;
  levels[index] = level;
  return true;
}

Uniformity FunctionState::UseLevel(uint32_t def, uint32_t use_block) const {
  return Join(level_[def], TemporalLevel(def, use_block));
}

Uniformity FunctionState::TemporalLevelAcross(uint32_t def, uint32_t def_block, uint32_t use_block,
                                              const Cycle** widest) const {
  Uniformity level = kU;
  auto take = [&](uint32_t ci) {
    const Uniformity leaving = LeavingLevel(ci);
    if (leaving > level) {
      level = leaving;
      if (widest != nullptr) *widest = model_.control.cycles[ci];
    }
  };
  const CycleTree& tree = model_.control.graph->cycle_tree;
  const CompressedLists::Range breaks_of_use = model_.control.break_blocks.cycles_of[use_block];
  for (uint32_t ci = tree.innermost[def_block];
       ci != CycleTree::kNone && !tree.Contains(ci, use_block); ci = tree.parent[ci]) {
    // Temporal divergence, unless the value is the same on every iteration,
    // or the use is in a break block of the cycle: the invocations there
    // left in the same iteration, the one that computed the value (the def
    // dominates the use, and the loop's header the def), and run it in one
    // dynamic instance (loop_constructs.h; shadow_cascade_break_select.frag).
    if (model_.values.IsInvariantAtDepth(def, tree.depth[ci]) ||
        std::find(breaks_of_use.begin(), breaks_of_use.end(), ci) != breaks_of_use.end()) {
      continue;
    }
    take(ci);
  }
  // Defined in a break block (loop_constructs.h): each iteration's leavers
  // compute it in their own dynamic instance, which ends at the merge. A
  // use past the merge sees the values of different iterations.
  for (uint32_t ci : model_.control.break_blocks.cycles_of[def_block]) {
    if (tree.Contains(ci, use_block) ||
        std::find(breaks_of_use.begin(), breaks_of_use.end(), ci) != breaks_of_use.end()) {
      continue;
    }
    take(ci);
  }
  return level;
}

Uniformity FunctionState::ControlFlowBeforeCall(uint32_t block, size_t index) const {
  Uniformity level = ControlFlow(block);
  const auto& calls = model_.control.block_calls[block];
  for (size_t i = 0; i < index && i < calls.size(); ++i) {
    auto it = call_summary_.find(calls[i]);
    if (it != call_summary_.end()) level = Join(level, it->second.ends_invocation);
  }
  return level;
}

void FunctionState::Solve(SolverHost& host) {
  // Everything once (values in node order, branches in block order, the
  // control flow of the reachable blocks in reverse post-order); then only
  // what a change affects.
  for (uint32_t b : model_.control.graph->rpo) EnqueueControlFlow(b);
  for (uint32_t n = 0; n < model_.values.nodes.size(); ++n) Enqueue(n);
  for (uint32_t b = 0; b < model_.control.blocks.cfg.size(); ++b) EnqueueBranch(b);
  for (;;) {
    bool changed = SolveValues(host);
    changed |= SolveBranches();
    changed |= SolveControlFlow();
    changed |= SolveMemory(host);
    if (!changed && !branch_queued_.Behind()) break;
  }
  // The summary the callers see.
  uint32_t returns = 0;
  Uniformity result = kU;
  Uniformity return_cf = kU;
  Uniformity ends = kU;
  for (uint32_t b = 0; b < model_.control.blocks.cfg.size(); ++b) {
    if (model_.control.blocks.terminator_opcode[b] == spv::Op::OpReturnValue) {
      ++returns;
      const uint32_t value = model_.values.NodeOf(model_.control.blocks.terminator_operand[b]);
      if (value != kNoNode) result = Join(result, UseLevel(value, b));
      return_cf = Join(return_cf, cf_[b]);
    }
    if (model_.control.kills[b]) ends = Join(ends, cf_[b]);
    for (size_t i = 0; i < model_.control.block_calls[b].size(); ++i) {
      auto it = call_summary_.find(model_.control.block_calls[b][i]);
      if (it == call_summary_.end() || it->second.ends_invocation == kU) continue;
      ends = Join(ends, Join(it->second.ends_invocation, cf_[b]));
    }
  }
  // Returns reached on diverged paths hand back different values.
  if (returns > 1) result = Join(result, return_cf);
  summary_.result = result;
  summary_.ends_invocation = ends;
}

bool FunctionState::SolveValues(SolverHost& host) {
  // The lowest queued node first, until none is left. In node order every
  // operand but a phi's back-edge value comes before its user, so a node is
  // seldom evaluated before its operands have settled.
  bool any = false;
  queued_.Drain([&](uint32_t n) {
    Reason why;
    const Uniformity level = Evaluate(n, host, &why);
    if (level > level_[n]) {
      level_[n] = level;
      why_[n] = why;
      any = true;
      for (uint32_t user : model_.values.users[n]) EnqueueUser(user);
    }
  });
  return any;
}

Uniformity FunctionState::Evaluate(uint32_t n, SolverHost& host, Reason* why) {
  // Most nodes are pure instructions (kFollow): they are evaluated from the
  // compact per-node arrays and the operand lists alone; the Node itself is
  // read only for the other rules.
  const Rule rule = model_.values.node_rule[n];
  const uint32_t block = model_.values.node_block[n];
  Uniformity level = kU;
  auto take = [&](Uniformity candidate, Reason reason) {
    if (candidate > level) level = candidate, *why = reason;
  };
  // A use of |op|: its own level (the reason: |kind| and |note|, with |op|'s
  // id), and temporal divergence when it is defined in a cycle that threads
  // leave on different iterations. The reason is made only when it is
  // taken: reading the operand's id for every operand is a cache miss each
  // time on a large function.
  auto take_use = [&](uint32_t op, Kind kind, const char* note) {
    if (level_[op] > level) level = level_[op], *why = {kind, model_.values.node_id[op], note};
    const Uniformity temporal = TemporalLevel(op, block);
    if (temporal > level) {
      level = temporal;
      *why = {Kind::kTemporal, model_.values.node_id[op],
              "defined in a cycle that threads leave on different iterations"};
    }
  };
  auto take_operand = [&](uint32_t op) { take_use(op, Kind::kOperand, "an operand"); };
  // Once a value is divergent nothing raises it or changes the reason
  // (each take keeps the first that reaches a level): the operand loops of
  // the common rules stop there, and so do the cycle checks below.
  if (rule == Rule::kFollow) {
    for (uint32_t op : model_.values.operands[n]) {
      take_operand(op);
      if (level == kD) break;
    }
  } else {
    const Node& node = model_.values.nodes[n];
    switch (rule) {
      case Rule::kFollow:  // above
        break;
      case Rule::kFixed:
        take(node.rule.level, {Kind::kSource, 0, node.rule.note});
        break;
      case Rule::kCollective: {
        Uniformity operands = kU;
        for (uint32_t op : model_.values.operands[n])
          operands = Join(operands, UseLevel(op, block));
        if (operands != kU)
          take(Narrower(operands, node.rule.level), {Kind::kSource, 0, node.rule.note});
        break;
      }
      case Rule::kPhi:
        for (const auto& in : model_.values.IncomingOf(n)) {
          if (in.id == 0 || in.node == kNoNode) continue;  // undefined or a constant
          take_operand(in.node);
          if (level == kD) break;
        }
        take(join_[n], {Kind::kJoin, model_.control.blocks.label_of[join_cause_[n]],
                        "a join of diverged paths"});
        break;
      case Rule::kLoad:
        if (node.promoted) {
          for (uint32_t op : model_.values.operands[n]) {
            if (op == node.address) {
              take_operand(op);
            } else {
              take_use(op, Kind::kMemory, "the value stored to the variable");
            }
          }
        } else {
          for (uint32_t op : model_.values.operands[n]) take_operand(op);
          if (!model_.memory.barrier_separated_loads.empty() &&
              model_.memory.barrier_separated_loads.count(n) != 0) {
            break;  // nobody writes it between the barriers around it
          }
          Reason content_why;
          const Uniformity content = LoadContent(node.root, host, &content_why);
          take(content, content_why);
        }
        break;
      case Rule::kCall: {
        CallContext context;
        const auto* inst = node.inst;
        const auto& calls = model_.control.block_calls[block];
        const size_t position = std::find(calls.begin(), calls.end(), n) - calls.begin();
        context.control_flow = ControlFlowBeforeCall(block, position);
        for (uint32_t a = 1; a < inst->NumInOperands(); ++a) {
          const uint32_t arg = model_.values.NodeOf(inst->GetSingleWordInOperand(a));
          context.parameters.push_back(arg == kNoNode ? kU : UseLevel(arg, block));
          Uniformity pointee = kU;
          auto stored = model_.memory.argument_stores.find({n, a - 1});
          if (stored != model_.memory.argument_stores.end()) {
            for (uint32_t value : stored->second) {
              if (value != kNoNode) pointee = Join(pointee, UseLevel(value, block));
            }
          } else {
            const PointerRoot root = FindRoot(*model_.index, inst->GetSingleWordInOperand(a));
            if (root.kind != PointerRoot::Kind::kUnknown) {
              Reason ignored;
              pointee = LoadContent(root, host, &ignored);
            }
          }
          context.pointees.push_back(pointee);
        }
        const CallSummary summary =
            host.Call(inst->GetSingleWordInOperand(0), context, model_.values.node_id[n]);
        CallSummary& known = call_summary_[n];
        if (summary.ends_invocation != known.ends_invocation) {
          // Calls after this one in the block run in different control flow,
          // and the block's branch may be decided differently.
          for (uint32_t other : calls) {
            if (other != n) Enqueue(other);
          }
          EnqueueBranch(block);
        }
        known = summary;
        take(summary.result, {Kind::kCall, inst->GetSingleWordInOperand(0),
                              "the value returned by the called function"});
        break;
      }
      case Rule::kParameter:
        take(context_.parameters[node.parameter],
             {Kind::kCall, 0, "a parameter: an argument at a call site"});
        break;
      case Rule::kNoValue:
        break;
    }
  }
  // Cycles that are not m-converged: convergence inside is unknown, so only
  // values that are the same on every iteration stay uniform. (The flags
  // any_assumed_ and any_asserted spare most evaluations a read of a
  // per-block and a per-node array.)
  const CycleTree& tree = model_.control.graph->cycle_tree;
  const uint32_t innermost = any_assumed_ && level != kD ? tree.innermost[block] : CycleTree::kNone;
  for (uint32_t ci = innermost; ci != CycleTree::kNone; ci = tree.parent[ci]) {
    if (assumed_[ci] == kU) continue;
    if ((rule == Rule::kPhi && !model_.values.nodes[n].trivial) ||
        !model_.values.IsInvariantAtDepth(n, tree.depth[ci])) {
      take(assumed_[ci],
           {Kind::kCycle, model_.control.blocks.label_of[model_.control.cycles[ci]->header()],
            "defined in a cycle that is not m-converged"});
    }
  }
  if (model_.values.any_asserted && model_.values.node_asserted[n] < level) {
    level = model_.values.node_asserted[n];
    *why = {Kind::kDecoration, 0, "a Uniform/UniformId decoration asserts it"};
  }
  return level;
}

Uniformity FunctionState::LoadContent(const PointerRoot& root, SolverHost& host, Reason* why) {
  switch (root.kind) {
    case PointerRoot::Kind::kParameter: {
      const uint32_t p = model_.values.nodes[model_.values.NodeOf(root.id)].parameter;
      *why = {Kind::kCall, root.id, "memory behind a pointer parameter"};
      return Join(context_.pointees[p], summary_.pointee_writes[p]);
    }
    case PointerRoot::Kind::kVariable:
      if (root.storage == spv::StorageClass::Function) {
        if (unknown_write_) {
          *why = {Kind::kMemory, 0, "a write through a pointer the analysis cannot trace"};
          return kD;
        }
        auto it = local_content_.find(root.id);
        if (it == local_content_.end()) return kU;
        *why = {Kind::kMemory, local_content_cause_[root.id], "a value stored to the variable"};
        return it->second;
      } else {
        const char* note = "";
        const Uniformity level = host.VariableContent(root.id, model_.models, &note);
        *why = {Kind::kSource, root.id, note};
        return level;
      }
    default:
      *why = {Kind::kSource, 0, "memory the analysis cannot trace"};
      return kD;
  }
}

bool FunctionState::RaiseExit(const Cycle* cycle, Uniformity level, uint32_t branch) {
  const uint32_t ci = cycle->index();
  if (!Raise(exit_, ci, level)) return false;
  exit_cause_[ci] = branch;
  any_leaving_ = true;
  EnqueueTemporalUsers(cycle);
  for (uint32_t b : cycle->blocks()) EnqueueControlFlow(b);
  return true;
}

bool FunctionState::SolveBranches() {
  bool any = false;
  std::vector<std::pair<uint32_t, Uniformity>> open_views;
  auto not_m_converged = [&](const Cycle* c, Uniformity condition, uint32_t b) {
    const uint32_t ci = c->index();
    if (Raise(assumed_, ci, condition)) {
      assumed_cause_[ci] = b;
      any = true;
      any_assumed_ = true;
      EnqueueCycle(c);
      // Threads may leave it on any iteration (LeavingLevel). Its exit is
      // divergent only if the labels say so (HeadersAT): the values that
      // differ between iterations are divergent already.
      any_leaving_ = true;
      EnqueueTemporalUsers(c);
    }
  };
  auto decide = [&](uint32_t b) {
    Uniformity condition = kU;
    if (model_.values.condition[b] != kNoNode) condition = UseLevel(model_.values.condition[b], b);
    if (condition > synced_[b]) {
      synced_[b] = condition;
      const BranchDivergence& div = model_.control.sync->Divergence(b);
      for (size_t k = 0; k < div.joins.size(); ++k) {
        for (uint32_t phi : model_.values.block_nodes[div.joins[k]]) {
          // A phi already at |condition| would not be raised: SelectsAmong
          // (a search per incoming value) is not asked.
          if (model_.values.node_rule[phi] != Rule::kPhi || join_[phi] >= condition) continue;
          if (model_.values.SelectsAmong(phi, div.join_predecessors[k]) &&
              Raise(join_, phi, condition)) {
            join_cause_[phi] = b, any = true;
            Enqueue(phi);
          }
        }
      }
      for (const Cycle* c : div.divergent_exit_cycles) any |= RaiseExit(c, condition, b);
      for (const Cycle* c : div.not_m_converged_cycles) not_m_converged(c, condition, b);
      if (div.open_view_deferred) open_views.emplace_back(b, condition);
    }
    Uniformity decision = condition;
    Reason reason{Kind::kOperand, model_.values.condition_id[b], "the branch condition"};
    for (uint32_t call : model_.control.block_calls[b]) {
      auto it = call_summary_.find(call);
      if (it != call_summary_.end() && it->second.ends_invocation > decision) {
        decision = it->second.ends_invocation;
        reason = {Kind::kCall, model_.values.node_id[call],
                  "a call that may end some invocations (OpKill)"};
      }
    }
    if (Raise(branch_, b, decision)) {
      branch_why_[b] = reason, any = true;
      for (uint32_t child : model_.control.control_children[b]) EnqueueControlFlow(child);
    }
  };
  // One sweep: a block queued behind it waits for the next round (Solve).
  branch_queued_.Sweep(decide);
  // The open view can only name cycles to raise; when all it could name
  // already are (and so are their exits, raised with them), skip it. It
  // runs after the loop, so the later branches' first propagations have
  // marked their cycles by then.
  for (const auto& pending : open_views) {
    const uint32_t b = pending.first;
    const Uniformity level = pending.second;
    if (model_.control.sync->OpenViewSettled(
            b, [&](const Cycle* c) { return assumed_[c->index()] >= level; })) {
      continue;
    }
    for (const Cycle* c : model_.control.sync->OpenViewCycles(b)) not_m_converged(c, level, b);
  }
  return any;
}

bool FunctionState::SolveControlFlow() {
  bool any = false;
  const CfgAnalyses& g = *model_.control.graph;
  while (cf_work_head_ < cf_work_.size()) {
    const uint32_t b = cf_work_[cf_work_head_++];
    cf_queued_[b] = 0;
    Uniformity level = cf_[b];
    Reason reason;  // set by whatever raises |level|, the only case it is kept
    for (uint32_t d : model_.control.control_parents[b]) {
      const Uniformity through = Join(branch_[d], cf_[d]);
      if (through > level) {
        level = through;
        reason = {Kind::kControlFlow, model_.control.blocks.label_of[d],
                  "control flow depends on a non-uniform branch"};
      }
    }
    for (uint32_t ci = g.cycle_tree.innermost[b]; ci != CycleTree::kNone;
         ci = g.cycle_tree.parent[ci]) {
      if (assumed_[ci] > level) {
        level = assumed_[ci];
        reason = {Kind::kCycle, model_.control.blocks.label_of[model_.control.cycles[ci]->header()],
                  "inside a cycle that is not m-converged"};
      }
      // Later iterations run without the threads that left earlier, even in
      // blocks that post-dominate the branch (NaturalLoopTwoBackedges).
      if (exit_[ci] > level) {
        level = exit_[ci];
        reason = {Kind::kControlFlow, model_.control.blocks.label_of[exit_cause_[ci]],
                  "inside a cycle that invocations leave on different iterations"};
      }
    }
    for (uint32_t ci : model_.control.break_blocks.cycles_of[b]) {
      if (LeavingLevel(ci) > level) {
        level = LeavingLevel(ci);
        reason = {Kind::kControlFlow, model_.control.blocks.label_of[LeavingCause(ci)],
                  "a break block of a loop that invocations leave on different iterations"};
      }
    }
    if (Raise(cf_, b, level)) {
      cf_why_[b] = reason, any = true;
      ControlFlowRaised(b);
    }
  }
  cf_work_.clear();
  cf_work_head_ = 0;
  return any;
}

bool FunctionState::SolveMemory(SolverHost& host) {
  bool any = false;
  for (const MemoryWrite& w : model_.memory.writes) {
    Uniformity level = cf_[w.block];
    uint32_t cause = w.inst->HasResultId() ? w.inst->result_id() : 0;
    if (w.address != kNoNode) level = Join(level, UseLevel(w.address, w.block));
    if (w.opaque) {
      level = kD;
    } else if (w.call_node != kNoNode) {
      auto it = call_summary_.find(w.call_node);
      if (it == call_summary_.end()) continue;  // the call was not evaluated yet
      level = Join(level, it->second.pointee_writes[w.argument]);
    } else if (w.value != kNoNode) {
      level = Join(level, UseLevel(w.value, w.block));
      cause = model_.values.node_id[w.value];
    }
    switch (w.root.kind) {
      case PointerRoot::Kind::kVariable:
        if (w.root.storage == spv::StorageClass::Function) {
          Uniformity& content = local_content_[w.root.id];
          if (level > content) content = level, local_content_cause_[w.root.id] = cause, any = true;
        } else {
          host.WriteVariable(w.root.id, Join(level, context_.control_flow));
        }
        break;
      case PointerRoot::Kind::kParameter: {
        const uint32_t p = model_.values.nodes[model_.values.NodeOf(w.root.id)].parameter;
        if (Raise(summary_.pointee_writes, p, level)) any = true;
        break;
      }
      case PointerRoot::Kind::kUnknown:
        // A write through an untraceable pointer may hit any variable.
        if (!unknown_write_) unknown_write_ = any = true;
        for (uint32_t i = 0; i < summary_.pointee_writes.size(); ++i) {
          if (Raise(summary_.pointee_writes, i, kD)) any = true;
        }
        host.WriteVariable(0, kD);
        break;
    }
  }
  if (any) EnqueueMemoryReaders();
  return any;
}

}  // namespace analysis
}  // namespace spirv_conv
