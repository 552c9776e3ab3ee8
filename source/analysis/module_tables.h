// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The per-module tables that readers of the uniformity analysis share (the
// lint and the NonUniform passes): definitions and decorations, the block of
// an instruction (both the analysis' own), the uses of an id, and the call
// graph. Each is built in one walk over the module, without SPIRV-Tools' def-use, decoration or
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
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace analysis {

// The module index and block table |info| built for its own queries.
const ModuleIndex& IndexOf(const UniformityInfo& info);
const BlockTable& BlocksOf(const UniformityInfo& info);

// Built beside the uniformity analysis of the same IR, whose index and block
// table it shares rather than building them again.
struct ModuleTables {
  ModuleTables(spvtools::opt::IRContext& context, const UniformityInfo& info)
      : ir(context), index(IndexOf(info)), blocks(BlocksOf(info)), uses(context), calls(context) {}

  spvtools::opt::IRContext& ir;
  const ModuleIndex& index;
  const BlockTable& blocks;
  UseTable uses;
  CallGraph calls;
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_MODULE_TABLES_H_
