// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The one table of what each opcode needs from convergence: which
// instructions must run in converged control flow (derivatives, implicit-LOD
// sampling, control barriers, group and subgroup operations), which of them
// return a result that depends on the set of active invocations
// (co-convergent: ballots, votes, reductions, scans, elect, broadcasts,
// shuffles, quad operations), at what scope, and which operand must be
// dynamically uniform. The lint, the uniformity report and the code-motion
// checker all read it; nothing else keeps a list of these opcodes.

#ifndef SOURCE_ANALYSIS_CONVERGENCE_CLASSES_H_
#define SOURCE_ANALYSIS_CONVERGENCE_CLASSES_H_

#include <cstdint>
#include <vector>

#include "analysis/module_index.h"
#include "source/opt/instruction.h"
#include "spirv_conv/uniformity.h"

namespace spvtools {
namespace opt {
class IRContext;
}  // namespace opt
}  // namespace spvtools

namespace spirv_conv {
namespace analysis {

enum ConvergenceFlag : uint32_t {
  // Needs its scope's invocations to execute it together: every derivative,
  // implicit-LOD and group/subgroup instruction, and OpControlBarrier.
  kConvergent = 1u << 0,
  // Its result depends on which invocations of its scope are active.
  kCoConvergent = 1u << 1,
  // Computes a derivative (explicitly, or implicitly for the LOD).
  kDerivative = 1u << 2,
  // OpControlBarrier.
  kBarrier = 1u << 3,
  // A group or subgroup operation (OpGroup*, OpGroupNonUniform*, OpSubgroup*).
  kGroupOperation = 1u << 4,
  // Its result is the value of one other invocation, named by an id, a
  // delta, a mask or a direction (shuffles, rotates, broadcasts from a given
  // invocation, quad swaps): undefined when that invocation is inactive.
  kReadsOtherInvocation = 1u << 5,
};

enum class DerivativeKind : uint8_t {
  kNone,
  kExplicit,  // OpDPdx ... OpFwidthCoarse: must run in quad-uniform control flow
  kImplicit,  // implicit-LOD sampling, OpImageQueryLod: undefined result otherwise
};

// An in-operand index meaning "none".
constexpr uint32_t kNoOperand = ~0u;

struct ConvergenceClass {
  uint32_t flags = 0;  // ConvergenceFlag bits; 0 for ordinary instructions
  DerivativeKind derivative = DerivativeKind::kNone;
  // The in-operand holding the execution Scope <id> (barriers and group
  // operations), or kNoOperand when the opcode implies its scope.
  uint32_t scope_operand = kNoOperand;
  // The execution scope when the opcode implies it: quad for derivatives and
  // quad operations, subgroup for the OpSubgroup*KHR/INTEL instructions.
  Uniformity implied_scope = Uniformity::kDivergent;
  // An in-operand that must be dynamically uniform within
  // |uniform_operand_scope| (the Id of OpGroupNonUniformBroadcast, the Index
  // of OpGroupNonUniformQuadBroadcast, ...), or kNoOperand.
  uint32_t uniform_operand = kNoOperand;
  Uniformity uniform_operand_scope = Uniformity::kDivergent;
  // The operand must be uniform at the execution scope instead
  // (OpGroupBroadcast: the same LocalId in every invocation of the group).
  bool uniform_operand_at_execution_scope = false;

  bool Has(ConvergenceFlag flag) const { return (flags & flag) != 0; }
};

// The class of |inst|'s opcode (and, for group arithmetic, its operation).
ConvergenceClass ClassifyConvergence(const spvtools::opt::Instruction& inst);

// The operator of a group reduction or scan (the arithmetic
// OpGroupNonUniform* instructions, the classic OpGroup* ones and AMD's
// OpGroup*NonUniformAMD), and which of those families the opcode is from.
struct GroupArithmetic {
  enum Operator : uint8_t { kNone, kAdd, kMul, kMin, kMax, kAnd, kOr, kXor };
  enum Family : uint8_t { kNonUniform, kClassic, kAmd };
  Operator op = kNone;
  Family family = kNonUniform;
  // Min, max, and, or: over any set of invocations that contains one, the
  // result bounds that invocation's own value.
  bool Idempotent() const { return op == kMin || op == kMax || op == kAnd || op == kOr; }
};
GroupArithmetic GroupArithmeticOf(spv::Op opcode);

// OpDPdx, OpDPdy, OpFwidth and their Fine and Coarse forms.
bool IsExplicitDerivative(spv::Op opcode);

// The widest control-flow level at which |inst| (of class |cls|) is still
// executed correctly: its execution scope's level (ScopeLevel in
// uniformity_sources.h). Divergent means no requirement (not convergent, or
// Invocation scope).
Uniformity RequiredControlFlow(const spvtools::opt::Instruction& inst, const ConvergenceClass& cls,
                               const ModuleIndex& index);

// The level within which the operand |cls.uniform_operand| of |inst| must be
// dynamically uniform; divergent when there is no such operand.
Uniformity RequiredOperandUniformity(const spvtools::opt::Instruction& inst,
                                     const ConvergenceClass& cls, const ModuleIndex& index);

// An in-operand that must stay dynamically uniform within |scope| when code
// moves or merges (N. Hähnle, "Compiling shaders: dynamically uniform
// variables and 'convergent' intrinsics": the third restriction, no added
// non-uniformity in arguments): the image, sampled image or sampler of
// image instructions (unless decorated NonUniform), the coordinates of
// implicit-derivative sampling and the operand of explicit derivatives
// (quad), and |cls.uniform_operand| (broadcast Id, ...).
struct UniformOperand {
  uint32_t operand = kNoOperand;
  Uniformity scope = Uniformity::kUniform;
  const char* role = "";  // "image", "sampler", "coordinate", "id"
};

// The uniform operands of |inst| (of class |cls|), in operand order.
std::vector<UniformOperand> UniformOperands(const spvtools::opt::Instruction& inst,
                                            const ConvergenceClass& cls, const ModuleIndex& index);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_CONVERGENCE_CLASSES_H_
