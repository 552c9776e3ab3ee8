// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "diagnostics/locator.h"

namespace spirv_conv {
namespace diagnostics {

using spvtools::opt::Instruction;

Locator::Locator(spvtools::opt::IRContext& context, const Names& names,
                 const Disassembly& disassembly, const SourceFiles& sources,
                 const analysis::BlockTable& blocks)
    : names_(names), disassembly_(disassembly), sources_(sources), blocks_(blocks) {
  for (const spvtools::opt::Function& function : *context.module()) {
    function.ForEachParam([&](const Instruction* param) {
      function_of_parameter_.emplace(param->result_id(), function.result_id());
    });
  }
}

uint32_t Locator::FunctionOf(const Instruction& inst) const {
  if (inst.opcode() == spv::Op::OpFunction) return inst.result_id();
  if (inst.opcode() == spv::Op::OpFunctionParameter) {
    auto it = function_of_parameter_.find(inst.result_id());
    return it == function_of_parameter_.end() ? 0 : it->second;
  }
  return blocks_.FunctionOf(inst);
}

Location Locator::At(const Instruction& inst) const {
  Location location;
  if (std::optional<SourcePosition> position = sources_.PositionAt(inst)) {
    location.file = position->file;
    location.line = position->line;
    location.column = position->column;
    location.source_line = sources_.Line(position->file, position->line);
  }
  if (const uint32_t function = FunctionOf(inst)) location.function = names_.Name(function);
  if (const auto* block = blocks_.Of(inst)) {
    location.block = names_.Block(block->id());
  }
  location.instruction = disassembly_.Text(inst);
  return location;
}

Location Locator::AtBlock(uint32_t label) const {
  const auto* block = blocks_.OfLabel(label);
  if (block == nullptr) return Location{};
  return At(*block->ctail());
}

}  // namespace diagnostics
}  // namespace spirv_conv
