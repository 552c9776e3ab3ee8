// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/pass_registry.h"

#include <memory>
#include <utility>

#include "spirv_conv/fast_forward_pass.h"
#include "spirv_conv/reconverge_pass.h"
#include "spirv_conv/structurize_pass.h"
#include "spirv_conv/uniformity_pass.h"

namespace spirv_conv {
namespace {

template <typename P>
std::unique_ptr<spvtools::opt::Pass> MakeNonUniform(const PassOptions& options) {
  return std::make_unique<P>(options.nonuniform);
}

std::unique_ptr<spvtools::opt::Pass> MakeUniformityAnalysis(const PassOptions& options) {
  return std::make_unique<UniformityAnalysisPass>(nullptr, options.nonuniform.uniformity);
}

std::unique_ptr<spvtools::opt::Pass> MakeStructurize(const PassOptions&) {
  return std::make_unique<StructurizePass>();
}

std::unique_ptr<spvtools::opt::Pass> MakeReconverge(const PassOptions&) {
  return std::make_unique<ReconvergePass>();
}

std::unique_ptr<spvtools::opt::Pass> MakeFastForward(const PassOptions& options) {
  return std::make_unique<FastForwardPass>(options.fast_forward);
}

}  // namespace

const std::vector<PassInfo>& Passes() {
  static const std::vector<PassInfo> kPasses = {
      {"uniformity-analysis", PassKind::kAnalysis,
       "Compute the dynamic uniformity of every value and branch; change nothing",
       MakeUniformityAnalysis},
      {"structurize", PassKind::kControlFlow,
       "Rebuild arbitrary control flow (missing or wrong merge instructions, multi-level breaks, "
       "multi-exit loops, irreducible cycles) as structured constructs; input may break "
       "spirv-val's structured control-flow rules",
       MakeStructurize},
      {"reconverge", PassKind::kControlFlow,
       "Predicated reconvergence, then --structurize: returns in divergent control flow share "
       "one exit block, and code that the exits and joins of divergent branches share runs "
       "once, with all the invocations that reach it; only in functions where its cost model "
       "expects that to lower the instructions a subgroup issues (-v counts the decisions, "
       "--report shows the estimates)",
       MakeReconverge},
      {"fast-forward-loops", PassKind::kControlFlow,
       "Loop fast-forwarding, then --structurize: in a loop with a divergent branch to an "
       "expensive arm, invocations that do not need it run the next iterations' cheap path "
       "(at most a window of them) until they do, and the arm runs once for all of them; with "
       "--fast-forward-profile also a divergent inner loop of skewed trip counts merges into "
       "its outer loop; only in loops where its cost model expects fewer issued instructions, "
       "and without "
       "convergent operations, atomics or Workgroup stores (--report shows each loop's decision)",
       MakeFastForward},
      {"fix-nonuniform", PassKind::kNonUniform,
       "Decorate NonUniform every descriptor access whose index is not subgroup-uniform (and "
       "the values leading to it); add the capabilities and extension",
       MakeNonUniform<FixNonUniformPass>},
      {"strip-nonuniform", PassKind::kNonUniform,
       "Remove NonUniform where every index is uniform; drop capabilities nothing needs",
       MakeNonUniform<StripNonUniformPass>},
      {"waterfall", PassKind::kNonUniform,
       "Rewrite each non-uniform descriptor access into a loop over the subgroup's distinct "
       "indices (devices with dynamic but not non-uniform indexing)",
       MakeNonUniform<WaterfallPass>},
      {"descriptor-switch", PassKind::kNonUniform,
       "Rewrite each descriptor access with a non-constant index into a switch over the array's "
       "elements (devices without dynamic indexing)",
       MakeNonUniform<DescriptorSwitchPass>},
  };
  return kPasses;
}

const PassInfo* FindPass(const std::string& name) {
  for (const PassInfo& pass : Passes()) {
    if (name == pass.name) return &pass;
  }
  return nullptr;
}

std::unique_ptr<spvtools::opt::Pass> CreatePass(const std::string& name,
                                                const PassOptions& options) {
  const PassInfo* pass = FindPass(name);
  return pass == nullptr ? nullptr : pass->create(options);
}

bool RegisterPass(spvtools::Optimizer* optimizer, const std::string& name,
                  const PassOptions& options) {
  std::unique_ptr<spvtools::opt::Pass> pass = CreatePass(name, options);
  if (pass == nullptr) return false;
  optimizer->RegisterPass(spvtools::Optimizer::PassToken(std::move(pass)));
  return true;
}

spvtools::Optimizer::PassToken CreateStructurizePass() {
  return spvtools::Optimizer::PassToken(MakeStructurize({}));
}

spvtools::Optimizer::PassToken CreateReconvergePass() {
  return spvtools::Optimizer::PassToken(MakeReconverge({}));
}

spvtools::Optimizer::PassToken CreateFastForwardPass(const FastForwardOptions& options) {
  PassOptions pass_options;
  pass_options.fast_forward = options;
  return spvtools::Optimizer::PassToken(MakeFastForward(pass_options));
}

std::unique_ptr<NonUniformPass> CreateNonUniformPass(const std::string& name,
                                                     const NonUniformPassOptions& options) {
  const PassInfo* pass = FindPass(name);
  if (pass == nullptr || pass->kind != PassKind::kNonUniform) return nullptr;
  PassOptions pass_options;
  pass_options.nonuniform = options;
  // Every kNonUniform entry makes a NonUniformPass (MakeNonUniform).
  return std::unique_ptr<NonUniformPass>(
      static_cast<NonUniformPass*>(pass->create(pass_options).release()));
}

}  // namespace spirv_conv
