// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The reports of `spirv-conv uniformity`: text modelled on LLVM's
// print<uniformity>, and JSON (docs/json.md).

#ifndef TOOLS_SPIRV_CONV_UNIFORMITY_REPORT_H_
#define TOOLS_SPIRV_CONV_UNIFORMITY_REPORT_H_

#include <string>

#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace cli {

// |function_name| restricts the report to functions with that OpName (or
// "%<id>"); empty means all. |file| is the input's display name.
std::string UniformityText(spvtools::opt::IRContext& context, const UniformityInfo& info,
                           const std::string& function_name);
std::string UniformityJson(spvtools::opt::IRContext& context, const UniformityInfo& info,
                           const std::string& function_name, const std::string& file);

// True if some function matches |function_name| (always true when empty).
bool HasFunction(spvtools::opt::IRContext& context, const std::string& function_name);

}  // namespace cli
}  // namespace spirv_conv

#endif  // TOOLS_SPIRV_CONV_UNIFORMITY_REPORT_H_
