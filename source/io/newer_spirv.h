// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Modules from toolchains newer than the bundled SPIRV-Tools 2023.1: what in
// them its parser (and so its validator, disassembler and IR loader) does not
// know, named from the table cmake/spirv_newer_enumerants.json, and the same
// module without the declarations an analysis can do without
// (docs/cli.md#input-from-newer-toolchains).

#ifndef SOURCE_IO_NEWER_SPIRV_H_
#define SOURCE_IO_NEWER_SPIRV_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.h"

namespace spirv_conv {
namespace io {

// "the bundled SPIRV-Tools v2023.1".
std::string BundledSpirvTools();

// An enumerant or opcode the bundled SPIRV-Tools does not know.
struct UnknownEnumerant {
  std::string kind;  // grammar kind: "Capability", "ExecutionMode", ..., "Op"
  uint32_t value = 0;
  std::string name;       // from the table; empty when it does not list the value
  std::string extension;  // from the table; empty for core SPIR-V or an unlisted value
  // Its instruction is a declaration the analysis can do without: an
  // OpCapability, an OpExecutionMode(Id) of a listed mode, an OpSource.
  bool droppable = false;

  // "capability FloatControls2 (6029, SPV_KHR_float_controls2)",
  // "instruction OpFmaKHR (4427, SPV_KHR_fma)", "capability 7777 (not in
  // spirv-conv's table of newer SPIR-V either)".
  std::string Describe() const;
};

// "A (...)", "A (...) and B (...)", "A (...), B (...) and C (...)".
std::string DescribeAll(const std::vector<UnknownEnumerant>& unknown);

// What stops SPIRV-Tools' binary parser on a module, found by parsing it
// again after leaving out each droppable instruction it stops at.
struct NewerSpirvScan {
  // The module parses as it is: nothing below applies.
  bool parses = false;
  // Droppable declarations left out (each enumerant once, in module order).
  std::vector<UnknownEnumerant> dropped;
  // The first unknown enumerant that is not droppable: the IR cannot load.
  std::optional<UnknownEnumerant> blocking;
  // A parse error not about an unknown enumerant, after the drops (empty if
  // none): the module is malformed in another way too.
  std::string other_error;
  // The module without the dropped instructions (when |dropped| is not
  // empty and neither |blocking| nor |other_error| is set, it parses).
  std::vector<uint32_t> words;

  // True when the module uses something newer than the bundled SPIRV-Tools.
  bool FoundNewer() const { return !dropped.empty() || blocking.has_value(); }
  // |dropped| and |blocking|, in that order.
  std::vector<UnknownEnumerant> All() const;
  // True when the module without |dropped| parses.
  bool LoadsWithoutDropped() const { return !dropped.empty() && !blocking && other_error.empty(); }
};

// Parses |words| (host order, header checked) with SPIRV-Tools' binary parser
// and, while it stops at something newer that can be dropped, again without
// it. Cheap for modules that parse (one parse); the drops are near the start
// of a module, where the parser stops early.
NewerSpirvScan ScanForNewerSpirv(const std::vector<uint32_t>& words, spv_target_env env);

// The OpExtension strings of |words| the bundled SPIRV-Tools does not know,
// in module order, each once.
std::vector<std::string> UnknownExtensions(const std::vector<uint32_t>& words);

// For an assembler message about a name it does not know ("Invalid capability
// 'FloatControls2'.", "Invalid Opcode name 'OpFmaKHR'"): the table's entry
// for that name, if it lists it.
std::optional<UnknownEnumerant> NewerEnumerantInAssemblerMessage(const std::string& message);

}  // namespace io
}  // namespace spirv_conv

#endif  // SOURCE_IO_NEWER_SPIRV_H_
