// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// How findings name things: OpName names as the shader author wrote them
// (glslang's "helper(f1;" becomes "helper"), the variable a load reads, and
// SPIR-V's friendly %names for everything else.

#ifndef SOURCE_DIAGNOSTICS_NAMES_H_
#define SOURCE_DIAGNOSTICS_NAMES_H_

#include <cstdint>
#include <string>
#include <unordered_map>

#include "analysis/module_index.h"
#include "diagnostics/disassembly.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace diagnostics {

// "quad", "subgroup", "workgroup": the scope a required level names.
const char* ScopeWord(Uniformity required);

// "OpDPdx".
std::string OpcodeName(const spvtools::opt::Instruction& inst);

// Whether a --function argument |wanted| selects function |function| whose
// OpName is |op_name| ("" if none): empty selects every function; else
// "%<id>", or the OpName as written or without glslang's signature suffix
// ("helper" and "helper(f1;" both select glslang's helper(f1;).
bool SelectsFunction(const std::string& wanted, uint32_t function, const std::string& op_name);

class Names {
 public:
  Names(spvtools::opt::IRContext& context, const analysis::ModuleIndex& index,
        const Disassembly& disassembly);

  // The OpName of |id| (functions without glslang's signature suffix), or "".
  std::string Name(uint32_t id) const;
  // "%" and the friendly name spirv-dis prints for |id|.
  std::string IdName(uint32_t id) const;
  // A value as a message shows it: 'name' for named values, 'var' for a load
  // from (an element of) a named variable, "the result of 'f'" for an
  // unnamed call, else its %id.
  std::string Describe(uint32_t id) const;
  // A block: its OpName, or %<id>.
  std::string Block(uint32_t label) const { return NameOrId(label); }
  // A function: its OpName (without glslang's signature suffix), or %<id>.
  std::string Function(uint32_t function) const { return NameOrId(function); }
  // The variable or pointer parameter a pointer points into (through access
  // chains and copies), or null.
  const spvtools::opt::Instruction* RootVariable(uint32_t pointer_id) const;

 private:
  std::string NameOrId(uint32_t id) const;

  const analysis::ModuleIndex& index_;
  const Disassembly& disassembly_;
  std::unordered_map<uint32_t, std::string> names_;
  // OpMemberName: (struct type id << 32 | member index) -> name.
  std::unordered_map<uint64_t, std::string> member_names_;
};

}  // namespace diagnostics
}  // namespace spirv_conv

#endif  // SOURCE_DIAGNOSTICS_NAMES_H_
