// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The reports of `spirv-conv uniformity`: text modelled on LLVM's
// print<uniformity>, and JSON (docs/json.md).

#ifndef INCLUDE_SPIRV_CONV_UNIFORMITY_REPORT_H_
#define INCLUDE_SPIRV_CONV_UNIFORMITY_REPORT_H_

#include <string>

#include "spirv_conv/uniformity.h"

namespace spirv_conv {

// |function_name| restricts the report to the functions it names
// (diagnostics' FunctionMatches: an OpName with or without glslang's
// signature suffix, or "%<id>"); empty means all. |file| is the input's
// display name.
std::string UniformityText(spvtools::opt::IRContext& context, const UniformityInfo& info,
                           const std::string& function_name);
std::string UniformityJson(spvtools::opt::IRContext& context, const UniformityInfo& info,
                           const std::string& function_name, const std::string& file);

// True if some function matches |function_name| (always true when empty).
bool HasFunction(spvtools::opt::IRContext& context, const std::string& function_name);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_UNIFORMITY_REPORT_H_
