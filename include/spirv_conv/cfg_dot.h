// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Pictures of control flow ("spirv-conv cfg"): each function's blocks
// coloured by control-flow uniformity, divergent branches and their joins
// marked, cycles outlined, structured merges and continues shown, and lint
// findings attached to their blocks. Built in two steps so each can be
// tested alone: BuildCfgGraph reads the IR, the uniformity result and the
// findings into a CfgGraph; RenderCfgDot turns that into Graphviz DOT text.
// RenderSvg runs Graphviz' `dot` on the text.

#ifndef INCLUDE_SPIRV_CONV_CFG_DOT_H_
#define INCLUDE_SPIRV_CONV_CFG_DOT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "spirv_conv/lint.h"
#include "spirv_conv/status.h"
#include "spirv_conv/uniformity.h"

namespace spvtools {
namespace opt {
class IRContext;
}  // namespace opt
}  // namespace spvtools

namespace spirv_conv {

struct CfgEdge {
  enum class Kind {
    kBranch,    // a successor of the terminator
    kMerge,     // OpSelectionMerge / OpLoopMerge: the merge block
    kContinue,  // OpLoopMerge: the continue target
  };
  uint32_t to = 0;  // OpLabel id
  Kind kind = Kind::kBranch;
  std::string label;  // "true", "false", "default", "case 3, 4"; empty for OpBranch
};

// A finding as the picture shows it.
struct CfgFinding {
  std::string rule;
  Severity severity = Severity::kWarning;
  uint32_t line = 0;  // 0 = unknown
};

struct CfgBlock {
  uint32_t label = 0;  // OpLabel id
  std::string name;    // OpName, or "%<id>"
  // The source lines of the block's instructions (OpLine / DebugLine in the
  // block's first source file); 0 when there are none.
  uint32_t first_line = 0;
  uint32_t last_line = 0;
  Uniformity control_flow = Uniformity::kUniform;
  Uniformity branch = Uniformity::kUniform;  // the level of the terminator's decision
  std::vector<uint32_t> join_of;  // the divergent branches (their blocks) this block joins
  std::vector<CfgEdge> edges;     // branches first, then merge and continue
  std::vector<CfgFinding> findings;
};

struct CfgFunction {
  uint32_t id = 0;
  std::string name;                     // OpName without glslang's "(…" suffix, or "%<id>"
  std::vector<CfgBlock> blocks;         // function order, entry first
  std::vector<UniformityCycle> cycles;  // parents before children
};

struct CfgGraph {
  std::string title;  // the graph's caption, e.g. the input's name
  std::vector<CfgFunction> functions;
};

// The picture of the functions of |context| that |function| names (an
// OpName, the OpName without glslang's "(…" signature suffix, or "%<id>";
// empty: every function). |info| was computed on |context|; |findings| come
// from Lint on the same context and are attached to the block their location
// names. No matching function: kBadInput.
Expected<CfgGraph> BuildCfgGraph(spvtools::opt::IRContext& context, const UniformityInfo& info,
                                 const std::vector<Finding>& findings, const std::string& function);

// Graphviz DOT for |graph|: one digraph, a cluster per function when there
// are several, a cluster per cycle (nested as the cycles are), and a legend.
std::string RenderCfgDot(const CfgGraph& graph);

// Runs Graphviz (`dot -Tsvg`, found on PATH) on |dot|. Without Graphviz:
// kBadInput, saying so; when dot fails: kInternalError with its message.
Expected<std::string> RenderSvg(const std::string& dot);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_CFG_DOT_H_
