// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv cfg: a picture of each function's control flow, coloured by
// uniformity, with the lint's findings attached (Graphviz DOT or SVG).

#include <memory>

#include "commands.h"
#include "common.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/cfg_dot.h"
#include "spirv_conv/emit.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/lint.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace cli {

Command AddCfgCommand(CLI::App& app) {
  struct Flags {
    InputFlags input;
    std::string file;
    std::string output = "-";
    std::string function;
    std::string format = "dot";
    bool skip_validation = false;
    bool no_concurrent_writes = false;
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
  command->add_flag("--skip-validation", flags->skip_validation,
                    "Analyse without validating the input first");
  command->add_flag("--assume-no-concurrent-writes", flags->no_concurrent_writes,
                    "Treat storage buffer, workgroup and storage image reads as uniform when the "
                    "address and every value the shader stores there are");
  AddInputFlags(command, &flags->input);

  return [flags]() {
    Expected<LoadOptions> options = ToLoadOptions(flags->input);
    if (!options) return Report(options.error());
    Expected<SpirvBinary> binary = LoadSpirv(flags->file, *options);
    if (!binary) return Report(binary.error());
    if (!flags->skip_validation) {
      Status valid = ValidateSpirv(binary->words, binary->target_env, flags->input.validator,
                                   binary->name, ExitCode::kBadInput);
      if (!valid) return Report(valid.error());
    }
    Expected<std::unique_ptr<spvtools::opt::IRContext>> context = BuildIrContext(*binary);
    if (!context) return Report(context.error());
    LintOptions lint;
    lint.uniformity.assume_no_concurrent_writes = flags->no_concurrent_writes;
    lint.input_path = flags->file;
    Expected<std::unique_ptr<UniformityInfo>> info =
        UniformityInfo::Compute(context->get(), lint.uniformity);
    if (!info) return Report(info.error());
    const std::vector<Finding> findings = Lint(**context, **info, lint);
    Expected<CfgGraph> graph = BuildCfgGraph(**context, **info, findings, flags->function);
    if (!graph) return Report(MakeError(graph.error().code, binary->name, graph.error().message));
    graph->title = binary->name;
    std::string text = RenderCfgDot(*graph);
    if (flags->format == "svg") {
      Expected<std::string> svg = RenderSvg(text);
      if (!svg) return Report(MakeError(svg.error().code, binary->name, svg.error().message));
      text = std::move(svg.value());
    }
    Status written = WriteOutput(flags->output, text, {flags->file});
    if (!written) return Report(written.error());
    return 0;
  };
}

}  // namespace cli
}  // namespace spirv_conv
