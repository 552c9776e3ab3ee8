// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv cfg: a picture of each function's control flow, coloured by
// uniformity, with the lint's findings attached (Graphviz DOT or SVG).

#include <memory>

#include "commands.h"
#include "common.h"
#include "spirv_conv/cfg_dot.h"
#include "spirv_conv/emit.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/lint.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace cli {

Command AddCfgCommand(CLI::App& app) {
  struct Flags {
    AnalysisFlags analysis;
    std::string file;
    std::string output = "-";
    std::string function;
    std::string format = "dot";
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* command = app.add_subcommand(
      "cfg",
      "Draw each function's control-flow graph: blocks coloured by control-flow uniformity, "
      "divergent branches and their joins marked, cycles outlined, structured merges and "
      "continues dashed, lint findings beside their blocks. DOT, or SVG through Graphviz.");
  AddFileAndOutputOptions(command, &flags->file, &flags->output);
  command->add_option("--function", flags->function,
                      "Only this function (its OpName, with or without glslang's '(...' "
                      "signature, or %<id>)");
  command->add_option("--format", flags->format, "dot or svg (runs Graphviz' dot)")
      ->check(CLI::IsMember({"dot", "svg"}));
  AddAnalysisFlags(command, &flags->analysis);

  return [flags]() {
    Expected<Module> module = LoadForAnalysis(flags->file, flags->analysis);
    if (!module) return Report(module.error());
    const SpirvBinary& binary = module->binary();
    spvtools::opt::IRContext& context = module->ir();
    LintOptions lint;
    lint.uniformity = flags->analysis.Uniformity();
    lint.input_path = flags->file;
    Expected<std::unique_ptr<UniformityInfo>> info =
        UniformityInfo::Compute(&context, lint.uniformity);
    if (!info) return Report(info.error());
    const std::vector<Finding> findings = Lint(context, **info, lint);
    Expected<CfgGraph> graph = BuildCfgGraph(context, **info, findings, flags->function);
    if (!graph) return Report(MakeError(graph.error().code, binary.name, graph.error().message));
    graph->title = binary.name;
    std::string text = RenderCfgDot(*graph);
    if (flags->format == "svg") {
      Expected<std::string> svg = RenderSvg(text);
      if (!svg) return Report(MakeError(svg.error().code, binary.name, svg.error().message));
      text = std::move(svg.value());
    }
    Status written = WriteOutput(flags->output, text, {flags->file});
    if (!written) return Report(written.error());
    return 0;
  };
}

}  // namespace cli
}  // namespace spirv_conv
