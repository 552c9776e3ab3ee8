// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the rules need to know about calls and entry points: the call sites
// of each function, which entry points (with which execution models and
// modes) reach it, and where invocations may end inside it or its callees.

#ifndef SOURCE_ANALYSIS_CALL_GRAPH_H_
#define SOURCE_ANALYSIS_CALL_GRAPH_H_

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace analysis {

// OpKill, OpTerminateInvocation, OpTerminateRayKHR, OpIgnoreIntersectionKHR.
bool EndsInvocation(spv::Op opcode);

class CallGraph {
 public:
  explicit CallGraph(spvtools::opt::IRContext& context);

  // The OpFunctionCall instructions that call |function|, in module order.
  const std::vector<const spvtools::opt::Instruction*>& CallsOf(uint32_t function) const;

  // Some entry point reaches |function| (through calls).
  bool Reached(uint32_t function) const;
  // Some entry point that reaches |function| computes derivatives: a
  // Fragment shader, or a compute-like one with DerivativeGroupQuadsNV or
  // DerivativeGroupLinearNV (the KHR modes have the same values).
  bool HasDerivativeGroups(uint32_t function) const;
  // Every entry point that reaches |function| declares MaximallyReconvergesKHR.
  bool MaximallyReconverges(uint32_t function) const;
  // Every entry point that reaches |function| and computes derivatives has
  // the quad as its derivative group: a Fragment shader declaring
  // QuadDerivativesKHR, or a compute-like one with derivative groups (whose
  // groups are quads by definition). Without QuadDerivativesKHR a Fragment
  // shader's derivative group is the primitive (Vulkan).
  bool QuadDerivatives(uint32_t function) const;
  // Some Fragment entry point reaches |function|: helper invocations may run it.
  bool HasHelperInvocations(uint32_t function) const;
  // Every Fragment entry point that reaches |function| declares both
  // MaximallyReconvergesKHR and RequireFullQuadsKHR: every quad starts with
  // four invocations, helpers included, and helpers stay active for group
  // operations (SPV_KHR_quad_control with SPV_KHR_maximal_reconvergence).
  bool HelpersParticipate(uint32_t function) const;

  // An instruction in |function|, or in a function it calls, that ends the
  // invocation (OpKill, OpTerminateInvocation, OpTerminateRayKHR,
  // OpIgnoreIntersectionKHR); null if there is none.
  const spvtools::opt::Instruction* InvocationEnd(uint32_t function) const;

 private:
  struct Reach {
    bool reached = false;
    bool derivatives = false;
    bool all_maximally_reconverge = true;
    bool all_quad_derivatives = true;  // of the entry points with derivatives
    bool fragment = false;
    bool all_helpers_participate = true;  // of the Fragment entry points
  };
  const spvtools::opt::Instruction* FindInvocationEnd(uint32_t function,
                                                      std::vector<uint32_t>* stack) const;

  spvtools::opt::IRContext& context_;
  std::unordered_map<uint32_t, std::vector<const spvtools::opt::Instruction*>> calls_of_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> callees_;
  std::unordered_map<uint32_t, Reach> reach_;
  mutable std::unordered_map<uint32_t, const spvtools::opt::Instruction*> invocation_end_;
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_CALL_GRAPH_H_
