// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Everything a rule reads about one module: the IR, its uniformity, names,
// locations, calls and explanations; built once per module and shared by
// all rules.

#ifndef SOURCE_LINT_LINT_CONTEXT_H_
#define SOURCE_LINT_LINT_CONTEXT_H_

#include <string>
#include <unordered_map>

#include "lint/call_graph.h"
#include "lint/disassembly.h"
#include "lint/explainer.h"
#include "lint/locator.h"
#include "lint/names.h"
#include "lint/source_files.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace lint {

// The position of every instruction of every function body in module order.
using Positions = std::unordered_map<const spvtools::opt::Instruction*, size_t>;
inline Positions ModulePositions(spvtools::opt::IRContext& context) {
  Positions positions;
  for (spvtools::opt::Function& function : *context.module()) {
    for (auto& block : function) {
      for (const spvtools::opt::Instruction& inst : block)
        positions.emplace(&inst, positions.size());
    }
  }
  return positions;
}

struct LintContext {
  LintContext(spvtools::opt::IRContext& context, const UniformityInfo& uniformity,
              const std::string& input_path)
      : ir(context),
        info(uniformity),
        disassembly(context),
        names(context, disassembly),
        sources(context, input_path),
        locator(context, names, disassembly, sources),
        calls(context),
        explainer(context, uniformity, names, locator, calls),
        positions(ModulePositions(context)) {}

  spvtools::opt::IRContext& ir;
  const UniformityInfo& info;
  Disassembly disassembly;
  Names names;
  SourceFiles sources;
  Locator locator;
  CallGraph calls;
  Explainer explainer;
  Positions positions;
};

}  // namespace lint
}  // namespace spirv_conv

#endif  // SOURCE_LINT_LINT_CONTEXT_H_
