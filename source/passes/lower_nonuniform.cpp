// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The NonUniform passes' tokens, and the lowering per device.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "spirv_conv/nonuniform_passes.h"

namespace spirv_conv {

spvtools::Optimizer::PassToken CreateFixNonUniformPassToken(const NonUniformPassOptions& options) {
  return spvtools::Optimizer::PassToken(std::make_unique<FixNonUniformPass>(options));
}
spvtools::Optimizer::PassToken CreateStripNonUniformPassToken(
    const NonUniformPassOptions& options) {
  return spvtools::Optimizer::PassToken(std::make_unique<StripNonUniformPass>(options));
}
spvtools::Optimizer::PassToken CreateWaterfallPassToken(const NonUniformPassOptions& options) {
  return spvtools::Optimizer::PassToken(std::make_unique<WaterfallPass>(options));
}
spvtools::Optimizer::PassToken CreateDescriptorSwitchPassToken(
    const NonUniformPassOptions& options) {
  return spvtools::Optimizer::PassToken(std::make_unique<DescriptorSwitchPass>(options));
}

std::vector<std::unique_ptr<NonUniformPass>> LowerNonUniformPasses(
    const DeviceProfile& device, const NonUniformPassOptions& options) {
  std::vector<std::unique_ptr<NonUniformPass>> passes;
  auto add = [&](ArrayIndexing level, const char* name) {
    NonUniformPassOptions scoped = options;
    scoped.classes = options.classes & device.ClassesWith(level);
    if (scoped.classes.any()) passes.push_back(CreateNonUniformPass(name, scoped));
  };
  add(ArrayIndexing::kConstant, "descriptor-switch");
  add(ArrayIndexing::kDynamic, "waterfall");
  add(ArrayIndexing::kNonUniform, "fix-nonuniform");
  return passes;
}

}  // namespace spirv_conv
