// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Every pass of spirv-conv in one table, by the flag name `spirv-conv opt`
// knows it by, as SPIRV-Tools' optimizer.cpp keeps its own: a library user
// registers ours in a plain spvtools::Optimizer by name or by token, next to
// SPIRV-Tools' passes.
//
// A pass header: it includes SPIRV-Tools' internal source/opt/pass.h, so
// its users compile against SPIRV-Tools' source tree (docs/architecture.md).

#ifndef INCLUDE_SPIRV_CONV_PASS_REGISTRY_H_
#define INCLUDE_SPIRV_CONV_PASS_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "spirv-tools/optimizer.hpp"
#include "spirv_conv/fast_forward_pass.h"
#include "spirv_conv/nonuniform_passes.h"

namespace spirv_conv {

enum class PassKind {
  kAnalysis,     // computes and changes nothing (uniformity-analysis)
  kControlFlow,  // rebuilds control flow (structurize, reconverge)
  kNonUniform,   // rewrites descriptor accesses (docs/passes.md)
};

// What any pass of the table may take.
struct PassOptions {
  NonUniformPassOptions nonuniform;
  FastForwardOptions fast_forward;
};

struct PassInfo {
  const char* name;  // "fix-nonuniform": `spirv-conv opt --fix-nonuniform`
  PassKind kind;
  const char* summary;  // the flag's help text
  std::unique_ptr<spvtools::opt::Pass> (*create)(const PassOptions& options);
};

// Every pass, in documentation order.
const std::vector<PassInfo>& Passes();

// The pass called |name|, or null.
const PassInfo* FindPass(const std::string& name);

// A new instance of pass |name|, or null for an unknown name.
std::unique_ptr<spvtools::opt::Pass> CreatePass(const std::string& name,
                                                const PassOptions& options = {});

// Registers pass |name| on |optimizer|; false (and nothing registered) for
// an unknown name.
bool RegisterPass(spvtools::Optimizer* optimizer, const std::string& name,
                  const PassOptions& options = {});

// Tokens of the control-flow passes (docs/structurize.md). reconverge here
// rewrites every function and leaves the structured control-flow rules to
// a structurize after it; `spirv-conv opt --reconverge` (ReconvergeBinary,
// spirv_conv/reconverge_pass.h) adds its cost policy and the structurizer;
// fast-forward-loops likewise leaves unstructured loops for a structurize
// after it (`spirv-conv opt --fast-forward-loops`: FastForwardBinary).
spvtools::Optimizer::PassToken CreateStructurizePass();
spvtools::Optimizer::PassToken CreateReconvergePass();
spvtools::Optimizer::PassToken CreateFastForwardPass(const FastForwardOptions& options = {});

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_PASS_REGISTRY_H_
