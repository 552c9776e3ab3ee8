// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/convergence_classes.h"

#include <array>
#include <atomic>
#include <string>

#include "analysis/uniformity_sources.h"
#include "source/opcode.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace analysis {
namespace {

using spv::Op;
constexpr Uniformity kS = Uniformity::kSubgroup;
constexpr Uniformity kQ = Uniformity::kQuad;
constexpr Uniformity kD = Uniformity::kDivergent;

ConvergenceClass Derivative(DerivativeKind kind) {
  ConvergenceClass cls;
  cls.flags = kConvergent | kDerivative;
  cls.derivative = kind;
  cls.implied_scope = kQ;  // the derivative group: a quad
  return cls;
}

// A group operation with an explicit execution scope in in-operand 0.
ConvergenceClass ScopedGroupOperation(bool co_convergent) {
  ConvergenceClass cls;
  cls.flags = kConvergent | kGroupOperation | (co_convergent ? kCoConvergent : 0u);
  cls.scope_operand = 0;
  return cls;
}

// A group operation whose opcode implies its scope.
ConvergenceClass ImpliedGroupOperation(Uniformity scope, bool co_convergent) {
  ConvergenceClass cls;
  cls.flags = kConvergent | kGroupOperation | (co_convergent ? kCoConvergent : 0u);
  cls.implied_scope = scope;
  return cls;
}

// SPIR-V, e.g. OpGroupNonUniformShuffle: "The resulting value is undefined
// if Id is an inactive invocation".
ConvergenceClass ReadingOtherInvocation(ConvergenceClass cls) {
  cls.flags |= kReadsOtherInvocation;
  return cls;
}

ConvergenceClass WithUniformOperand(ConvergenceClass cls, uint32_t operand, Uniformity scope) {
  cls.uniform_operand = operand;
  cls.uniform_operand_scope = scope;
  return cls;
}

// How an opcode's name starts, for OtherGroupOperation.
enum class NamePrefix : uint8_t { kNotLookedUp, kOther, kGroup, kSubgroup };

NamePrefix PrefixOf(Op opcode) {
  const std::string name = spvOpcodeString(opcode);  // without "Op"
  if (name.rfind("Group", 0) == 0) return NamePrefix::kGroup;
  if (name.rfind("Subgroup", 0) == 0) return NamePrefix::kSubgroup;
  return NamePrefix::kOther;
}

// Group and subgroup opcodes the table does not list by name (pipes, async
// copies, INTEL block reads, ...): convergent at their scope, never guessed
// to be free of convergence requirements.
//
// Each opcode's name is looked up once, not per instruction: every
// instruction the switch below does not list ends here (arithmetic, loads,
// ...). The memo is shared by the threads of `lint -j`; a race only stores
// the same value twice.
ConvergenceClass OtherGroupOperation(Op opcode) {
  constexpr uint32_t kMemoized = 1u << 13;  // above every opcode SPIR-V 1.6 defines
  static std::array<std::atomic<NamePrefix>, kMemoized> memo;  // zero: kNotLookedUp
  const auto value = static_cast<uint32_t>(opcode);
  NamePrefix prefix = NamePrefix::kNotLookedUp;
  if (value < kMemoized) prefix = memo[value].load(std::memory_order_relaxed);
  if (prefix == NamePrefix::kNotLookedUp) {
    prefix = PrefixOf(opcode);
    if (value < kMemoized) memo[value].store(prefix, std::memory_order_relaxed);
  }
  if (prefix == NamePrefix::kGroup) return ScopedGroupOperation(/*co_convergent=*/false);
  if (prefix == NamePrefix::kSubgroup) return ImpliedGroupOperation(kS, /*co_convergent=*/false);
  return {};
}

}  // namespace

bool IsExplicitDerivative(Op opcode) {
  switch (opcode) {
    case Op::OpDPdx:
    case Op::OpDPdy:
    case Op::OpFwidth:
    case Op::OpDPdxFine:
    case Op::OpDPdyFine:
    case Op::OpFwidthFine:
    case Op::OpDPdxCoarse:
    case Op::OpDPdyCoarse:
    case Op::OpFwidthCoarse:
      return true;
    default:
      return false;
  }
}

GroupArithmetic GroupArithmeticOf(Op opcode) {
  using A = GroupArithmetic;
  switch (opcode) {
    case Op::OpGroupNonUniformIAdd:
    case Op::OpGroupNonUniformFAdd:
      return {A::kAdd, A::kNonUniform};
    case Op::OpGroupNonUniformIMul:
    case Op::OpGroupNonUniformFMul:
      return {A::kMul, A::kNonUniform};
    case Op::OpGroupNonUniformSMin:
    case Op::OpGroupNonUniformUMin:
    case Op::OpGroupNonUniformFMin:
      return {A::kMin, A::kNonUniform};
    case Op::OpGroupNonUniformSMax:
    case Op::OpGroupNonUniformUMax:
    case Op::OpGroupNonUniformFMax:
      return {A::kMax, A::kNonUniform};
    case Op::OpGroupNonUniformBitwiseAnd:
    case Op::OpGroupNonUniformLogicalAnd:
      return {A::kAnd, A::kNonUniform};
    case Op::OpGroupNonUniformBitwiseOr:
    case Op::OpGroupNonUniformLogicalOr:
      return {A::kOr, A::kNonUniform};
    case Op::OpGroupNonUniformBitwiseXor:
    case Op::OpGroupNonUniformLogicalXor:
      return {A::kXor, A::kNonUniform};
    case Op::OpGroupIAdd:
    case Op::OpGroupFAdd:
      return {A::kAdd, A::kClassic};
    case Op::OpGroupFMin:
    case Op::OpGroupUMin:
    case Op::OpGroupSMin:
      return {A::kMin, A::kClassic};
    case Op::OpGroupFMax:
    case Op::OpGroupUMax:
    case Op::OpGroupSMax:
      return {A::kMax, A::kClassic};
    case Op::OpGroupIAddNonUniformAMD:
    case Op::OpGroupFAddNonUniformAMD:
      return {A::kAdd, A::kAmd};
    case Op::OpGroupFMinNonUniformAMD:
    case Op::OpGroupUMinNonUniformAMD:
    case Op::OpGroupSMinNonUniformAMD:
      return {A::kMin, A::kAmd};
    case Op::OpGroupFMaxNonUniformAMD:
    case Op::OpGroupUMaxNonUniformAMD:
    case Op::OpGroupSMaxNonUniformAMD:
      return {A::kMax, A::kAmd};
    default:
      return {};
  }
}

ConvergenceClass ClassifyConvergence(const spvtools::opt::Instruction& inst) {
  if (IsExplicitDerivative(inst.opcode())) return Derivative(DerivativeKind::kExplicit);
  switch (inst.opcode()) {
    case Op::OpImageSampleImplicitLod:
    case Op::OpImageSampleDrefImplicitLod:
    case Op::OpImageSampleProjImplicitLod:
    case Op::OpImageSampleProjDrefImplicitLod:
    case Op::OpImageSparseSampleImplicitLod:
    case Op::OpImageSparseSampleDrefImplicitLod:
    case Op::OpImageSparseSampleProjImplicitLod:
    case Op::OpImageSparseSampleProjDrefImplicitLod:
    case Op::OpImageQueryLod:
      return Derivative(DerivativeKind::kImplicit);
    case Op::OpControlBarrier: {
      ConvergenceClass cls;
      cls.flags = kConvergent | kBarrier;
      cls.scope_operand = 0;
      return cls;
    }

    // Results that depend on the active invocations of the scope.
    case Op::OpGroupNonUniformElect:
    case Op::OpGroupNonUniformAll:
    case Op::OpGroupNonUniformAny:
    case Op::OpGroupNonUniformAllEqual:
    case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpGroupNonUniformBallot:
    case Op::OpGroupNonUniformPartitionNV:
    case Op::OpGroupAll:
    case Op::OpGroupAny:
      return ScopedGroupOperation(/*co_convergent=*/true);
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleXor:
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown:
      return ReadingOtherInvocation(ScopedGroupOperation(/*co_convergent=*/true));
    // Delta: "must be dynamically uniform within Execution"
    // (SPV_KHR_subgroup_rotate). ClusterSize must be a constant, which
    // spirv-val checks.
    case Op::OpGroupNonUniformRotateKHR: {
      ConvergenceClass cls =
          WithUniformOperand(ReadingOtherInvocation(ScopedGroupOperation(true)), 2, kD);
      cls.uniform_operand_at_execution_scope = true;
      return cls;
    }
    // Id: dynamically uniform within the subgroup (a constant before SPIR-V 1.5;
    // VUID-RuntimeSpirv-subgroupBroadcastDynamicId-06276).
    case Op::OpGroupNonUniformBroadcast:
      return WithUniformOperand(ReadingOtherInvocation(ScopedGroupOperation(true)), 2, kS);
    // LocalId: the same for all invocations of the execution scope.
    case Op::OpGroupBroadcast: {
      ConvergenceClass cls = WithUniformOperand(ScopedGroupOperation(true), 2, kD);
      cls.uniform_operand_at_execution_scope = true;
      return cls;
    }
    // Quad operations read other invocations of the quad.
    case Op::OpGroupNonUniformQuadSwap:
      return ReadingOtherInvocation(ImpliedGroupOperation(kQ, /*co_convergent=*/true));
    // Index: dynamically uniform within the quad (VUID-RuntimeSpirv-
    // subgroupBroadcastDynamicId-06277).
    case Op::OpGroupNonUniformQuadBroadcast:
      return WithUniformOperand(ReadingOtherInvocation(ImpliedGroupOperation(kQ, true)), 2, kQ);
    // SPV_KHR_quad_control: votes over the active invocations of the quad
    // (no scope operand: "the scope is always the quad").
    case Op::OpGroupNonUniformQuadAllKHR:
    case Op::OpGroupNonUniformQuadAnyKHR:
      return ImpliedGroupOperation(kQ, /*co_convergent=*/true);
    case Op::OpSubgroupBallotKHR:
    case Op::OpSubgroupFirstInvocationKHR:
    case Op::OpSubgroupAllKHR:
    case Op::OpSubgroupAnyKHR:
    case Op::OpSubgroupAllEqualKHR:
      return ImpliedGroupOperation(kS, /*co_convergent=*/true);
    case Op::OpSubgroupShuffleINTEL:
    case Op::OpSubgroupShuffleDownINTEL:
    case Op::OpSubgroupShuffleUpINTEL:
    case Op::OpSubgroupShuffleXorINTEL:
      return ReadingOtherInvocation(ImpliedGroupOperation(kS, /*co_convergent=*/true));
    // Index: dynamically uniform (SPV_KHR_shader_ballot).
    case Op::OpSubgroupReadInvocationKHR:
      return WithUniformOperand(ReadingOtherInvocation(ImpliedGroupOperation(kS, true)), 1, kS);

    // Pure functions of a ballot value and the invocation's own id: no
    // dependence on the active set, but still group operations.
    case Op::OpGroupNonUniformInverseBallot:
    case Op::OpGroupNonUniformBallotBitExtract:
    case Op::OpGroupNonUniformBallotBitCount:
    case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB:
      return ScopedGroupOperation(/*co_convergent=*/false);

    // Annotations, never in a function body.
    case Op::OpGroupDecorate:
    case Op::OpGroupMemberDecorate:
      return {};
    default:
      // Reductions and scans: results that depend on the active invocations.
      if (GroupArithmeticOf(inst.opcode()).op != GroupArithmetic::kNone) {
        return ScopedGroupOperation(/*co_convergent=*/true);
      }
      return OtherGroupOperation(inst.opcode());
  }
}

Uniformity RequiredControlFlow(const spvtools::opt::Instruction& inst, const ConvergenceClass& cls,
                               const ModuleIndex& index) {
  if (!cls.Has(kConvergent)) return kD;
  if (cls.scope_operand == kNoOperand || cls.scope_operand >= inst.NumInOperands()) {
    return cls.implied_scope;
  }
  return ScopeLevel(inst.GetSingleWordInOperand(cls.scope_operand), index);
}

Uniformity RequiredOperandUniformity(const spvtools::opt::Instruction& inst,
                                     const ConvergenceClass& cls, const ModuleIndex& index) {
  if (cls.uniform_operand == kNoOperand) return kD;
  return cls.uniform_operand_at_execution_scope ? RequiredControlFlow(inst, cls, index)
                                                : cls.uniform_operand_scope;
}

namespace {

// Image instructions whose in-operand 0 is an image or sampled image (or a
// pointer to one, for OpImageTexelPointer).
bool TakesImageOperand(Op opcode) {
  const auto value = static_cast<uint32_t>(opcode);
  return (value >= static_cast<uint32_t>(Op::OpImageSampleImplicitLod) &&
          value <= static_cast<uint32_t>(Op::OpImageQuerySamples)) ||
         (value >= static_cast<uint32_t>(Op::OpImageSparseSampleImplicitLod) &&
          value <= static_cast<uint32_t>(Op::OpImageSparseRead)) ||
         opcode == Op::OpImageTexelPointer || opcode == Op::OpImageSampleFootprintNV;
}

}  // namespace

std::vector<UniformOperand> UniformOperands(const spvtools::opt::Instruction& inst,
                                            const ConvergenceClass& cls, const ModuleIndex& index) {
  std::vector<UniformOperand> operands;
  const Op opcode = inst.opcode();
  if (opcode == Op::OpSampledImage) {
    operands.push_back({0, Uniformity::kUniform, "image"});
    operands.push_back({1, Uniformity::kUniform, "sampler"});
  } else if (TakesImageOperand(opcode) && opcode != Op::OpImage &&
             opcode != Op::OpImageSparseTexelsResident) {
    operands.push_back({0, Uniformity::kUniform, "image"});
  }
  if (cls.derivative == DerivativeKind::kImplicit) {
    operands.push_back({1, Uniformity::kQuad, "coordinate"});
  } else if (cls.derivative == DerivativeKind::kExplicit) {
    operands.push_back({0, Uniformity::kQuad, "coordinate"});
  }
  if (cls.uniform_operand != kNoOperand) {
    operands.push_back({cls.uniform_operand, RequiredOperandUniformity(inst, cls, index), "id"});
  }
  return operands;
}

}  // namespace analysis
}  // namespace spirv_conv
