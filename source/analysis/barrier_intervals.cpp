// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/barrier_intervals.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace spirv_conv {
namespace analysis {

bool IsWorkgroupMemoryBarrier(const ModuleIndex& index, const spvtools::opt::Instruction& inst) {
  if (inst.opcode() != spv::Op::OpControlBarrier) return false;
  uint64_t execution = 0;
  uint64_t semantics = 0;
  if (!index.IntegerConstant(inst.GetSingleWordInOperand(0), &execution) ||
      !index.IntegerConstant(inst.GetSingleWordInOperand(2), &semantics) ||
      execution != uint64_t(spv::Scope::Workgroup)) {
    return false;
  }
  using S = spv::MemorySemanticsMask;
  const auto has = [&](S bit) { return (semantics & uint64_t(bit)) != 0; };
  const bool acquire_release = has(S::AcquireRelease) || has(S::SequentiallyConsistent) ||
                               (has(S::Acquire) && has(S::Release));
  return acquire_release && has(S::WorkgroupMemory);
}

namespace {

bool IsReturn(spv::Op op) { return op == spv::Op::OpReturn || op == spv::Op::OpReturnValue; }

// The module's functions as rows, with what each row means for a Workgroup
// variable's interval: a barrier, a write to the variable, or neither.
class IntervalWalk {
 public:
  IntervalWalk(const ModuleWrites::Models& models, const ModuleWrites& writes,
               const std::unordered_set<uint32_t>& entry_points)
      : writes_(writes) {
    for (const auto& [id, model] : models) {
      const FunctionBody* body = model->index->Body(model->function);
      if (body == nullptr) continue;
      index_of_[id] = static_cast<uint32_t>(functions_.size());
      Function& f = functions_.emplace_back();
      f.model = model.get();
      f.body = body;
      f.entry_point = entry_points.count(id) != 0;
      for (const MemoryWrite& w : model->memory.writes) f.writes_at[w.inst].push_back(&w);
      for (uint32_t r = 0; r < body->rows.size(); ++r) {
        if (IsWorkgroupMemoryBarrier(*model->index, *body->rows[r].inst)) f.barrier_rows.insert(r);
      }
      any_barrier_ |= !f.barrier_rows.empty();
    }
    for (uint32_t fi = 0; fi < functions_.size(); ++fi) {
      const FunctionBody& body = *functions_[fi].body;
      for (uint32_t b = 0; b < body.blocks(); ++b) {
        for (uint32_t r = body.block_start[b] + 1; r < body.block_start[b + 1]; ++r) {
          if (body.rows[r].opcode != spv::Op::OpFunctionCall) continue;
          auto callee = index_of_.find(InOperandWord(*body.rows[r].inst, 0));
          if (callee != index_of_.end())
            functions_[callee->second].call_sites.push_back({fi, b, r});
        }
      }
    }
    FindBarrierFunctions();
  }

  bool AnyBarrier() const { return any_barrier_; }
  uint32_t IndexOf(uint32_t function) const { return index_of_.at(function); }

  // Whether no instruction in the interval around row |load_row| of
  // function |fi| may write |variable|.
  bool Separated(uint32_t fi, uint32_t load_block, uint32_t load_row, uint32_t variable) {
    // Back to the interval's starts: a barrier row (or the row of a call
    // that executes one) or an entry point's start. At a function's start
    // the interval goes on before each call of it.
    std::vector<Position> starts;
    std::unordered_set<uint64_t> seen_back;
    std::vector<Position> back{{fi, load_block, load_row}};  // scan rows < row
    while (!back.empty()) {
      const Position at = back.back();
      back.pop_back();
      const Function& f = functions_[at.function];
      const FunctionBody& body = *f.body;
      bool found = false;
      for (uint32_t r = at.row; r-- > body.block_start[at.block] + 1;) {
        if (EndsInterval(f, r)) {
          // What a barrier-executing callee writes after its last barrier
          // belongs to this interval.
          const Function* callee = Callee(f, r);
          if (callee != nullptr && WritesAfterLastBarrier(*callee, variable)) return false;
          starts.push_back({at.function, at.block, r});
          found = true;
          break;
        }
      }
      if (found) continue;
      if (at.block == 0) {
        if (f.entry_point) starts.push_back({at.function, 0, body.block_start[0]});
        if (!f.entry_point && f.call_sites.empty()) return false;  // called from nowhere known
        for (const Position& site : f.call_sites) {
          if (seen_back.insert(Key(site)).second) back.push_back(site);
        }
      }
      for (uint32_t p : f.model->control.graph->predecessors[at.block]) {
        const Position end{at.function, p, body.block_start[p + 1]};
        if (seen_back.insert(Key(end)).second) back.push_back(end);
      }
    }
    // Forward from each start to the next barriers, past returns into the
    // callers (workgroup_flag_read_in_helper.comp).
    return !WritesBeforeNextEnd(std::move(starts), variable, /*into_callers=*/true);
  }

 private:
  // A row of a function: its block and the row itself.
  struct Position {
    uint32_t function;
    uint32_t block;
    uint32_t row;
  };
  static uint64_t Key(const Position& p) { return (uint64_t(p.function) << 32) | p.row; }

  struct Function {
    const FunctionModel* model = nullptr;
    const FunctionBody* body = nullptr;
    bool entry_point = false;
    // Every path from its start to a return executes a workgroup barrier.
    bool barrier_on_every_path = false;
    std::unordered_map<const spvtools::opt::Instruction*, std::vector<const MemoryWrite*>>
        writes_at;
    std::unordered_set<uint32_t> barrier_rows;
    std::vector<Position> call_sites;  // the OpFunctionCall rows calling it
  };

  // The callee of row |r| of |f| when the row is a call to a function of
  // the module, else null.
  const Function* Callee(const Function& f, uint32_t r) const {
    const FunctionBody::Row& row = f.body->rows[r];
    if (row.opcode != spv::Op::OpFunctionCall) return nullptr;
    auto found = index_of_.find(InOperandWord(*row.inst, 0));
    return found == index_of_.end() ? nullptr : &functions_[found->second];
  }

  // Row |r| of |f| separates what comes before it from what comes after: a
  // barrier, or a call of a function that executes one on every path
  // (void sync() { barrier(); }), whose writes before its first and after
  // its last barrier belong to the intervals on either side.
  bool EndsInterval(const Function& f, uint32_t r) const {
    if (f.barrier_rows.count(r)) return true;
    const Function* callee = Callee(f, r);
    return callee != nullptr && callee->barrier_on_every_path;
  }

  // Some path from |g|'s start may write |variable| before an interval end.
  bool WritesBeforeFirstBarrier(const Function& g, uint32_t variable) {
    return Memo(&head_writes_, g, variable, [&] {
      return WritesBeforeNextEnd({{IndexOf(g), 0, g.body->block_start[0]}}, variable,
                                 /*into_callers=*/false);
    });
  }

  // Some path from one of |g|'s interval ends may write |variable| before
  // the next one or a return.
  bool WritesAfterLastBarrier(const Function& g, uint32_t variable) {
    return Memo(&tail_writes_, g, variable, [&] {
      std::vector<Position> ends;
      const FunctionBody& body = *g.body;
      for (uint32_t b = 0; b < body.blocks(); ++b) {
        for (uint32_t r = body.block_start[b] + 1; r < body.block_start[b + 1]; ++r) {
          if (!EndsInterval(g, r)) continue;
          const Function* callee = Callee(g, r);
          if (callee != nullptr && WritesAfterLastBarrier(*callee, variable)) return true;
          ends.push_back({IndexOf(g), b, r});
        }
      }
      return WritesBeforeNextEnd(std::move(ends), variable, /*into_callers=*/false);
    });
  }

  // Some path from one of |from| (scanning the rows after each) to the
  // next interval end may write |variable|: a write on the way, or one a
  // barrier-executing callee makes before its first barrier. At a return
  // the path ends, or with |into_callers| goes on after each call of the
  // function (an entry point's return ends it).
  bool WritesBeforeNextEnd(std::vector<Position> from, uint32_t variable, bool into_callers) {
    std::unordered_set<uint64_t> seen;
    while (!from.empty()) {
      const Position at = from.back();
      from.pop_back();
      const Function& f = functions_[at.function];
      const FunctionBody& body = *f.body;
      bool stopped = false;
      for (uint32_t r = at.row + 1; r < body.block_start[at.block + 1] && !stopped; ++r) {
        if (EndsInterval(f, r)) {
          const Function* callee = Callee(f, r);
          if (callee != nullptr && WritesBeforeFirstBarrier(*callee, variable)) return true;
          stopped = true;
        } else if (MayWrite(f, r, variable)) {
          return true;
        }
      }
      if (stopped) continue;
      if (into_callers && !f.entry_point &&
          IsReturn(body.rows[body.block_start[at.block + 1] - 1].opcode)) {
        if (f.call_sites.empty()) return true;  // called from nowhere known
        for (const Position& site : f.call_sites) {
          if (seen.insert(Key(site)).second) from.push_back(site);
        }
      }
      for (uint32_t s : f.model->control.blocks.cfg.successors[at.block]) {
        const Position begin{at.function, s, body.block_start[s]};
        if (seen.insert(Key(begin)).second) from.push_back(begin);
      }
    }
    return false;
  }

  uint32_t IndexOf(const Function& g) const {
    return static_cast<uint32_t>(&g - functions_.data());
  }

  // |compute|'s answer for (|g|, |variable|), computed once; a call cycle
  // back to a question being answered counts as a write.
  template <typename Compute>
  bool Memo(std::unordered_map<uint64_t, char>* memo, const Function& g, uint32_t variable,
            Compute compute) {
    const uint64_t key = (uint64_t(IndexOf(g)) << 32) | variable;
    auto [it, inserted] = memo->emplace(key, 2);
    if (!inserted) return it->second != 0;
    const bool writes = compute();
    (*memo)[key] = writes ? 1 : 0;
    return writes;
  }

  bool MayWrite(const Function& f, uint32_t r, uint32_t variable) const {
    const FunctionBody::Row& row = f.body->rows[r];
    if (row.opcode == spv::Op::OpFunctionCall &&
        writes_.MayWrite(InOperandWord(*row.inst, 0), variable)) {
      return true;
    }
    auto found = f.writes_at.find(row.inst);
    if (found == f.writes_at.end()) return false;
    for (const MemoryWrite* w : found->second) {
      if (writes_.MayWrite(*w, variable)) return true;
    }
    return false;
  }

  // barrier_on_every_path for every function: the least fixed point, so a
  // function in a call cycle counts only through barriers it reaches.
  void FindBarrierFunctions() {
    for (bool changed = true; changed;) {
      changed = false;
      for (Function& f : functions_) {
        if (f.barrier_on_every_path || ReturnsWithoutBarrier(f)) continue;
        f.barrier_on_every_path = changed = true;
      }
    }
  }

  // Some path from |f|'s start reaches a return without a barrier.
  bool ReturnsWithoutBarrier(const Function& f) const {
    const FunctionBody& body = *f.body;
    std::vector<char> seen(body.blocks(), 0);
    std::vector<uint32_t> work{0};
    seen[0] = 1;
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      bool blocked = false;
      for (uint32_t r = body.block_start[b] + 1; r < body.block_start[b + 1] && !blocked; ++r) {
        const Function* callee = Callee(f, r);
        blocked = f.barrier_rows.count(r) || (callee != nullptr && callee->barrier_on_every_path);
      }
      if (blocked) continue;
      if (IsReturn(body.rows[body.block_start[b + 1] - 1].opcode)) return true;
      for (uint32_t s : f.model->control.blocks.cfg.successors[b]) {
        if (!seen[s]) seen[s] = 1, work.push_back(s);
      }
    }
    return false;
  }

  const ModuleWrites& writes_;
  std::vector<Function> functions_;
  std::unordered_map<uint32_t, uint32_t> index_of_;
  std::unordered_map<uint64_t, char> head_writes_;  // (function, variable) -> 0 or 1
  std::unordered_map<uint64_t, char> tail_writes_;
  bool any_barrier_ = false;
};

}  // namespace

std::unordered_map<uint32_t, std::unordered_set<uint32_t>> BarrierSeparatedLoads(
    const ModuleWrites::Models& models, const ModuleWrites& writes,
    const std::unordered_set<uint32_t>& entry_points) {
  std::unordered_map<uint32_t, std::unordered_set<uint32_t>> separated;
  std::unique_ptr<IntervalWalk> walk;
  for (const auto& [id, model] : models) {
    const FunctionBody* body = model->index->Body(model->function);
    if (body == nullptr) continue;
    for (uint32_t b = 0; b < body->blocks(); ++b) {
      for (uint32_t r = body->block_start[b] + 1; r < body->block_start[b + 1]; ++r) {
        const FunctionBody::Row& row = body->rows[r];
        if (row.opcode != spv::Op::OpLoad) continue;
        const uint32_t n = model->values.NodeOf(row.result_id);
        if (n == kNoNode || model->values.nodes[n].promoted) continue;
        const PointerRoot& root = model->values.nodes[n].root;
        if (root.kind != PointerRoot::Kind::kVariable ||
            root.storage != spv::StorageClass::Workgroup) {
          continue;
        }
        if (walk == nullptr) {
          walk = std::make_unique<IntervalWalk>(models, writes, entry_points);
          if (!walk->AnyBarrier()) return separated;
        }
        if (walk->Separated(walk->IndexOf(id), b, r, root.id)) separated[id].insert(n);
      }
    }
  }
  return separated;
}

}  // namespace analysis
}  // namespace spirv_conv
