// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// waterfall: for devices that index descriptor arrays dynamically but not
// non-uniformly, each access whose index is not subgroup-uniform runs in a
// loop over the distinct indices of the subgroup. Every iteration the first
// active invocation's index is broadcast; the invocations with that index
// access the descriptor with the (now subgroup-uniform) broadcast value and
// leave the loop at its latch; the others go round again.
//
//   pre:      ...code before the access...
//             %dx = OpDPdx %uv ; %dy = OpDPdy %uv     (implicit-LOD samples only)
//             OpBranch %header
//   header:   OpLoopMerge %merge %latch None            <------------------+
//             OpBranch %body                                             |
//   body:     %u = OpGroupNonUniformBroadcastFirst %int %subgroup %i     |
//             %eq = OpIEqual %bool %i %u    (one per index, OpLogicalAnd'ed)
//             OpSelectionMerge %join None                                |
//             OpBranchConditional %eq %then %join                        |
//   then:     the access chain, load, OpSampledImage ... again, by %u    |
//             %r' = the access (explicit gradients for implicit LOD)     |
//             OpStore %result %r'                                        |
//             OpBranch %join                                             |
//   join:     OpBranch %latch                                            |
//   latch:    OpBranchConditional %eq %merge %header  -------------------+
//   merge:    %r = OpLoad %result                     (the uses of %r)
//             ...code after the access...
//
// The loop leaves from its latch (a do-while), not from inside the branch
// (the textbook `if (i == u) { r = f(u); break; }`): that keeps the access
// inside the cycle, where %u is subgroup-uniform. A block outside the cycle
// may be executed together by invocations that left on different iterations
// (temporal divergence): %u would not be uniform there, neither for the
// uniformity analysis nor, in principle, for a driver.
//
// The first active invocation always matches its own index, so each
// iteration retires at least one invocation. Several non-uniform indices
// feeding one access (an image and a sampler array) are broadcast together:
// all from the same first invocation, so it matches all of them.
//
// The result leaves through a Function variable written inside the branch:
// lavapipe (Mesa 22.3) gives every invocation of a subgroup the last
// iteration's value when the loaded value itself is used after the loop
// (known-traps.md), and images or samplers cannot be carried by a phi at
// all. Implicit-LOD samples take their gradients before the loop
// (explicit_gradients.h): inside it, the invocations of a quad are no
// longer together. Consecutive accesses with the same indices in one block
// share a loop (access_rewrite.h).
//
// The broadcast needs SPIR-V 1.3 and GroupNonUniformBallot; an older module
// gets SPV_KHR_shader_ballot's OpSubgroupFirstInvocationKHR instead. The
// uniformity analysis sees %u as subgroup-uniform, so the rewritten access
// needs no NonUniform and a second run finds nothing.

#include <string>
#include <unordered_map>
#include <vector>

#include "passes/access_rewrite.h"
#include "passes/change_log.h"
#include "passes/descriptor_accesses.h"
#include "passes/nonuniform_capabilities.h"
#include "source/opt/ir_builder.h"
#include "source/opt/log.h"
#include "source/opt/type_manager.h"
#include "spirv_conv/nonuniform_passes.h"

namespace spirv_conv {
namespace {

using spvtools::opt::BasicBlock;
using spvtools::opt::InstructionBuilder;
using spvtools::opt::IRContext;

const IRContext::Analysis kPreserved =
    IRContext::kAnalysisDefUse | IRContext::kAnalysisInstrToBlockMapping;
constexpr uint32_t kVersion13 = 0x00010300;

// Declares what the broadcast needs: OpGroupNonUniformBroadcastFirst from
// SPIR-V 1.3 on (GroupNonUniformBallot), before that SPV_KHR_shader_ballot's
// OpSubgroupFirstInvocationKHR (SubgroupBallotKHR) -- raising the module's
// version would change the environment it is valid for (Vulkan 1.0 to 1.1).
// Returns the opcode.
spv::Op RequireBroadcastFirst(IRContext* context, const char* pass, ChangeLog* log) {
  const bool khr = context->module()->version() < kVersion13;
  std::vector<std::pair<spv::Capability, const char*>> capabilities;
  if (khr) {
    capabilities.push_back({spv::Capability::SubgroupBallotKHR, "SubgroupBallotKHR"});
  } else {
    capabilities.push_back({spv::Capability::GroupNonUniform, "GroupNonUniform"});
    capabilities.push_back({spv::Capability::GroupNonUniformBallot, "GroupNonUniformBallot"});
  }
  for (const auto& [capability, name] : capabilities) {
    if (context->get_feature_mgr()->HasCapability(capability)) continue;
    context->AddCapability(capability);
    passes::RecordChange(log, pass, "add-capability", context, nullptr, name);
  }
  if (khr &&
      !context->get_feature_mgr()->HasExtension(spvtools::Extension::kSPV_KHR_shader_ballot)) {
    context->AddExtension("SPV_KHR_shader_ballot");
    passes::RecordChange(log, pass, "add-extension", context, nullptr, "SPV_KHR_shader_ballot");
  }
  return khr ? spv::Op::OpSubgroupFirstInvocationKHR : spv::Op::OpGroupNonUniformBroadcastFirst;
}

void EmitWaterfall(IRContext* context, spv::Op broadcast, passes::AccessRewriter* rewriter) {
  BasicBlock* body = rewriter->NewBlock();
  BasicBlock* then = rewriter->NewBlock();
  BasicBlock* join = rewriter->NewBlock();
  BasicBlock* latch = rewriter->NewBlock();

  const uint32_t bool_type = context->get_type_mgr()->GetBoolTypeId();
  const uint32_t subgroup = broadcast == spv::Op::OpSubgroupFirstInvocationKHR
                                ? 0
                                : context->get_constant_mgr()->GetUIntConstId(
                                      static_cast<uint32_t>(spv::Scope::Subgroup));
  InstructionBuilder builder(context, body, kPreserved);
  std::unordered_map<uint32_t, uint32_t> uniform;
  uint32_t all_equal = 0;
  for (uint32_t index : rewriter->indices()) {
    const uint32_t type = context->get_def_use_mgr()->GetDef(index)->type_id();
    const uint32_t first = broadcast == spv::Op::OpSubgroupFirstInvocationKHR
                               ? builder.AddUnaryOp(type, broadcast, index)->result_id()
                               : builder.AddBinaryOp(type, broadcast, subgroup, index)->result_id();
    const uint32_t equal =
        builder.AddBinaryOp(bool_type, spv::Op::OpIEqual, index, first)->result_id();
    all_equal =
        all_equal == 0
            ? equal
            : builder.AddBinaryOp(bool_type, spv::Op::OpLogicalAnd, all_equal, equal)->result_id();
    uniform[index] = first;
  }
  builder.AddConditionalBranch(all_equal, then->id(), join->id(), join->id());

  rewriter->Materialize(then, uniform);
  InstructionBuilder(context, then, kPreserved).AddBranch(join->id());
  InstructionBuilder(context, join, kPreserved).AddBranch(latch->id());
  // Leave from the latch (a do-while), not from the branch: the access stays
  // inside the cycle, where %u is subgroup-uniform. Used in a block outside
  // it, %u would be temporally divergent (invocations that left on different
  // iterations may meet there), for the uniformity analysis as for a driver.
  InstructionBuilder(context, latch, kPreserved)
      .AddConditionalBranch(all_equal, rewriter->merge()->id(), rewriter->entry()->id());

  rewriter->Finish();
  InstructionBuilder header(context, rewriter->entry(), kPreserved);
  header.AddLoopMerge(rewriter->merge()->id(), latch->id());
  header.AddBranch(body->id());
  rewriter->InsertBlocks();
}

}  // namespace

spvtools::opt::Pass::Status WaterfallPass::Process() {
  passes::LoweringRequest request;
  request.pass = name();
  request.classes = options().classes;
  request.lower = [](const passes::Selector& selector) {
    return selector.level > Uniformity::kSubgroup;
  };
  spv::Op broadcast = spv::Op::OpNop;
  return passes::LowerAccesses(
      *this, options(), request, "waterfall",
      [&] { broadcast = RequireBroadcastFirst(context(), name(), options().log); },
      [&](passes::AccessRewriter* rewriter) { EmitWaterfall(context(), broadcast, rewriter); });
}

}  // namespace spirv_conv
