// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What every NonUniform pass starts from: the uniformity of the module as it
// is when the pass runs, the shared tables, and each descriptor-array access
// with the uniformity of the index that selects its descriptor
// (analysis/descriptor_access.h). Valid until the pass changes the IR: a pass
// collects what it will rewrite first, then rewrites.

#ifndef SOURCE_PASSES_DESCRIPTOR_ACCESSES_H_
#define SOURCE_PASSES_DESCRIPTOR_ACCESSES_H_

#include <memory>
#include <vector>

#include "analysis/descriptor_access.h"
#include "analysis/module_tables.h"
#include "source/opt/ir_context.h"
#include "source/opt/pass.h"
#include "spirv_conv/status.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace passes {

class DescriptorAccesses {
 public:
  // Analyses |context|. Errors are the uniformity analysis' (a module it
  // cannot model).
  static Expected<std::unique_ptr<DescriptorAccesses>> Compute(spvtools::opt::IRContext* context,
                                                               const UniformityOptions& options);

  const UniformityInfo& info() const { return *info_; }
  const analysis::ModuleTables& tables() const { return tables_; }
  // Every resource operand of every descriptor-array access, in module order.
  const std::vector<analysis::ResourceOperand>& accesses() const { return accesses_; }

 private:
  DescriptorAccesses(spvtools::opt::IRContext* context, std::unique_ptr<UniformityInfo> info);

  std::unique_ptr<UniformityInfo> info_;
  analysis::ModuleTables tables_;
  std::vector<analysis::ResourceOperand> accesses_;
};

// The start of every NonUniform pass: the analysis of |pass|'s IR. Null when
// the pass has nothing to do or cannot go on, with what it returns in
// |*status|: SuccessWithoutChange for a Kernel module (no descriptors), or
// Failure when the analysis cannot model the IR (the error, prefixed with
// the pass's name, goes to the pass's message consumer).
std::unique_ptr<DescriptorAccesses> StartNonUniformPass(spvtools::opt::Pass& pass,
                                                        const UniformityOptions& options,
                                                        spvtools::opt::Pass::Status* status);

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_DESCRIPTOR_ACCESSES_H_
