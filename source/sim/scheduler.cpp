// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The tangle scheduler and its three reconvergence models.
//
// maximal (SPV_KHR_maximal_reconvergence, structured code). A divergent
// OpBranchConditional/OpSwitch in a selection header pushes a selection record
// at its merge block (an OpSwitch even when uniform: its cases may `break` to
// the merge from inside a divergent `if`); entering a loop header (not by its back edge) pushes a
// loop record for the loop's continue target and merge block; a call pushes a
// call record. Lanes reaching a record's block wait there until every lane
// that entered the construct together has arrived or escaped:
//
//        header ── OpSelectionMerge %m          loop header ◄──────────┐
//        /    \                                     │                  │
//     then    else ─ break ─┐                     body ── continue ─► cont
//        \    /             │                       │ break            │
//          %m  (selection)  │                     merge (loop) ◄───────┘
//                           └─► loop merge
//
// A break/continue/return *escapes* the records above the one it targets:
// the lanes stop being waited for there. Lanes at a loop's continue target
// go round together when all lanes still in the loop have arrived; lanes at
// its merge wait for the whole loop to finish.
//
// ipdom: a divergent branch pushes a record at the immediate post-dominator
// of its block (nothing when that is the function's exit: the call's return
// reunites them). A record whose block equals the innermost record's is not
// pushed twice, so a loop's repeated divergent exit test does not stack.
// Works on unstructured and irreducible control flow.
//
// adversarial: maximal's records, but lanes reconverge only where
// subgroup-uniform control flow requires it (SPV_KHR_subgroup_uniform_control_flow):
// at a construct entered by every non-exited lane of the subgroup and left by
// all of them through its merge. Elsewhere arrivals pass through without
// waiting, switch cases split by selector value, sides run in a seeded order,
// and tangles are preempted after a seeded number of instructions.

#include "sim/scheduler.h"

#include <algorithm>

#include "sim/opcodes.h"
#include "sim/scalar.h"
#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace sim {

int Subgroup::NewRecord(const Record& r) {
  if (!free_records.empty()) {
    const int reused = free_records.back();
    free_records.pop_back();
    records[reused] = r;
    return reused;
  }
  records.push_back(r);
  return static_cast<int>(records.size() - 1);
}

bool Scheduler::Fault(const Tangle& t, const std::string& what) {
  const Function& f = m_.program.functions[t.function];
  return m_.Fail(ExitCode::kFindings, m_.program.name + ": " + what + " (function " + f.name +
                                          ", block %" + std::to_string(f.blocks[t.block].id) + ")");
}

int Scheduler::Push(Subgroup& sg, Record r, const Tangle& t) {
  r.parent = t.record;
  r.function = t.function;
  r.in_flight = t.lanes;
  r.reconverge = model_ != Model::kAdversarial || t.lanes == sg.Live();
  return sg.NewRecord(r);
}

void Scheduler::Start(Subgroup& sg) {
  Record invocation;
  invocation.kind = Record::kInvocation;
  Tangle t;
  t.lanes = sg.lanes;
  t.record = Push(sg, invocation, t);
  EnterBlock(sg, t, 0);
  sg.runnable.push_back(t);
}

void Scheduler::EnterBlock(Subgroup& sg, Tangle& t, uint32_t block) {
  const Function& f = m_.program.functions[t.function];
  const Block& b = f.blocks[block];
  t.block = block;
  t.inst = b.first;
  if (!b.loop_header || model_ == Model::kIpdom) return;
  if (t.record >= 0) {
    const Record& top = sg.records[t.record];
    if (top.kind == Record::kLoop && top.header == block && top.function == t.function) return;
  }
  Record loop;
  loop.kind = Record::kLoop;
  loop.header = block;
  loop.merge = b.merge;
  loop.continue_target = b.continue_target;
  t.record = Push(sg, loop, t);
}

bool Scheduler::Unite(const Record& r, bool at_continue) const {
  if (model_ != Model::kAdversarial) return true;
  return r.reconverge && !r.escaped && (!at_continue || r.at_merge.Empty());
}

void Scheduler::Complete(Subgroup& sg, int index) {
  Record& r = sg.records[index];
  if (r.in_flight.Any() || r.kind == Record::kInvocation) return;
  auto spawn = [&](const std::vector<LaneMask>& parts, const LaneMask& all, bool at_continue) {
    std::vector<LaneMask> groups = Unite(r, at_continue) ? std::vector<LaneMask>{all} : parts;
    for (const LaneMask& lanes : groups) {
      Tangle t;
      t.lanes = lanes;
      t.function = r.kind == Record::kCall ? r.ret_function : r.function;
      if (r.kind == Record::kCall) {
        t.record = r.parent;
        t.block = r.ret_block;
        t.inst = r.ret_inst;
      } else {
        t.record = at_continue ? index : r.parent;
        EnterBlock(sg, t, at_continue ? r.continue_target : r.merge);
      }
      Spawn(sg, t);
    }
  };
  if (r.kind == Record::kLoop && r.at_continue.Any()) {
    // The next iteration: everyone still in the loop starts it together.
    const LaneMask lanes = r.at_continue;
    std::vector<LaneMask> parts = std::move(r.parts_continue);
    r.in_flight = lanes;
    r.at_continue = LaneMask();
    r.parts_continue.clear();
    spawn(parts, lanes, true);
    return;
  }
  if (r.at_merge.Any()) spawn(r.parts_merge, r.at_merge, false);
  sg.FreeRecord(index);
}

void Scheduler::Arrive(Subgroup& sg, const Tangle& t, int target, bool at_continue) {
  std::vector<int> escaped;
  for (int q = t.record; q != target; q = sg.records[q].parent) {
    sg.records[q].in_flight = sg.records[q].in_flight.Without(t.lanes);
    sg.records[q].escaped = true;
    escaped.push_back(q);
  }
  Record& r = sg.records[target];
  if (!r.reconverge) {
    // Adversarial, not subgroup-uniform: no waiting, the lanes go on alone.
    Tangle next = t;
    if (r.kind == Record::kCall) {
      r.in_flight = r.in_flight.Without(t.lanes);
      next.function = r.ret_function;
      next.block = r.ret_block;
      next.inst = r.ret_inst;
      next.record = r.parent;
    } else if (at_continue) {
      next.record = target;
      EnterBlock(sg, next, r.continue_target);
    } else {
      r.in_flight = r.in_flight.Without(t.lanes);
      next.record = r.parent;
      EnterBlock(sg, next, r.merge);
    }
    Spawn(sg, next);
  } else {
    r.in_flight = r.in_flight.Without(t.lanes);
    if (at_continue) {
      r.at_continue |= t.lanes;
      r.parts_continue.push_back(t.lanes);
    } else {
      r.at_merge |= t.lanes;
      r.parts_merge.push_back(t.lanes);
    }
  }
  for (int q : escaped) Complete(sg, q);
  Complete(sg, target);
}

Scheduler::Flow Scheduler::Branch(Subgroup& sg, Tangle& t, uint32_t target) {
  const Function& f = m_.program.functions[t.function];
  // OpPhi: the values of the edge's predecessor, copied for these lanes.
  for (const Edge& edge : f.blocks[t.block].edges) {
    if (edge.successor != target) continue;
    uint64_t temp[kMaxSubgroupSize];
    std::vector<uint64_t> staged;
    for (uint32_t i = edge.moves_begin; i < edge.moves_end; ++i) {
      const PhiMove& move = f.moves[i];
      for (uint32_t c = 0; c < move.comps; ++c) {
        const uint64_t* src = m_.Reg(sg, move.src + c);
        ForEachLane(t.lanes, [&](uint32_t l) { temp[l] = src[l]; });
        ForEachLane(t.lanes, [&](uint32_t l) { staged.push_back(temp[l]); });
      }
    }
    size_t k = 0;
    for (uint32_t i = edge.moves_begin; i < edge.moves_end; ++i) {
      const PhiMove& move = f.moves[i];
      for (uint32_t c = 0; c < move.comps; ++c) {
        uint64_t* dst = m_.Reg(sg, move.dst + c);
        ForEachLane(t.lanes, [&](uint32_t l) { dst[l] = staged[k++]; });
      }
    }
    break;
  }
  for (int q = t.record; q >= 0; q = sg.records[q].parent) {
    const Record& r = sg.records[q];
    if (r.kind == Record::kCall || r.kind == Record::kInvocation) break;
    if (r.kind == Record::kLoop && target == r.continue_target) {
      Arrive(sg, t, q, true);
      return Flow::kStop;
    }
    if (target == r.merge) {
      Arrive(sg, t, q, false);
      return Flow::kStop;
    }
  }
  EnterBlock(sg, t, target);
  return Flow::kContinue;
}

Scheduler::Flow Scheduler::Diverge(Subgroup& sg, Tangle& t,
                                   std::vector<std::pair<uint32_t, LaneMask>>& groups) {
  if (groups.size() == 1) return UniformSelection(sg, t, groups[0].first);
  const Function& f = m_.program.functions[t.function];
  const Block& b = f.blocks[t.block];
  int record = t.record;
  if (model_ == Model::kIpdom) {
    const bool same = record >= 0 && sg.records[record].kind == Record::kIpdom &&
                      sg.records[record].merge == b.ipdom;
    if (b.ipdom != kNone && !same) {
      Record r;
      r.kind = Record::kIpdom;
      r.merge = b.ipdom;
      record = Push(sg, r, t);
    }
  } else if (b.merge != kNone && !b.loop_header) {
    Record r;
    r.kind = Record::kSelection;
    r.merge = b.merge;
    record = Push(sg, r, t);
  } else if (!b.loop_header) {
    // Without a merge instruction, every target but one must leave to an
    // enclosing construct's merge or continue target (a break or continue).
    size_t plain = 0;
    for (const auto& [target, lanes] : groups) {
      bool leaves = false;
      for (int q = t.record; q >= 0 && !leaves; q = sg.records[q].parent) {
        const Record& r = sg.records[q];
        if (r.kind == Record::kCall || r.kind == Record::kInvocation) break;
        leaves = target == r.merge || target == r.continue_target;
      }
      plain += leaves ? 0 : 1;
    }
    if (plain > 1 && model_ == Model::kMaximal) {  // adversarial: the sides go on apart
      Fault(t,
            "divergent branch without a structured merge; the maximal model needs structured "
            "control flow (use --model ipdom)");
      return Flow::kError;
    }
  }
  if (model_ == Model::kAdversarial) std::shuffle(groups.begin(), groups.end(), m_.rng);
  std::vector<Tangle> children;
  for (const auto& [target, lanes] : groups) {
    Tangle child = t;
    child.lanes = lanes;
    child.record = record;
    if (Branch(sg, child, target) == Flow::kContinue) children.push_back(child);
  }
  for (auto it = children.rbegin(); it != children.rend(); ++it) Spawn(sg, *it);
  return Flow::kStop;
}

Scheduler::Flow Scheduler::UniformSelection(Subgroup& sg, Tangle& t, uint32_t target) {
  // Every lane takes the same case (or side of a selection's conditional
  // branch), yet a `break` nested in a divergent `if` inside it is a branch to
  // the construct's merge: the lanes that break early must wait there for the
  // rest of the tangle, so the record is pushed even though the header itself
  // does not split the tangle. (Structurized code exits selections this way.)
  const Block& b = m_.program.functions[t.function].blocks[t.block];
  if (model_ != Model::kIpdom && b.merge != kNone && !b.loop_header && target != b.merge) {
    Record r;
    r.kind = Record::kSelection;
    r.merge = b.merge;
    t.record = Push(sg, r, t);
  }
  return Branch(sg, t, target);
}

Scheduler::Flow Scheduler::Call(Subgroup& sg, Tangle& t, const Inst& inst) {
  const Function& caller = m_.program.functions[t.function];
  const Function& callee = m_.program.functions[inst.aux];
  for (uint32_t i = 0; i < callee.params.size(); ++i) {
    const uint32_t arg = caller.operands[inst.ops + 1 + i];
    for (uint32_t c = 0; c < callee.param_comps[i]; ++c) {
      const uint64_t* src = m_.Reg(sg, arg + c);
      uint64_t* dst = m_.Reg(sg, callee.params[i] + c);
      ForEachLane(t.lanes, [&](uint32_t l) { dst[l] = src[l]; });
    }
  }
  Record r;
  r.kind = Record::kCall;
  r.ret_function = t.function;
  r.ret_block = t.block;
  r.ret_inst = t.inst + 1;
  r.ret_slot = inst.comps ? inst.result : kNone;
  r.ret_comps = inst.comps;
  const int record = Push(sg, r, t);
  sg.records[record].function = inst.aux;
  t.function = inst.aux;
  t.record = record;
  EnterBlock(sg, t, 0);
  return Flow::kContinue;
}

Scheduler::Flow Scheduler::Return(Subgroup& sg, Tangle& t, const Function& f, const Inst& inst) {
  int q = t.record;
  while (sg.records[q].kind != Record::kCall && sg.records[q].kind != Record::kInvocation) {
    q = sg.records[q].parent;
  }
  Record& r = sg.records[q];
  if (r.kind == Record::kInvocation) return EndInvocations(sg, t);
  if (inst.family == Family::kReturnValue && r.ret_slot != kNone) {
    const uint32_t value = f.operands[inst.ops];
    for (uint32_t c = 0; c < r.ret_comps; ++c) {
      const uint64_t* src = m_.Reg(sg, value + c);
      uint64_t* dst = m_.Reg(sg, r.ret_slot + c);
      ForEachLane(t.lanes, [&](uint32_t l) { dst[l] = src[l]; });
    }
  }
  Arrive(sg, t, q, false);
  return Flow::kStop;
}

Scheduler::Flow Scheduler::Terminate(Subgroup& sg, Tangle& t) {
  sg.terminated |= t.lanes;
  return EndInvocations(sg, t);
}

Scheduler::Flow Scheduler::EndInvocations(Subgroup& sg, Tangle& t) {
  // The lanes leave every construct and call they are in: each record on the
  // way down to the invocation's own stops waiting for them.
  sg.exited |= t.lanes;
  int q = t.record;
  while (sg.records[q].kind != Record::kInvocation) {
    Record& r = sg.records[q];
    r.in_flight = r.in_flight.Without(t.lanes);
    r.escaped = true;
    const int parent = r.parent;
    Complete(sg, q);
    q = parent;
  }
  sg.records[q].in_flight = sg.records[q].in_flight.Without(t.lanes);
  return Flow::kStop;
}

bool Scheduler::ExecGroupOp(const Exec& e) {
  // Helper invocations are inactive for group operations other than quad
  // operations, unless RequireFullQuadsKHR makes them take part (Vulkan,
  // "Helper Invocations"; SPV_KHR_quad_control). Helpers then see only helpers.
  const auto op = static_cast<spv::Op>(e.inst.opcode);
  const bool quad_op = op == spv::Op::OpGroupNonUniformQuadBroadcast ||
                       op == spv::Op::OpGroupNonUniformQuadSwap ||
                       op == kOpGroupNonUniformQuadAllKHR || op == kOpGroupNonUniformQuadAnyKHR;
  const LaneMask helpers = e.lanes & e.sg.helpers;
  if (!m_.program.fragment || m_.program.require_full_quads || quad_op || helpers.Empty() ||
      helpers == e.lanes) {
    return ExecSubgroup(e);
  }
  const LaneMask active = e.lanes.Without(helpers);
  const Exec covered{e.m, e.sg, e.f, e.inst, active, e.block};
  const Exec helping{e.m, e.sg, e.f, e.inst, helpers, e.block};
  return ExecSubgroup(covered) && ExecSubgroup(helping);
}

Scheduler::Flow Scheduler::Control(Subgroup& sg, Tangle& t, const Function& f, const Inst& inst) {
  const uint32_t* ops = f.operands.data() + inst.ops;
  std::vector<std::pair<uint32_t, LaneMask>> groups;
  auto add = [&](uint32_t target, uint32_t lane) {
    for (auto& [existing, lanes] : groups) {
      if (existing == target) {
        lanes.Set(lane);
        return;
      }
    }
    groups.push_back({target, LaneMask::Lane(lane)});
  };
  switch (inst.family) {
    case Family::kBranch:
      return Branch(sg, t, ops[0]);
    case Family::kBranchConditional: {
      const uint64_t* cond = m_.Reg(sg, ops[0]);
      LaneMask taken;
      ForEachLane(t.lanes, [&](uint32_t l) {
        if (cond[l]) taken.Set(l);
      });
      if (ops[1] == ops[2]) return Branch(sg, t, ops[1]);
      if (taken == t.lanes) return UniformSelection(sg, t, ops[1]);
      if (taken.Empty()) return UniformSelection(sg, t, ops[2]);
      groups = {{ops[1], taken}, {ops[2], t.lanes.Without(taken)}};
      return Diverge(sg, t, groups);
    }
    case Family::kSwitch: {
      const uint64_t* selector = m_.Reg(sg, ops[0]);
      const uint32_t words = inst.op_width > 32 ? 2 : 1;
      const uint32_t cases = (inst.num_ops - 2) / (words + 1);
      std::vector<std::pair<uint64_t, uint32_t>> by_value;  // adversarial: one group per value
      ForEachLane(t.lanes, [&](uint32_t l) {
        uint32_t target = ops[1];
        for (uint32_t c = 0; c < cases; ++c) {
          const uint32_t* entry = ops + 2 + c * (words + 1);
          uint64_t literal = entry[0];
          if (words == 2) literal |= static_cast<uint64_t>(entry[1]) << 32;
          if (literal == (selector[l] & WidthMask(inst.op_width))) {
            target = entry[words];
            break;
          }
        }
        if (model_ != Model::kAdversarial) return add(target, l);
        for (size_t g = 0; g < by_value.size(); ++g) {
          if (by_value[g].first == selector[l]) return groups[g].second.Set(l);
        }
        by_value.push_back({selector[l], target});
        groups.push_back({target, LaneMask::Lane(l)});
      });
      if (groups.size() == 1) return UniformSelection(sg, t, groups[0].first);
      return Diverge(sg, t, groups);
    }
    case Family::kReturn:
    case Family::kReturnValue:
      return Return(sg, t, f, inst);
    case Family::kCall:
      return Call(sg, t, inst);
    case Family::kUnreachable:
      Fault(t, "OpUnreachable executed");
      return Flow::kError;
    case Family::kKill:
      return Terminate(sg, t);
    default:
      return Flow::kContinue;
  }
}

bool Scheduler::RunTangle(Subgroup& sg, Tangle t, uint64_t slice) {
  while (true) {
    const Function& f = m_.program.functions[t.function];
    const Inst& inst = f.insts[t.inst];
    const uint32_t active = t.lanes.Count();
    ++m_.issued;
    m_.active_lanes += active;
    ++m_.tangle_sizes[active];
    ++m_.block_issued[f.stats_base + t.block];
    m_.block_lanes[f.stats_base + t.block] += active;
    if (t.inst == f.blocks[t.block].first) {
      m_.block_entries[f.stats_base + t.block] += active;
      ++m_.block_visits[f.stats_base + t.block];
    }
    if (m_.issued > m_.options.max_instructions) {
      return Fault(
          t, "instruction limit of " + std::to_string(m_.options.max_instructions) + " exceeded");
    }
    const Exec e{m_, sg, f, inst, t.lanes, t.block};
    bool ok = true;
    switch (inst.family) {
      case Family::kNop:
        break;
      case Family::kArith:
        ok = ExecArith(e);
        break;
      case Family::kConvert:
        ok = ExecConvert(e);
        break;
      case Family::kComposite:
        ok = ExecComposite(e);
        break;
      case Family::kMatrix:
        ok = ExecMatrix(e);
        break;
      case Family::kVariable:
      case Family::kLoad:
      case Family::kStore:
      case Family::kAccessChain:
      case Family::kCopyMemory:
      case Family::kArrayLength:
      case Family::kPointer:
        ok = ExecMemory(e);
        break;
      case Family::kAtomic:
        ok = ExecAtomic(e);
        break;
      case Family::kGlsl:
      case Family::kOpenCL:
        ok = ExecGlsl(e);
        break;
      case Family::kSubgroup:
        ok = ExecGroupOp(e);
        break;
      case Family::kFragment:
        ok = ExecFragment(e);
        break;
      case Family::kImage:
        ok = ExecImage(e);
        break;
      case Family::kUnsupported:
        ok = e.Unsupported("instruction");
        break;
      case Family::kBarrier:
        if (inst.aux == uint32_t(spv::Scope::Workgroup)) {
          ++t.inst;
          sg.at_barrier.push_back(t);
          return true;
        }
        if (inst.aux == uint32_t(spv::Scope::Subgroup) && t.lanes != sg.Live()) {
          return Fault(t, "subgroup barrier in divergent control flow: " + std::to_string(active) +
                              " of " + std::to_string(sg.Live().Count()) + " live lanes reach it");
        }
        if (inst.aux < uint32_t(spv::Scope::Workgroup)) {
          return e.Unsupported("OpControlBarrier with Device or CrossDevice execution scope");
        }
        break;
      default:
        switch (Control(sg, t, f, inst)) {
          case Flow::kContinue:
            if (--slice == 0) {
              sg.runnable.push_back(t);
              return true;
            }
            continue;
          case Flow::kStop:
            return true;
          case Flow::kError:
            return false;
        }
    }
    if (!ok) return false;
    ++t.inst;
    if (--slice == 0) {
      sg.runnable.push_back(t);
      return true;
    }
  }
}

}  // namespace sim
}  // namespace spirv_conv
