// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// After the control-flow passes (--structurize, --reconverge) move blocks
// and instructions around, every SPIRV-Tools analysis over functions is
// stale; what describes the module's types, constants, decorations and
// names is not.

#ifndef SOURCE_PASSES_CONTROL_FLOW_ANALYSES_H_
#define SOURCE_PASSES_CONTROL_FLOW_ANALYSES_H_

#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace passes {

// Invalidates |context|'s analyses but those of module-level facts.
inline void InvalidateFunctionAnalyses(spvtools::opt::IRContext* context) {
  using spvtools::opt::IRContext;
  context->InvalidateAnalysesExceptFor(IRContext::kAnalysisTypes | IRContext::kAnalysisConstants |
                                       IRContext::kAnalysisDecorations |
                                       IRContext::kAnalysisNameMap);
}

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_CONTROL_FLOW_ANALYSES_H_
