// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Dynamic uniformity of every value, branch and block of a SPIR-V module, in
// the sense of LLVM's "Convergence and Uniformity": maximal convergence,
// the cycle hierarchy, m-converged blocks (the diverged-entry criterion and
// diverged paths reaching irreducible cycles), joins of divergent branches by
// disjoint paths, and temporal divergence at divergent cycle exits.
//
// Levels are scopes. A value is `uniform` when all converged dynamic instances
// in the invocation group (the workgroup for compute and kernels, the draw or
// dispatch otherwise) agree, `subgroup` when only the instances within one
// subgroup are guaranteed to agree, `quad` when only those within one quad
// (derivative group), and `divergent` otherwise. Each level implies the ones
// after it: Join(a, b) is the wider of the two.
//
// The analysis is sound: when unsure it says divergent, never uniform. See
// docs/uniformity.md for the sources table and the algorithm.

#ifndef INCLUDE_SPIRV_CONV_UNIFORMITY_H_
#define INCLUDE_SPIRV_CONV_UNIFORMITY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "spirv_conv/status.h"

namespace spvtools {
namespace opt {
class IRContext;
class Instruction;
}  // namespace opt
}  // namespace spvtools

namespace spirv_conv {

enum class Uniformity : uint8_t { kUniform = 0, kSubgroup = 1, kQuad = 2, kDivergent = 3 };

// "uniform", "subgroup", "quad", "divergent".
const char* UniformityName(Uniformity level);
inline Uniformity Join(Uniformity a, Uniformity b) { return a < b ? b : a; }

struct UniformityOptions {
  // Loads from StorageBuffer, PhysicalStorageBuffer, Workgroup and storage
  // images are divergent unless the resource is NonWritable, because another
  // invocation may write it concurrently. Set this when the shader's own
  // synchronisation guarantees that no invocation writes what others read.
  bool assume_no_concurrent_writes = false;
  // Reads the HelperInvocation built-in as false in every invocation, as if
  // no invocation were a helper. Not sound on its own: for asking whether
  // control flow is non-uniform only because of tests of helper-ness (the
  // subgroup-operation rules, docs/rules/subgroup-op-divergent-cf.md).
  bool without_helper_invocations = false;
  // Reads OpKill and OpTerminateInvocation (and calls of functions that may
  // execute them) as if they did not end the invocation, as
  // OpDemoteToHelperInvocation would not: the paths that can only end in
  // such a kill are left out. Not sound on its own: for asking whether
  // control flow is non-uniform only because invocations were discarded
  // (docs/rules/derivative-after-discard.md).
  bool kills_as_demotes = false;
  // Reads every result of a subgroup or quad operation and SubgroupId as
  // divergent (uniform operands still give a uniform result only where the
  // operation is a pure function of them), so that `quad` means "the same
  // in the whole primitive" (Flat inputs, FrontFacing, PrimitiveId): for
  // asking whether control flow is uniform across a fragment shader's
  // derivative group without QuadDerivativesKHR (Vulkan: the primitive).
  // Sound, less precise than the default.
  bool primitive_scope = false;
  // Reads the result of every non-quad group operation as divergent in the
  // functions a Fragment entry point reaches (unless every such entry point
  // declares MaximallyReconvergesKHR and RequireFullQuadsKHR): helper
  // invocations, inactive for those operations (Vulkan, "Helper
  // Invocations"), may compute another value than the rest of their quad.
  // Sound, less precise than the default: for asking whether control flow
  // is uniform within a quad helpers included (the derivative rules).
  bool helpers_apart = false;
};

// One step of an explanation: why |subject| (a value id, or a block's label
// id for control flow) has |level|. |cause| is the id this step points at
// (see Kind); the next step is about |cause|, or, where Kind says so, about
// the branch behind it.
struct UniformityStep {
  enum class Kind {
    kSource,       // a source (built-in, input, atomic, ...); |cause| is the variable
                   // read when the source is memory, else 0
    kOperand,      // an operand (|cause|) has this level
    kJoin,         // a phi at a join of the divergent branch in block |cause|
    kTemporal,     // |cause| is defined in a cycle left through a divergent exit; the
                   // next step explains the branch that makes the exit divergent
    kCycle,        // defined in a cycle that is not m-converged; |cause| is its header;
                   // the next step explains the branch whose diverged paths broke it
    kMemory,       // a store (value |cause|) to the memory this load reads
    kCall,         // a parameter: |cause| is the argument at a call site that passes
                   // this level (the next step explains it, in the caller); a return
                   // value or the memory behind a pointer parameter: |cause| is the
                   // called function or the parameter
    kControlFlow,  // the block depends on the branch in block |cause|
    kCallSite,     // the function is called in non-uniform control flow by the
                   // OpFunctionCall |cause| (0 if unknown); the next step explains
                   // the control flow of the call's block
    kDecoration,   // a Uniform/UniformId decoration asserts the level
  };
  uint32_t subject = 0;
  Kind kind = Kind::kSource;
  uint32_t cause = 0;
  Uniformity level = Uniformity::kUniform;
  std::string note;  // a short human-readable description of this step
};

// A cycle of one function (see cycle_info.h), with what the analysis found.
struct UniformityCycle {
  uint32_t header = 0;            // OpLabel id
  std::vector<uint32_t> entries;  // header first
  std::vector<uint32_t> blocks;   // every block, nested cycles included
  // A structured loop's break blocks: its loop construct outside the cycle
  // (invocations run them on the iteration they leave; docs/uniformity.md).
  std::vector<uint32_t> break_blocks;
  uint32_t depth = 1;  // 1 for a top-level cycle
  bool reducible = true;
  // The widest level of a divergent exit (threads may leave on different
  // iterations or through different exits); uniform when none.
  Uniformity divergent_exit = Uniformity::kUniform;
  // Not m-converged (assumed divergent) at this level; uniform when it is.
  Uniformity assumed_divergent = Uniformity::kUniform;
  // The block (OpLabel id) whose divergent branch makes the exit divergent,
  // and the one whose diverged paths break m-convergence; 0 when none.
  uint32_t divergent_exit_branch = 0;
  uint32_t assumed_divergent_branch = 0;
};

class UniformityInfo {
 public:
  // Analyses every function of |context| (which must stay alive and
  // unchanged while the result is used). Functions reachable from entry
  // points are analysed once per distinct calling context; others assume
  // divergent parameters. Fails only on IR the analysis cannot model
  // (reported, never guessed).
  static Expected<std::unique_ptr<UniformityInfo>> Compute(spvtools::opt::IRContext* context,
                                                           const UniformityOptions& options = {});
  ~UniformityInfo();

  // The level of result |id| at its definition, joined over every calling
  // context of its function. Ids without a value (types, labels) and
  // module-level constants are uniform.
  Uniformity ValueLevel(uint32_t id) const;

  // The level of operand |in_operand_index| (an "in" operand, as
  // Instruction::GetSingleWordInOperand counts) of |user| as |user| sees it:
  // the definition's level joined with temporal divergence when |user| is
  // outside a cycle with a divergent exit that contains the definition.
  // The per-instruction queries find |user|'s block in the analysis' own
  // block index, built on the first such query.
  Uniformity UseLevel(const spvtools::opt::Instruction& user, uint32_t in_operand_index) const;
  bool IsDivergentUse(const spvtools::opt::Instruction& user, uint32_t in_operand_index) const {
    return UseLevel(user, in_operand_index) != Uniformity::kUniform;
  }

  // The level of the decision made by the terminator of block |label|
  // (uniform for unconditional branches, returns and kills).
  Uniformity BranchLevel(uint32_t label) const;
  bool HasDivergentBranch(uint32_t label) const {
    return BranchLevel(label) != Uniformity::kUniform;
  }

  // The joins of the branch in block |label| when its condition is not
  // uniform: the blocks that threads taking different successors reach again
  // by disjoint paths (sync dependence; phis there choose between diverged
  // paths). OpLabel ids in function order; empty for a uniform branch.
  std::vector<uint32_t> Joins(uint32_t label) const;

  // The control-flow level of block |label|: the widest scope at which all
  // invocations that entered the entry point together execute the block
  // together, joined over every calling context of its function.
  Uniformity ControlFlowLevel(uint32_t label) const;
  // The same for one instruction: an instruction after a call that may
  // terminate invocations (OpKill in the callee) can be less uniform than
  // the start of its block.
  Uniformity ControlFlowLevel(const spvtools::opt::Instruction& instruction) const;
  // The control-flow level of block |label| relative to the entry of its
  // function: ControlFlowLevel without the level of the call sites (the
  // calling contexts' parameters still count), joined over every calling
  // context. Uniform: the invocations that called the function together
  // execute the block together.
  Uniformity ControlFlowLevelInFunction(uint32_t label) const;

  // The cycles of function |function_id|, parents before children.
  const std::vector<UniformityCycle>& Cycles(uint32_t function_id) const;

  // The options it was computed with.
  const UniformityOptions& options() const;

  // Why |id| (a value) has its level: steps from |id| back to a source of
  // non-uniformity. Empty for uniform values.
  std::vector<UniformityStep> ExplainValue(uint32_t id) const;
  // Why block |label| runs in non-uniform control flow.
  std::vector<UniformityStep> ExplainControlFlow(uint32_t label) const;

  // The analysis' internals, for the library's own readers (its module
  // index and block table: analysis/module_tables.h).
  class Impl;
  const Impl& impl() const { return *impl_; }

 private:
  explicit UniformityInfo(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_UNIFORMITY_H_
