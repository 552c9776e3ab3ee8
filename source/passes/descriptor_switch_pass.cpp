// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// descriptor-switch: for devices that index arrays of some descriptor class
// with constants only (lavapipe: sampled images, storage images, texel
// buffers), each access whose index is not a constant becomes a switch over
// the array's elements, each case accessing one element with a constant
// index. Any non-constant index is rewritten, uniform or not.
//
//   pre:        ...code before the access...
//               %dx = OpDPdx %uv ; %dy = OpDPdy %uv     (implicit-LOD samples only)
//               OpBranch %select
//   select:     OpSelectionMerge %merge None
//               OpSwitch %i %case0 0 %case0 1 %case1 ... N-1 %caseN-1
//   case<k>:    the access chain, load, OpSampledImage ... again, indexed by %int_k
//               %r' = the access (explicit gradients for implicit-LOD samples)
//               OpStore %result %r'
//               OpBranch %merge
//   merge:      %r = OpLoad %result                      (uses of the access's result)
//               ...code after the access...
//
// N is the array's element count (OpTypeArray; runtime arrays have none and
// fail the pass). An index outside [0, N) -- undefined behaviour in the
// original -- takes the default, which is case 0: the access then reads or
// writes element 0, exactly once, as every case does. Several non-constant
// indices feeding one access (an image and a sampler array) nest a switch
// per index inside each case of the outer one; the same index used for two
// arrays switches once, over the shorter array.
//
// This is what spirv-opt's --replace-desc-array-access-using-var-index does,
// except that it clones implicit-LOD samples into the cases, which takes
// their derivatives in divergent control flow when the index is not
// uniform; here the gradients are taken before the switch and the cases
// sample with them (explicit_gradients.h). Results leave through Function
// variables, as in the waterfall pass (access_rewrite.h). Consecutive
// accesses with the same indices in one block share one switch.

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "passes/access_rewrite.h"
#include "passes/change_log.h"
#include "passes/descriptor_accesses.h"
#include "passes/nonuniform_capabilities.h"
#include "source/opt/constants.h"
#include "source/opt/ir_builder.h"
#include "source/opt/log.h"
#include "source/opt/type_manager.h"
#include "spirv_conv/nonuniform_passes.h"

namespace spirv_conv {
namespace {

using spvtools::opt::BasicBlock;
using spvtools::opt::InstructionBuilder;
using spvtools::opt::IRContext;
using spvtools::opt::Operand;

const IRContext::Analysis kPreserved =
    IRContext::kAnalysisDefUse | IRContext::kAnalysisInstrToBlockMapping;

// The constant |value| of integer type |type_id|, and its OpSwitch literal.
std::pair<uint32_t, Operand::OperandData> Constant(IRContext* context, uint32_t type_id,
                                                   uint32_t value) {
  const auto* type = context->get_type_mgr()->GetType(type_id)->AsInteger();
  Operand::OperandData words{value};
  if (type->width() > 32) words.push_back(0);
  const spvtools::opt::analysis::Constant* constant = context->get_constant_mgr()->GetConstant(
      type, std::vector<uint32_t>(words.begin(), words.end()));
  return {context->get_constant_mgr()->GetDefiningInstruction(constant, type_id)->result_id(),
          words};
}

// Emits into |header| a switch over index |level| of the rewriter's indices
// whose cases branch to |exit| when done; |values| maps the outer indices to
// their constants in the current case.
void EmitSwitch(IRContext* context, passes::AccessRewriter* rewriter, BasicBlock* header,
                size_t level, uint32_t exit, std::unordered_map<uint32_t, uint32_t>* values) {
  const uint32_t index = rewriter->indices()[level];
  const uint32_t length = rewriter->lengths()[level];
  const uint32_t type = context->get_def_use_mgr()->GetDef(index)->type_id();
  const bool innermost = level + 1 == rewriter->indices().size();

  std::vector<BasicBlock*> cases;
  std::vector<std::pair<Operand::OperandData, uint32_t>> targets;
  for (uint32_t k = 0; k < length; ++k) cases.push_back(rewriter->NewBlock());
  // A nested switch merges in its own block before leaving to |exit|.
  BasicBlock* merge = level == 0 ? rewriter->merge() : rewriter->NewBlock();
  for (uint32_t k = 0; k < length; ++k) {
    const auto [constant, literal] = Constant(context, type, k);
    targets.emplace_back(literal, cases[k]->id());
    (*values)[index] = constant;
    if (innermost) {
      rewriter->Materialize(cases[k], *values);
      InstructionBuilder(context, cases[k], kPreserved).AddBranch(merge->id());
    } else {
      EmitSwitch(context, rewriter, cases[k], level + 1, merge->id(), values);
    }
  }
  values->erase(index);
  // Out of range: as element 0.
  InstructionBuilder(context, header, kPreserved)
      .AddSwitch(index, cases[0]->id(), targets, merge->id());
  if (level != 0) InstructionBuilder(context, merge, kPreserved).AddBranch(exit);
}

}  // namespace

spvtools::opt::Pass::Status DescriptorSwitchPass::Process() {
  passes::LoweringRequest request;
  request.pass = name();
  request.classes = options().classes;
  request.lower = [](const passes::Selector& selector) { return !selector.constant; };
  request.needs_length = true;
  return passes::LowerAccesses(
      *this, options(), request, "descriptor-switch", [] {},
      [&](passes::AccessRewriter* rewriter) {
        std::unordered_map<uint32_t, uint32_t> values;
        EmitSwitch(context(), rewriter, rewriter->entry(), 0, rewriter->merge()->id(), &values);
        rewriter->Finish();
        rewriter->InsertBlocks();
      });
}

}  // namespace spirv_conv
