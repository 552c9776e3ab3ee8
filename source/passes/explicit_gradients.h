// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Implicit-LOD sampling inside the control flow the descriptor lowerings
// emit (a waterfall loop, a switch over the array) would take its
// derivatives there, where the invocations of a quad may no longer run
// together: the LOD would be undefined. So the lowerings take the gradients
// where the sample was, before the new control flow, and sample with them:
//
//   before:  %r = OpImageSampleImplicitLod %v4float %si %uv Bias %b
//   after:   %dx = OpDPdx %v2float %uv                  (before the new control flow)
//            %dy = OpDPdy %v2float %uv
//            %s  = OpExtInst %float %glsl Exp2 %b       (only with Bias)
//            %dx' = OpVectorTimesScalar %v2float %dx %s
//            %dy' = OpVectorTimesScalar %v2float %dy %s
//            ...
//            %r' = OpImageSampleExplicitLod %v4float %si' %uv Grad %dx' %dy'   (inside it)
//
// The result is the original sample's: the LOD of an implicit sample is
// computed from exactly these derivatives (OpDPdx/OpDPdy, which leave fine or
// coarse to the implementation as implicit derivatives do). Projective
// samples take the derivatives of the projected coordinate (explicit
// gradients of a projective sample are "already projected"). Bias cannot be
// combined with Grad; scaling both gradients by 2^bias adds bias to
// log2(rho) and so to the LOD. The one difference: Vulkan clamps the sum of
// the shader's and the sampler's bias to maxSamplerLodBias, which scaled
// gradients do not. ConstOffset, Offset, MinLod and the other operands are
// kept.

#ifndef SOURCE_PASSES_EXPLICIT_GRADIENTS_H_
#define SOURCE_PASSES_EXPLICIT_GRADIENTS_H_

#include <cstdint>
#include <string>

#include "source/opt/instruction.h"
#include "source/opt/ir_builder.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace passes {

// Whether |op| is an implicit-LOD sample with an explicit-LOD twin: the
// eight OpImage[Sparse]Sample[Proj][Dref]ImplicitLod.
bool HasExplicitGradientForm(spv::Op op);

// Why the gradients of |sample| (HasExplicitGradientForm) cannot be taken
// before the access, or "" when they can. (Coordinates that are not 32-bit
// floats: OpDPdx takes only those.)
std::string GradientProblem(spvtools::opt::IRContext* context,
                            const spvtools::opt::Instruction& sample);

struct Gradients {
  uint32_t dx = 0;
  uint32_t dy = 0;
};

// Emits through |builder| the gradients |sample| would use for its LOD:
// the derivatives of its (projected) coordinate, scaled by exp2(Bias) when
// it has a Bias operand. |sample| itself is not changed.
Gradients EmitGradients(spvtools::opt::IRContext* context, const spvtools::opt::Instruction& sample,
                        spvtools::opt::InstructionBuilder* builder);

// Turns |sample| (HasExplicitGradientForm) into its explicit-LOD twin with
// Grad |gradients| in place of Bias. The caller updates the def-use manager.
void UseExplicitGradients(spvtools::opt::Instruction* sample, const Gradients& gradients);

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_EXPLICIT_GRADIENTS_H_
