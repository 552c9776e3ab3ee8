// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// derivative-divergent-cf (docs/rules/derivative-divergent-cf.md): explicit
// derivatives (error) and implicit-LOD instructions (warning) executed where
// the invocations of a quad (the derivative group) may not run together;
// and (warning) where the quad runs together but a fragment shader without
// QuadDerivativesKHR has the primitive as its derivative group (Vulkan) and
// the primitive's quads may not.

#include <memory>

#include "lint/convergent_check.h"
#include "lint/explainer.h"

namespace spirv_conv {
namespace lint {
namespace {

using spvtools::opt::Instruction;

// |inst|'s control flow is uniform within the quad only if helper
// invocations agree with the rest of their quad on a subgroup operation they
// may be inactive for (UniformityOptions::helpers_apart).
bool SplitByHelpers(const LintContext& lint, const analysis::ConvergentInstruction& c) {
  const Instruction& inst = *c.inst;
  if (!lint.calls.HasHelperInvocations(c.block->GetParent()->result_id())) return false;
  const UniformityInfo* apart = lint.HelpersApart();
  return apart != nullptr && lint.info.ControlFlowLevel(inst) != Uniformity::kDivergent &&
         apart->ControlFlowLevel(inst) == Uniformity::kDivergent;
}

// Derivatives whose quad-uniform control flow depends on a subgroup
// operation's result, which a quad's helpers may compute apart.
void CheckHelperDerivativeGroups(const LintContext& lint, Findings* out) {
  std::unique_ptr<Explainer> explainer;  // of the helpers-apart levels, made on first use
  for (const analysis::ConvergentInstruction& c : lint.convergent) {
    if (!c.cls.Has(analysis::kDerivative)) continue;
    const Instruction& inst = *c.inst;
    if (!SplitByHelpers(lint, c)) continue;
    if (!explainer) {
      explainer =
          std::make_unique<Explainer>(lint.ir, *lint.HelpersApart(), lint.index, lint.blocks,
                                      lint.uses, lint.names, lint.locator, lint.calls);
    }
    const bool explicit_derivative = c.cls.derivative == analysis::DerivativeKind::kExplicit;
    Finding finding;
    finding.rule = kDerivativeRule;
    finding.severity = explicit_derivative ? Severity::kError : Severity::kWarning;
    finding.location = lint.locator.At(inst);
    finding.message =
        (explicit_derivative ? "explicit derivative " + diagnostics::OpcodeName(inst)
                             : diagnostics::OpcodeName(inst) + " (implicit level of detail)") +
        " in control flow that depends on a subgroup operation helper invocations may be "
        "inactive for (Vulkan, \"Helper Invocations\"): a quad's helpers can compute another "
        "result and take another path than the rest of the quad";
    finding.notes = explainer->ControlFlowAt(inst);
    out->push_back({&inst, std::move(finding)});
  }
}

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
    if (SplitByHelpers(lint, c)) continue;  // CheckHelperDerivativeGroups reports it
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
  CheckHelperDerivativeGroups(lint, out);
  CheckPrimitiveDerivativeGroups(lint, out);
}

}  // namespace lint
}  // namespace spirv_conv
