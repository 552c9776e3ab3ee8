// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "diagnostics/source_files.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

namespace spirv_conv {
namespace diagnostics {

using spvtools::opt::Instruction;

namespace {

constexpr uintmax_t kMaxSourceBytes = 16u << 20;

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  return lines;
}

// glslangValidator puts "// OpModuleProcessed ..." lines and "#line 1" in
// front of the text it embeds; the shader's own line 1 follows.
void DropGlslangPreamble(std::vector<std::string>* lines) {
  if (lines->empty() || lines->front().rfind("// OpModuleProcessed", 0) != 0) return;
  for (size_t i = 0; i < lines->size() && i < 64; ++i) {
    if ((*lines)[i] == "#line 1") {
      lines->erase(lines->begin(), lines->begin() + static_cast<std::ptrdiff_t>(i + 1));
      return;
    }
    if ((*lines)[i].rfind("// OpModuleProcessed", 0) != 0) return;
  }
}

std::vector<std::string> ReadLines(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error) ||
      std::filesystem::file_size(path, error) > kMaxSourceBytes || error) {
    return {};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  return SplitLines(
      std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
}

}  // namespace

SourceFiles::SourceFiles(spvtools::opt::IRContext& context, std::string input_path)
    : own_index_(std::make_unique<analysis::ModuleIndex>(&context)),
      own_blocks_(std::make_unique<analysis::BlockTable>(context, *own_index_)),
      index_(*own_index_),
      blocks_(*own_blocks_),
      input_path_(std::move(input_path)),
      unsaved_(nullptr) {
  Read(context);
}

SourceFiles::SourceFiles(spvtools::opt::IRContext& context, const analysis::ModuleIndex& index,
                         const analysis::BlockTable& blocks, std::string input_path,
                         const UnsavedFiles* unsaved)
    : index_(index), blocks_(blocks), input_path_(std::move(input_path)), unsaved_(unsaved) {
  Read(context);
}

void SourceFiles::Read(spvtools::opt::IRContext& context) {
  // OpString names, and OpSource texts continued by OpSourceContinued.
  std::string* text = nullptr;
  std::map<std::string, std::string> texts;
  for (const Instruction& inst : context.module()->debugs1()) {
    switch (inst.opcode()) {
      case spv::Op::OpString:
        strings_.emplace(inst.result_id(), inst.GetInOperand(0).AsString());
        break;
      case spv::Op::OpSource:
        text = nullptr;
        if (inst.NumInOperands() > 3) {
          text = &texts[StringOf(inst.GetSingleWordInOperand(2))];
          *text = inst.GetInOperand(3).AsString();
        }
        break;
      case spv::Op::OpSourceContinued:
        if (text != nullptr) *text += inst.GetInOperand(0).AsString();
        break;
      default:
        break;
    }
  }
  // DebugSource File [Text] (glslang -gV).
  for (const Instruction& inst : context.module()->ext_inst_debuginfo()) {
    if (inst.GetShader100DebugOpcode() == NonSemanticShaderDebugInfo100DebugSource &&
        inst.NumInOperands() > 3) {
      const std::string file = StringOf(inst.GetSingleWordInOperand(2));
      if (texts[file].empty()) texts[file] = StringOf(inst.GetSingleWordInOperand(3));
    }
  }
  for (auto& [file, source] : texts) {
    if (source.empty()) continue;
    std::vector<std::string> lines = SplitLines(source);
    DropGlslangPreamble(&lines);
    texts_.emplace(file, std::move(lines));
  }
}

std::string SourceFiles::StringOf(uint32_t id) const {
  auto it = strings_.find(id);
  return it == strings_.end() ? std::string() : it->second;
}

uint32_t SourceFiles::ConstantOf(uint32_t id) const {
  const Instruction* constant = index_.Def(id);
  if (constant == nullptr || constant->opcode() != spv::Op::OpConstant) return 0;
  return constant->GetSingleWordInOperand(0);
}

std::optional<SourcePosition> SourceFiles::PositionOf(const Instruction& line_inst) const {
  if (line_inst.IsNoLine()) return std::nullopt;
  SourcePosition position;
  if (line_inst.opcode() == spv::Op::OpLine) {
    position.file = StringOf(line_inst.GetSingleWordInOperand(0));
    position.line = line_inst.GetSingleWordInOperand(1);
    position.column = line_inst.GetSingleWordInOperand(2);
  } else if (line_inst.IsLine() && line_inst.NumInOperands() > 5) {
    // DebugLine: set, instruction, Source, Line Start, Line End, Column Start, ...
    const Instruction* source = index_.Def(line_inst.GetSingleWordInOperand(2));
    if (source != nullptr && source->NumInOperands() > 2) {
      position.file = StringOf(source->GetSingleWordInOperand(2));
    }
    position.line = ConstantOf(line_inst.GetSingleWordInOperand(3));
    position.column = ConstantOf(line_inst.GetSingleWordInOperand(5));
  } else {
    return std::nullopt;
  }
  if (position.line == 0) return std::nullopt;
  return position;
}

std::optional<SourcePosition> SourceFiles::PositionAt(const Instruction& inst) const {
  auto line_of = [&](const Instruction& i) -> std::optional<SourcePosition> {
    return PositionOf(i.dbg_line_insts().back());
  };
  const auto* block = blocks_.Of(inst);
  if (block == nullptr) {
    if (inst.dbg_line_insts().empty()) return std::nullopt;
    return line_of(inst);
  }
  std::optional<SourcePosition> position;
  for (const Instruction& i : *block) {
    if (!i.dbg_line_insts().empty()) position = line_of(i);
    if (&i == &inst) break;
  }
  return position;
}

const std::vector<std::string>* SourceFiles::TextOf(const std::string& file) const {
  auto it = texts_.find(file);
  if (it == texts_.end()) {
    std::vector<std::string> lines;
    if (!file.empty()) {
      const std::filesystem::path path(file);
      std::vector<std::filesystem::path> candidates = {path};
      if (path.is_relative() && !input_path_.empty()) {
        candidates.push_back(std::filesystem::path(input_path_).parent_path() / path);
      }
      for (const std::filesystem::path& candidate : candidates) {
        lines = ReadSource(candidate);
        if (!lines.empty()) break;
      }
    }
    it = texts_.emplace(file, std::move(lines)).first;
  }
  return &it->second;
}

std::vector<std::string> SourceFiles::ReadSource(const std::filesystem::path& path) const {
  if (unsaved_ != nullptr) {
    auto buffer = unsaved_->find(UnsavedFileKey(path.string()));
    if (buffer != unsaved_->end()) return SplitLines(buffer->second);
  }
  return ReadLines(path);
}

std::string SourceFiles::Line(const std::string& file, uint32_t line) const {
  const std::vector<std::string>* lines = TextOf(file);
  if (line == 0 || line > lines->size()) return std::string();
  return (*lines)[line - 1];
}

}  // namespace diagnostics
}  // namespace spirv_conv
