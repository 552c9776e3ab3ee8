// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// strip-nonuniform: removes NonUniform from the values of descriptor
// accesses whose index is uniform in the whole invocation group, then the
// capabilities and extension nothing needs any more.
//
// Only invocation-group uniform, not merely subgroup-uniform: where the
// effective subgroup size is 1, VUID-RuntimeSpirv-None-10148 still requires
// NonUniform for a descriptor that is not uniform in the invocation group,
// so a subgroup-uniform index does not make the decoration provably
// redundant. (The same line as the lint's nonuniform-redundant-decoration.)
// A value shared with an access whose index is not uniform keeps it.
//
// NonUniform on other values (glslang also decorates the `nonuniformEXT`
// index expression and what is computed from it) asserts that the value is
// not dynamically uniform; where the analysis proves it uniform the
// assertion is false, and it goes too.

#include <set>
#include <string>

#include "analysis/descriptor_access.h"
#include "passes/change_log.h"
#include "passes/descriptor_accesses.h"
#include "passes/nonuniform_capabilities.h"
#include "source/opt/decoration_manager.h"
#include "spirv_conv/nonuniform_passes.h"

namespace spirv_conv {

spvtools::opt::Pass::Status StripNonUniformPass::Process() {
  Status status = Status::SuccessWithoutChange;
  const auto accesses = passes::StartNonUniformPass(*this, options().uniformity, &status);
  if (accesses == nullptr) return status;
  const passes::DescriptorAccesses& found = *accesses;
  const analysis::ModuleIndex& index = found.tables().index;

  std::set<uint32_t> keep;
  std::set<uint32_t> strip;
  for (const analysis::ResourceOperand& resource : found.accesses()) {
    const bool uniform = resource.index_level == Uniformity::kUniform;
    const bool ours = options().classes.test(Bit(resource.descriptor_class));
    for (uint32_t id : analysis::DescriptorValues(found.tables(), resource)) {
      if (!analysis::IsDecoratedNonUniform(index, id)) continue;
      (uniform && ours ? strip : keep).insert(id);
    }
  }
  for (const spvtools::opt::Instruction& annotation : get_module()->annotations()) {
    if (annotation.opcode() != spv::Op::OpDecorate ||
        static_cast<spv::Decoration>(annotation.GetSingleWordInOperand(1)) !=
            spv::Decoration::NonUniform) {
      continue;
    }
    const uint32_t id = annotation.GetSingleWordInOperand(0);
    if (keep.count(id) || strip.count(id)) continue;  // a descriptor value: decided above
    if (found.info().ValueLevel(id) == Uniformity::kUniform) strip.insert(id);
  }

  bool changed = false;
  auto* decorations = context()->get_decoration_mgr();
  for (uint32_t id : strip) {
    if (keep.count(id)) continue;
    decorations->RemoveDecorationsFrom(id, [](const spvtools::opt::Instruction& decoration) {
      return decoration.opcode() == spv::Op::OpDecorate &&
             static_cast<spv::Decoration>(decoration.GetSingleWordInOperand(1)) ==
                 spv::Decoration::NonUniform;
    });
    passes::RecordChange(options().log, name(), "undecorate", context(),
                         context()->get_def_use_mgr()->GetDef(id), "NonUniform");
    changed = true;
  }
  changed |= passes::PruneNonUniformCapabilities(context(), name(), options().log);
  return changed ? Status::SuccessWithChange : Status::SuccessWithoutChange;
}

}  // namespace spirv_conv
