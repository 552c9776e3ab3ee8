// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// reconverge: predicated reconvergence (docs/structurize.md#reconverge). The
// invocations that diverged at a branch and leave through different exits
// execute the code those exits share once, together, instead of once per
// exit:
//   - in a function whose returns lie in divergent control flow, the returns
//     that end with an instruction alike branch to one exit block per such
//     group (the `multi_exit` kernel of "GPU Divergence in AMD CDNA 3 -
//     StructurizeCFG Pass", shaders/reconverge/multi_exit.comp: both early
//     exits merged into one `early_exit` block). The structurizer then
//     routes the early returns through guards (the predicate) to it, so the
//     returning invocations wait there for each other;
//   - at that exit block, and at every join of a divergent branch, the
//     instructions that all predecessors end with alike (a store of a
//     different value, the same arithmetic) are sunk into the join, with
//     phis for the operands that differ.
// Convergent and co-convergent instructions (derivatives, barriers, subgroup
// operations), calls and atomics never move, and neither does anything
// whose differing operands would need a phi of a pointer or opaque value.
// The pass first promotes the functions' Function variables to SSA values
// (the exits' code is compared in that form). It runs before --structurize
// (which it implies in spirv-conv opt); ReconvergeBinary (below) keeps
// it only in functions where it lowers the estimated issues.
//
// A pass header: it includes SPIRV-Tools' internal source/opt/pass.h, so
// its users compile against SPIRV-Tools' source tree (docs/architecture.md).

#ifndef INCLUDE_SPIRV_CONV_RECONVERGE_PASS_H_
#define INCLUDE_SPIRV_CONV_RECONVERGE_PASS_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "source/opt/pass.h"
#include "spirv_conv/load.h"
#include "spirv_conv/status.h"
#include "spirv_conv/structurize_pass.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {

struct ReconvergeStats {
  uint32_t unified_exits = 0;  // exit blocks made (one per group of returns ending alike)
  uint32_t split_joins = 0;    // joins given a block for the predecessors ending alike
  uint32_t sunk = 0;           // instructions sunk into joins
  std::set<uint32_t> changed;  // the functions (result ids) the pass changed

  // Filled by ReconvergeBinary (below), which applies the pass to a
  // function only where it pays: the instructions it is expected to issue
  // per subgroup (ExpectedIssues, source/passes/issue_cost.h), structurized
  // without and with the pass.
  struct Decision {
    uint32_t function = 0;
    double structurized_cost = 0;  // --structurize alone
    double reconverged_cost = 0;   // the pass, then --structurize
    bool applied = false;          // reconverged_cost < structurized_cost (or kEverywhere)
  };
  std::vector<Decision> decisions;  // one per function in |changed|
};

// Where ReconvergeBinary (below) applies predicated reconvergence.
enum class ReconvergePolicy {
  kWhereItPays,  // functions whose estimated issues it lowers (ReconvergeStats::Decision)
  kEverywhere,   // every function (to measure or debug the transform itself)
};

class ReconvergePass : public spvtools::opt::Pass {
 public:
  // Only the functions whose result ids are in |functions| (none given:
  // every function of the module).
  explicit ReconvergePass(std::optional<std::set<uint32_t>> functions = std::nullopt)
      : only_(std::move(functions)) {}

  const char* name() const override { return "reconverge"; }
  const std::string& error() const { return error_; }
  const ReconvergeStats& stats() const { return stats_; }

 private:
  Status Process() override;

  std::optional<std::set<uint32_t>> only_;
  std::string error_;
  ReconvergeStats stats_;
};

// ReconvergePass on the functions |policy| picks, then StructurizeBinary on
// the result; the other functions come out as StructurizeBinary makes them
// (the cost policy: source/passes/reconverge_policy.cpp). |stats| (may be
// null) gets the pass's counts and one decision per function the pass
// would change.
Expected<SpirvBinary> ReconvergeBinary(const SpirvBinary& binary, const ValidatorFlags& validator,
                                       bool skip_input_validation, ReconvergeStats* stats = nullptr,
                                       StructurizeStats* structurize_stats = nullptr,
                                       ReconvergePolicy policy = ReconvergePolicy::kWhereItPays);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_RECONVERGE_PASS_H_
