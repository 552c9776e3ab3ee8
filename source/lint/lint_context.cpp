// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lint/lint_context.h"

namespace spirv_conv {
namespace lint {

const UniformityInfo* LintContext::WithoutHelperInvocations() const {
  if (without_helpers_tried_) return without_helpers_.get();
  without_helpers_tried_ = true;
  bool reads_helper_invocation = false;
  for (const spvtools::opt::Instruction& inst : ir.module()->types_values()) {
    reads_helper_invocation |=
        inst.opcode() == spv::Op::OpVariable &&
        index.HasDecoration(inst.result_id(), spv::Decoration::BuiltIn,
                            static_cast<uint32_t>(spv::BuiltIn::HelperInvocation));
  }
  if (!reads_helper_invocation) return nullptr;
  UniformityOptions options = info.options();
  options.without_helper_invocations = true;
  auto computed = UniformityInfo::Compute(&ir, options);
  if (computed.ok()) without_helpers_ = std::move(*computed);
  return without_helpers_.get();
}

}  // namespace lint
}  // namespace spirv_conv
