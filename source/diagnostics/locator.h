// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The Location of an instruction, a block or a function: source position
// and line text when the module has debug info, and always the function,
// block and disassembled instruction.

#ifndef SOURCE_DIAGNOSTICS_LOCATOR_H_
#define SOURCE_DIAGNOSTICS_LOCATOR_H_

#include <cstdint>
#include <unordered_map>

#include "analysis/ir_tables.h"
#include "diagnostics/disassembly.h"
#include "diagnostics/names.h"
#include "diagnostics/source_files.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/diagnostic.h"

namespace spirv_conv {
namespace diagnostics {

class Locator {
 public:
  Locator(spvtools::opt::IRContext& context, const Names& names, const Disassembly& disassembly,
          const SourceFiles& sources, const analysis::BlockTable& blocks);

  Location At(const spvtools::opt::Instruction& inst) const;
  // A block is where its terminator is (the branch that decides).
  Location AtBlock(uint32_t label) const;
  // The function containing |inst| (0 if none).
  uint32_t FunctionOf(const spvtools::opt::Instruction& inst) const;

 private:
  const Names& names_;
  const Disassembly& disassembly_;
  const SourceFiles& sources_;
  const analysis::BlockTable& blocks_;
  std::unordered_map<uint32_t, uint32_t> function_of_parameter_;
};

}  // namespace diagnostics
}  // namespace spirv_conv

#endif  // SOURCE_DIAGNOSTICS_LOCATOR_H_
