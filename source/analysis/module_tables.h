// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The per-module tables that readers of the uniformity analysis share (the
// lint and the NonUniform passes): definitions and decorations, the block of
// an instruction, the uses of an id, and the call graph. Each is built in one
// walk over the module, without SPIRV-Tools' def-use, decoration or
// instruction-to-block managers (analysis/ir_tables.h says why).
//
// The tables describe the IR as it was when they were built: a pass that
// changes the IR reads them before its first change, or builds them again.

#ifndef SOURCE_ANALYSIS_MODULE_TABLES_H_
#define SOURCE_ANALYSIS_MODULE_TABLES_H_

#include "analysis/call_graph.h"
#include "analysis/ir_tables.h"
#include "analysis/module_index.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace analysis {

struct ModuleTables {
  explicit ModuleTables(spvtools::opt::IRContext& context)
      : ir(context), index(&context), blocks(context, index), uses(context), calls(context) {}

  spvtools::opt::IRContext& ir;
  ModuleIndex index;
  BlockTable blocks;
  UseTable uses;
  CallGraph calls;
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_MODULE_TABLES_H_
