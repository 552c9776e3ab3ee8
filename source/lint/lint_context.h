// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Everything a rule reads about one module: the IR, its uniformity, names,
// locations, calls and explanations; built once per module and shared by
// all rules.

#ifndef SOURCE_LINT_LINT_CONTEXT_H_
#define SOURCE_LINT_LINT_CONTEXT_H_

#include <string>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/ir_tables.h"
#include "analysis/levels.h"
#include "analysis/module_index.h"
#include "analysis/module_tables.h"
#include "lint/branch_idioms.h"
#include "lint/disassembly.h"
#include "lint/explainer.h"
#include "lint/locator.h"
#include "lint/names.h"
#include "lint/source_files.h"
#include "lint/tangles.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace lint {

// The shared tables (analysis/module_tables.h: ir, index, blocks, uses,
// calls) are built first, without SPIRV-Tools' def-use, decoration or
// instruction-to-block analyses; the lint's own tables follow.
struct LintContext : analysis::ModuleTables {
  LintContext(spvtools::opt::IRContext& context, const UniformityInfo& uniformity,
              const std::string& input_path)
      : analysis::ModuleTables(context),
        info(uniformity),
        convergent(analysis::FindConvergentInstructions(context)),
        disassembly(context, index),
        names(context, index, disassembly),
        sources(context, index, blocks, input_path),
        locator(context, names, disassembly, sources, blocks),
        levels(context, uniformity, index, blocks, calls),
        explainer(context, uniformity, index, blocks, uses, levels, names, locator, calls),
        idioms(context, index, blocks, uses),
        tangles(context, uniformity, blocks, calls, levels, idioms) {}

  const UniformityInfo& info;
  const std::vector<analysis::ConvergentInstruction> convergent;
  Disassembly disassembly;
  Names names;
  SourceFiles sources;
  Locator locator;
  analysis::Levels levels;
  Explainer explainer;
  BranchIdioms idioms;
  Tangles tangles;
};

}  // namespace lint
}  // namespace spirv_conv

#endif  // SOURCE_LINT_LINT_CONTEXT_H_
