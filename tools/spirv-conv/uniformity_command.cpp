// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv uniformity: print the uniformity of every value, branch and
// block of one module.

#include <memory>

#include "commands.h"
#include "common.h"
#include "spirv_conv/emit.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/uniformity.h"
#include "spirv_conv/uniformity_report.h"

namespace spirv_conv {
namespace cli {

Command AddUniformityCommand(CLI::App& app) {
  struct Flags {
    AnalysisFlags analysis;
    std::string file;
    std::string output = "-";
    std::string function;
    std::string format = "text";
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* command = app.add_subcommand(
      "uniformity",
      "Print the dynamic uniformity (uniform, subgroup, quad, divergent) of every value, the "
      "level of every branch and block, and the cycles (docs/uniformity.md). Text follows LLVM's "
      "print<uniformity>; JSON is described in docs/json.md.");
  AddFileAndOutputOptions(command, &flags->file, &flags->output);
  command->add_option("--function", flags->function, "Only this function (its OpName, or %<id>)");
  command->add_option("--format", flags->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  AddAnalysisFlags(command, &flags->analysis);

  return [flags]() {
    Expected<Module> module = LoadForAnalysis(flags->file, flags->analysis);
    if (!module) return Report(module.error());
    const SpirvBinary& binary = module->binary();
    spvtools::opt::IRContext& context = module->ir();
    if (!HasFunction(context, flags->function)) {
      return Report(MakeError(ExitCode::kBadInput, binary.name,
                              "no function named '" + flags->function + "'"));
    }
    Expected<std::unique_ptr<UniformityInfo>> info =
        UniformityInfo::Compute(&context, flags->analysis.Uniformity());
    if (!info) return Report(info.error());
    const std::string text = flags->format == "json"
                                 ? UniformityJson(context, **info, flags->function, binary.name)
                                 : UniformityText(context, **info, flags->function);
    Status written = WriteOutput(flags->output, text, {flags->file});
    if (!written) return Report(written.error());
    return 0;
  };
}

}  // namespace cli
}  // namespace spirv_conv
