// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/call_graph.h"

#include <algorithm>
#include <set>

#include "io/maximal_reconvergence.h"

namespace spirv_conv {
namespace analysis {

using spvtools::opt::Instruction;

namespace {

bool ComputesDerivatives(spv::ExecutionModel model, const std::set<uint32_t>& modes) {
  if (model == spv::ExecutionModel::Fragment) return true;
  const bool compute_like =
      model == spv::ExecutionModel::GLCompute || model == spv::ExecutionModel::TaskNV ||
      model == spv::ExecutionModel::MeshNV || model == spv::ExecutionModel::TaskEXT ||
      model == spv::ExecutionModel::MeshEXT;
  return compute_like && (modes.count(uint32_t(spv::ExecutionMode::DerivativeGroupQuadsNV)) ||
                          modes.count(uint32_t(spv::ExecutionMode::DerivativeGroupLinearNV)));
}

}  // namespace

bool EndsInvocation(spv::Op opcode) {
  return opcode == spv::Op::OpKill || opcode == spv::Op::OpTerminateInvocation ||
         opcode == spv::Op::OpTerminateRayKHR || opcode == spv::Op::OpIgnoreIntersectionKHR;
}

CallGraph::CallGraph(spvtools::opt::IRContext& context) : context_(context) {
  for (const spvtools::opt::Function& function : *context.module()) {
    std::vector<uint32_t>& callees = callees_[function.result_id()];
    for (const auto& block : function) {
      for (const Instruction& inst : block) {
        if (inst.opcode() != spv::Op::OpFunctionCall) continue;
        const uint32_t callee = inst.GetSingleWordInOperand(0);
        calls_of_[callee].push_back(&inst);
        if (std::find(callees.begin(), callees.end(), callee) == callees.end()) {
          callees.push_back(callee);
        }
      }
    }
  }
  std::unordered_map<uint32_t, std::set<uint32_t>> modes;
  for (const Instruction& mode : context.module()->execution_modes()) {
    modes[mode.GetSingleWordInOperand(0)].insert(mode.GetSingleWordInOperand(1));
  }
  for (const Instruction& entry : context.module()->entry_points()) {
    const auto model = static_cast<spv::ExecutionModel>(entry.GetSingleWordInOperand(0));
    const uint32_t function = entry.GetSingleWordInOperand(1);
    const std::set<uint32_t>& entry_modes = modes[function];
    const bool derivatives = ComputesDerivatives(model, entry_modes);
    const bool maximal = entry_modes.count(io::kMaximallyReconvergesKHR) != 0;
    const bool fragment = model == spv::ExecutionModel::Fragment;
    const bool quad_derivatives =
        !fragment || entry_modes.count(uint32_t(spv::ExecutionMode::QuadDerivativesKHR)) != 0;
    const bool full_quads =
        maximal && entry_modes.count(uint32_t(spv::ExecutionMode::RequireFullQuadsKHR)) != 0;
    // Every function this entry point reaches.
    std::vector<uint32_t> work{function};
    std::set<uint32_t> seen{function};
    while (!work.empty()) {
      const uint32_t f = work.back();
      work.pop_back();
      Reach& reach = reach_[f];
      reach.reached = true;
      reach.derivatives |= derivatives;
      reach.all_maximally_reconverge &= maximal;
      if (derivatives) reach.all_quad_derivatives &= quad_derivatives;
      if (fragment) {
        reach.fragment = true;
        reach.all_helpers_participate &= full_quads;
      }
      for (uint32_t callee : callees_[f]) {
        if (seen.insert(callee).second) work.push_back(callee);
      }
    }
  }
}

const std::vector<const Instruction*>& CallGraph::CallsOf(uint32_t function) const {
  static const std::vector<const Instruction*> kNone;
  auto it = calls_of_.find(function);
  return it == calls_of_.end() ? kNone : it->second;
}

bool CallGraph::Reached(uint32_t function) const {
  auto it = reach_.find(function);
  return it != reach_.end() && it->second.reached;
}

bool CallGraph::HasDerivativeGroups(uint32_t function) const {
  auto it = reach_.find(function);
  return it != reach_.end() && it->second.derivatives;
}

bool CallGraph::MaximallyReconverges(uint32_t function) const {
  auto it = reach_.find(function);
  return it != reach_.end() && it->second.reached && it->second.all_maximally_reconverge;
}

bool CallGraph::QuadDerivatives(uint32_t function) const {
  auto it = reach_.find(function);
  return it != reach_.end() && it->second.derivatives && it->second.all_quad_derivatives;
}

bool CallGraph::HasHelperInvocations(uint32_t function) const {
  auto it = reach_.find(function);
  return it != reach_.end() && it->second.fragment;
}

bool CallGraph::HelpersParticipate(uint32_t function) const {
  auto it = reach_.find(function);
  return it != reach_.end() && it->second.fragment && it->second.all_helpers_participate;
}

const Instruction* CallGraph::InvocationEnd(uint32_t function) const {
  std::vector<uint32_t> stack;
  return FindInvocationEnd(function, &stack);
}

const Instruction* CallGraph::FindInvocationEnd(uint32_t function,
                                                std::vector<uint32_t>* stack) const {
  auto known = invocation_end_.find(function);
  if (known != invocation_end_.end()) return known->second;
  if (std::find(stack->begin(), stack->end(), function) != stack->end()) return nullptr;
  const spvtools::opt::Function* f = context_.GetFunction(function);
  if (f == nullptr) return nullptr;
  stack->push_back(function);
  const Instruction* found = nullptr;
  for (const auto& block : *f) {
    for (const Instruction& inst : block) {
      if (EndsInvocation(inst.opcode())) {
        found = &inst;
      } else if (inst.opcode() == spv::Op::OpFunctionCall) {
        found = FindInvocationEnd(inst.GetSingleWordInOperand(0), stack);
      }
      if (found != nullptr) break;
    }
    if (found != nullptr) break;
  }
  stack->pop_back();
  invocation_end_[function] = found;
  return found;
}

}  // namespace analysis
}  // namespace spirv_conv
