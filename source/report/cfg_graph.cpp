// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// BuildCfgGraph: the IR, the uniformity result and the lint findings read
// into the plain CfgGraph that RenderCfgDot draws.

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "analysis/ir_tables.h"
#include "analysis/module_index.h"
#include "diagnostics/disassembly.h"
#include "diagnostics/names.h"
#include "diagnostics/source_files.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/cfg_dot.h"

namespace spirv_conv {
namespace {

using spvtools::opt::BasicBlock;
using spvtools::opt::Function;
using spvtools::opt::Instruction;
using spvtools::opt::IRContext;

bool Matches(IRContext& context, const Function& function, const std::string& wanted) {
  const uint32_t id = function.result_id();
  if (diagnostics::SelectsFunction(wanted, id, "")) return true;
  for (const auto& [target, name] : context.GetNames(id)) {
    if (diagnostics::SelectsFunction(wanted, id, name->GetInOperand(1).AsString())) return true;
  }
  return false;
}

// The value of case literal |operand| of OpSwitch |terminator|, as the
// selector's type reads it.
std::string CaseValue(IRContext& context, const Instruction& terminator, uint32_t operand) {
  const auto& words = terminator.GetInOperand(operand).words;
  uint64_t value = words[0] | (words.size() > 1 ? uint64_t{words[1]} << 32 : 0);
  auto* defs = context.get_def_use_mgr();
  const Instruction* selector = defs->GetDef(terminator.GetSingleWordInOperand(0));
  const Instruction* type = selector == nullptr ? nullptr : defs->GetDef(selector->type_id());
  if (type == nullptr || type->opcode() != spv::Op::OpTypeInt) return std::to_string(value);
  const uint32_t width = type->GetSingleWordInOperand(0);
  if (width < 64) value &= (uint64_t{1} << width) - 1;
  const bool is_signed = type->GetSingleWordInOperand(1) != 0;
  if (!is_signed || ((value >> (width - 1)) & 1) == 0) return std::to_string(value);
  // Two's complement: value - 2^width, computed without overflow.
  return "-" + std::to_string((~value + 1) & (width < 64 ? (uint64_t{1} << width) - 1 : ~0ull));
}

// The successors of |block|'s terminator, one edge per target, then the
// structured merge and continue targets.
std::vector<CfgEdge> EdgesOf(IRContext& context, const BasicBlock& block) {
  std::vector<CfgEdge> edges;
  // One edge per target: "case 1" then "case 1, 2"; "default, case 5".
  auto add = [&](uint32_t to, const std::string& label) {
    for (CfgEdge& edge : edges) {
      if (edge.to != to) continue;
      const bool more_cases =
          edge.label.find("case ") != std::string::npos && label.rfind("case ", 0) == 0;
      if (label.empty()) return;
      edge.label += (edge.label.empty() ? "" : ", ") + (more_cases ? label.substr(5) : label);
      return;
    }
    edges.push_back({to, CfgEdge::Kind::kBranch, label});
  };
  const Instruction& terminator = *block.ctail();
  switch (terminator.opcode()) {
    case spv::Op::OpBranch:
      add(terminator.GetSingleWordInOperand(0), "");
      break;
    case spv::Op::OpBranchConditional:
      add(terminator.GetSingleWordInOperand(1), "true");
      add(terminator.GetSingleWordInOperand(2), "false");
      break;
    case spv::Op::OpSwitch:
      add(terminator.GetSingleWordInOperand(1), "default");
      for (uint32_t i = 2; i + 1 < terminator.NumInOperands(); i += 2) {
        add(terminator.GetSingleWordInOperand(i + 1), "case " + CaseValue(context, terminator, i));
      }
      break;
    default:
      break;
  }
  if (const Instruction* merge = block.GetMergeInst()) {
    edges.push_back({merge->GetSingleWordInOperand(0), CfgEdge::Kind::kMerge, "merge"});
    if (merge->opcode() == spv::Op::OpLoopMerge) {
      edges.push_back({merge->GetSingleWordInOperand(1), CfgEdge::Kind::kContinue, "continue"});
    }
  }
  return edges;
}

// The source lines of |block|'s instructions, in the file its first line
// instruction names.
void SetLineRange(const BasicBlock& block, const diagnostics::SourceFiles& sources, CfgBlock* out) {
  std::optional<std::string> file;
  for (auto inst = block.cbegin(); inst != block.cend(); ++inst) {
    for (const Instruction& line_inst : inst->dbg_line_insts()) {
      std::optional<diagnostics::SourcePosition> position = sources.PositionOf(line_inst);
      if (!position || position->line == 0) continue;
      if (!file) file = position->file;
      if (position->file != *file) continue;
      out->first_line =
          out->first_line == 0 ? position->line : std::min(out->first_line, position->line);
      out->last_line = std::max(out->last_line, position->line);
    }
  }
}

CfgBlock BuildBlock(IRContext& context, const UniformityInfo& info, const diagnostics::Names& names,
                    const diagnostics::SourceFiles& sources, const BasicBlock& block) {
  CfgBlock out;
  out.label = block.id();
  out.name = names.Block(block.id());
  SetLineRange(block, sources, &out);
  out.control_flow = info.ControlFlowLevel(block.id());
  out.branch = info.BranchLevel(block.id());
  out.edges = EdgesOf(context, block);
  return out;
}

}  // namespace

Expected<CfgGraph> BuildCfgGraph(IRContext& context, const UniformityInfo& info,
                                 const std::vector<Finding>& findings,
                                 const std::string& function) {
  const analysis::ModuleIndex index(&context);
  const analysis::BlockTable blocks(context, index);
  const diagnostics::Disassembly disassembly(context, index);
  const diagnostics::Names names(context, index, disassembly);
  const diagnostics::SourceFiles sources(context, index, blocks, "");
  CfgGraph graph;
  // Where a finding's location (function name, block name) points.
  std::map<std::pair<std::string, std::string>, std::pair<size_t, size_t>> block_at;
  for (Function& f : *context.module()) {
    if (!Matches(context, f, function)) continue;
    CfgFunction out;
    out.id = f.result_id();
    out.name = names.Name(f.result_id());
    if (out.name.empty()) out.name = "%" + std::to_string(f.result_id());
    std::map<uint32_t, size_t> index_of;
    for (const BasicBlock& block : f) {
      index_of[block.id()] = out.blocks.size();
      block_at.emplace(std::make_pair(names.Name(f.result_id()), names.Block(block.id())),
                       std::make_pair(graph.functions.size(), out.blocks.size()));
      out.blocks.push_back(BuildBlock(context, info, names, sources, block));
    }
    for (const CfgBlock& block : out.blocks) {
      for (uint32_t join : info.Joins(block.label)) {
        auto it = index_of.find(join);
        if (it != index_of.end()) out.blocks[it->second].join_of.push_back(block.label);
      }
    }
    out.cycles = info.Cycles(f.result_id());
    graph.functions.push_back(std::move(out));
  }
  if (graph.functions.empty() && !function.empty()) {
    return Error{ExitCode::kBadInput, "no function named '" + function + "'"};
  }
  for (const Finding& finding : findings) {
    auto it = block_at.find({finding.location.function, finding.location.block});
    if (it == block_at.end()) continue;
    graph.functions[it->second.first].blocks[it->second.second].findings.push_back(
        {finding.rule, finding.severity, finding.location.line});
  }
  return graph;
}

}  // namespace spirv_conv
