// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The uniformity analysis (uniformity.h) as an spvtools::opt::Pass, so that it
// runs inside a SPIRV-Tools pass pipeline (an spvtools::Optimizer or a
// spvtools::opt::PassManager) next to spirv-opt's own passes. The pass changes
// nothing: it computes a UniformityInfo for the IR as it is when the pass runs
// and hands it to the caller.
//
// Inside an Optimizer the pass, and the IR context, are destroyed when the
// pipeline ends (the PassManager frees each pass after running it), so a
// pipeline user receives the result through the callback, while the IR it
// describes is alive and unchanged. A pass run directly (pass.Run(context))
// also keeps the result: see info().
//
// A pass header: it includes SPIRV-Tools' internal source/opt/pass.h, so
// its users compile against SPIRV-Tools' source tree (docs/architecture.md).

#ifndef INCLUDE_SPIRV_CONV_UNIFORMITY_PASS_H_
#define INCLUDE_SPIRV_CONV_UNIFORMITY_PASS_H_

#include <functional>
#include <memory>
#include <utility>

#include "source/opt/ir_context.h"
#include "source/opt/pass.h"
#include "spirv-tools/optimizer.hpp"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {

// The pass "uniformity-analysis": UniformityInfo::Compute over the pass's IR
// context, handed to a callback and kept. One instance runs once (as every
// spvtools::opt::Pass).
class UniformityAnalysisPass : public spvtools::opt::Pass {
 public:
  // Called once, after a successful analysis of |context|, with its result
  // |info|. |info| describes |context| as it is during the call; a later pass
  // of the same pipeline may change the IR and make it stale.
  using Callback =
      std::function<void(const UniformityInfo& info, spvtools::opt::IRContext* context)>;

  // A pass whose result is read through info() after Run().
  UniformityAnalysisPass() = default;
  // A pass that calls |on_result| (which may be empty) with its result and
  // analyses with |options|.
  explicit UniformityAnalysisPass(Callback on_result, const UniformityOptions& options = {})
      : on_result_(std::move(on_result)), options_(options) {}

  const char* name() const override { return "uniformity-analysis"; }

  // Computes UniformityInfo::Compute(context(), options) and keeps it.
  // Returns SuccessWithoutChange, or Failure when the analysis cannot model
  // the IR (the error goes to the pass's message consumer, and the callback
  // is not called).
  Status Process() override;

  // The pass changes neither the IR nor any analysis of the context.
  spvtools::opt::IRContext::Analysis GetPreservedAnalyses() override {
    return static_cast<spvtools::opt::IRContext::Analysis>(
        (spvtools::opt::IRContext::kAnalysisEnd << 1) - 1);
  }

  // The result of the last successful Run(), or null (not run yet, or the
  // analysis failed). It refers to the IR context the pass ran on, which
  // must outlive its use and stay unchanged.
  const UniformityInfo* info() const { return info_.get(); }
  // Moves the result out of the pass (null as for info()).
  std::unique_ptr<UniformityInfo> TakeInfo() { return std::move(info_); }

 private:
  Callback on_result_;
  UniformityOptions options_;
  std::unique_ptr<UniformityInfo> info_;
};

// A token for spvtools::Optimizer::RegisterPass of a UniformityAnalysisPass
// that calls |on_result| with its result and analyses with |options|.
spvtools::Optimizer::PassToken CreateUniformityAnalysisPass(
    UniformityAnalysisPass::Callback on_result, const UniformityOptions& options = {});

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_UNIFORMITY_PASS_H_
