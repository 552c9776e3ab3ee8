// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What an editor asks of a linted module besides its findings
// (spirv_conv/lint.h): the uniformity of what the source names at each line,
// for hover, and where the gradients of an implicit-LOD sample in divergent
// control flow can be computed instead, for the "hoist the gradients" fix
// (docs/editor.md).

#ifndef INCLUDE_SPIRV_CONV_EDITOR_SUPPORT_H_
#define INCLUDE_SPIRV_CONV_EDITOR_SUPPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "spirv_conv/diagnostic.h"
#include "spirv_conv/lint.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {

// A variable read or written, or a branch condition, at a source line.
struct SourceValue {
  enum class Kind : uint8_t { kVariable, kCondition };
  Kind kind = Kind::kVariable;
  std::string name;  // the variable's OpName; empty for a condition
  Location location;
  // The value read, the value stored, or the condition where the branch
  // uses it.
  Uniformity level = Uniformity::kUniform;
  // Why it is not uniform (the lint's notes); empty when it is uniform.
  std::vector<Note> explanation;
};

// Every load from and store to a named variable (or a part of one) and every
// conditional branch and switch, that has a source line, in module order.
std::vector<SourceValue> DescribeSourceValues(spvtools::opt::IRContext& context,
                                              const UniformityInfo& info,
                                              const LintOptions& options);

// An implicit-LOD sample in control flow that is not quad-uniform whose
// gradients can be computed at the start of the divergent statement around
// it: the coordinate has the same value there as at the sample (it reads
// only variables that are written before the statement and not inside it,
// constants and values computed before it, through arithmetic), and that
// point is in quad-uniform control flow.
struct GradientHoist {
  Location sample;  // the sample instruction
  // The line of the statement to compute the gradients before: the `if`,
  // `switch` or loop whose control flow is divergent, in |sample.file|.
  uint32_t before_line = 0;
  uint32_t coordinate_components = 0;  // 1 (float) to 4 (vec4)
  // The gradients': the image's dimensions (2 for 2D and 2D arrays, 3 for
  // 3D and cube images).
  uint32_t gradient_components = 0;
};

std::vector<GradientHoist> FindGradientHoists(spvtools::opt::IRContext& context,
                                              const UniformityInfo& info,
                                              const LintOptions& options);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_EDITOR_SUPPORT_H_
