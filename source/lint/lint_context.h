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

#include "analysis/module_index.h"
#include "lint/call_graph.h"
#include "lint/disassembly.h"
#include "lint/explainer.h"
#include "lint/ir_tables.h"
#include "lint/levels.h"
#include "lint/locator.h"
#include "lint/names.h"
#include "lint/source_files.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace lint {

// The tables are built here, without SPIRV-Tools' def-use, decoration or
// instruction-to-block analyses (lint/ir_tables.h).
struct LintContext {
  LintContext(spvtools::opt::IRContext& context, const UniformityInfo& uniformity,
              const std::string& input_path)
      : ir(context),
        info(uniformity),
        index(&context),
        blocks(context, index),
        uses(context),
        convergent(FindConvergentInstructions(context)),
        disassembly(context, index),
        names(context, index, disassembly),
        sources(context, index, blocks, input_path),
        locator(context, names, disassembly, sources, blocks),
        calls(context),
        levels(context, uniformity, index, blocks, calls),
        explainer(context, uniformity, index, blocks, uses, levels, names, locator, calls) {}

  spvtools::opt::IRContext& ir;
  const UniformityInfo& info;
  analysis::ModuleIndex index;
  BlockTable blocks;
  UseTable uses;
  const std::vector<ConvergentInstruction> convergent;
  Disassembly disassembly;
  Names names;
  SourceFiles sources;
  Locator locator;
  CallGraph calls;
  Levels levels;
  Explainer explainer;
};

}  // namespace lint
}  // namespace spirv_conv

#endif  // SOURCE_LINT_LINT_CONTEXT_H_
