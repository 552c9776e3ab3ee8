// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/uniformity_pass.h"

#include <string>

#include "source/opt/log.h"

namespace spirv_conv {

spvtools::opt::Pass::Status UniformityAnalysisPass::Process() {
  info_.reset();
  Expected<std::unique_ptr<UniformityInfo>> info = UniformityInfo::Compute(context(), options_);
  if (!info.ok()) {
    const std::string message = std::string(name()) + ": " + info.error().message;
    spvtools::Error(consumer(), nullptr, {0, 0, 0}, message.c_str());
    return Status::Failure;
  }
  info_ = std::move(info).value();
  if (on_result_) on_result_(*info_, context());
  return Status::SuccessWithoutChange;
}

spvtools::Optimizer::PassToken CreateUniformityAnalysisPass(
    UniformityAnalysisPass::Callback on_result, const UniformityOptions& options) {
  return spvtools::Optimizer::PassToken(
      std::make_unique<UniformityAnalysisPass>(std::move(on_result), options));
}

}  // namespace spirv_conv
