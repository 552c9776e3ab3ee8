// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// fix-nonuniform: VUID-RuntimeSpirv-subgroupSize-10149 requires NonUniform on
// the resource operand of every access whose descriptor is not selected by a
// subgroup-uniform index. The pass decorates that operand and every value
// the descriptor flows through to reach it (analysis::DescriptorValues: the
// access chains, the loaded handle, OpSampledImage / OpImage /
// OpImageTexelPointer results, copies, phis, and a pointer parameter when
// the access is in a callee), as glslang does for `nonuniformEXT` -- and also
// where glslang does not (an OpSampledImage built from a non-uniform image,
// glslang #1826; an access in a callee whose caller wrote `nonuniformEXT`).
//
// The index itself is not decorated: the rule is about the resource operand,
// and the decoration on an integer says nothing a driver uses.

#include <set>
#include <string>

#include "analysis/descriptor_access.h"
#include "passes/change_log.h"
#include "passes/descriptor_accesses.h"
#include "passes/nonuniform_capabilities.h"
#include "source/opt/decoration_manager.h"
#include "spirv_conv/nonuniform_passes.h"

namespace spirv_conv {

spvtools::opt::Pass::Status FixNonUniformPass::Process() {
  Status status = Status::SuccessWithoutChange;
  const auto accesses = passes::StartNonUniformPass(*this, options().uniformity, &status);
  if (accesses == nullptr) return status;
  const passes::DescriptorAccesses& found = *accesses;

  // Everything to decorate, collected before the first change.
  std::set<uint32_t> targets;
  DescriptorClassSet classes;
  for (const analysis::ResourceOperand& resource : found.accesses()) {
    if (resource.chain == nullptr || resource.index_level <= Uniformity::kSubgroup) continue;
    if (!options().classes.test(Bit(resource.descriptor_class))) continue;
    classes.set(Bit(resource.descriptor_class));
    for (uint32_t id : analysis::DescriptorValues(found.tables(), resource)) {
      if (!analysis::IsDecoratedNonUniform(found.tables().index, id)) targets.insert(id);
    }
  }
  if (targets.empty() && classes.none()) return Status::SuccessWithoutChange;

  bool changed = false;
  auto* decorations = context()->get_decoration_mgr();
  for (uint32_t id : targets) {
    decorations->AddDecoration(id, static_cast<uint32_t>(spv::Decoration::NonUniform));
    passes::RecordChange(options().log, name(), "decorate", context(),
                         context()->get_def_use_mgr()->GetDef(id), "NonUniform");
    changed = true;
  }
  // The capabilities also when every operand was decorated already but the
  // module forgot to declare them.
  changed |= passes::AddNonUniformCapabilities(context(), classes, name(), options().log);
  return changed ? Status::SuccessWithChange : Status::SuccessWithoutChange;
}

}  // namespace spirv_conv
