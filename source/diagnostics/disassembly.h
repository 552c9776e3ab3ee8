// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// One instruction as spirv-dis prints it, with friendly names. The names are
// computed once per module, from its global section only, and only when a
// finding is disassembled (Instruction::PrettyPrint serializes the whole
// module on every call, which is quadratic over a report).

#ifndef SOURCE_DIAGNOSTICS_DISASSEMBLY_H_
#define SOURCE_DIAGNOSTICS_DISASSEMBLY_H_

#include <cstdint>
#include <memory>
#include <string>

#include "analysis/module_index.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace diagnostics {

class Disassembly {
 public:
  Disassembly(spvtools::opt::IRContext& context, const analysis::ModuleIndex& index);
  ~Disassembly();

  // "%22 = OpLoad %v2float %inUV" (no indentation, no newline).
  std::string Text(const spvtools::opt::Instruction& inst) const;
  // The friendly name of |id| without the "%".
  std::string Name(uint32_t id) const;

 private:
  class Mapper;
  Mapper& mapper() const;

  spvtools::opt::IRContext& context_;
  const analysis::ModuleIndex& index_;
  mutable std::unique_ptr<Mapper> mapper_;  // built on first use
};

}  // namespace diagnostics
}  // namespace spirv_conv

#endif  // SOURCE_DIAGNOSTICS_DISASSEMBLY_H_
