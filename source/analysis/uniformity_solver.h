// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The fixed point for one function in one calling context. Everything starts
// uniform and only ever widens, so the loop ends:
//   values   <- operands, sources, phis at joins, temporal divergence,
//               cycles that are not m-converged, memory, callee summaries
//   branches <- their condition; a newly divergent branch marks its joins,
//               its divergent cycle exits and the cycles it breaks
//   control  <- the branches a block is control dependent on (iterated)
//   memory   <- stores, under the control flow they execute in

#ifndef SOURCE_ANALYSIS_UNIFORMITY_SOLVER_H_
#define SOURCE_ANALYSIS_UNIFORMITY_SOLVER_H_

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/sweep_queue.h"
#include "analysis/uniformity_model.h"

namespace spirv_conv {
namespace analysis {

struct CallContext {
  std::vector<Uniformity> parameters;              // value level of each parameter
  std::vector<Uniformity> pointees;                // level of what pointer parameters point to
  Uniformity control_flow = Uniformity::kUniform;  // of the call sites
  bool operator<(const CallContext& other) const {
    if (parameters != other.parameters) return parameters < other.parameters;
    if (pointees != other.pointees) return pointees < other.pointees;
    return control_flow < other.control_flow;
  }
};

// |context| with one parameter level and one pointee level per parameter
// of |model|'s function (extra ones dropped, missing ones divergent): the
// key a function's state is kept under, per calling context.
CallContext FitContext(const FunctionModel& model, CallContext context);

struct CallSummary {
  Uniformity result = Uniformity::kUniform;
  std::vector<Uniformity> pointee_writes;             // per parameter: what it stores through it
  Uniformity ends_invocation = Uniformity::kUniform;  // may kill, at this level
};

// Module-level services the function solver calls back into.
class SolverHost {
 public:
  virtual ~SolverHost() = default;
  // |call_id|: the OpFunctionCall's result id (0 for an entry point).
  virtual CallSummary Call(uint32_t function_id, const CallContext& context, uint32_t call_id) = 0;
  // Content level of a module-scope variable (Private, Output, ...);
  // |note| explains a fixed verdict.
  virtual Uniformity VariableContent(uint32_t variable_id, uint32_t models, const char** note) = 0;
  virtual void WriteVariable(uint32_t variable_id, Uniformity level) = 0;
};

struct Reason {
  UniformityStep::Kind kind = UniformityStep::Kind::kSource;
  uint32_t cause = 0;  // an id (value or block label)
  const char* note = "";
};

class FunctionState {
 public:
  FunctionState(const FunctionModel& model, CallContext context);
  void Solve(SolverHost& host);

  const FunctionModel& model() const { return model_; }
  const CallContext& context() const { return context_; }
  const CallSummary& summary() const { return summary_; }

  Uniformity Level(uint32_t node) const { return level_[node]; }
  const Reason& Why(uint32_t node) const { return why_[node]; }
  // The level of |def| as seen from a use in |use_block|.
  Uniformity UseLevel(uint32_t def, uint32_t use_block) const;
  // The temporal divergence part of that: the widest LeavingLevel of a
  // cycle that contains |def| but not |use_block| (reported in |widest|)
  // unless |def| is the same on every iteration of it.
  //
  // The common cases are answered inline, without touching the cycles: no
  // cycle that threads may leave on different iterations yet (tested
  // first: it needs no read of |def|'s block, which for an operand of
  // another block is often a cache miss), or a use in the defining block
  // (inside every cycle and loop construct the definition is in). The
  // solver asks this for every operand of every evaluation.
  Uniformity TemporalLevel(uint32_t def, uint32_t use_block, const Cycle** widest = nullptr) const {
    if (!any_leaving_) return Uniformity::kUniform;
    const uint32_t def_block = model_.values.node_block[def];
    if (def_block == use_block) return Uniformity::kUniform;
    return TemporalLevelAcross(def, def_block, use_block, widest);
  }
  Uniformity Branch(uint32_t block) const { return branch_[block]; }
  const Reason& BranchWhy(uint32_t block) const { return branch_why_[block]; }
  // Control flow in this context (the call sites' level included).
  Uniformity ControlFlow(uint32_t block) const { return Join(cf_[block], context_.control_flow); }
  const Reason& ControlFlowWhy(uint32_t block) const { return cf_why_[block]; }
  // Control flow relative to the function's entry (the call sites' level left out).
  Uniformity ControlFlowInFunction(uint32_t block) const { return cf_[block]; }
  // Control flow just before the |index|-th call of |block|.
  Uniformity ControlFlowBeforeCall(uint32_t block, size_t index) const;
  Uniformity CycleExit(uint32_t cycle) const { return exit_[cycle]; }
  Uniformity CycleAssumed(uint32_t cycle) const { return assumed_[cycle]; }
  // The block whose divergent branch caused CycleExit / CycleAssumed.
  uint32_t CycleExitCause(uint32_t cycle) const { return exit_cause_[cycle]; }
  uint32_t CycleAssumedCause(uint32_t cycle) const { return assumed_cause_[cycle]; }
  // The level at which threads may leave |cycle| on different iterations:
  // its divergent exit, or any time in a cycle that is not m-converged
  // (its values are divergent at uses outside as inside, asserted ones
  // too). The block whose divergent branch caused it.
  Uniformity LeavingLevel(uint32_t cycle) const { return Join(exit_[cycle], assumed_[cycle]); }
  uint32_t LeavingCause(uint32_t cycle) const {
    return exit_[cycle] >= assumed_[cycle] ? exit_cause_[cycle] : assumed_cause_[cycle];
  }

 private:
  bool SolveValues(SolverHost& host);
  bool SolveBranches();
  bool SolveControlFlow();
  bool SolveMemory(SolverHost& host);
  Uniformity Evaluate(uint32_t node, SolverHost& host, Reason* why);
  // The content of the memory |root| names, as a load from it reads it.
  Uniformity LoadContent(const PointerRoot& root, SolverHost& host, Reason* why);
  bool Raise(std::vector<Uniformity>& levels, uint32_t index, Uniformity level);
  // Worklists: a node to re-evaluate, a block whose control flow to
  // recompute, and the groups of them a change elsewhere affects.
  void Enqueue(uint32_t node);
  // A node, or the branch of a block (FunctionModel::users).
  void EnqueueUser(uint32_t user);
  void EnqueueBranch(uint32_t block);
  void EnqueueControlFlow(uint32_t block);
  void EnqueueCycle(const Cycle* cycle);          // m-convergence changed
  void EnqueueTemporalUsers(const Cycle* cycle);  // LeavingLevel changed
  // Raises the exit level of |cycle| to |level| because of the divergent
  // |branch| (a block index), and queues what that changes; false if it
  // was that high already. The only writer of exit_.
  bool RaiseExit(const Cycle* cycle, Uniformity level, uint32_t branch);
  void EnqueueMemoryReaders();  // memory content changed
  void ControlFlowRaised(uint32_t block);
  // TemporalLevel for a use outside |def|'s block |def_block|, once some
  // cycle has a divergent exit: walks the cycles and loop constructs.
  Uniformity TemporalLevelAcross(uint32_t def, uint32_t def_block, uint32_t use_block,
                                 const Cycle** widest) const;

  const FunctionModel& model_;
  CallContext context_;
  CallSummary summary_;
  std::vector<Uniformity> level_;
  std::vector<Reason> why_;
  std::vector<Uniformity> branch_;
  std::vector<Reason> branch_why_;
  std::vector<Uniformity> synced_;    // branch level whose sync effects were applied
  std::vector<Uniformity> join_;      // per phi node: chooses at a join
  std::vector<uint32_t> join_cause_;  // per phi node: the branch block
  std::vector<Uniformity> cf_;
  std::vector<Reason> cf_why_;
  std::vector<Uniformity> exit_;
  std::vector<uint32_t> exit_cause_;
  std::vector<Uniformity> assumed_;
  bool any_assumed_ = false;  // some assumed_ above kU
  std::vector<uint32_t> assumed_cause_;
  // Some LeavingLevel above kU (set with exit_ or assumed_).
  bool any_leaving_ = false;
  std::unordered_map<uint32_t, Uniformity> local_content_;  // Function variables
  std::unordered_map<uint32_t, uint32_t> local_content_cause_;
  std::unordered_map<uint32_t, CallSummary> call_summary_;  // by call node
  bool unknown_write_ = false;  // something wrote through an untraceable pointer
  // Nodes to (re-)evaluate, the lowest first (node order is the function's
  // layout, in which every operand but a phi's back-edge value comes before
  // its user), and blocks whose branch to decide again (a condition or a
  // call in the block changed), swept in block order once per round.
  SweepQueue queued_;
  SweepQueue branch_queued_;
  std::vector<uint32_t> cf_work_;  // blocks
  size_t cf_work_head_ = 0;
  std::vector<char> cf_queued_;
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_UNIFORMITY_SOLVER_H_
