// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lint/lint_context.h"

#include <functional>
#include <unordered_map>

#include "source/opcode.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace lint {

const UniformityInfo* LintContext::WithoutHelperInvocations() const {
  if (without_helpers_tried_) return without_helpers_.get();
  without_helpers_tried_ = true;
  bool reads_helper_invocation = false;
  for (const spvtools::opt::Instruction& inst : ir.module()->types_values()) {
    reads_helper_invocation |=
        inst.opcode() == spv::Op::OpVariable &&
        index.HasDecoration(inst.result_id(), spv::Decoration::BuiltIn,
                            static_cast<uint32_t>(spv::BuiltIn::HelperInvocation));
  }
  // OpIsHelperInvocationEXT needs the DemoteToHelperInvocation capability.
  for (const spvtools::opt::Instruction& cap : ir.module()->capabilities()) {
    reads_helper_invocation |=
        cap.GetSingleWordInOperand(0) == uint32_t(spv::Capability::DemoteToHelperInvocation);
  }
  if (!reads_helper_invocation) return nullptr;
  UniformityOptions options = info.options();
  options.without_helper_invocations = true;
  auto computed = UniformityInfo::Compute(&ir, options);
  if (computed.ok()) without_helpers_ = std::move(*computed);
  return without_helpers_.get();
}

const UniformityInfo* LintContext::KillsAsDemotes() const {
  if (kills_as_demotes_tried_) return kills_as_demotes_.get();
  kills_as_demotes_tried_ = true;
  if (index.KillingFunctions().empty()) return nullptr;
  UniformityOptions options = info.options();
  options.kills_as_demotes = true;
  auto computed = UniformityInfo::Compute(&ir, options);
  if (computed.ok()) kills_as_demotes_ = std::move(*computed);
  return kills_as_demotes_.get();
}

const UniformityInfo* LintContext::HelpersApart() const {
  if (helpers_apart_tried_) return helpers_apart_.get();
  helpers_apart_tried_ = true;
  // Without a subgroup operation the levels are the default ones.
  bool group_op = false;
  for (const spvtools::opt::Function& function : *ir.module()) {
    function.ForEachInst([&](const spvtools::opt::Instruction* inst) {
      const spv::Op op = inst->opcode();
      group_op |= spvOpcodeIsNonUniformGroupOperation(op) || op == spv::Op::OpSubgroupBallotKHR ||
                  op == spv::Op::OpSubgroupFirstInvocationKHR || op == spv::Op::OpSubgroupAllKHR ||
                  op == spv::Op::OpSubgroupAnyKHR || op == spv::Op::OpSubgroupAllEqualKHR ||
                  op == spv::Op::OpSubgroupReadInvocationKHR;
    });
  }
  if (!group_op) return nullptr;
  UniformityOptions options = info.options();
  options.helpers_apart = true;
  auto computed = UniformityInfo::Compute(&ir, options);
  if (computed.ok()) helpers_apart_ = std::move(*computed);
  return helpers_apart_.get();
}

const UniformityInfo* LintContext::PrimitiveScope() const {
  if (primitive_scope_tried_) return primitive_scope_.get();
  primitive_scope_tried_ = true;
  UniformityOptions options = info.options();
  options.primitive_scope = true;
  auto computed = UniformityInfo::Compute(&ir, options);
  if (computed.ok()) primitive_scope_ = std::move(*computed);
  return primitive_scope_.get();
}

namespace {

// Whether every path from |block| ends in OpKill / OpTerminateInvocation
// (no return, no cycle on the way): the blocks kills_as_demotes leaves out,
// so its verdicts say nothing about them.
bool EndsOnlyInKills(const analysis::BlockTable& blocks, const spvtools::opt::BasicBlock& block) {
  std::unordered_map<uint32_t, int> state;  // 1: on the stack, 2: doomed, 3: not doomed
  std::function<bool(const spvtools::opt::BasicBlock&)> doomed =
      [&](const spvtools::opt::BasicBlock& b) {
        int& s = state[b.id()];
        if (s == 1) return false;  // a cycle
        if (s != 0) return s == 2;
        s = 1;
        bool any_successor = false;
        bool all = true;
        b.ForEachSuccessorLabel([&](uint32_t label) {
          any_successor = true;
          const spvtools::opt::BasicBlock* next = blocks.OfLabel(label);
          if (all && (next == nullptr || !doomed(*next))) all = false;
        });
        if (!any_successor) {
          const spv::Op end = b.terminator()->opcode();
          all = end == spv::Op::OpKill || end == spv::Op::OpTerminateInvocation;
        }
        state[b.id()] = all ? 2 : 3;
        return all;
      };
  return doomed(block);
}

}  // namespace

bool LintContext::OnlyDiscardsLeftOut(const spvtools::opt::Instruction& inst,
                                      Uniformity required) const {
  const UniformityInfo* demoted = KillsAsDemotes();
  if (demoted == nullptr || demoted->ControlFlowLevel(inst) > required) return false;
  const spvtools::opt::BasicBlock* block = blocks.Of(inst);
  return block != nullptr && !EndsOnlyInKills(blocks, *block);
}

}  // namespace lint
}  // namespace spirv_conv
