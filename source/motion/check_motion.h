// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// CheckMotion in two steps, for callers that check a chain of
// transformations (the guarded optimizer): each module is analysed once and
// serves as AFTER of one check and BEFORE of the next.

#ifndef SOURCE_MOTION_CHECK_MOTION_H_
#define SOURCE_MOTION_CHECK_MOTION_H_

#include <memory>
#include <string>
#include <vector>

#include "motion/motion_module.h"
#include "spirv_conv/motion.h"

namespace spirv_conv {
namespace motion {

// Analyses |context| (which must outlive the result); |path| names it in
// locations.
Expected<std::unique_ptr<MotionModule>> AnalyseForMotion(spvtools::opt::IRContext& context,
                                                         const MotionOptions& options,
                                                         const std::string& path);

// The findings of the transformation of |before| into |after|.
std::vector<Finding> CheckAnalysedMotion(MotionModule& before, MotionModule& after);

}  // namespace motion
}  // namespace spirv_conv

#endif  // SOURCE_MOTION_CHECK_MOTION_H_
