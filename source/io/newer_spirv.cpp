// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "io/newer_spirv.h"

#include <algorithm>
#include <iomanip>
#include <regex>
#include <sstream>

#include "source/enum_string_mapping.h"
#include "source/extensions.h"

namespace spirv_conv {
namespace io {
namespace {

struct TableRow {
  const char* kind;
  uint32_t value;
  const char* name;
  const char* extension;
};

// Generated from cmake/spirv_newer_enumerants.json: only rows the grammar
// SPIRV-Tools is built from lacks.
constexpr TableRow kNewerEnumerants[] = {
#include "newer_enumerants.inc"
};

const TableRow* FindRow(const std::string& kind, uint32_t value) {
  for (const TableRow& row : kNewerEnumerants) {
    if (kind == row.kind && value == row.value) return &row;
  }
  return nullptr;
}

const TableRow* FindRowByName(const std::string& kind, const std::string& name) {
  for (const TableRow& row : kNewerEnumerants) {
    if (kind == row.kind && name == row.name) return &row;
  }
  return nullptr;
}

// SPIRV-Tools' name of an operand kind in its messages (spvOperandTypeStr)
// and the grammar's.
struct KindName {
  const char* spirv_tools;
  const char* grammar;
  const char* shown;  // in spirv-conv's messages
};
constexpr KindName kKindNames[] = {
    {"capability", "Capability", "capability"},
    {"execution mode", "ExecutionMode", "execution mode"},
    {"storage class", "StorageClass", "storage class"},
    {"dimensionality", "Dim", "image dimension"},
    {"decoration", "Decoration", "decoration"},
    {"built-in", "BuiltIn", "built-in"},
    {"source language", "SourceLanguage", "source language"},
    {"floating-point fast math mode", "FPFastMathMode", "fast-math flag"},
    {"", "FPEncoding", "floating-point encoding"},
    {"opcode", "Op", "instruction"},
};

std::string GrammarKind(const std::string& spirv_tools_kind) {
  for (const KindName& kind : kKindNames) {
    if (spirv_tools_kind == kind.spirv_tools) return kind.grammar;
  }
  return spirv_tools_kind;  // a kind the table has no rows for
}

std::string ShownKind(const std::string& grammar_kind) {
  for (const KindName& kind : kKindNames) {
    if (grammar_kind == kind.grammar) return kind.shown;
  }
  return grammar_kind;
}

UnknownEnumerant MakeUnknown(const std::string& kind, uint32_t value) {
  UnknownEnumerant unknown;
  unknown.kind = kind;
  unknown.value = value;
  if (const TableRow* row = FindRow(kind, value)) {
    unknown.name = row->name;
    unknown.extension = row->extension;
  }
  return unknown;
}

constexpr uint32_t kOpSource = 3;
constexpr uint32_t kOpExtension = 10;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kOpTypeFloat = 22;
constexpr uint32_t kOpFunction = 54;
constexpr uint32_t kOpExecutionModeId = 331;
constexpr size_t kHeaderWords = 5;

// The word offset of instruction |index| (0 = the first after the header),
// or npos when the stream is malformed before it.
size_t InstructionOffset(const std::vector<uint32_t>& words, size_t index) {
  if (index == std::string::npos) return std::string::npos;
  size_t offset = kHeaderWords;
  for (size_t i = 0; i < index; ++i) {
    if (offset >= words.size()) return std::string::npos;
    const uint32_t count = words[offset] >> 16;
    if (count == 0) return std::string::npos;
    offset += count;
  }
  if (offset >= words.size() || (words[offset] >> 16) == 0 ||
      offset + (words[offset] >> 16) > words.size()) {
    return std::string::npos;
  }
  return offset;
}

struct ParseError {
  std::string message;
  size_t instruction = std::string::npos;  // index of the instruction it stopped at
};

// One run of SPIRV-Tools' binary parser (no validation).
std::optional<ParseError> Parse(const std::vector<uint32_t>& words, spv_target_env env) {
  spv_context context = spvContextCreate(env);
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t result =
      spvBinaryParse(context, nullptr, words.data(), words.size(), nullptr, nullptr, &diagnostic);
  std::optional<ParseError> error;
  if (result != SPV_SUCCESS) {
    error = ParseError{};
    if (diagnostic) {
      error->message = diagnostic->error ? diagnostic->error : "";
      // The parser counts the instruction it stops at (1 = the first).
      const size_t count = diagnostic->position.index;
      error->instruction = count > 0 ? count - 1 : std::string::npos;
    }
  }
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return error;
}

uint32_t ToWord(const std::string& digits) { return static_cast<uint32_t>(std::stoull(digits)); }

// The unknown enumerant a parse error is about, if it is about one.
std::optional<UnknownEnumerant> Identify(const std::vector<uint32_t>& words,
                                         const ParseError& error) {
  static const std::regex kOpcode(R"(^Invalid opcode: (\d+)$)");
  static const std::regex kSpecConstantOpcode(R"(^Invalid OpSpecConstantOp opcode: (\d+)$)");
  static const std::regex kMask(R"(^Invalid (.+) operand: \d+ has invalid mask component (\d+)$)");
  static const std::regex kOperand(R"(^Invalid (.+) operand: (\d+)$)");
  static const std::regex kExtraOperand(
      R"(^Invalid instruction Op\w+ starting at word \d+: expected no more operands)");
  std::smatch match;
  const size_t offset = InstructionOffset(words, error.instruction);
  const uint32_t opcode = offset == std::string::npos ? 0 : words[offset] & 0xffffu;
  const uint32_t count = offset == std::string::npos ? 0 : words[offset] >> 16;

  std::optional<UnknownEnumerant> unknown;
  if (std::regex_match(error.message, match, kOpcode) ||
      std::regex_match(error.message, match, kSpecConstantOpcode)) {
    unknown = MakeUnknown("Op", ToWord(match[1].str()));
  } else if (std::regex_match(error.message, match, kMask)) {
    unknown = MakeUnknown(GrammarKind(match[1].str()), ToWord(match[2].str()));
  } else if (std::regex_match(error.message, match, kOperand)) {
    unknown = MakeUnknown(GrammarKind(match[1].str()), ToWord(match[2].str()));
  } else if (std::regex_search(error.message, match, kExtraOperand) && opcode == kOpTypeFloat &&
             count == 4) {
    // OpTypeFloat %id Width Encoding: the encoding operand is newer.
    unknown = MakeUnknown("FPEncoding", words[offset + 3]);
  }
  if (!unknown) return std::nullopt;
  if (unknown->kind == "Capability") {
    unknown->droppable = opcode == kOpCapability;
  } else if (unknown->kind == "ExecutionMode") {
    // Only modes the table lists, whose meaning was looked at: none of them
    // weakens what the analysis assumes (docs/cli.md#input-from-newer-toolchains).
    unknown->droppable =
        (opcode == kOpExecutionMode || opcode == kOpExecutionModeId) && !unknown->name.empty();
  } else if (unknown->kind == "SourceLanguage") {
    unknown->droppable = opcode == kOpSource;
  }
  return unknown;
}

// The operand word of |opcode| that holds a droppable |kind|'s enumerant, or
// 0 when |opcode| declares none.
size_t DeclaredWord(uint32_t opcode, const std::string& kind) {
  if (kind == "Capability" && opcode == kOpCapability) return 1;
  if (kind == "ExecutionMode" && (opcode == kOpExecutionMode || opcode == kOpExecutionModeId)) {
    return 2;
  }
  if (kind == "SourceLanguage" && opcode == kOpSource) return 1;
  return 0;
}

// |words| without the instructions declaring |unknown| (a droppable one).
std::vector<uint32_t> WithoutDeclarationsOf(const std::vector<uint32_t>& words,
                                            const UnknownEnumerant& unknown) {
  std::vector<uint32_t> kept(words.begin(), words.begin() + kHeaderWords);
  kept.reserve(words.size());
  size_t offset = kHeaderWords;
  while (offset < words.size()) {
    const uint32_t count = words[offset] >> 16;
    if (count == 0 || offset + count > words.size()) break;  // the rest as it is
    const size_t word = DeclaredWord(words[offset] & 0xffffu, unknown.kind);
    const bool drop = word != 0 && word < count && words[offset + word] == unknown.value;
    if (!drop) kept.insert(kept.end(), words.begin() + offset, words.begin() + offset + count);
    offset += count;
  }
  kept.insert(kept.end(), words.begin() + offset, words.end());
  return kept;
}

std::string ShownValue(const UnknownEnumerant& unknown) {
  if (unknown.kind != "FPFastMathMode") return std::to_string(unknown.value);
  std::ostringstream hex;
  hex << "0x" << std::hex << unknown.value;
  return hex.str();
}

}  // namespace

std::string BundledSpirvTools() {
  return std::string("the bundled SPIRV-Tools ") + spvSoftwareVersionString();
}

std::string UnknownEnumerant::Describe() const {
  if (name.empty()) {
    return (kind == "Op" ? std::string("opcode") : ShownKind(kind)) + " " + ShownValue(*this) +
           " (not in spirv-conv's table of newer SPIR-V either)";
  }
  return ShownKind(kind) + " " + name + " (" + ShownValue(*this) +
         (extension.empty() ? "" : ", " + extension) + ")";
}

std::string DescribeAll(const std::vector<UnknownEnumerant>& unknown) {
  std::string text;
  for (size_t i = 0; i < unknown.size(); ++i) {
    if (i > 0) text += i + 1 == unknown.size() ? " and " : ", ";
    text += unknown[i].Describe();
  }
  return text;
}

std::vector<UnknownEnumerant> NewerSpirvScan::All() const {
  std::vector<UnknownEnumerant> all = dropped;
  if (blocking) all.push_back(*blocking);
  return all;
}

NewerSpirvScan ScanForNewerSpirv(const std::vector<uint32_t>& words, spv_target_env env) {
  NewerSpirvScan scan;
  scan.words = words;
  // Each round removes every declaration of one enumerant; a module uses few
  // newer ones, and the bound keeps a hostile module cheap.
  constexpr int kMaxDrops = 64;
  for (int round = 0;; ++round) {
    std::optional<ParseError> error = Parse(scan.words, env);
    if (!error) {
      scan.parses = round == 0;
      break;
    }
    std::optional<UnknownEnumerant> unknown = Identify(scan.words, *error);
    if (!unknown) {
      scan.other_error = error->message.empty() ? "malformed module" : error->message;
      break;
    }
    if (!unknown->droppable || round == kMaxDrops) {
      unknown->droppable = false;
      scan.blocking = *unknown;
      break;
    }
    scan.words = WithoutDeclarationsOf(scan.words, *unknown);
    scan.dropped.push_back(*unknown);
  }
  if (!scan.LoadsWithoutDropped()) scan.words.clear();
  return scan;
}

std::vector<std::string> UnknownExtensions(const std::vector<uint32_t>& words) {
  std::vector<std::string> unknown;
  for (size_t offset = kHeaderWords; offset < words.size();) {
    const uint32_t count = words[offset] >> 16;
    const uint32_t opcode = words[offset] & 0xffffu;
    if (count == 0 || offset + count > words.size() || opcode == kOpFunction) break;
    if (opcode == kOpExtension) {
      std::string name;
      for (size_t i = offset + 1; i < offset + count; ++i) {
        for (int shift = 0; shift < 32; shift += 8) {
          const char c = static_cast<char>((words[i] >> shift) & 0xffu);
          if (c == '\0') {
            i = offset + count;
            break;
          }
          name.push_back(c);
        }
      }
      spvtools::Extension extension;
      if (!spvtools::GetExtensionFromString(name.c_str(), &extension) &&
          std::find(unknown.begin(), unknown.end(), name) == unknown.end()) {
        unknown.push_back(name);
      }
    }
    offset += count;
  }
  return unknown;
}

std::optional<UnknownEnumerant> NewerEnumerantInAssemblerMessage(const std::string& message) {
  static const std::regex kOpcodeName(R"(^Invalid Opcode name '([^']*)'$)");
  static const std::regex kOperandName(R"(^Invalid (.+) '([^']*)'\.$)");
  std::smatch match;
  const TableRow* row = nullptr;
  if (std::regex_match(message, match, kOpcodeName)) {
    row = FindRowByName("Op", match[1].str());
  } else if (std::regex_match(message, match, kOperandName)) {
    std::string kind = match[1].str();  // masks: "floating-point fast math mode operand"
    const std::string operand = " operand";
    if (kind.size() > operand.size() &&
        kind.compare(kind.size() - operand.size(), operand.size(), operand) == 0) {
      kind.resize(kind.size() - operand.size());
    }
    row = FindRowByName(GrammarKind(kind), match[2].str());
  }
  if (!row) return std::nullopt;
  return MakeUnknown(row->kind, row->value);
}

}  // namespace io
}  // namespace spirv_conv
