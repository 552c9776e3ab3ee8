// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The motion rules (docs/motion.md) for one AFTER instruction against its
// origins in BEFORE:
//   motion-convergent-gained-divergence  a convergent instruction runs in
//     control flow less uniform than it needs and than it had, or now depends
//     on a divergent branch (one that exists in BEFORE) it did not depend on;
//   motion-coconvergent-changed-divergence  a co-convergent instruction
//     gained or lost divergent control dependence;
//   motion-uniform-operand  an operand that must stay uniform is less
//     uniform than before and than it needs;
//   motion-unmatched  a checked instruction with no origin.
// Clones (several AFTER instructions from one origin) are each checked; when
// several origins tie, the instruction is legal if it is legal for one of
// them; every merged origin must be legal on its own.

#ifndef SOURCE_MOTION_MOTION_CHECKER_H_
#define SOURCE_MOTION_MOTION_CHECKER_H_

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "motion/instruction_matcher.h"
#include "motion/motion_module.h"
#include "spirv_conv/diagnostic.h"

namespace spirv_conv {
namespace motion {

// Whether the checker looks at |inst|: convergent, or with uniform operands.
bool IsChecked(const spvtools::opt::Instruction& inst, const analysis::ModuleIndex& index);

class MotionChecker {
 public:
  MotionChecker(MotionModule& before, MotionModule& after, const InstructionMatcher& matcher);

  // Appends the findings about AFTER instruction |inst| to |out|.
  void Check(const spvtools::opt::Instruction& inst, std::vector<Finding>* out) const;

 private:
  // The divergent branches (level wider than |required|) |inst| depends on,
  // keyed by the BEFORE block of the branch. |after_side|: |inst| is in
  // AFTER, whose branches map to the BEFORE block with the same label and
  // terminator opcode, else to the BEFORE branch on the matched condition;
  // those that map to nothing go to |unmapped|.
  struct Branches {
    std::map<uint32_t, uint32_t> keys;  // BEFORE key -> the branch's block, in its module
    std::vector<uint32_t> unmapped;     // AFTER labels without a BEFORE key
  };
  Branches DivergentBranches(const MotionModule& module, const spvtools::opt::Instruction& inst,
                             Uniformity required, bool after_side) const;

  // The verdict for one origin, or nullopt when it is legal.
  std::optional<Finding> JudgeControl(const spvtools::opt::Instruction& inst,
                                      const analysis::ConvergenceClass& cls,
                                      const Origin& origin) const;
  std::optional<Finding> JudgeOperands(const spvtools::opt::Instruction& inst,
                                       const analysis::ConvergenceClass& cls,
                                       const Origin& origin) const;
  Finding Make(const char* rule, const spvtools::opt::Instruction& inst, const Origin* origin,
               const std::string& message) const;

  MotionModule& before_;
  MotionModule& after_;
  const InstructionMatcher& matcher_;
  std::unordered_map<uint32_t, uint32_t> branch_on_;  // BEFORE condition -> its block
};

}  // namespace motion
}  // namespace spirv_conv

#endif  // SOURCE_MOTION_MOTION_CHECKER_H_
