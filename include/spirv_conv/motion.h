// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Code-motion legality (docs/motion.md; the restrictions of N. Hähnle,
// "Compiling shaders: dynamically uniform variables and 'convergent'
// intrinsics"): given a module BEFORE a transformation and the module AFTER
// it, find the convergent instructions that gained divergent control
// dependence, the co-convergent ones whose divergent control dependence
// changed, and the uniform operands that became less uniform. Instructions
// are matched between the modules by result id, then structurally; convergent
// instructions that match nothing are reported too. Findings use the
// checkers' model (include/spirv_conv/diagnostic.h): the location is in
// AFTER, a note points at the origin in BEFORE, further notes at the branches
// gained or lost.

#ifndef INCLUDE_SPIRV_CONV_MOTION_H_
#define INCLUDE_SPIRV_CONV_MOTION_H_

#include <string>
#include <vector>

#include "spirv_conv/diagnostic.h"
#include "spirv_conv/status.h"
#include "spirv_conv/uniformity.h"

namespace spvtools {
namespace opt {
class IRContext;
}  // namespace opt
}  // namespace spvtools

namespace spirv_conv {

struct MotionOptions {
  UniformityOptions uniformity;
  // Where the modules came from, to show source lines (as LintOptions).
  std::string before_path;
  std::string after_path;
};

// The rules of the checker, in documentation order (docs/motion.md).
const std::vector<RuleInfo>& MotionRules();

// Checks the transformation of |before| into |after| (neither is changed;
// both must stay alive during the call). Findings come in AFTER's module
// order; every one is an error. Fails only when the uniformity analysis
// cannot model one of the modules.
Expected<std::vector<Finding>> CheckMotion(spvtools::opt::IRContext& before,
                                           spvtools::opt::IRContext& after,
                                           const MotionOptions& options = {});

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_MOTION_H_
