// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "motion/motion_checker.h"

#include <utility>

#include "analysis/convergence_classes.h"
#include "diagnostics/names.h"

namespace spirv_conv {
namespace motion {
namespace {

using spvtools::opt::Instruction;

// The keys of |a| that |b| lacks, with their blocks.
std::map<uint32_t, uint32_t> Minus(const std::map<uint32_t, uint32_t>& a,
                                   const std::map<uint32_t, uint32_t>& b) {
  std::map<uint32_t, uint32_t> result;
  for (const auto& entry : a) {
    if (!b.count(entry.first)) result.insert(entry);
  }
  return result;
}

const char* MatchWord(MatchKind kind) {
  switch (kind) {
    case MatchKind::kId:
      return "same result id";
    case MatchKind::kStructural:
      return "a structural copy";
    case MatchKind::kMerged:
      return "merged into this instruction";
  }
  return "";
}

// The condition (or selector) of the branch ending |block|, or 0.
uint32_t ConditionOf(const spvtools::opt::BasicBlock* block) {
  const Instruction* terminator = block ? block->terminator() : nullptr;
  if (terminator == nullptr || (terminator->opcode() != spv::Op::OpBranchConditional &&
                                terminator->opcode() != spv::Op::OpSwitch)) {
    return 0;
  }
  return terminator->GetSingleWordInOperand(0);
}

}  // namespace

bool IsChecked(const Instruction& inst, const analysis::ModuleIndex& index) {
  const analysis::ConvergenceClass cls = analysis::ClassifyConvergence(inst);
  return cls.Has(analysis::kConvergent) || !analysis::UniformOperands(inst, cls, index).empty();
}

void MotionChecker::Check(const Instruction& inst, std::vector<Finding>* out) const {
  if (!IsChecked(inst, after_.diag.index)) return;
  const analysis::ConvergenceClass cls = analysis::ClassifyConvergence(inst);
  const std::vector<Origin>& origins = matcher_.OriginsOf(inst);
  if (origins.empty()) {
    out->push_back(Make("motion-unmatched", inst, nullptr,
                        "no instruction of the original module matches this " +
                            diagnostics::OpcodeName(inst) + ", so its motion cannot be checked"));
    return;
  }
  using Judge = std::optional<Finding> (MotionChecker::*)(
      const Instruction&, const analysis::ConvergenceClass&, const Origin&) const;
  for (Judge judge : {&MotionChecker::JudgeControl, &MotionChecker::JudgeOperands}) {
    // Tied origins: legal if legal for one of them. Merged origins: each.
    std::optional<Finding> tied;
    bool tied_legal = false;
    for (const Origin& origin : origins) {
      std::optional<Finding> finding = (this->*judge)(inst, cls, origin);
      if (origin.kind == MatchKind::kMerged) {
        if (finding) out->push_back(std::move(*finding));
      } else if (!finding) {
        tied_legal = true;
      } else if (!tied) {
        tied = std::move(finding);
      }
    }
    if (tied && !tied_legal) out->push_back(std::move(*tied));
  }
}

MotionChecker::MotionChecker(MotionModule& before, MotionModule& after,
                             const InstructionMatcher& matcher)
    : before_(before), after_(after), matcher_(matcher) {
  for (const spvtools::opt::Function& function : *before.diag.ir.module()) {
    for (const spvtools::opt::BasicBlock& block : function) {
      const uint32_t condition = ConditionOf(&block);
      if (condition != 0) branch_on_.emplace(condition, block.id());
    }
  }
}

MotionChecker::Branches MotionChecker::DivergentBranches(const MotionModule& module,
                                                         const Instruction& inst,
                                                         Uniformity required,
                                                         bool after_side) const {
  Branches branches;
  for (uint32_t label : module.dependence.Of(inst)) {
    if (module.info->BranchLevel(label) <= required) continue;
    uint32_t key = label;
    if (after_side) {
      const spvtools::opt::BasicBlock* now = module.diag.blocks.OfLabel(label);
      const spvtools::opt::BasicBlock* then = before_.diag.blocks.OfLabel(label);
      if (!then || !now || then->terminator()->opcode() != now->terminator()->opcode()) {
        auto found = branch_on_.find(matcher_.BeforeId(ConditionOf(now)));
        key = found == branch_on_.end() ? 0 : found->second;
      }
    }
    if (key == 0) {
      branches.unmapped.push_back(label);
    } else {
      branches.keys.emplace(key, label);
    }
  }
  return branches;
}

std::optional<Finding> MotionChecker::JudgeControl(const Instruction& inst,
                                                   const analysis::ConvergenceClass& cls,
                                                   const Origin& origin) const {
  if (!cls.Has(analysis::kConvergent)) return std::nullopt;
  const Uniformity required = analysis::RequiredControlFlow(inst, cls, after_.diag.index);
  if (required == Uniformity::kDivergent) return std::nullopt;
  const Instruction& before = *origin.before;
  const Uniformity level_after = after_.diag.info.ControlFlowLevel(inst);
  const Uniformity level_before = before_.diag.info.ControlFlowLevel(before);
  const Branches now = DivergentBranches(after_, inst, required, /*after_side=*/true);
  const Branches then = DivergentBranches(before_, before, required, /*after_side=*/false);
  const std::map<uint32_t, uint32_t> gained = Minus(now.keys, then.keys);
  const std::map<uint32_t, uint32_t> lost = Minus(then.keys, now.keys);
  const bool co_convergent = cls.Has(analysis::kCoConvergent);
  // A convergent instruction already in control flow wider than it needs
  // had undefined results (derivatives) or undefined behaviour (barriers)
  // before: moving it on changes nothing defined, and the lint reports it in
  // BEFORE. Only widening its level further, or breaking a uniform one,
  // counts. Co-convergent results are defined for any active set: every
  // change counts.
  const bool wider_now = level_after > required;
  const bool wider_then = level_before > required;
  const bool violation =
      co_convergent ? wider_now != wider_then || !gained.empty() || !lost.empty()
                    : wider_now && (level_after > level_before || (!wider_then && !gained.empty()));
  if (!violation) return std::nullopt;

  std::string message = diagnostics::OpcodeName(inst) + " needs " +
                        diagnostics::ScopeWord(required) + "-uniform control flow; it ran in " +
                        UniformityName(level_before) +
                        " control flow before the transformation and runs in " +
                        UniformityName(level_after) + " control flow now";
  if (co_convergent) {
    message +=
        ". Its result depends on which invocations are active, so it must neither gain "
        "nor lose divergent control dependence";
  } else {
    message += ". A convergent instruction must not gain divergent control dependence";
  }
  Finding finding = Make(co_convergent ? "motion-coconvergent-changed-divergence"
                                       : "motion-convergent-gained-divergence",
                         inst, &origin, message);
  for (const auto& entry : gained) {
    finding.notes.push_back({"gained: it now depends on this divergent branch",
                             after_.diag.locator.AtBlock(entry.second)});
  }
  for (uint32_t label : now.unmapped) {
    finding.notes.push_back({"it depends on this divergent branch, which the original lacks",
                             after_.diag.locator.AtBlock(label)});
  }
  if (co_convergent) {
    for (const auto& entry : lost) {
      finding.notes.push_back({"lost: it depended on this divergent branch before",
                               before_.diag.locator.AtBlock(entry.second)});
    }
  }
  return finding;
}

std::optional<Finding> MotionChecker::JudgeOperands(const Instruction& inst,
                                                    const analysis::ConvergenceClass& cls,
                                                    const Origin& origin) const {
  const Instruction& before = *origin.before;
  for (const analysis::UniformOperand& operand :
       analysis::UniformOperands(inst, cls, after_.diag.index)) {
    if (operand.operand >= inst.NumInOperands() || operand.operand >= before.NumInOperands()) {
      continue;
    }
    const uint32_t id = inst.GetSingleWordInOperand(operand.operand);
    if (after_.diag.index.HasDecoration(id, spv::Decoration::NonUniform)) continue;
    const Uniformity level_after = after_.diag.info.UseLevel(inst, operand.operand);
    const Uniformity level_before = before_.diag.info.UseLevel(before, operand.operand);
    if (level_after <= operand.scope || level_after <= level_before) continue;
    return Make("motion-uniform-operand", inst, &origin,
                "the " + std::string(operand.role) + " operand of " +
                    diagnostics::OpcodeName(inst) + " must stay " + UniformityName(operand.scope) +
                    "; it was " + UniformityName(level_before) +
                    " before the transformation and is " + UniformityName(level_after) + " now");
  }
  return std::nullopt;
}

Finding MotionChecker::Make(const char* rule, const Instruction& inst, const Origin* origin,
                            const std::string& message) const {
  Finding finding;
  finding.rule = rule;
  finding.severity = Severity::kError;
  finding.location = after_.diag.locator.At(inst);
  finding.message = message;
  if (origin) {
    finding.notes.push_back(
        {std::string("before the transformation (") + MatchWord(origin->kind) + ")",
         before_.diag.locator.At(*origin->before)});
  }
  return finding;
}

}  // namespace motion
}  // namespace spirv_conv
