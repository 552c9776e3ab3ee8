// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Which instruction of the BEFORE module each instruction of the AFTER
// module comes from (docs/motion.md, "The matcher"):
//   1. by result id, when BEFORE defines the id in a function with the same
//      opcode and result type (SPIRV-Tools passes keep the ids of what they
//      move);
//   2. structurally, for clones and renumbered code: the BEFORE instruction
//      with the same opcode, result type and operands, compared through
//      structural keys at the deepest depth that still matches, the OpLine
//      as the tie-break. An AFTER instruction can have several origins when
//      candidates tie; a BEFORE instruction can have several images (clones).
//   3. merges: a BEFORE instruction with no image whose result was used is
//      an origin of the AFTER instruction it most resembles (same opcode and
//      result type), if any: redundancy elimination and select-merges.
// Instructions without a result id (barriers) are matched structurally only.

#ifndef SOURCE_MOTION_INSTRUCTION_MATCHER_H_
#define SOURCE_MOTION_INSTRUCTION_MATCHER_H_

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "motion/structural_key.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace motion {

enum class MatchKind : uint8_t {
  kId,          // same result id
  kStructural,  // a clone or renumbered copy
  kMerged,      // one of several BEFORE instructions folded into this one
};

struct Origin {
  const spvtools::opt::Instruction* before = nullptr;
  MatchKind kind = MatchKind::kId;
};

class InstructionMatcher {
 public:
  // |wanted| selects the instructions without result id and the BEFORE
  // instructions whose merges are looked for (the checked classes);
  // |runs_before| tells whether a BEFORE function (by id) can run at all:
  // code that never runs may vanish, so it is no merge's origin.
  InstructionMatcher(StructuralKeys& before, StructuralKeys& after,
                     spvtools::opt::IRContext& before_context,
                     spvtools::opt::IRContext& after_context,
                     const std::function<bool(const spvtools::opt::Instruction&)>& wanted,
                     const std::function<bool(uint32_t)>& runs_before);

  // The origins of |after|; empty when it matches nothing.
  const std::vector<Origin>& OriginsOf(const spvtools::opt::Instruction& after) const;
  // The BEFORE id of AFTER value |after_id| (its first origin), or 0.
  uint32_t BeforeId(uint32_t after_id) const;

 private:
  struct Candidate {
    const spvtools::opt::Instruction* inst;
    uint32_t function;
    uint32_t position;  // among the instructions of the same key in the function
  };
  void MatchAfter(spvtools::opt::IRContext& after_context,
                  const std::function<bool(const spvtools::opt::Instruction&)>& wanted);
  void FindMerges(spvtools::opt::IRContext& before_context,
                  const std::function<bool(const spvtools::opt::Instruction&)>& wanted,
                  const std::function<bool(uint32_t)>& runs_before);
  // Function id -> the functions that run as part of a call of it in one
  // module (itself and what it calls, transitively).
  using RunsIn = std::unordered_map<uint32_t, std::unordered_set<uint32_t>>;
  // The best candidates for |inst| of |keys| among |index| (keyed by the
  // other module's keys): deepest equal key first, then the same line, then
  // the same function or one it calls in the other module (|runs_in|: an
  // inlined copy comes from a callee; candidates from several functions
  // tie), then the same position.
  std::vector<const spvtools::opt::Instruction*> Best(
      StructuralKeys& keys, const spvtools::opt::Instruction& inst, uint32_t function,
      uint32_t position, std::unordered_map<std::string, std::vector<Candidate>>* index,
      StructuralKeys& other_keys, const RunsIn& runs_in);

  StructuralKeys& before_;
  StructuralKeys& after_;
  std::unordered_map<uint32_t, const spvtools::opt::Instruction*> before_defs_;
  std::unordered_map<const spvtools::opt::Instruction*, std::vector<Origin>> origins_;
  std::unordered_map<const spvtools::opt::Instruction*, bool> before_has_image_;
  std::unordered_map<uint32_t, uint32_t> before_ids_;  // AFTER value id -> BEFORE id
  std::unordered_map<uint32_t, const spvtools::opt::Instruction*> after_defs_;  // AFTER ids
  // BEFORE (resp. AFTER) instructions by their weakest key.
  std::unordered_map<std::string, std::vector<Candidate>> before_by_key_;
  std::unordered_map<std::string, std::vector<Candidate>> after_by_key_;
  RunsIn before_runs_in_;
  RunsIn after_runs_in_;
};

}  // namespace motion
}  // namespace spirv_conv

#endif  // SOURCE_MOTION_INSTRUCTION_MATCHER_H_
