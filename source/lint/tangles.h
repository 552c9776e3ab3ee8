// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Which invocations a tangled instruction runs with when its control flow is
// not uniform at its scope, as far as SPIR-V decides it. SPIR-V 2.2.2:
// the tangle is "the set of invocations that execute the same dynamic
// instance of an instruction"; invocations "will continue to execute the
// same dynamic instances as long as they follow the same control-flow path",
// and "the only reconvergence conditions are those described in the
// definition of uniform control flow", which reconverges at a merge block
// only "if control flow is uniform upon entry into a structured loop or
// selection". Three cases (docs/rules/README.md, "Subgroup operations"):
//
//   kPath         the invocations that were together where control flow was
//                 last uniform and took the same path since;
//   kAfterRejoin  on the way from there, divergent paths rejoin in control
//                 flow that is still not uniform, where nothing promises
//                 that the invocations run together again. Never in a
//                 function that only MaximallyReconvergesKHR entry points
//                 reach: that mode promises reconvergence at every merge;
//   kCallSites    uniform within its function: the invocations that called
//                 the function together, at call sites in control flow that
//                 is not uniform.
//
// A rejoin is a join of a divergent branch (UniformityInfo::Joins), or a
// block entered from a loop that invocations leave on different iterations,
// in control flow not uniform at the scope; the branches of the idioms
// (branch_idioms.h) do not count. What a rejoin reaches without passing a
// block in uniform control flow comes after it, across calls: a function
// called after a rejoin, and the code after a call to a function that
// returns after a rejoin inside it.

#ifndef SOURCE_LINT_TANGLES_H_
#define SOURCE_LINT_TANGLES_H_

#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/ir_tables.h"
#include "lint/branch_idioms.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace lint {

// Where divergent paths rejoined before an instruction.
struct Rejoin {
  enum class Kind : uint8_t {
    kNone,
    kBranch,    // |at| is the divergent branch whose paths rejoin
    kLoopExit,  // |at| is the branch that makes invocations leave the loop on different iterations
    kReturn,    // |at| is a call to a function that returns after a rejoin
    kCallSite,  // |at| is a call, after a rejoin, of the instruction's function
  };
  Kind kind = Kind::kNone;
  const spvtools::opt::Instruction* at = nullptr;
};

enum class TangleCase : uint8_t { kPath, kAfterRejoin, kCallSites };

struct Tangle {
  TangleCase kind = TangleCase::kPath;
  Rejoin rejoin;  // for kAfterRejoin
};

class Tangles {
 public:
  Tangles(spvtools::opt::IRContext& context, const UniformityInfo& info,
          const analysis::BlockTable& blocks, const analysis::CallGraph& calls,
          const BranchIdioms& idioms)
      : context_(context), info_(info), blocks_(blocks), calls_(calls), idioms_(idioms) {}

  // The case of |inst|, whose control flow is not uniform at |scope|.
  Tangle Of(const spvtools::opt::Instruction& inst, Uniformity scope) const;

 private:
  // The rejoins of one scope, found on first use.
  struct Rejoins {
    bool found = false;
    std::vector<Rejoin> before_block;  // by label: a rejoin before the block's entry
    std::unordered_map<uint32_t, Rejoin> after_return;  // by function: one before its returns
  };
  using Seeds = std::vector<std::pair<uint32_t, Rejoin>>;  // (label, rejoin)

  const Rejoins& Find(Uniformity scope) const;
  // The joins and loop exits of |function| in control flow not uniform at |scope|.
  Seeds RejoinsIn(const spvtools::opt::Function& function, Uniformity scope) const;
  // The successors of blocks of |function| that call a function returning
  // after a rejoin.
  Seeds AfterReturns(const spvtools::opt::Function& function, const Rejoins& rejoins) const;
  // A call before |inst| in its block to a function returning after a rejoin.
  Rejoin ReturnBefore(const spvtools::opt::Instruction& inst, const Rejoins& rejoins) const;
  // Marks every block |seeds| reach through blocks in control flow not
  // uniform at |scope|; true if it marked one.
  bool Flood(const Seeds& seeds, Uniformity scope, std::vector<Rejoin>* before_block) const;
  bool NotUniform(uint32_t label, Uniformity scope) const {
    return info_.ControlFlowLevel(label) > scope;
  }

  spvtools::opt::IRContext& context_;
  const UniformityInfo& info_;
  const analysis::BlockTable& blocks_;
  const analysis::CallGraph& calls_;
  const BranchIdioms& idioms_;
  mutable std::array<Rejoins, 4> by_scope_;  // indexed by Uniformity
};

}  // namespace lint
}  // namespace spirv_conv

#endif  // SOURCE_LINT_TANGLES_H_
