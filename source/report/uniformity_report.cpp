// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/uniformity_report.h"

#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "analysis/convergence_classes.h"
#include "analysis/module_index.h"
#include "diagnostics/disassembly.h"
#include "diagnostics/names.h"
#include "diagnostics/source_files.h"
#include "nlohmann/json.hpp"
#include "source/opcode.h"

namespace spirv_conv {
namespace {

using spvtools::opt::Function;
using spvtools::opt::Instruction;
using spvtools::opt::IRContext;

std::unordered_map<uint32_t, std::string> Names(IRContext& context) {
  std::unordered_map<uint32_t, std::string> names;
  for (const Instruction& inst : context.module()->debugs2()) {
    if (inst.opcode() == spv::Op::OpName) {
      names.emplace(inst.GetSingleWordInOperand(0), inst.GetInOperand(1).AsString());
    }
  }
  return names;
}

bool Matches(const Function& function, const std::unordered_map<uint32_t, std::string>& names,
             const std::string& wanted) {
  auto it = names.find(function.result_id());
  return diagnostics::SelectsFunction(wanted, function.result_id(),
                                      it == names.end() ? std::string() : it->second);
}

std::set<uint32_t> EntryPoints(IRContext& context) {
  std::set<uint32_t> entries;
  for (const Instruction& e : context.module()->entry_points()) {
    entries.insert(e.GetSingleWordInOperand(1));
  }
  return entries;
}

std::string Prefix(Uniformity level) {
  switch (level) {
    case Uniformity::kUniform:
      return "             ";
    case Uniformity::kSubgroup:
      return "SUBGROUP:    ";
    case Uniformity::kQuad:
      return "QUAD:        ";
    case Uniformity::kDivergent:
      return "DIVERGENT:   ";
  }
  return "";
}

std::string Label(uint32_t id, const std::unordered_map<uint32_t, std::string>& names) {
  auto it = names.find(id);
  return "%" + (it != names.end() ? it->second : std::to_string(id));
}

// "OpDPdx", "OpBranchConditional", ... (spvOpcodeString leaves out "Op").
std::string OpcodeName(spv::Op opcode) { return std::string("Op") + spvOpcodeString(opcode); }

// Convergent instructions (docs/json.md, "convergent_ops"): the opcode
// table's convergent class.
bool IsConvergent(const Instruction& inst) {
  return analysis::ClassifyConvergence(inst).Has(analysis::kConvergent);
}

}  // namespace

bool HasFunction(IRContext& context, const std::string& function_name) {
  const auto names = Names(context);
  for (const Function& f : *context.module()) {
    if (Matches(f, names, function_name)) return true;
  }
  return false;
}

std::string UniformityText(IRContext& context, const UniformityInfo& info,
                           const std::string& function_name) {
  const auto names = Names(context);
  // spirv-dis' text with friendly names, names computed once (PrettyPrint
  // serializes the whole module on every call: quadratic over a report).
  const analysis::ModuleIndex index(&context);
  const diagnostics::Disassembly disassembly(context, index);
  std::ostringstream out;
  for (Function& function : *context.module()) {
    if (!Matches(function, names, function_name)) continue;
    out << "UniformityInfo for function " << Label(function.result_id(), names) << ":\n";
    auto print_cycles = [&](const char* title, auto flag) {
      bool any = false;
      for (const UniformityCycle& c : info.Cycles(function.result_id())) {
        const Uniformity level = flag(c);
        if (level == Uniformity::kUniform) continue;
        if (!any) out << title << "\n";
        any = true;
        out << "  depth=" << c.depth << ": entries(";
        for (size_t i = 0; i < c.entries.size(); ++i) {
          out << (i ? " " : "") << Label(c.entries[i], names);
        }
        out << ")";
        for (uint32_t b : c.blocks) {
          if (std::find(c.entries.begin(), c.entries.end(), b) == c.entries.end()) {
            out << " " << Label(b, names);
          }
        }
        if (level != Uniformity::kDivergent) out << " [" << UniformityName(level) << "]";
        out << "\n";
      }
    };
    print_cycles("CYCLES ASSUMED DIVERGENT:",
                 [](const UniformityCycle& c) { return c.assumed_divergent; });
    print_cycles("CYCLES WITH DIVERGENT EXIT:",
                 [](const UniformityCycle& c) { return c.divergent_exit; });
    function.ForEachParam([&](const Instruction* param) {
      out << "  PARAMETER " << Prefix(info.ValueLevel(param->result_id()))
          << disassembly.Text(*param) << "\n";
    });
    for (auto& block : function) {
      out << "\nBLOCK " << Label(block.id(), names);
      const Uniformity cf = info.ControlFlowLevel(block.id());
      if (cf != Uniformity::kUniform) out << " (control flow: " << UniformityName(cf) << ")";
      out << "\nDEFINITIONS\n";
      for (Instruction& inst : block) {
        if (inst.IsBlockTerminator() || inst.opcode() == spv::Op::OpSelectionMerge ||
            inst.opcode() == spv::Op::OpLoopMerge) {
          continue;
        }
        const Uniformity level =
            inst.HasResultId() ? info.ValueLevel(inst.result_id()) : Uniformity::kUniform;
        out << "  " << Prefix(level) << disassembly.Text(inst) << "\n";
      }
      out << "TERMINATORS\n";
      const Uniformity branch = info.BranchLevel(block.id());
      for (Instruction& inst : block) {
        if (inst.IsBlockTerminator() || inst.opcode() == spv::Op::OpSelectionMerge ||
            inst.opcode() == spv::Op::OpLoopMerge) {
          out << "  " << Prefix(branch) << disassembly.Text(inst) << "\n";
        }
      }
      out << "END BLOCK\n";
    }
    out << "\n";
  }
  return out.str();
}

std::string UniformityJson(IRContext& context, const UniformityInfo& info,
                           const std::string& function_name, const std::string& file) {
  using nlohmann::json;
  const auto names = Names(context);
  const std::set<uint32_t> entries = EntryPoints(context);
  const diagnostics::SourceFiles sources(context, file);
  // The source line a line instruction names, if any.
  auto line_of = [&](const Instruction& line_inst) -> std::optional<uint32_t> {
    std::optional<diagnostics::SourcePosition> position = sources.PositionOf(line_inst);
    if (!position) return std::nullopt;
    return position->line;
  };
  auto name_of = [&](uint32_t id) -> json {
    auto it = names.find(id);
    return it == names.end() ? json(nullptr) : json(it->second);
  };
  auto ids = [&](const std::vector<uint32_t>& list) {
    json array = json::array();
    for (uint32_t id : list) array.push_back(id);
    return array;
  };
  json functions = json::array();
  for (Function& function : *context.module()) {
    if (!Matches(function, names, function_name)) continue;
    json values = json::array();
    auto add_value = [&](uint32_t id) {
      values.push_back(
          {{"id", id}, {"name", name_of(id)}, {"level", UniformityName(info.ValueLevel(id))}});
    };
    function.ForEachParam([&](const Instruction* param) { add_value(param->result_id()); });
    json blocks = json::array();
    json convergent_ops = json::array();
    auto line_json = [](std::optional<uint32_t> line) {
      return line ? json(*line) : json(nullptr);
    };
    for (auto& block : function) {
      // The nearest preceding OpLine in the block (its scope ends with the
      // block): the loader may or may not copy it onto later instructions.
      std::optional<uint32_t> line;
      for (Instruction& inst : block) {
        if (!inst.dbg_line_insts().empty()) line = line_of(inst.dbg_line_insts().back());
        if (inst.HasResultId() && inst.opcode() != spv::Op::OpLabel) add_value(inst.result_id());
        if (IsConvergent(inst)) {
          convergent_ops.push_back(
              {{"id", inst.HasResultId() ? json(inst.result_id()) : json(nullptr)},
               {"opcode", OpcodeName(inst.opcode())},
               {"block", block.id()},
               {"line", line_json(line)},
               {"control_flow_level", UniformityName(info.ControlFlowLevel(inst))}});
        }
      }
      const Uniformity branch = info.BranchLevel(block.id());
      blocks.push_back({{"id", block.id()},
                        {"name", name_of(block.id())},
                        {"branch_level", UniformityName(branch)},
                        {"divergent_branch", branch != Uniformity::kUniform},
                        {"control_flow_level", UniformityName(info.ControlFlowLevel(block.id()))},
                        {"terminator", OpcodeName(block.tail()->opcode())},
                        {"line", line_json(line)}});
    }
    json cycles = json::array();
    for (const UniformityCycle& c : info.Cycles(function.result_id())) {
      cycles.push_back({{"header", c.header},
                        {"entries", ids(c.entries)},
                        {"blocks", ids(c.blocks)},
                        {"depth", c.depth},
                        {"reducible", c.reducible},
                        {"divergent_exit", UniformityName(c.divergent_exit)},
                        {"assumed_divergent", UniformityName(c.assumed_divergent)}});
    }
    functions.push_back({{"id", function.result_id()},
                         {"name", name_of(function.result_id())},
                         {"entry_point", entries.count(function.result_id()) != 0},
                         {"values", std::move(values)},
                         {"blocks", std::move(blocks)},
                         {"convergent_ops", std::move(convergent_ops)},
                         {"cycles", std::move(cycles)}});
  }
  // Moved, not copied, into their parents: a copy of a large function's
  // values can cost more than its analysis.
  json report = {{"file", file}, {"functions", std::move(functions)}};
  // OpName and OpString bytes may not be UTF-8: replace what is not.
  return report.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace spirv_conv
