// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Virtual SSA for Function variables that are only ever loaded and stored
// whole (glslang -O0 keeps every local, loop counters included, in such
// variables). Each load is mapped to the definition that reaches it — a
// stored value, the variable's initial value, or a *virtual phi* placed
// where SSA construction would place one — so the uniformity analysis sees
// the same data flow at -O0 as after spirv-opt's mem2reg, and gives the
// same verdicts. The module is not changed.

#ifndef SOURCE_ANALYSIS_MEMORY_SSA_H_
#define SOURCE_ANALYSIS_MEMORY_SSA_H_

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/cfg_analyses.h"
#include "analysis/function_cfg.h"
#include "source/opt/function.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace analysis {

struct MemorySsa {
  // A reaching definition: a value id (the stored value, or the
  // initializer), a virtual phi, or nothing (undefined: never stored).
  struct Def {
    enum class Kind : uint8_t { kUndefined, kValue, kPhi };
    Kind kind = Kind::kUndefined;
    uint32_t index = 0;  // value id, or index into phis
  };
  struct VirtualPhi {
    uint32_t variable = 0;                           // OpVariable id
    uint32_t block = 0;                              // block index
    std::vector<std::pair<Def, uint32_t>> incoming;  // (definition, predecessor block)
  };

  std::unordered_set<uint32_t> promoted;       // variable ids
  std::unordered_map<uint32_t, Def> load_def;  // load id -> reaching definition
  std::vector<VirtualPhi> phis;
};

MemorySsa BuildMemorySsa(spvtools::opt::IRContext* context, spvtools::opt::Function& function,
                         const FunctionCfg& cfg, const CfgAnalyses& graph);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_MEMORY_SSA_H_
