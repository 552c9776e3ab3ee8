// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Which invocation a subgroup operation that reads a named invocation
// (shuffles, broadcasts, OpSubgroupReadInvocationKHR) names, evaluated for
// every subgroup size and every reading invocation. SPIR-V: "The resulting
// value is undefined if Id is an inactive invocation"; whether the named
// one is active depends on which invocations reach the operation, a
// relation between values at two invocations that the uniformity lattice
// cannot express.
//
// The evaluation runs each candidate reader i at each subgroup size S (a
// power of two up to 128, Vulkan's SubgroupSize; up to 64 with
// SPV_KHR_shader_ballot, GL_ARB_shader_ballot's 64-bit masks) through the
// conditions the operation's block requires (the branches of its
// dominators whose taken side leads only there), with values known bit by
// bit: the lane built-ins (SubgroupLocalInvocationId, SubgroupSize, the
// Subgroup*Mask masks, which have no bits at or above S) are exact, a
// ballot is the mask of the active set A, known to hold i and nothing at
// or above S, and an equality the path requires pins A's bits. Memory
// other than Function variables stored once before the load is unknown.
// Unless full subgroups are enabled (SPIR-V 1.6 compute with a local size
// X that S divides), Vulkan may launch a subgroup with any invocations
// inactive (SubgroupLocalInvocationId: "some subgroups may be dispatched
// with inactive invocations"), so A is any such set.
//
//   kItself   every reader that can reach the operation names itself: the
//             result is its own value, whatever the set (set-agnostic);
//   kOutside  a witness: at size S, reader i reaches the operation while
//             the invocation it names is inactive or fails a condition on
//             the way;
//   kUnknown  neither shown (the default for shapes not modelled: cycles,
//             calls, non-Shader modules, quad and clustered operations,
//             and every read once the module's evaluation budget is spent).

#ifndef SOURCE_LINT_NAMED_INVOCATIONS_H_
#define SOURCE_LINT_NAMED_INVOCATIONS_H_

#include <cstdint>
#include <vector>

#include "analysis/ir_tables.h"
#include "analysis/module_index.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace lint {

struct NamedRead {
  enum class Kind : uint8_t { kUnknown, kItself, kOutside };
  enum class Why : uint8_t {
    kInactive,   // |named| is not in the active set of a ballot the path tests
    kOtherPath,  // |named| fails the condition of |branch|
  };
  Kind kind = Kind::kUnknown;
  // For kOutside:
  Why why = Why::kInactive;
  uint32_t subgroup_size = 0;
  uint32_t reader = 0;
  uint32_t named = 0;
  const spvtools::opt::Instruction* branch = nullptr;  // for kOtherPath
  // The invocations the witness needs inactive at launch (the bits a ballot
  // of `true` in uniform control flow must lack), in order.
  std::vector<uint32_t> inactive;
};

class NamedInvocations {
 public:
  NamedInvocations(spvtools::opt::IRContext& context, const analysis::ModuleIndex& index,
                   const analysis::BlockTable& blocks, const analysis::UseTable& uses,
                   const UniformityInfo& info)
      : context_(context), index_(index), blocks_(blocks), uses_(uses), info_(info) {}

  // What the evaluation shows for |inst|, an operation that reads a named
  // invocation.
  NamedRead Of(const spvtools::opt::Instruction& inst) const;

 private:
  spvtools::opt::IRContext& context_;
  const analysis::ModuleIndex& index_;
  const analysis::BlockTable& blocks_;
  const analysis::UseTable& uses_;
  const UniformityInfo& info_;
  // What the evaluations of the module may still cost, in steps; once used
  // up, every read is kUnknown (the lint then reports what it did before).
  mutable uint64_t budget_ = uint64_t{1} << 22;
};

}  // namespace lint
}  // namespace spirv_conv

#endif  // SOURCE_LINT_NAMED_INVOCATIONS_H_
