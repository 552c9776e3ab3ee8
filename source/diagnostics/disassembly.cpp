// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "diagnostics/disassembly.h"

#include <cctype>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "source/disassemble.h"
#include "source/ext_inst.h"
#include "source/name_mapper.h"
#include "source/opt/module.h"

namespace spirv_conv {
namespace diagnostics {

using spvtools::opt::Instruction;

class Disassembly::Mapper {
 public:
  // spirv-dis' friendly names, computed without its quadratic cost: OpName
  // names (sanitized, "_<n>" on repeats) come from the names section, and
  // the names of types, constants and unnamed global variables from
  // SPIRV-Tools' FriendlyNameMapper over the module without its names and
  // function bodies. Other ids keep their number. (FriendlyNameMapper over
  // the whole module tries every "_<n>" for each repeated name, quadratic in
  // the repeats, and glslang names every call argument "param".)
  explicit Mapper(spvtools::opt::IRContext& context)
      : spv_context_(spvContextCreate(context.grammar().target_env())) {
    for (const Instruction& inst : context.module()->debugs2()) {
      if (inst.opcode() == spv::Op::OpName) {
        SaveName(inst.GetSingleWordInOperand(0), inst.GetInOperand(1).AsString());
      }
    }
    const std::vector<uint32_t> words = GlobalsWithoutNames(context);
    globals_ =
        std::make_unique<spvtools::FriendlyNameMapper>(spv_context_, words.data(), words.size());
  }
  ~Mapper() { spvContextDestroy(spv_context_); }
  Mapper(const Mapper&) = delete;
  Mapper& operator=(const Mapper&) = delete;

  std::string Name(uint32_t id) const {
    auto it = names_.find(id);
    if (it != names_.end()) return it->second;
    // Ids of function bodies keep their number (FriendlyNameMapper would
    // format it through a string stream).
    if (id >= global_.size() || !global_[id]) return std::to_string(id);
    return globals_->NameForId(id);
  }

  // The module up to its first function, without OpName/OpMemberName; the
  // ids it defines are marked in |global_|.
  std::vector<uint32_t> GlobalsWithoutNames(spvtools::opt::IRContext& context) {
    const spvtools::opt::Module& module = *context.module();
    std::vector<uint32_t> words = {spv::MagicNumber, module.version(), module.generator(),
                                   module.id_bound(), module.schema()};
    global_.assign(module.id_bound(), false);
    auto add = [&](const Instruction& inst) {
      inst.ToBinaryWithoutAttachedDebugInsts(&words);
      if (inst.result_id() < global_.size()) global_[inst.result_id()] = true;
    };
    // Module::ForEachInst's order, without the names (debugs2) and the
    // functions.
    for (const Instruction& inst : module.capabilities()) add(inst);
    for (const Instruction& inst : module.extensions()) add(inst);
    for (const Instruction& inst : module.ext_inst_imports()) add(inst);
    if (const Instruction* model = module.GetMemoryModel()) add(*model);
    if (const Instruction* mode = module.GetSampledImageAddressMode()) add(*mode);
    for (const Instruction& inst : module.entry_points()) add(inst);
    for (const Instruction& inst : module.execution_modes()) add(inst);
    for (const Instruction& inst : module.debugs1()) add(inst);
    for (const Instruction& inst : module.debugs3()) add(inst);
    for (const Instruction& inst : module.ext_inst_debuginfo()) add(inst);
    for (const Instruction& inst : module.annotations()) add(inst);
    for (const Instruction& inst : module.types_values()) add(inst);
    return words;
  }

  // As FriendlyNameMapper::SaveName, with a counter per repeated name.
  void SaveName(uint32_t id, const std::string& suggested) {
    if (names_.count(id)) return;
    std::string name = suggested.empty() ? "_" : suggested;
    for (char& c : name) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
    }
    if (!used_.insert(name).second) {
      uint32_t& next = repeats_[name];
      std::string candidate;
      do {
        candidate = name + "_" + std::to_string(next++);
      } while (!used_.insert(candidate).second);
      name = candidate;
    }
    names_.emplace(id, std::move(name));
  }

  // |parsed| as text; one stream and printer serve every call.
  std::string Print(const spv_parsed_instruction_t& parsed,
                    const spvtools::AssemblyGrammar& grammar) {
    if (!printer_) {
      printer_ = std::make_unique<spvtools::disassemble::InstructionDisassembler>(
          grammar, text_, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES,
          [this](uint32_t id) { return Name(id); });
    }
    text_.str(std::string());
    text_.clear();
    printer_->EmitInstruction(parsed, 0);
    std::string result = text_.str();
    while (!result.empty() && result.back() == '\n') result.pop_back();
    return result;
  }

 private:
  spv_context spv_context_;
  std::unordered_map<uint32_t, std::string> names_;  // from OpName
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, uint32_t> repeats_;
  std::unique_ptr<spvtools::FriendlyNameMapper> globals_;
  std::vector<bool> global_;  // by id: defined before the functions
  std::ostringstream text_;
  std::unique_ptr<spvtools::disassemble::InstructionDisassembler> printer_;
};

Disassembly::Disassembly(spvtools::opt::IRContext& context, const analysis::ModuleIndex& index)
    : context_(context), index_(index) {}
Disassembly::~Disassembly() = default;

Disassembly::Mapper& Disassembly::mapper() const {
  if (!mapper_) mapper_ = std::make_unique<Mapper>(context_);
  return *mapper_;
}

std::string Disassembly::Name(uint32_t id) const { return mapper().Name(id); }

namespace {

// The extended instruction set an OpExtInst uses, for the name of its
// instruction number.
spv_ext_inst_type_t ExtInstType(const analysis::ModuleIndex& index, const Instruction& inst) {
  if (inst.opcode() != spv::Op::OpExtInst) return SPV_EXT_INST_TYPE_NONE;
  const Instruction* import = index.Def(inst.GetSingleWordInOperand(0));
  if (import == nullptr) return SPV_EXT_INST_TYPE_NONE;
  return spvExtInstImportTypeGet(import->GetInOperand(0).AsString().c_str());
}

}  // namespace

std::string Disassembly::Text(const Instruction& inst) const {
  // The instruction as a parsed binary instruction: its words and operand
  // layout, as the disassembler expects them.
  std::vector<uint32_t> words;
  inst.ToBinaryWithoutAttachedDebugInsts(&words);
  std::vector<spv_parsed_operand_t> operands;
  uint16_t offset = 1;
  for (const auto& operand : inst) {
    spv_parsed_operand_t parsed{};
    parsed.offset = offset;
    parsed.num_words = static_cast<uint16_t>(operand.words.size());
    parsed.type = operand.type;
    parsed.number_kind = SPV_NUMBER_NONE;
    if (operand.type == SPV_OPERAND_TYPE_LITERAL_INTEGER ||
        operand.type == SPV_OPERAND_TYPE_TYPED_LITERAL_NUMBER) {
      parsed.number_kind = SPV_NUMBER_UNSIGNED_INT;
      parsed.number_bit_width = 32 * parsed.num_words;
    }
    operands.push_back(parsed);
    offset = static_cast<uint16_t>(offset + parsed.num_words);
  }
  spv_parsed_instruction_t parsed{};
  parsed.words = words.data();
  parsed.num_words = static_cast<uint16_t>(words.size());
  parsed.opcode = static_cast<uint16_t>(inst.opcode());
  parsed.ext_inst_type = ExtInstType(index_, inst);
  parsed.type_id = inst.type_id();
  parsed.result_id = inst.result_id();
  parsed.operands = operands.data();
  parsed.num_operands = static_cast<uint16_t>(operands.size());

  return mapper().Print(parsed, context_.grammar());
}

}  // namespace diagnostics
}  // namespace spirv_conv
