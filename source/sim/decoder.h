// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the decoding files share: the decorations of the module, the slot and
// layout of every id, and the program under construction.

#ifndef SOURCE_SIM_DECODER_H_
#define SOURCE_SIM_DECODER_H_

#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/program.h"
#include "spirv_conv/status.h"

namespace spvtools {
namespace opt {
class IRContext;
class Instruction;
class Function;
}  // namespace opt
}  // namespace spvtools

namespace spirv_conv {
namespace sim {

struct Decorations {
  // id -> (decoration, first literal)
  std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> of_id;
  // (struct id, member) -> (decoration, first literal)
  std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, uint32_t>>> of_member;
  bool Has(uint32_t id, uint32_t decoration, uint32_t* literal = nullptr) const;
  bool MemberHas(uint32_t id, uint32_t member, uint32_t decoration,
                 uint32_t* literal = nullptr) const;
};

class Decoder {
 public:
  Decoder(spvtools::opt::IRContext& context, Program* program)
      : context_(context), program_(*program) {}

  // types.cpp
  Status DecodeTypes();
  // The layout of |type| in memory; |matrix_stride| 0 means the natural layout.
  uint32_t LayoutOf(uint32_t type, uint32_t matrix_stride = 0, bool row_major = false);
  // constants.cpp: constants, spec constants (their defaults), undef.
  Status DecodeConstants();
  // The value of integer (or null) constant |id|; *known false for anything else.
  uint64_t ConstantValue(uint32_t id, bool* known) const;
  // globals.cpp: module-scope variables, resources, execution modes.
  Status DecodeGlobals(uint32_t entry_function);
  // A fragment Input or Output variable of |type|: its Location and Component.
  Status DecodeLocation(uint32_t id, uint32_t type, Global* g);
  // A UniformConstant image, sampler or combined image sampler (or an array of
  // them) becomes a resource whose descriptors hold handles.
  Status DecodeImageResource(uint32_t id, uint32_t type, Global* g);
  // functions.cpp
  Status DecodeFunctions(uint32_t entry_function);
  // access_chains.cpp: |out|'s operands (from out->ops on in |operands|) as the steps
  // exec_memory.cpp walks; the result's layout in id_layout.
  Status DecodeAccessChain(spvtools::opt::Instruction& inst, std::vector<uint32_t>* operands,
                           Inst* out);
  // kernel_args.cpp: a Kernel's parameters become resources (set 0, binding = index).
  Status DecodeKernelArguments(uint32_t entry_function);
  // The layout pointer |id| points to: what decoding recorded, else (Kernel
  // modules, whose layouts follow from types alone) the pointee type's.
  uint32_t PointerLayout(uint32_t id);
  // A struct or array with a pointer inside (its bytes in memory would be addresses).
  bool HoldsPointer(uint32_t type) const;

  // A new run of |comps| slots for |id|.
  uint32_t NewSlots(uint32_t id, uint32_t comps);
  uint32_t SlotOf(uint32_t id) const;
  const TypeInfo& Type(uint32_t id) const { return program_.types[id]; }
  uint32_t TypeOfId(uint32_t id) const;
  Error Unsupported(const std::string& what) const;

  Decorations decorations;
  std::vector<uint32_t> id_slot;    // by id
  std::vector<uint32_t> id_layout;  // pointers: the layout they point to
  uint32_t glsl_import = 0;
  uint32_t opencl_import = 0;
  uint32_t entry_point_id = 0;

 private:
  friend class FunctionDecoder;
  spvtools::opt::IRContext& context_;
  Program& program_;
  std::map<std::tuple<uint32_t, uint32_t, bool>, uint32_t> layout_cache_;

 public:
  spvtools::opt::IRContext& context() { return context_; }
  Program& program() { return program_; }
};

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_DECODER_H_
