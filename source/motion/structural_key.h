// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Structural keys of the ids of one module, so that instructions of two
// modules can be compared without relying on equal result ids: module-level
// ids (types, constants, variables, functions) by their full structure,
// function-local instructions by opcode, result type and operands down to a
// depth (deeper local operands are wildcards), and the OpLine hint.

#ifndef SOURCE_MOTION_STRUCTURAL_KEY_H_
#define SOURCE_MOTION_STRUCTURAL_KEY_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "analysis/module_index.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace motion {

class StructuralKeys {
 public:
  StructuralKeys(spvtools::opt::IRContext& context, const analysis::ModuleIndex& index);

  // The key of a module-level id: equal keys in two modules name the same
  // type, constant, variable (with its decorations) or function.
  const std::string& Global(uint32_t id);
  // The key of a function-local instruction: opcode, result type and
  // operands, local operands expanded to |depth| levels (0: local operands
  // are wildcards; -1: every id operand is a wildcard, literals still count).
  std::string Local(const spvtools::opt::Instruction& inst, int depth);
  // "file:line" of the OpLine before |inst|, or empty.
  std::string Line(const spvtools::opt::Instruction& inst) const;

  bool IsLocal(uint32_t id) const { return local_ids_.count(id) != 0; }

 private:
  std::string Operand(const spvtools::opt::Instruction& inst, uint32_t index, int depth);

  const analysis::ModuleIndex& index_;
  std::unordered_set<uint32_t> local_ids_;
  std::unordered_map<uint32_t, std::string> global_;
  // Local keys by depth + 1 (depth -1 to kMaxDepth), filled on first use.
  static constexpr int kMaxDepth = 3;
  std::unordered_map<const spvtools::opt::Instruction*, std::string> local_[kMaxDepth + 2];
};

}  // namespace motion
}  // namespace spirv_conv

#endif  // SOURCE_MOTION_STRUCTURAL_KEY_H_
