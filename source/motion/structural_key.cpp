// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "motion/structural_key.h"

#include <algorithm>
#include <vector>

#include "source/opcode.h"

namespace spirv_conv {
namespace motion {
namespace {

using spvtools::opt::Instruction;

std::string Words(const spvtools::opt::Operand& operand) {
  std::string text;
  for (uint32_t word : operand.words) text += std::to_string(word) + ",";
  return text;
}

}  // namespace

StructuralKeys::StructuralKeys(spvtools::opt::IRContext& context,
                               const analysis::ModuleIndex& index)
    : index_(index) {
  for (const spvtools::opt::Function& function : *context.module()) {
    function.ForEachInst(
        [this](const Instruction* inst) {
          if (inst->HasResultId() && inst->opcode() != spv::Op::OpFunction) {
            local_ids_.insert(inst->result_id());
          }
        },
        /*run_for_debug_line_insts=*/false);
  }
}

const std::string& StructuralKeys::Global(uint32_t id) {
  auto found = global_.find(id);
  if (found != global_.end()) return found->second;
  global_[id] = "?";  // a forward pointer's cycle ends here
  const Instruction* def = index_.Def(id);
  std::string key = def ? spvOpcodeString(def->opcode()) : "none";
  if (def) {
    if (def->type_id() != 0) key += ":" + Global(def->type_id());
    for (uint32_t i = 0; i < def->NumInOperands(); ++i) key += "|" + Operand(*def, i, 0);
    std::vector<std::string> decorations;
    for (const Instruction* decoration : index_.Decorations(id)) {
      std::string text = spvOpcodeString(decoration->opcode());
      for (uint32_t i = 1; i < decoration->NumInOperands(); ++i) {
        text += "," + Words(decoration->GetInOperand(i));
      }
      decorations.push_back(text);
    }
    std::sort(decorations.begin(), decorations.end());
    for (const std::string& text : decorations) key += "@" + text;
  }
  return global_[id] = key;
}

std::string StructuralKeys::Operand(const Instruction& inst, uint32_t index, int depth) {
  const spvtools::opt::Operand& operand = inst.GetInOperand(index);
  if (!spvIsIdType(operand.type)) return Words(operand);
  const uint32_t id = operand.words[0];
  if (depth < 0) return "_";  // the weakest key: every operand id is a wildcard
  if (!IsLocal(id)) return Global(id);
  const Instruction* def = index_.Def(id);
  if (depth <= 0 || def == nullptr || def->opcode() == spv::Op::OpLabel ||
      def->opcode() == spv::Op::OpFunctionParameter) {
    return "_";
  }
  return "(" + Local(*def, depth - 1) + ")";
}

std::string StructuralKeys::Local(const Instruction& inst, int depth) {
  depth = std::min(std::max(depth, -1), kMaxDepth);
  auto found = local_[depth + 1].find(&inst);
  if (found != local_[depth + 1].end()) return found->second;
  std::string key = spvOpcodeString(inst.opcode());
  if (inst.type_id() != 0) key += ":" + Global(inst.type_id());
  for (uint32_t i = 0; i < inst.NumInOperands(); ++i) key += "|" + Operand(inst, i, depth);
  return local_[depth + 1][&inst] = key;
}

std::string StructuralKeys::Line(const Instruction& inst) const {
  if (inst.dbg_line_insts().empty()) return {};
  const Instruction& line = inst.dbg_line_insts().back();
  if (line.opcode() != spv::Op::OpLine) return {};
  const Instruction* file = index_.Def(line.GetSingleWordInOperand(0));
  std::string name = file && file->NumInOperands() > 0 ? file->GetInOperand(0).AsString() : "";
  return name + ":" + std::to_string(line.GetSingleWordInOperand(1));
}

}  // namespace motion
}  // namespace spirv_conv
