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
//      delete stores nothing reads any more;
//   7. tidy what steps 5 and 6 left behind (structurize/tidy.h).

#include "spirv_conv/structurize_pass.h"

#include <map>
#include <memory>
#include <set>
#include <vector>

#include "analysis/dominance.h"
#include "passes/control_flow_analyses.h"
#include "passes/promote_variables.h"
#include "passes/structurize/block_graph.h"
#include "passes/structurize/demote_ssa.h"
#include "passes/structurize/loop_forest.h"
#include "passes/structurize/structured_emitter.h"
#include "passes/structurize/tidy.h"

namespace spirv_conv {

namespace {

using spvtools::opt::Function;
using spvtools::opt::IRContext;

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
  passes::InvalidateFunctionAnalyses(context);
  const uint32_t first_new_id = context->module()->IdBound();  // step 7 tidies only ids from here
  std::vector<Function*> rewritten;
  for (Function& function : *get_module()) {
    if (function.IsDeclaration()) continue;
    std::string error;
    if (!RestructureFunction(context, &function, &stats_, &error)) {
      passes::InvalidateFunctionAnalyses(context);
      error_ = "function %" + std::to_string(function.result_id()) + ": " + error;
      return Status::Failure;
    }
    passes::InvalidateFunctionAnalyses(context);
    rewritten.push_back(&function);
  }
  if (rewritten.empty()) return Status::SuccessWithoutChange;
  if (!passes::PromoteFunctionVariables(context, rewritten)) {
    error_ = "the SSA rewriter failed on the rebuilt control flow";
    return Status::Failure;
  }
  for (Function* function : rewritten) {
    const structurize::TidyStats tidied = structurize::Tidy(context, function, first_new_id);
    stats_.guards_removed += tidied.guards_removed;
    stats_.phis_folded += tidied.phis_folded;
    stats_.dead_deleted += tidied.dead_deleted;
  }
  return Status::SuccessWithChange;
}

}  // namespace spirv_conv
