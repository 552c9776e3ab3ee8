// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What `spirv-conv opt -O` / `--passes` prints about the spirv-opt passes:
// every rolled-back pass with its findings, with -v a summary on the
// module's line, with -vv one line per pass.

#ifndef TOOLS_SPIRV_CONV_OPTIMIZER_LOG_H_
#define TOOLS_SPIRV_CONV_OPTIMIZER_LOG_H_

#include <string>
#include <vector>

#include "spirv_conv/guarded_optimizer.h"

namespace spirv_conv {
namespace cli {

// ", spirv-opt: K of N passes changed it, rolled back: FLAGS|none", or ""
// when no spirv-opt pass ran.
std::string OptimizerSummary(const std::vector<OptimizerPassResult>& passes);

// The report for module |name|: rolled-back passes always (as warnings,
// their findings below them), every pass when |verbose|. Empty when there is
// nothing to say.
std::string RenderOptimizerLog(const std::string& name,
                               const std::vector<OptimizerPassResult>& passes, bool verbose);

}  // namespace cli
}  // namespace spirv_conv

#endif  // TOOLS_SPIRV_CONV_OPTIMIZER_LOG_H_
