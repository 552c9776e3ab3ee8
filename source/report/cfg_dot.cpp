// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// RenderCfgDot: a CfgGraph as Graphviz DOT (docs/cli.md, "cfg").

#include "spirv_conv/cfg_dot.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace spirv_conv {
namespace {

// Colour-blind-safe fills: a pale blue for uniform control flow against
// ColorBrewer's YlOrBr for the narrower levels, which also tell apart by
// lightness alone (in greyscale).
const char* FillColor(Uniformity level) {
  switch (level) {
    case Uniformity::kUniform:
      return "#DCEBF7";
    case Uniformity::kSubgroup:
      return "#FEE391";
    case Uniformity::kQuad:
      return "#FB9A29";
    case Uniformity::kDivergent:
      return "#CC4C02";
  }
  return "#FFFFFF";
}
const char* FontColor(Uniformity level) {
  return level == Uniformity::kDivergent ? "#FFFFFF" : "#000000";
}
// Divergent branches, their edges, and cycles with a divergent exit.
constexpr char kMarkColor[] = "#A50026";
constexpr char kStructureColor[] = "#707070";  // merge and continue edges, cycle frames
constexpr size_t kFindingsShown = 6;

// |text| as a DOT string: quoted, with quotes and backslashes escaped and
// newlines as centred line breaks.
std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
  }
  return out + "\"";
}

std::string NodeId(uint32_t label) { return "b" + std::to_string(label); }

std::string Lines(const CfgBlock& block) {
  if (block.first_line == 0) return "";
  if (block.first_line == block.last_line) return "line " + std::to_string(block.first_line);
  return "lines " + std::to_string(block.first_line) + "-" + std::to_string(block.last_line);
}

class Writer {
 public:
  Writer(const CfgFunction& function, std::ostringstream& out) : function_(function), out_(out) {
    for (const CfgBlock& block : function.blocks) name_of_[block.label] = block.name;
    // Each block is drawn in its innermost cycle, each cycle inside its
    // parent. Cycles of one depth are disjoint, so going by depth, the
    // innermost cycle of a header seen so far is the parent of its cycle.
    const auto& cycles = function.cycles;
    std::vector<size_t> by_depth(cycles.size());
    for (size_t c = 0; c < cycles.size(); ++c) by_depth[c] = c;
    std::stable_sort(by_depth.begin(), by_depth.end(),
                     [&](size_t a, size_t b) { return cycles[a].depth < cycles[b].depth; });
    std::map<uint32_t, size_t> innermost;  // block label -> cycle
    children_.resize(cycles.size() + 1);
    for (size_t c : by_depth) {
      auto parent = innermost.find(cycles[c].header);
      children_[parent == innermost.end() ? 0 : parent->second + 1].push_back(c);
      for (uint32_t label : cycles[c].blocks) innermost[label] = c;
    }
    members_.resize(cycles.size() + 1);
    for (const CfgBlock& block : function.blocks) {
      auto it = innermost.find(block.label);
      members_[it == innermost.end() ? 0 : it->second + 1].push_back(&block);
    }
    for (auto& list : children_) std::sort(list.begin(), list.end());
  }

  // The blocks and cycles directly in |cycle| (kNone: outside every cycle).
  void Nodes(size_t cycle, const std::string& indent) {
    const size_t slot = cycle == kNone ? 0 : cycle + 1;
    for (const CfgBlock* block : members_[slot]) Node(*block, indent);
    for (size_t c : children_[slot]) Cycle(c, indent);
  }

  void Edges(const std::string& indent) {
    for (const CfgBlock& block : function_.blocks) {
      for (const CfgEdge& edge : block.edges) {
        out_ << indent << NodeId(block.label) << " -> " << NodeId(edge.to) << " [";
        if (edge.kind != CfgEdge::Kind::kBranch) {
          out_ << "style=dashed, color=\"" << kStructureColor << "\", fontcolor=\""
               << kStructureColor << "\", constraint=false, ";
        } else if (block.branch != Uniformity::kUniform) {
          out_ << "style=bold, penwidth=2, color=\"" << kMarkColor << "\", ";
        }
        out_ << "label=" << Quote(edge.label) << "];\n";
      }
      if (!block.findings.empty()) {
        out_ << indent << NodeId(block.label) << " -> n" << block.label
             << " [style=dotted, arrowhead=none];\n";
      }
    }
  }

  static constexpr size_t kNone = ~size_t{0};

 private:
  std::string Name(uint32_t label) const {
    auto it = name_of_.find(label);
    return it == name_of_.end() ? "%" + std::to_string(label) : it->second;
  }

  void Node(const CfgBlock& block, const std::string& indent) {
    std::string label = block.name;
    if (!Lines(block).empty()) label += "  (" + Lines(block) + ")";
    if (block.control_flow != Uniformity::kUniform) {
      label += std::string("\n") + UniformityName(block.control_flow) + " control flow";
    }
    if (block.branch != Uniformity::kUniform) {
      label += std::string("\n") + UniformityName(block.branch) + " branch";
    }
    if (!block.join_of.empty()) {
      label += "\njoin of";
      for (size_t i = 0; i < block.join_of.size(); ++i) {
        label += (i ? ", " : " ") + Name(block.join_of[i]);
      }
    }
    out_ << indent << NodeId(block.label) << " [label=" << Quote(label) << ", fillcolor=\""
         << FillColor(block.control_flow) << "\", fontcolor=\"" << FontColor(block.control_flow)
         << "\"";
    if (block.branch != Uniformity::kUniform) {
      out_ << ", penwidth=3, color=\"" << kMarkColor << "\"";
    }
    if (!block.join_of.empty()) out_ << ", peripheries=2";
    out_ << "];\n";
    if (!block.findings.empty()) Findings(block, indent);
  }

  // A note beside the block: one line per finding.
  void Findings(const CfgBlock& block, const std::string& indent) {
    std::string text;
    Severity worst = Severity::kNote;
    for (size_t i = 0; i < block.findings.size(); ++i) {
      const CfgFinding& finding = block.findings[i];
      worst = std::max(worst, finding.severity);
      if (i == kFindingsShown) {
        text += "+" + std::to_string(block.findings.size() - i) + " more\n";
        break;
      }
      text += std::string(SeverityName(finding.severity)) + " " + finding.rule;
      if (finding.line != 0) text += " (line " + std::to_string(finding.line) + ")";
      text += "\n";
    }
    text.pop_back();
    out_ << indent << "n" << block.label << " [shape=note, style=filled, fillcolor=\"#FFFFFF\", "
         << "fontcolor=\"#000000\", color=\""
         << (worst == Severity::kNote ? kStructureColor : kMarkColor) << "\", label=" << Quote(text)
         << "];\n";
    out_ << indent << "{rank=same; " << NodeId(block.label) << "; n" << block.label << ";}\n";
  }

  void Cycle(size_t c, const std::string& indent) {
    const UniformityCycle& cycle = function_.cycles[c];
    std::string label = "cycle " + Name(cycle.header) + ", depth " + std::to_string(cycle.depth);
    if (!cycle.reducible) label += "\nirreducible";
    if (cycle.divergent_exit != Uniformity::kUniform) {
      label += std::string("\ndivergent exit (") + UniformityName(cycle.divergent_exit) + ")";
    }
    if (cycle.assumed_divergent != Uniformity::kUniform) {
      label += std::string("\nassumed divergent (") + UniformityName(cycle.assumed_divergent) + ")";
    }
    const bool marked = cycle.divergent_exit != Uniformity::kUniform ||
                        cycle.assumed_divergent != Uniformity::kUniform;
    out_ << indent << "subgraph cluster_cycle_" << cycle.header << " {\n";
    const std::string inner = indent + "  ";
    out_ << inner << "label=" << Quote(label) << "; labeljust=l; style=\"rounded,dashed\"; "
         << "penwidth=" << (marked ? 2 : 1) << "; color=\""
         << (marked ? kMarkColor : kStructureColor) << "\";\n";
    Nodes(c, inner);
    out_ << indent << "}\n";
  }

  const CfgFunction& function_;
  std::ostringstream& out_;
  std::map<uint32_t, std::string> name_of_;
  // Per cycle + 1 (0: the function outside every cycle): the blocks and the
  // cycles directly inside it, in function and hierarchy order.
  std::vector<std::vector<const CfgBlock*>> members_;
  std::vector<std::vector<size_t>> children_;
};

// The legend: the fills and the markers, as a table.
void Legend(std::ostringstream& out) {
  out << "  subgraph cluster_legend {\n"
      << "    label=\"legend\"; style=rounded; color=\"#B0B0B0\";\n"
      << "    legend [shape=plaintext, style=\"\", margin=0, label=<\n"
      << "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"2\" CELLPADDING=\"4\">\n"
      << "<TR><TD COLSPAN=\"2\"><B>control flow is uniform across</B></TD></TR>\n";
  const Uniformity levels[] = {Uniformity::kUniform, Uniformity::kSubgroup, Uniformity::kQuad,
                               Uniformity::kDivergent};
  const char* meanings[] = {"the invocation group", "each subgroup only", "each quad only",
                            "nothing (divergent)"};
  for (size_t i = 0; i < 4; ++i) {
    out << "<TR><TD BGCOLOR=\"" << FillColor(levels[i]) << "\"><FONT COLOR=\""
        << FontColor(levels[i]) << "\">" << UniformityName(levels[i]) << "</FONT></TD><TD>"
        << meanings[i] << "</TD></TR>\n";
  }
  out << "<TR><TD BORDER=\"3\" COLOR=\"" << kMarkColor << "\">thick red border</TD>"
      << "<TD>non-uniform branch (its edges bold red)</TD></TR>\n"
      << "<TR><TD>double border</TD><TD>join of a non-uniform branch</TD></TR>\n"
      << "<TR><TD>dashed frame</TD><TD>cycle (red: divergent exit or assumed divergent)</TD>"
      << "</TR>\n"
      << "<TR><TD><FONT COLOR=\"" << kStructureColor << "\">dashed edge</FONT></TD>"
      << "<TD>structured merge / continue</TD></TR>\n"
      << "<TR><TD>note</TD><TD>lint findings: severity, rule, line</TD></TR>\n"
      << "</TABLE>>];\n"
      << "  }\n";
}

}  // namespace

std::string RenderCfgDot(const CfgGraph& graph) {
  std::ostringstream out;
  out << "digraph cfg {\n"
      << "  graph [fontname=\"Helvetica\", fontsize=12, newrank=true];\n"
      << "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11];\n"
      << "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  const bool clusters = graph.functions.size() > 1;
  for (const CfgFunction& function : graph.functions) {
    Writer writer(function, out);
    std::string indent = "  ";
    if (clusters) {
      out << "  subgraph cluster_function_" << function.id << " {\n"
          << "    label=" << Quote("function " + function.name)
          << "; style=rounded; color=\"#000000\"; penwidth=1;\n";
      indent = "    ";
    }
    writer.Nodes(Writer::kNone, indent);
    writer.Edges(indent);
    if (clusters) out << "  }\n";
  }
  Legend(out);
  // Last, so that no cluster inherits it.
  std::string title = graph.title;
  if (!clusters && !graph.functions.empty()) {
    title += (title.empty() ? "" : ": ") + std::string("function ") + graph.functions[0].name;
  }
  out << "  label=" << Quote(title) << "; labelloc=t;\n"
      << "}\n";
  return out.str();
}

}  // namespace spirv_conv
