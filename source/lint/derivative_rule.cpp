// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// derivative-divergent-cf (docs/rules/derivative-divergent-cf.md): explicit
// derivatives (error) and implicit-LOD instructions (warning) executed where
// the invocations of a quad (the derivative group) may not run together;
// and (warning) where the quad runs together but a fragment shader without
// QuadDerivativesKHR has the primitive as its derivative group (Vulkan) and
// the primitive's quads may not.

#include "lint/convergent_check.h"

namespace spirv_conv {
namespace lint {
namespace {

using spvtools::opt::Instruction;

// Derivatives in control flow uniform within the quad (or the subgroup)
// but not known to be uniform across the primitive, in functions whose
// Fragment entry points do not declare QuadDerivativesKHR.
void CheckPrimitiveDerivativeGroups(const LintContext& lint, Findings* out) {
  for (const analysis::ConvergentInstruction& c : lint.convergent) {
    if (!c.cls.Has(analysis::kDerivative)) continue;
    const uint32_t function = c.block->GetParent()->result_id();
    if (!lint.calls.HasDerivativeGroups(function) || lint.calls.QuadDerivatives(function)) {
      continue;
    }
    const Instruction& inst = *c.inst;
    const Uniformity level = lint.info.ControlFlowLevel(inst);
    if (level == Uniformity::kUniform || level == Uniformity::kDivergent) continue;
    const UniformityInfo* primitive = lint.PrimitiveScope();
    if (primitive == nullptr || primitive->ControlFlowLevel(inst) <= Uniformity::kQuad) continue;
    Finding finding;
    finding.rule = kDerivativeRule;
    finding.severity = Severity::kWarning;
    finding.location = lint.locator.At(inst);
    finding.message =
        (c.cls.derivative == analysis::DerivativeKind::kExplicit
             ? "explicit derivative " + diagnostics::OpcodeName(inst)
             : diagnostics::OpcodeName(inst) + " (implicit level of detail)") +
        " in control flow that is uniform within the " + diagnostics::ScopeWord(level) +
        " but not across the primitive: without QuadDerivativesKHR a fragment shader's "
        "derivative group is the primitive (Vulkan); declare QuadDerivativesKHR (GLSL "
        "`layout(quad_derivatives) in;`, GL_EXT_shader_quad_control) to difference within the "
        "quad";
    finding.notes = lint.explainer.ControlFlowAt(inst);
    out->push_back({&inst, std::move(finding)});
  }
}

}  // namespace

void CheckDerivatives(const LintContext& lint, Findings* out) {
  CheckConvergent(
      lint, kDerivativeRule, analysis::kDerivative,
      [&](uint32_t function) { return lint.calls.HasDerivativeGroups(function); },
      [&](const spvtools::opt::Instruction& inst, const analysis::ConvergenceClass& cls,
          Uniformity required) -> std::optional<Verdict> {
        // Incomplete only because of discards: derivative-after-discard.
        if (lint.OnlyDiscardsLeftOut(inst, required)) return std::nullopt;
        if (cls.derivative == analysis::DerivativeKind::kExplicit) {
          return Verdict{Severity::kError,
                         "explicit derivative " + diagnostics::OpcodeName(inst) +
                             " in control flow that is not uniform within the quad (the "
                             "derivative group)"};
        }
        return Verdict{Severity::kWarning,
                       diagnostics::OpcodeName(inst) +
                           " computes an implicit level of detail in control flow that is not "
                           "uniform within the quad (the derivative group): its result is "
                           "undefined"};
      },
      out);
  CheckPrimitiveDerivativeGroups(lint, out);
}

}  // namespace lint
}  // namespace spirv_conv
