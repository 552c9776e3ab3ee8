// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Helpers the renderers of include/spirv_conv/report.h share.

#ifndef SOURCE_REPORT_MODULE_POSITION_H_
#define SOURCE_REPORT_MODULE_POSITION_H_

#include <string>

#include "spirv_conv/lint.h"

namespace spirv_conv {
namespace report {

// Where in the module |at| is, for locations without a source line:
// "in function 'f', block %12: %s = OpDPdx %float %v" with the parts that are
// known; empty when none is.
std::string ModulePosition(const Location& at);

}  // namespace report
}  // namespace spirv_conv

#endif  // SOURCE_REPORT_MODULE_POSITION_H_
