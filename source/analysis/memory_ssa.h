// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Virtual SSA for Function variables whose address never escapes: every use
// is a load or store of the whole variable, or an access chain
// (OpAccessChain, OpInBoundsAccessChain, nested) into it that is only loaded,
// stored or chained further (glslang -O0 keeps every local, loop counters
// and vectors written component by component included, in such variables).
// Each load is mapped to the definition that reaches it — a stored value,
// the variable's initial value, a *virtual insert* (a store through an
// access chain: a weak update of the previous definition), or a *virtual
// phi* placed where SSA construction would place one — so the uniformity
// analysis sees the same data flow at -O0 as after spirv-opt's mem2reg,
// and gives the same verdicts (for a variable as a whole: scalar
// replacement after -O may keep components apart that a virtual insert
// joins). A variable whose address escapes (a call argument, a pointer
// stored to memory, OpCopyMemory, ...) is not promoted. The module is not
// changed.

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
  // initializer), a virtual phi, a virtual insert, or nothing (undefined:
  // never stored).
  struct Def {
    enum class Kind : uint8_t { kUndefined, kValue, kPhi, kInsert };
    Kind kind = Kind::kUndefined;
    uint32_t index = 0;  // value id, or index into phis / inserts
  };
  struct VirtualPhi {
    uint32_t variable = 0;                           // OpVariable id
    uint32_t block = 0;                              // block index
    std::vector<std::pair<Def, uint32_t>> incoming;  // (definition, predecessor block)
  };
  // A store through an access chain: the variable afterwards is the
  // previous definition with part of it replaced by |value| at the place
  // |pointer| (whose indices may be dynamic) selects.
  struct VirtualInsert {
    uint32_t variable = 0;  // OpVariable id
    uint32_t block = 0;     // block index
    const spvtools::opt::Instruction* store = nullptr;
    Def previous;          // the definition reaching the store
    uint32_t pointer = 0;  // the access chain stored through
    uint32_t value = 0;    // the stored value id
  };

  std::unordered_set<uint32_t> promoted;       // variable ids
  std::unordered_map<uint32_t, Def> load_def;  // load id -> reaching definition
  // Access chains into promoted variables (nested ones included): chain id
  // -> variable id. Loads through them are in |load_def| too, stores
  // through them are |inserts|.
  std::unordered_map<uint32_t, uint32_t> chains;
  std::vector<VirtualPhi> phis;
  std::vector<VirtualInsert> inserts;
};

MemorySsa BuildMemorySsa(const FunctionBody& body, const FunctionCfg& cfg,
                         const CfgAnalyses& graph);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_MEMORY_SSA_H_
