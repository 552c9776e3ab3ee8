// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// structurize, per function (docs/structurize.md):
//   1. drop merge instructions, ignore unreachable blocks;
//   2. demote phis and cross-block values to Function variables;
//   3. give irreducible cycles a dispatch header (MakeReducible);
//   4. shape loops: one exit block, one back edge, a plain header;
//   5. lay the blocks out as structured constructs (EmitStructured);
//   6. turn the variables back into SSA (SPIRV-Tools' SSA rewriter) and
//      delete stores nothing reads any more.

#include "spirv_conv/structurize_pass.h"

#include <map>
#include <memory>
#include <set>
#include <vector>

#include "analysis/dominance.h"
#include "passes/structurize/block_graph.h"
#include "passes/structurize/demote_ssa.h"
#include "passes/structurize/loop_forest.h"
#include "passes/structurize/structured_emitter.h"
#include "source/opt/mem_pass.h"
#include "source/opt/ssa_rewrite_pass.h"

namespace spirv_conv {

namespace {

using spvtools::opt::Function;
using spvtools::opt::Instruction;
using spvtools::opt::IRContext;

// SPIRV-Tools' SSA rewriter on chosen functions only.
class PromoteVariables : public spvtools::opt::MemPass {
 public:
  explicit PromoteVariables(std::vector<Function*> functions) : functions_(std::move(functions)) {}
  const char* name() const override { return "structurize-promote"; }

 private:
  Status Process() override {
    Status status = Status::SuccessWithoutChange;
    for (Function* function : functions_) {
      status =
          CombineStatus(status, spvtools::opt::SSARewriter(this).RewriteFunctionIntoSSA(function));
      if (status == Status::Failure) break;
    }
    return status;
  }
  std::vector<Function*> functions_;
};

// Deletes Function variables only stored to (and what only fed those
// stores) in |function|.
void DeleteDeadStores(IRContext* context, Function* function) {
  auto* defs = context->get_def_use_mgr();
  std::vector<Instruction*> variables;
  for (Instruction& inst : *function->entry()) {
    if (inst.opcode() == spv::Op::OpVariable) variables.push_back(&inst);
  }
  std::vector<Instruction*> maybe_dead;
  for (Instruction* variable : variables) {
    bool only_stored = true;
    defs->ForEachUser(variable, [&](Instruction* user) {
      only_stored &= user->opcode() == spv::Op::OpStore || user->opcode() == spv::Op::OpName ||
                     spvOpcodeIsDecoration(user->opcode());
    });
    if (!only_stored) continue;
    std::vector<Instruction*> stores;
    defs->ForEachUser(variable, [&](Instruction* user) {
      if (user->opcode() == spv::Op::OpStore) stores.push_back(user);
    });
    for (Instruction* store : stores) {
      if (Instruction* value = defs->GetDef(store->GetSingleWordInOperand(1)))
        maybe_dead.push_back(value);
      context->KillInst(store);
    }
    context->KillNamesAndDecorates(variable);
    context->KillInst(variable);
  }
  while (!maybe_dead.empty()) {
    Instruction* inst = maybe_dead.back();
    maybe_dead.pop_back();
    if (inst->opcode() == spv::Op::OpNop || !context->IsCombinatorInstruction(inst) ||
        context->get_instr_block(inst) == nullptr || defs->NumUses(inst) != 0) {
      continue;
    }
    inst->ForEachInId([&](uint32_t* id) {
      if (Instruction* operand = defs->GetDef(*id)) maybe_dead.push_back(operand);
    });
    context->KillInst(inst);
  }
}

// Steps 1-5 on one function. False with |error| set on failure.
bool RestructureFunction(IRContext* context, Function* function, StructurizeStats* stats,
                         std::string* error) {
  structurize::BlockGraph graph(context, function);
  std::map<uint32_t, uint32_t> merge_hints;  // block -> its input selection merge
  for (uint32_t n = 0; n < graph.size(); ++n) {
    const uint32_t selection_merge = graph.RemoveMergeInstruction(n);
    if (selection_merge != structurize::BlockGraph::kNone) merge_hints[n] = selection_merge;
    graph.SimplifyTerminator(n);
  }
  const std::vector<uint32_t> reachable = analysis::ReversePostOrder(graph.ToCfg().successors, 0);
  if (!structurize::DemoteSsa(&graph, error)) {
    graph.PutBack(reachable);
    return false;
  }
  stats->irreducible_cycles += structurize::MakeReducible(&graph);
  const structurize::LoopForest loops = structurize::ShapeLoops(&graph);
  std::vector<uint32_t> order;
  if (!structurize::EmitStructured(&graph, loops, merge_hints, &order, error)) {
    graph.PutBack(analysis::ReversePostOrder(graph.ToCfg().successors, 0));
    return false;
  }
  graph.PutBack(order);
  return true;
}

}  // namespace

bool IsStructuredControlFlowError(const std::string& message) {
  static const char* const kStructuredRules[] = {"Selection must be structured",
                                                 "must be preceded by an OpSelectionMerge",
                                                 "back-edge",
                                                 "Back-edge",
                                                 "is already a merge block",
                                                 "Loop header",
                                                 "Header block",
                                                 "Continue Target",
                                                 "continue target",
                                                 "Merge Block",
                                                 "merge block",
                                                 " construct, but not",
                                                 " construct headed by",
                                                 " construct with the ",
                                                 "Case construct",
                                                 "Switch header",
                                                 "Construct selection",
                                                 "Construct loop",
                                                 "Construct continue",
                                                 "Construct case",
                                                 "exits the ",
                                                 "structured exit",
                                                 "structurally dominate",
                                                 "Control Flow nesting depth"};
  for (const char* rule : kStructuredRules) {
    if (message.find(rule) != std::string::npos) return true;
  }
  return false;
}

spvtools::opt::Pass::Status StructurizePass::Process() {
  IRContext* context = this->context();
  const auto kept = IRContext::kAnalysisTypes | IRContext::kAnalysisConstants |
                    IRContext::kAnalysisDecorations | IRContext::kAnalysisNameMap;
  context->InvalidateAnalysesExceptFor(kept);
  std::vector<Function*> rewritten;
  for (Function& function : *get_module()) {
    if (function.IsDeclaration()) continue;
    std::string error;
    if (!RestructureFunction(context, &function, &stats_, &error)) {
      context->InvalidateAnalysesExceptFor(kept);
      error_ = "function %" + std::to_string(function.result_id()) + ": " + error;
      return Status::Failure;
    }
    context->InvalidateAnalysesExceptFor(kept);
    rewritten.push_back(&function);
  }
  if (rewritten.empty()) return Status::SuccessWithoutChange;
  PromoteVariables promote(rewritten);
  if (promote.Run(context) == Status::Failure) {
    error_ = "the SSA rewriter failed on the rebuilt control flow";
    return Status::Failure;
  }
  for (Function* function : rewritten) DeleteDeadStores(context, function);
  return Status::SuccessWithChange;
}

}  // namespace spirv_conv
