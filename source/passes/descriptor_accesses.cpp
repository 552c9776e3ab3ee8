// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/descriptor_accesses.h"

#include <string>
#include <utility>

#include "source/opt/log.h"

namespace spirv_conv {
namespace passes {

DescriptorAccesses::DescriptorAccesses(spvtools::opt::IRContext* context,
                                       std::unique_ptr<UniformityInfo> info)
    : info_(std::move(info)),
      tables_(*context, *info_),
      accesses_(analysis::FindResourceOperands(tables_, *info_)) {}

Expected<std::unique_ptr<DescriptorAccesses>> DescriptorAccesses::Compute(
    spvtools::opt::IRContext* context, const UniformityOptions& options) {
  Expected<std::unique_ptr<UniformityInfo>> info = UniformityInfo::Compute(context, options);
  if (!info.ok()) return info.error();
  return std::unique_ptr<DescriptorAccesses>(
      new DescriptorAccesses(context, std::move(info).value()));
}

std::unique_ptr<DescriptorAccesses> StartNonUniformPass(spvtools::opt::Pass& pass,
                                                        const UniformityOptions& options,
                                                        spvtools::opt::Pass::Status* status) {
  if (!pass.context()->get_feature_mgr()->HasCapability(spv::Capability::Shader)) {
    *status = spvtools::opt::Pass::Status::SuccessWithoutChange;  // Kernels have no descriptors
    return nullptr;
  }
  auto accesses = DescriptorAccesses::Compute(pass.context(), options);
  if (!accesses.ok()) {
    const std::string message = std::string(pass.name()) + ": " + accesses.error().message;
    spvtools::Error(pass.consumer(), nullptr, {0, 0, 0}, message.c_str());
    *status = spvtools::opt::Pass::Status::Failure;
    return nullptr;
  }
  return std::move(accesses).value();
}

}  // namespace passes
}  // namespace spirv_conv
