// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/change_log.h"

#include <utility>

#include "source/opcode.h"

namespace spirv_conv {
namespace passes {

void RecordChange(ChangeLog* log, const char* pass, const char* action,
                  spvtools::opt::IRContext* context, const spvtools::opt::Instruction* inst,
                  std::string detail) {
  if (log == nullptr) return;
  PassChange change;
  change.pass = pass;
  change.action = action;
  change.detail = std::move(detail);
  if (inst != nullptr) {
    change.id = inst->result_id();
    change.opcode = std::string("Op") + spvOpcodeString(inst->opcode());
    // SPIRV-Tools' loader attaches the OpLine in force to every instruction
    // after it, so the last one is the instruction's own line.
    if (!inst->dbg_line_insts().empty()) {
      const spvtools::opt::Instruction& line = inst->dbg_line_insts().back();
      if (line.opcode() == spv::Op::OpLine) {
        // OpString is in the first debug section; read it directly rather
        // than through the def-use manager, which a pass may be updating.
        for (const spvtools::opt::Instruction& string : context->module()->debugs1()) {
          if (string.opcode() == spv::Op::OpString &&
              string.result_id() == line.GetSingleWordInOperand(0)) {
            change.file = string.GetInOperand(0).AsString();
          }
        }
        change.line = line.GetSingleWordInOperand(1);
      }
    }
  }
  log->push_back(std::move(change));
}

}  // namespace passes
}  // namespace spirv_conv
