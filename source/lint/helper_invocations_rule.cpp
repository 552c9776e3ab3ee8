// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// subgroup-op-helper-invocations (docs/rules/subgroup-op-helper-invocations.md):
// a subgroup operation other than a quad operation, in a function a
// Fragment entry point runs, whose result depends on whether helper
// invocations take part, which Vulkan leaves open for such operations:
//
//   - its result feeds a derivative (explicit, or an implicit-LOD
//     coordinate): the quad's helpers may hold another, undefined result;
//   - it runs after OpDemoteToHelperInvocation: the demoted invocations are
//     helpers now and may or may not be counted.
//
// Quiet where the helpers are left out explicitly (a test of
// HelperInvocation / OpIsHelperInvocationEXT around it), and when every
// Fragment entry point that runs it declares MaximallyReconvergesKHR and
// RequireFullQuadsKHR (every quad starts with four invocations and they
// stay active for group operations).

#include <unordered_map>
#include <unordered_set>

#include "lint/convergent_check.h"

namespace spirv_conv {
namespace lint {
namespace {

using spvtools::opt::BasicBlock;
using spvtools::opt::Instruction;

// Defined on the active invocations: helpers' participation matters.
bool IsSubgroupOperation(const Instruction& inst, const analysis::ConvergenceClass& cls) {
  if (!cls.Has(analysis::kCoConvergent) || !cls.Has(analysis::kGroupOperation)) return false;
  if (cls.scope_operand == analysis::kNoOperand && cls.implied_scope == Uniformity::kQuad) {
    return false;  // quad operations: helpers take part
  }
  const std::string name = diagnostics::OpcodeName(inst);
  return name.rfind("OpGroupNonUniform", 0) == 0 || name.rfind("OpSubgroup", 0) == 0;
}

// The Function or Private variable |pointer| (an access chain into one)
// stores into, or 0.
uint32_t LocalRoot(const LintContext& lint, uint32_t pointer) {
  for (int depth = 0; depth < 16; ++depth) {
    const Instruction* def = lint.index.Def(pointer);
    if (def == nullptr) return 0;
    if (def->opcode() == spv::Op::OpAccessChain ||
        def->opcode() == spv::Op::OpInBoundsAccessChain) {
      pointer = def->GetSingleWordInOperand(0);
      continue;
    }
    if (def->opcode() != spv::Op::OpVariable) return 0;
    const auto storage = static_cast<spv::StorageClass>(def->GetSingleWordInOperand(0));
    return storage == spv::StorageClass::Function || storage == spv::StorageClass::Private ? pointer
                                                                                           : 0;
  }
  return 0;
}

// A derivative that |value| flows into (as an explicit derivative's operand
// or an implicit-LOD coordinate), through pure instructions and local
// variables (glslang -O0 keeps every value in one); null if none is found.
const Instruction* DerivativeFed(const LintContext& lint, uint32_t value) {
  std::vector<uint32_t> work{value};
  std::unordered_set<uint32_t> seen{value};
  auto push = [&](uint32_t id) {
    if (id != 0 && seen.size() < 4096 && seen.insert(id).second) work.push_back(id);
  };
  while (!work.empty()) {
    const uint32_t id = work.back();
    work.pop_back();
    for (const analysis::UseTable::Use& use : lint.uses.UsesOf(id)) {
      const Instruction& user = *use.user;
      const analysis::ConvergenceClass cls = analysis::ClassifyConvergence(user);
      if (cls.derivative == analysis::DerivativeKind::kExplicit && use.operand == 0) return &user;
      if (cls.derivative == analysis::DerivativeKind::kImplicit && use.operand == 1) return &user;
      switch (user.opcode()) {
        case spv::Op::OpStore: {
          if (use.operand != 1) break;
          const uint32_t root = LocalRoot(lint, user.GetSingleWordInOperand(0));
          if (root == 0) break;
          // Every load from the variable (or a chain into it).
          std::vector<uint32_t> pointers{root};
          for (size_t i = 0; i < pointers.size() && i < 256; ++i) {
            for (const analysis::UseTable::Use& p : lint.uses.UsesOf(pointers[i])) {
              const spv::Op op = p.user->opcode();
              if (op == spv::Op::OpLoad && p.operand == 0) push(p.user->result_id());
              if ((op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain) &&
                  p.operand == 0) {
                pointers.push_back(p.user->result_id());
              }
            }
          }
          break;
        }
        case spv::Op::OpFunctionCall:
        case spv::Op::OpImageWrite:
          break;
        default:
          if (user.HasResultId() && !cls.Has(analysis::kGroupOperation)) push(user.result_id());
          break;
      }
    }
  }
  return nullptr;
}

// Where invocations may be demoted before the instructions of a function.
class Demotes {
 public:
  explicit Demotes(const LintContext& lint) : lint_(lint) {
    // Functions that demote, directly or in a callee.
    for (const spvtools::opt::Function& f : *lint.ir.module()) {
      for (const BasicBlock& b : f) {
        for (const Instruction& i : b) {
          if (i.opcode() == spv::Op::OpDemoteToHelperInvocation) demoting_.insert(f.result_id());
        }
      }
    }
    for (bool changed = !demoting_.empty(); changed;) {
      changed = false;
      for (const spvtools::opt::Function& f : *lint.ir.module()) {
        if (demoting_.count(f.result_id())) continue;
        for (const BasicBlock& b : f) {
          for (const Instruction& i : b) {
            if (i.opcode() == spv::Op::OpFunctionCall &&
                demoting_.count(i.GetSingleWordInOperand(0))) {
              demoting_.insert(f.result_id());
              changed = true;
            }
          }
        }
      }
    }
  }

  bool Any() const { return !demoting_.empty(); }

  // A demote (or a call that may demote) that |inst| may run after, in
  // |inst|'s function; null if none.
  const Instruction* Before(const Instruction& inst) const {
    const BasicBlock* block = lint_.blocks.Of(inst);
    if (block == nullptr) return nullptr;
    // Earlier in the same block.
    for (const Instruction& i : *block) {
      if (&i == &inst) break;
      if (IsDemote(i)) return &i;
    }
    // In a block that reaches this one.
    const std::unordered_map<uint32_t, const Instruction*>& after =
        AfterDemote(*block->GetParent());
    auto it = after.find(block->id());
    return it == after.end() ? nullptr : it->second;
  }

 private:
  bool IsDemote(const Instruction& i) const {
    return i.opcode() == spv::Op::OpDemoteToHelperInvocation ||
           (i.opcode() == spv::Op::OpFunctionCall && demoting_.count(i.GetSingleWordInOperand(0)));
  }

  // The blocks reachable from (after) a block with a demote, each with that demote.
  const std::unordered_map<uint32_t, const Instruction*>& AfterDemote(
      const spvtools::opt::Function& f) const {
    auto [it, inserted] = after_.try_emplace(f.result_id());
    if (!inserted) return it->second;
    std::unordered_map<uint32_t, const Instruction*>& reached = it->second;
    std::vector<std::pair<const BasicBlock*, const Instruction*>> work;
    if (demoting_.count(f.result_id())) {
      for (const BasicBlock& b : f) {
        for (const Instruction& i : b) {
          if (IsDemote(i)) {
            work.emplace_back(&b, &i);
            break;
          }
        }
      }
    }
    while (!work.empty()) {
      const BasicBlock* b = work.back().first;
      const Instruction* demote = work.back().second;
      work.pop_back();
      b->ForEachSuccessorLabel([&](uint32_t label) {
        if (reached.emplace(label, demote).second) {
          if (const BasicBlock* next = lint_.blocks.OfLabel(label)) work.emplace_back(next, demote);
        }
      });
    }
    return reached;
  }

  const LintContext& lint_;
  std::unordered_set<uint32_t> demoting_;
  mutable std::unordered_map<uint32_t, std::unordered_map<uint32_t, const Instruction*>> after_;
};

}  // namespace

void CheckHelperInvocations(const LintContext& lint, Findings* out) {
  Demotes demotes(lint);
  for (const analysis::ConvergentInstruction& c : lint.convergent) {
    const Instruction& inst = *c.inst;
    if (!IsSubgroupOperation(inst, c.cls) || !inst.HasResultId()) continue;
    const uint32_t function = c.block->GetParent()->result_id();
    if (!lint.calls.HasHelperInvocations(function) || lint.calls.HelpersParticipate(function)) {
      continue;
    }
    const Uniformity required = analysis::RequiredControlFlow(inst, c.cls, lint.index);
    if (required == Uniformity::kDivergent || required == Uniformity::kQuad) continue;
    // Helpers left out by a test of helper-ness around it.
    if (const UniformityInfo* without = lint.WithoutHelperInvocations()) {
      if (lint.info.ControlFlowLevel(inst) > required &&
          without->ControlFlowLevel(inst) <= required) {
        continue;
      }
    }
    Finding finding;
    finding.rule = kHelperInvocationsRule;
    finding.severity = Severity::kWarning;
    finding.location = lint.locator.At(inst);
    const std::string op = diagnostics::OpcodeName(inst);
    const std::string why =
        ": Vulkan does not say whether helper invocations take part in subgroup operations "
        "other than quad operations; leave them out explicitly (`if (!gl_HelperInvocation)`), or "
        "declare MaximallyReconvergesKHR and RequireFullQuadsKHR";
    if (const Instruction* derivative = DerivativeFed(lint, inst.result_id())) {
      finding.message = "the result of " + op + " feeds the derivative of " +
                        diagnostics::OpcodeName(*derivative) +
                        ", which differences it against the quad's helper invocations, whose "
                        "result may be another or undefined" +
                        why;
      finding.notes.push_back({"the derivative that reads it", lint.locator.At(*derivative)});
    } else if (const Instruction* demote = demotes.Any() ? demotes.Before(inst) : nullptr) {
      finding.message = op +
                        " runs after a demote: the demoted invocations are helpers now, and its "
                        "result may or may not count them" +
                        why;
      finding.notes.push_back(
          {demote->opcode() == spv::Op::OpFunctionCall
               ? "'" + lint.names.Function(demote->GetSingleWordInOperand(0)) +
                     "' may demote invocations to helpers here"
               : std::string("invocations may become helpers here (OpDemoteToHelperInvocation)"),
           lint.locator.At(*demote)});
    } else {
      continue;
    }
    out->push_back({&inst, std::move(finding)});
  }
}

}  // namespace lint
}  // namespace spirv_conv
