// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the checker reads about one of its two modules: the uniformity, the
// lint's tables (levels, locations), the structural keys and the control
// dependence, built once.

#ifndef SOURCE_MOTION_MOTION_MODULE_H_
#define SOURCE_MOTION_MOTION_MODULE_H_

#include <memory>
#include <string>
#include <utility>

#include "lint/lint_context.h"
#include "motion/control_dependence.h"
#include "motion/structural_key.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace motion {

struct MotionModule {
  MotionModule(spvtools::opt::IRContext& context, std::unique_ptr<UniformityInfo> uniformity,
               const std::string& path)
      : info(std::move(uniformity)),
        lint(context, *info, path),
        keys(context, lint.index),
        dependence(context, lint.calls, lint.blocks) {}

  std::unique_ptr<UniformityInfo> info;
  lint::LintContext lint;
  StructuralKeys keys;
  ControlDependence dependence;
};

}  // namespace motion
}  // namespace spirv_conv

#endif  // SOURCE_MOTION_MOTION_MODULE_H_
