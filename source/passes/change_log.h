// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Recording what a pass changed (PassChange, nonuniform_passes.h), with the
// source line of the instruction when the module has OpLine.

#ifndef SOURCE_PASSES_CHANGE_LOG_H_
#define SOURCE_PASSES_CHANGE_LOG_H_

#include <string>

#include "source/opt/ir_context.h"
#include "spirv_conv/nonuniform_passes.h"

namespace spirv_conv {
namespace passes {

// Appends to |log| (if not null) that pass |pass| did |action| to |inst|
// (which may be null for module-level changes), with |detail|.
void RecordChange(ChangeLog* log, const char* pass, const char* action,
                  spvtools::opt::IRContext* context, const spvtools::opt::Instruction* inst,
                  std::string detail);

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_CHANGE_LOG_H_
