// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The id lookups the uniformity analysis needs, built in one pass over the
// module: the defining instruction of every id, the decorations of every
// target (through decoration groups), integer constant values, and the
// calls and kills of the function bodies (the call graph).
//
// SPIRV-Tools' def-use manager answers the same questions, but it also
// records every use in per-id red-black trees, which costs several times
// loading the IR (docs/performance.md), more than the whole analysis may
// take. The analysis never needs "all uses of an id" except for Function
// variables, which memory_ssa.cpp finds with its own scan.

#ifndef SOURCE_ANALYSIS_MODULE_INDEX_H_
#define SOURCE_ANALYSIS_MODULE_INDEX_H_

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/compressed_lists.h"
#include "source/operand.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace analysis {

// The instructions of one function's blocks as flat rows, in order, each
// with its opcode, result id and "in" operand ids (ForEachIdFrom's order),
// recorded by ModuleIndex's walk. The function CFG, memory SSA and the
// uniformity model read these instead of SPIRV-Tools' instruction objects:
// each walk over those is a cache miss or two per instruction on a large
// function (the object, then its operand array); these lie in one array.
struct FunctionBody {
  struct Row {
    spvtools::opt::Instruction* inst;
    spv::Op opcode;
    uint32_t result_id;
  };
  std::vector<Row> rows;
  CompressedLists in_ids;  // per row
  // Per block, the row of its OpLabel; then one past the last row.
  std::vector<uint32_t> block_start;
  uint32_t blocks() const { return static_cast<uint32_t>(block_start.size()) - 1; }
  // The rows with a result id, OpLabels left out: the function's values.
  uint32_t values = 0;

  // Room for |blocks| blocks of |rows| rows in all, so that recording a
  // large function does not copy the arrays each time they grow.
  void Reserve(size_t blocks, size_t rows);
  // Appends |inst| (an OpLabel starts a block; Finish() after the last one).
  void Add(spvtools::opt::Instruction* inst, uint32_t result_id);
  // The same for a caller that has read |inst|'s opcode and result id, and
  // its operands up to |in_operands| (InOperandsBegin).
  void AddRow(spvtools::opt::Instruction* inst, spv::Op opcode, uint32_t result_id,
              spvtools::opt::Instruction::const_iterator in_operands);
  void Finish();
};

// The rows of |function| (what ModuleIndex records, for a caller without one).
FunctionBody RecordFunctionBody(spvtools::opt::Function& function);

class ModuleIndex {
 public:
  // |record_bodies|: also keep each function's FunctionBody (Body()).
  explicit ModuleIndex(spvtools::opt::IRContext* context, bool record_bodies = false);
  ModuleIndex(const ModuleIndex&) = delete;
  ModuleIndex& operator=(const ModuleIndex&) = delete;

  spvtools::opt::IRContext* context() const { return context_; }
  uint32_t id_bound() const { return static_cast<uint32_t>(defs_.size()); }

  // The instruction defining |id|, or null.
  spvtools::opt::Instruction* Def(uint32_t id) const {
    return id < defs_.size() ? defs_[id] : nullptr;
  }
  // The type instruction of |id|'s value, or null.
  const spvtools::opt::Instruction* TypeOf(uint32_t id) const;
  bool IsPointer(uint32_t id) const { return HasFlag(id, kPointerFlag); }
  // Whether |id| is an OpUndef.
  bool IsUndef(uint32_t id) const { return HasFlag(id, kUndefFlag); }
  // False if |id| certainly has no decoration (Decorations() is empty).
  bool MayBeDecorated(uint32_t id) const {
    return id >= flags_.size() || HasFlag(id, kDecoratedFlag);
  }

  // The OpDecorate / OpDecorateId / OpDecorateString / OpMemberDecorate
  // instructions that apply to |id|, directly or through a decoration group
  // (for those the instruction names the group, not |id|).
  const std::vector<const spvtools::opt::Instruction*>& Decorations(uint32_t id) const;
  // Whether |id| has (whole-object) decoration |decoration|; with
  // |first_operand|, only where the decoration's first literal equals it
  // (BuiltIn HelperInvocation, ...).
  bool HasDecoration(uint32_t id, spv::Decoration decoration) const;
  bool HasDecoration(uint32_t id, spv::Decoration decoration, uint32_t first_operand) const;
  // The first literal of |id|'s decoration |decoration| (BuiltIn,
  // Location, ...), or false when it has none.
  bool DecorationOperand(uint32_t id, spv::Decoration decoration, uint32_t* operand) const;

  // The value of an OpConstant of integer type that fits 64 bits (zero
  // extended), or false (not a constant, spec constant, float ...).
  bool IntegerConstant(uint32_t id, uint64_t* value) const;

  // The rows of |function|'s blocks, or null when they were not recorded.
  const FunctionBody* Body(const spvtools::opt::Function* function) const;

  // Every OpFunctionCall of the function bodies as (caller, callee)
  // function ids, in module order.
  const std::vector<std::pair<uint32_t, uint32_t>>& Calls() const { return calls_; }
  // The functions with a block ending in OpKill or OpTerminateInvocation,
  // in module order.
  const std::vector<uint32_t>& KillingFunctions() const { return killing_functions_; }

 private:
  spvtools::opt::IRContext* context_;
  std::vector<spvtools::opt::Instruction*> defs_;
  // Per id, one byte of flags: its type is a pointer type; it is an
  // OpUndef; it has decorations. Asked for every operand of every
  // instruction (and every phi operand) by the model build, where following
  // the definition to its opcode or type costs one or two cache misses per
  // operand, and (decorations) for every value, where most have none and a
  // binary search over all decorated ids would be the alternative.
  static constexpr char kPointerFlag = 1;
  static constexpr char kUndefFlag = 2;
  static constexpr char kDecoratedFlag = 4;
  bool HasFlag(uint32_t id, char flag) const { return id < flags_.size() && (flags_[id] & flag); }
  std::vector<char> flags_;
  std::vector<std::pair<uint32_t, uint32_t>> calls_;
  std::vector<uint32_t> killing_functions_;
  std::vector<FunctionBody> bodies_;                                    // module order
  std::unordered_map<const spvtools::opt::Function*, size_t> body_of_;  // index in bodies_
  // Decorations, sorted by target; Decorations() answers by binary search.
  std::vector<std::pair<uint32_t, std::vector<const spvtools::opt::Instruction*>>> decorations_;
};

// Instruction::result_id(), type_id() and GetSingleWordInOperand() read a
// word through SPIRV-Tools' out-of-line GetSingleWordOperand, and
// spvIsInIdType is out of line too. The model build asks them for every
// instruction and operand of a function, so these read the same words
// inline. (GetSingleWordOperand also asserts that the operand is one word;
// a valid module's ids always are.)
inline uint32_t ResultIdOf(const spvtools::opt::Instruction& inst) {
  return inst.HasResultId() ? inst.GetOperand(inst.HasResultType() ? 1 : 0).words[0] : 0;
}
inline uint32_t TypeIdOf(const spvtools::opt::Instruction& inst) {
  return inst.HasResultType() ? inst.GetOperand(0).words[0] : 0;
}
inline uint32_t InOperandWord(const spvtools::opt::Instruction& inst, uint32_t index) {
  return inst.GetInOperand(index).words[0];
}
// spvOpcodeIsDebug (SPIRV-Tools 2023.1's list), inline: the model build
// asks it twice for every instruction of a function.
inline bool IsDebugOpcode(spv::Op op) {
  switch (op) {
    case spv::Op::OpName:
    case spv::Op::OpMemberName:
    case spv::Op::OpSource:
    case spv::Op::OpSourceContinued:
    case spv::Op::OpSourceExtension:
    case spv::Op::OpString:
    case spv::Op::OpLine:
    case spv::Op::OpNoLine:
    case spv::Op::OpModuleProcessed:
      return true;
    default:
      return false;
  }
}
// spvIsInIdType: an id that is not the result or the result type.
inline bool IsInIdType(spv_operand_type_t type) {
  return type == SPV_OPERAND_TYPE_ID || type == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID ||
         type == SPV_OPERAND_TYPE_SCOPE_ID;
}

// The first "in" operand of |inst|: the one after its result type and id.
inline spvtools::opt::Instruction::const_iterator InOperandsBegin(
    const spvtools::opt::Instruction& inst) {
  return inst.cbegin() + (inst.HasResultType() ? 1 : 0) + (inst.HasResultId() ? 1 : 0);
}

// Calls |f(id)| for each id among the operands of |inst| from |first| on
// (its "in" operands from InOperandsBegin), in order: Instruction::ForEachInId
// without the std::function call per instruction.
template <typename F>
void ForEachIdFrom(const spvtools::opt::Instruction& inst,
                   spvtools::opt::Instruction::const_iterator first, F&& f) {
  // The end is read once: |f| may write memory the compiler cannot tell
  // apart from the instruction's operand array, which would make it read
  // the array's end on every iteration.
  for (auto operand = first, end = inst.cend(); operand != end; ++operand) {
    if (IsInIdType(operand->type)) f(operand->words[0]);
  }
}

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_MODULE_INDEX_H_
