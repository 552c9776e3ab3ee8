// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The report of `spirv-conv opt --report` (docs/passes.md#report): what the
// NonUniform passes changed and what the guarded optimizer ran, kept or
// dropped, per input, as JSON.

#ifndef INCLUDE_SPIRV_CONV_PASS_REPORT_H_
#define INCLUDE_SPIRV_CONV_PASS_REPORT_H_

#include <string>
#include <vector>

#include "spirv_conv/guarded_optimizer.h"
#include "spirv_conv/nonuniform_passes.h"

namespace spirv_conv {

// What `spirv-conv opt` did to one input, for --report.
struct ModuleChanges {
  std::string input;
  std::string output;  // empty when the module failed
  std::string error;   // why it failed; empty on success
  ChangeLog changes;
  std::vector<OptimizerPassResult> optimizer;  // the spirv-opt passes, in order
};

// The JSON of `spirv-conv opt --report` (docs/passes.md#report).
std::string RenderPassReport(const std::vector<ModuleChanges>& modules);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_PASS_REPORT_H_
