// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the checker reads about one of its two modules: the uniformity, the
// checkers' tables (levels, locations), the structural keys and the control
// dependence, built once.

#ifndef SOURCE_MOTION_MOTION_MODULE_H_
#define SOURCE_MOTION_MOTION_MODULE_H_

#include <memory>
#include <string>
#include <utility>

#include "diagnostics/diagnostic_context.h"
#include "motion/control_dependence.h"
#include "motion/structural_key.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace motion {

struct MotionModule {
  MotionModule(spvtools::opt::IRContext& context, std::unique_ptr<UniformityInfo> uniformity,
               const std::string& path)
      : info(std::move(uniformity)),
        diag(context, *info, path),
        keys(context, diag.index),
        dependence(context, diag.calls, diag.blocks) {}

  std::unique_ptr<UniformityInfo> info;
  diagnostics::DiagnosticContext diag;
  StructuralKeys keys;
  ControlDependence dependence;
};

}  // namespace motion
}  // namespace spirv_conv

#endif  // SOURCE_MOTION_MOTION_MODULE_H_
