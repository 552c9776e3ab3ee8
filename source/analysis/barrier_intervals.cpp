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

// One function's instructions as rows, with what each means for variable
// |variable|'s interval: a barrier, a write to it, or neither.
class IntervalWalk {
 public:
  IntervalWalk(const FunctionModel& model, const FunctionBody& body, const ModuleWrites& writes)
      : model_(model), body_(body), writes_(writes) {
    for (const MemoryWrite& w : model.writes) writes_at_[w.inst].push_back(&w);
    const ModuleIndex& index = *model.index;
    for (uint32_t r = 0; r < body.rows.size(); ++r) {
      if (IsWorkgroupMemoryBarrier(index, *body.rows[r].inst)) barrier_rows_.insert(r);
    }
  }

  bool HasBarriers() const { return !barrier_rows_.empty(); }

  // Whether no instruction in the interval around row |load| may write
  // |variable|. |entry_point|: the function's start begins an interval.
  bool Separated(uint32_t load_block, uint32_t load_row, uint32_t variable, bool entry_point) {
    // Back to the interval's starts: (block, row of the barrier) or the
    // function's start (block 0, row of its label).
    std::vector<std::pair<uint32_t, uint32_t>> starts;
    std::vector<char> scanned_back(body_.blocks(), 0);
    std::vector<std::pair<uint32_t, uint32_t>> back{{load_block, load_row}};  // scan rows < row
    while (!back.empty()) {
      auto [b, row] = back.back();
      back.pop_back();
      bool found = false;
      for (uint32_t r = row; r-- > body_.block_start[b] + 1;) {
        if (barrier_rows_.count(r)) {
          starts.emplace_back(b, r);
          found = true;
          break;
        }
      }
      if (found) continue;
      const CompressedLists::Range preds = model_.graph->predecessors[b];
      if (b == 0) {
        if (!entry_point) return false;  // the interval reaches into the caller
        starts.emplace_back(0, body_.block_start[0]);
      }
      for (uint32_t p : preds) {
        if (scanned_back[p]) continue;
        scanned_back[p] = 1;
        back.emplace_back(p, body_.block_start[p + 1]);
      }
    }
    // Forward from each start to the next barriers.
    std::vector<char> scanned_forward(body_.blocks(), 0);
    std::vector<std::pair<uint32_t, uint32_t>> forward = starts;  // scan rows > row
    while (!forward.empty()) {
      auto [b, row] = forward.back();
      forward.pop_back();
      bool stopped = false;
      for (uint32_t r = row + 1; r < body_.block_start[b + 1]; ++r) {
        if (barrier_rows_.count(r)) {
          stopped = true;
          break;
        }
        if (MayWrite(r, variable)) return false;
      }
      if (stopped) continue;
      // Past a return the interval goes on in the caller, whose writes
      // after the call this walk does not see (workgroup_flag_read_in_helper.comp).
      const spv::Op last = body_.rows[body_.block_start[b + 1] - 1].opcode;
      if (!entry_point && (last == spv::Op::OpReturn || last == spv::Op::OpReturnValue)) {
        return false;
      }
      for (uint32_t s : model_.blocks.cfg.successors[b]) {
        if (scanned_forward[s]) continue;
        scanned_forward[s] = 1;
        forward.emplace_back(s, body_.block_start[s]);
      }
    }
    return true;
  }

 private:
  bool MayWrite(uint32_t row, uint32_t variable) const {
    const FunctionBody::Row& r = body_.rows[row];
    if (r.opcode == spv::Op::OpFunctionCall &&
        writes_.MayWrite(InOperandWord(*r.inst, 0), variable)) {
      return true;
    }
    auto found = writes_at_.find(r.inst);
    if (found == writes_at_.end()) return false;
    for (const MemoryWrite* w : found->second) {
      if (writes_.MayWrite(*w, variable)) return true;
    }
    return false;
  }

  const FunctionModel& model_;
  const FunctionBody& body_;
  const ModuleWrites& writes_;
  std::unordered_map<const spvtools::opt::Instruction*, std::vector<const MemoryWrite*>> writes_at_;
  std::unordered_set<uint32_t> barrier_rows_;
};

}  // namespace

std::unordered_set<uint32_t> BarrierSeparatedLoads(const FunctionModel& model,
                                                   const ModuleWrites& writes, bool entry_point) {
  std::unordered_set<uint32_t> separated;
  const FunctionBody* body = model.index->Body(model.function);
  if (body == nullptr) return separated;
  std::unique_ptr<IntervalWalk> walk;
  for (uint32_t b = 0; b < body->blocks(); ++b) {
    for (uint32_t r = body->block_start[b] + 1; r < body->block_start[b + 1]; ++r) {
      const FunctionBody::Row& row = body->rows[r];
      if (row.opcode != spv::Op::OpLoad) continue;
      const uint32_t n = model.NodeOf(row.result_id);
      if (n == kNoNode || model.nodes[n].promoted) continue;
      const PointerRoot& root = model.nodes[n].root;
      if (root.kind != PointerRoot::Kind::kVariable ||
          root.storage != spv::StorageClass::Workgroup) {
        continue;
      }
      if (walk == nullptr) {
        walk = std::make_unique<IntervalWalk>(model, *body, writes);
        if (!walk->HasBarriers()) return separated;
      }
      if (walk->Separated(b, r, root.id, entry_point)) separated.insert(n);
    }
  }
  return separated;
}

}  // namespace analysis
}  // namespace spirv_conv
