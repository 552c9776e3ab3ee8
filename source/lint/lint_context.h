// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Everything a rule reads about one module: the IR, its uniformity, names,
// locations, calls and explanations; built once per module and shared by
// all rules.

#ifndef SOURCE_LINT_LINT_CONTEXT_H_
#define SOURCE_LINT_LINT_CONTEXT_H_

#include <memory>
#include <string>
#include <vector>

#include "analysis/convergence_classes.h"
#include "diagnostics/diagnostic_context.h"
#include "lint/branch_idioms.h"
#include "lint/explainer.h"
#include "lint/named_invocations.h"
#include "lint/tangles.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace lint {

// The checkers' shared tables (diagnostics/diagnostic_context.h), then the
// lint's own: the convergent instructions, explanations, branch idioms,
// tangles and the invocations that lane reads name.
struct LintContext : diagnostics::DiagnosticContext {
  LintContext(spvtools::opt::IRContext& context, const UniformityInfo& uniformity,
              const std::string& input_path, const UnsavedFiles* unsaved = nullptr)
      : diagnostics::DiagnosticContext(context, uniformity, input_path, unsaved),
        convergent(analysis::FindConvergentInstructions(context)),
        explainer(context, uniformity, index, blocks, uses, names, locator, calls),
        idioms(context, index, blocks, uses),
        tangles(context, uniformity, blocks, calls, idioms),
        named(context, index, blocks, uses, uniformity) {}

  const std::vector<analysis::ConvergentInstruction> convergent;
  Explainer explainer;
  BranchIdioms idioms;
  Tangles tangles;
  NamedInvocations named;

  // The module's uniformity with no helper invocations assumed
  // (UniformityOptions::without_helper_invocations), computed on first
  // use; null when no fragment shader reads HelperInvocation (or may use
  // OpIsHelperInvocationEXT), or when the analysis fails.
  const UniformityInfo* WithoutHelperInvocations() const;
  // The module's uniformity with every OpKill and OpTerminateInvocation read
  // as a demote (UniformityOptions::kills_as_demotes), computed on first
  // use; null when no function ends invocations so, or when the analysis
  // fails.
  const UniformityInfo* KillsAsDemotes() const;
  // The module's uniformity with UniformityOptions::primitive_scope, in
  // which `quad` means the same in the whole primitive; computed on first
  // use, null when the analysis fails.
  const UniformityInfo* PrimitiveScope() const;
  // The module's uniformity with UniformityOptions::helpers_apart (quad
  // levels that count helper invocations); computed on first use, null when
  // the analysis fails.
  const UniformityInfo* HelpersApart() const;

  // Whether |inst|, whose control flow is not uniform at |required|, would
  // be in control flow uniform at |required| if no invocation had been
  // discarded: the quad is incomplete only because of OpKill /
  // OpTerminateInvocation (docs/rules/derivative-after-discard.md).
  bool OnlyDiscardsLeftOut(const spvtools::opt::Instruction& inst, Uniformity required) const;

 private:
  mutable bool without_helpers_tried_ = false;
  mutable std::unique_ptr<UniformityInfo> without_helpers_;
  mutable bool kills_as_demotes_tried_ = false;
  mutable std::unique_ptr<UniformityInfo> kills_as_demotes_;
  mutable bool primitive_scope_tried_ = false;
  mutable std::unique_ptr<UniformityInfo> primitive_scope_;
  mutable bool helpers_apart_tried_ = false;
  mutable std::unique_ptr<UniformityInfo> helpers_apart_;
};

}  // namespace lint
}  // namespace spirv_conv

#endif  // SOURCE_LINT_LINT_CONTEXT_H_
