// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/structurize/tidy.h"

#include <functional>
#include <map>
#include <set>
#include <vector>

#include "source/opt/dominator_analysis.h"

namespace spirv_conv {
namespace structurize {

namespace {

using spvtools::opt::BasicBlock;
using spvtools::opt::Function;
using spvtools::opt::Instruction;
using spvtools::opt::IRContext;

class Tidier {
 public:
  Tidier(IRContext* context, Function* function, uint32_t first_new_id)
      : context_(context), function_(function), first_new_id_(first_new_id) {}

  TidyStats Run() {
    RemoveEmptyGuards();
    FoldPhis();
    DeleteDead();
    return stats_;
  }

 private:
  bool IsNew(uint32_t id) const { return id >= first_new_id_; }

  // The block an empty block |label| (no phi, nothing but OpBranch, reached
  // from |from| alone, named by no merge instruction) forwards to; else |label|.
  uint32_t Forward(uint32_t label, uint32_t from, const std::set<uint32_t>& structural) {
    BasicBlock* block = context_->cfg()->block(label);
    if (structural.count(label) != 0 || &*block->begin() != &*block->tail() ||
        block->tail()->opcode() != spv::Op::OpBranch) {
      return label;
    }
    const std::vector<uint32_t>& preds = context_->cfg()->preds(label);
    if (preds.size() != 1 || preds[0] != from) return label;
    return block->tail()->GetSingleWordInOperand(0);
  }

  // The guards the emitter made (their condition is new) whose sides meet
  // in one block T at once: the branch goes to T.
  void RemoveEmptyGuards() {
    std::set<uint32_t> structural;  // merge blocks and continue targets
    for (BasicBlock& block : *function_) {
      if (const Instruction* merge = block.GetMergeInst()) {
        for (uint32_t i = 0; i < merge->NumInOperands(); ++i) {
          if (spvIsIdType(merge->GetInOperand(i).type))
            structural.insert(merge->GetSingleWordInOperand(i));
        }
      }
    }
    std::vector<BasicBlock*> emptied;
    for (BasicBlock& block : *function_) {
      Instruction* branch = &*block.tail();
      if (branch->opcode() != spv::Op::OpBranchConditional ||
          !IsNew(branch->GetSingleWordInOperand(0))) {
        continue;
      }
      const uint32_t sides[2] = {branch->GetSingleWordInOperand(1),
                                 branch->GetSingleWordInOperand(2)};
      if (sides[0] == sides[1]) continue;
      const uint32_t target = Forward(sides[0], block.id(), structural);
      if (target != Forward(sides[1], block.id(), structural)) continue;
      Instruction* merge = block.GetMergeInst();
      if (merge != nullptr && (merge->opcode() != spv::Op::OpSelectionMerge ||
                               merge->GetSingleWordInOperand(0) != target)) {
        continue;
      }
      // T's phis must see one value from both sides (an undefined one
      // may become any value).
      BasicBlock* join = context_->cfg()->block(target);
      auto from_guard = [&](const Instruction* phi, uint32_t i) {
        const uint32_t from = phi->GetSingleWordInOperand(i + 1);
        return from == sides[0] || from == sides[1] || from == block.id();
      };
      std::map<Instruction*, uint32_t> values;  // phi -> its value from |block| now
      bool same = true;
      join->ForEachPhiInst([&](Instruction* phi) {
        values[phi] = AgreedValue(phi, [&](uint32_t i) { return from_guard(phi, i); });
        same &= values[phi] != 0;
      });
      if (!same) continue;
      // Keep one incoming entry per phi, from |block|.
      join->ForEachPhiInst([&](Instruction* phi) {
        Instruction::OperandList kept;
        for (uint32_t i = 0; i + 1 < phi->NumInOperands(); i += 2) {
          if (from_guard(phi, i)) continue;
          kept.push_back(phi->GetInOperand(i));
          kept.push_back(phi->GetInOperand(i + 1));
        }
        kept.push_back({SPV_OPERAND_TYPE_ID, {values[phi]}});
        kept.push_back({SPV_OPERAND_TYPE_ID, {block.id()}});
        phi->SetInOperands(std::move(kept));
        context_->get_def_use_mgr()->AnalyzeInstUse(phi);
      });
      for (uint32_t side : sides) {
        if (side != target) emptied.push_back(context_->cfg()->block(side));
      }
      if (merge != nullptr) context_->KillInst(merge);
      branch->SetOpcode(spv::Op::OpBranch);
      branch->SetInOperands({{SPV_OPERAND_TYPE_ID, {target}}});
      context_->get_def_use_mgr()->AnalyzeInstUse(branch);
      ++stats_.guards_removed;
    }
    if (emptied.empty()) return;
    for (BasicBlock* block : emptied) block->KillAllInsts(true);
    function_->RemoveEmptyBlocks();
    context_->InvalidateAnalyses(IRContext::kAnalysisCFG | IRContext::kAnalysisDominatorAnalysis |
                                 IRContext::kAnalysisInstrToBlockMapping |
                                 IRContext::kAnalysisLoopAnalysis);
  }

  bool IsUndef(uint32_t id) const {
    const Instruction* def = context_->get_def_use_mgr()->GetDef(id);
    return def != nullptr && def->opcode() == spv::Op::OpUndef;
  }

  // The one value |phi| takes from the incoming entries |counted| selects
  // (by operand index), an undefined value agreeing with any other: 0 when
  // two differ or none is counted, an undefined value when all are.
  uint32_t AgreedValue(const Instruction* phi, const std::function<bool(uint32_t)>& counted) const {
    uint32_t agreed = 0, undefined = 0;
    for (uint32_t i = 0; i + 1 < phi->NumInOperands(); i += 2) {
      if (!counted(i)) continue;
      const uint32_t value = phi->GetSingleWordInOperand(i);
      if (IsUndef(value)) {
        undefined = value;
      } else if (agreed != 0 && agreed != value) {
        return 0;
      } else {
        agreed = value;
      }
    }
    return agreed != 0 ? agreed : undefined;
  }

  // Work lists hold ids: a killed instruction is deleted, its id has no
  // definition any more.
  void FoldPhis() {
    spvtools::opt::DominatorAnalysis* dominators = context_->GetDominatorAnalysis(function_);
    auto* defs = context_->get_def_use_mgr();
    std::vector<uint32_t> work;
    for (BasicBlock& block : *function_) {
      block.ForEachPhiInst([&](Instruction* phi) { work.push_back(phi->result_id()); });
    }
    while (!work.empty()) {
      Instruction* phi = defs->GetDef(work.back());
      work.pop_back();
      if (phi == nullptr || phi->opcode() != spv::Op::OpPhi || !IsNew(phi->result_id())) continue;
      // A phi of one value (others undefined, or the phi itself); a phi of
      // undefined values only stays.
      const uint32_t value = AgreedValue(
          phi, [&](uint32_t i) { return phi->GetSingleWordInOperand(i) != phi->result_id(); });
      if (value == 0 || IsUndef(value)) continue;
      const BasicBlock* home = context_->get_instr_block(value);
      if (home != nullptr && !dominators->StrictlyDominates(home, context_->get_instr_block(phi))) {
        continue;
      }
      defs->ForEachUser(phi, [&](Instruction* user) {
        if (user->opcode() == spv::Op::OpPhi) work.push_back(user->result_id());
      });
      context_->KillNamesAndDecorates(phi);
      context_->ReplaceAllUsesWith(phi->result_id(), value);
      context_->KillInst(phi);
      ++stats_.phis_folded;
    }
  }

  void DeleteDead() {
    auto* defs = context_->get_def_use_mgr();
    std::vector<uint32_t> work;
    function_->ForEachInst([&](Instruction* inst) {
      if (inst->HasResultId() && IsNew(inst->result_id())) work.push_back(inst->result_id());
    });
    while (!work.empty()) {
      Instruction* inst = defs->GetDef(work.back());
      work.pop_back();
      if (inst == nullptr || context_->get_instr_block(inst) == nullptr ||
          !context_->IsCombinatorInstruction(inst) || inst->opcode() == spv::Op::OpVariable ||
          defs->NumUses(inst) != 0) {
        continue;
      }
      inst->ForEachInId([&](uint32_t* id) {
        if (IsNew(*id)) work.push_back(*id);
      });
      context_->KillInst(inst);
      ++stats_.dead_deleted;
    }
  }

  IRContext* context_;
  Function* function_;
  uint32_t first_new_id_;
  TidyStats stats_;
};

}  // namespace

TidyStats Tidy(IRContext* context, Function* function, uint32_t first_new_id) {
  return Tidier(context, function, first_new_id).Run();
}

}  // namespace structurize
}  // namespace spirv_conv
