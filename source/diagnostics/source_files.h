// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Source positions from debug info: OpLine/OpString/OpSource (glslang -g)
// and NonSemantic.Shader.DebugInfo.100 DebugLine/DebugSource (glslang -gV),
// and the source text behind them, from the module (OpSource/DebugSource
// text) or from the file on disk.

#ifndef SOURCE_DIAGNOSTICS_SOURCE_FILES_H_
#define SOURCE_DIAGNOSTICS_SOURCE_FILES_H_

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/ir_tables.h"
#include "analysis/module_index.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/load.h"

namespace spirv_conv {
namespace diagnostics {

struct SourcePosition {
  std::string file;  // empty when the line instruction names none
  uint32_t line = 0;
  uint32_t column = 0;  // 0 = unknown
};

class SourceFiles {
 public:
  // |input_path| is the file the module was loaded from: relative source
  // paths are also looked up next to it. May be empty. A text in |unsaved|
  // (may be null; it must outlive this) stands in for its file on disk.
  SourceFiles(spvtools::opt::IRContext& context, const analysis::ModuleIndex& index,
              const analysis::BlockTable& blocks, std::string input_path,
              const UnsavedFiles* unsaved = nullptr);
  // The same with its own index and block table (for a caller without them).
  SourceFiles(spvtools::opt::IRContext& context, std::string input_path);

  // The position an OpLine or DebugLine names; nullopt for OpNoLine,
  // DebugNoLine and lines that cannot be read.
  std::optional<SourcePosition> PositionOf(const spvtools::opt::Instruction& line_inst) const;

  // The position in effect at |inst|: the nearest line instruction before it
  // in its block (a line's scope ends with its block), or attached to it
  // when it is outside a block (OpFunction, OpFunctionParameter).
  std::optional<SourcePosition> PositionAt(const spvtools::opt::Instruction& inst) const;

  // Line |line| (1-based) of |file|, without its newline; empty when the text
  // is not available.
  std::string Line(const std::string& file, uint32_t line) const;

 private:
  // OpString names and the source texts the module holds.
  void Read(spvtools::opt::IRContext& context);
  std::string StringOf(uint32_t id) const;
  uint32_t ConstantOf(uint32_t id) const;
  const std::vector<std::string>* TextOf(const std::string& file) const;
  // The lines of |path|: its unsaved buffer, else the file on disk.
  std::vector<std::string> ReadSource(const std::filesystem::path& path) const;

  std::unique_ptr<analysis::ModuleIndex> own_index_;
  std::unique_ptr<analysis::BlockTable> own_blocks_;
  const analysis::ModuleIndex& index_;
  const analysis::BlockTable& blocks_;
  std::string input_path_;
  const UnsavedFiles* unsaved_;
  std::unordered_map<uint32_t, std::string> strings_;  // OpString
  // Source texts by file name: from the module, then read from disk on demand
  // (an empty vector: not available).
  mutable std::map<std::string, std::vector<std::string>> texts_;
};

}  // namespace diagnostics
}  // namespace spirv_conv

#endif  // SOURCE_DIAGNOSTICS_SOURCE_FILES_H_
