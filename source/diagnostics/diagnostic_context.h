// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What every checker reads to report on one module: the shared IR tables,
// its uniformity, and how to name and locate things (names, disassembly,
// source files). The lint adds its rules' tables on top
// (lint/lint_context.h); the motion checker uses it as it is.

#ifndef SOURCE_DIAGNOSTICS_DIAGNOSTIC_CONTEXT_H_
#define SOURCE_DIAGNOSTICS_DIAGNOSTIC_CONTEXT_H_

#include <string>

#include "analysis/module_tables.h"
#include "diagnostics/disassembly.h"
#include "diagnostics/locator.h"
#include "diagnostics/names.h"
#include "diagnostics/source_files.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace diagnostics {

// The shared tables (analysis/module_tables.h: ir, index, blocks, uses,
// calls) are built first, without SPIRV-Tools' def-use, decoration or
// instruction-to-block analyses; the naming tables follow.
struct DiagnosticContext : analysis::ModuleTables {
  DiagnosticContext(spvtools::opt::IRContext& context, const UniformityInfo& uniformity,
                    const std::string& input_path, const UnsavedFiles* unsaved = nullptr)
      : analysis::ModuleTables(context, uniformity),
        info(uniformity),
        disassembly(context, index),
        names(context, index, disassembly),
        sources(context, index, blocks, input_path, unsaved),
        locator(context, names, disassembly, sources, blocks) {}

  const UniformityInfo& info;
  Disassembly disassembly;
  Names names;
  SourceFiles sources;
  Locator locator;
};

}  // namespace diagnostics
}  // namespace spirv_conv

#endif  // SOURCE_DIAGNOSTICS_DIAGNOSTIC_CONTEXT_H_
