// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The cost policy of predicated reconvergence: ReconvergePass where the
// expected issues per subgroup (issue_cost.h) say it pays, the structurizer
// alone elsewhere.

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "passes/control_flow_binary.h"
#include "passes/issue_cost.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/reconverge_pass.h"
#include "spirv_conv/structurize_pass.h"

namespace spirv_conv {
namespace {

using passes::RunControlFlowPass;

// ReconvergePass on |functions| (none given: all) of |binary|, then the
// structurizer.
Expected<SpirvBinary> Reconverged(const SpirvBinary& binary, const ValidatorFlags& validator,
                                  std::optional<std::set<uint32_t>> functions,
                                  ReconvergeStats* stats, StructurizeStats* structurize_stats) {
  ReconvergePass pass(std::move(functions));
  Expected<SpirvBinary> predicated =
      RunControlFlowPass(binary, validator, true, &pass, [&] { return pass.error(); });
  if (!predicated) return predicated;
  *stats = pass.stats();
  // The pass leaves the structured control-flow rules to the structurizer;
  // any other rule its output breaks is the pass's fault, not the input's.
  Status valid = ValidateSpirv(predicated->words, binary.target_env, validator,
                               binary.name + " (reconverged)", ExitCode::kInvalidOutput);
  if (!valid && !IsStructuredControlFlowError(valid.error().message)) return valid.error();
  return StructurizeBinary(*predicated, validator, true, structurize_stats);
}

Expected<std::map<uint32_t, double>> IssueCosts(const SpirvBinary& binary) {
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context =
      BuildIrContext(binary, IrLoad::kExact);
  if (!context) return context.error();
  return passes::ExpectedIssuesPerFunction(context->get());
}

}  // namespace

// Three runs at most: --structurize alone, the pass on every function, and
// (when it pays on some functions only) the pass on those. The functions
// are independent in both passes, so a function of the last run is the one
// of the run that priced it.
Expected<SpirvBinary> ReconvergeBinary(const SpirvBinary& binary, const ValidatorFlags& validator,
                                       bool skip_input_validation, ReconvergeStats* stats,
                                       StructurizeStats* structurize_stats,
                                       ReconvergePolicy policy) {
  StructurizeStats structurized_stats;
  Expected<SpirvBinary> structurized =
      StructurizeBinary(binary, validator, skip_input_validation, &structurized_stats);
  if (!structurized) return structurized;
  ReconvergeStats all;
  StructurizeStats all_stats;
  Expected<SpirvBinary> reconverged =
      Reconverged(binary, validator, std::nullopt, &all, &all_stats);
  if (!reconverged) return reconverged;
  Expected<std::map<uint32_t, double>> before = IssueCosts(*structurized);
  if (!before) return before.error();
  Expected<std::map<uint32_t, double>> after = IssueCosts(*reconverged);
  if (!after) return after.error();
  std::set<uint32_t> pays;
  for (uint32_t function : all.changed) {
    ReconvergeStats::Decision& decision = all.decisions.emplace_back();
    decision.function = function;
    decision.structurized_cost = (*before)[function];
    decision.reconverged_cost = (*after)[function];
    decision.applied = policy == ReconvergePolicy::kEverywhere ||
                       decision.reconverged_cost < decision.structurized_cost;
    if (decision.applied) pays.insert(function);
  }
  Expected<SpirvBinary> result = structurized;
  ReconvergeStats chosen;
  StructurizeStats chosen_stats = structurized_stats;
  if (!pays.empty() && pays == all.changed) {
    result = std::move(reconverged);
    chosen = all;
    chosen_stats = all_stats;
  } else if (!pays.empty()) {
    result = Reconverged(binary, validator, pays, &chosen, &chosen_stats);
  }
  chosen.decisions = all.decisions;
  if (stats != nullptr) *stats = chosen;
  if (structurize_stats != nullptr) *structurize_stats = chosen_stats;
  return result;
}

}  // namespace spirv_conv
