// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv uniformity: print the uniformity of every value, branch and
// block of one module.

#include <memory>

#include "commands.h"
#include "common.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/emit.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/uniformity.h"
#include "uniformity_report.h"

namespace spirv_conv {
namespace cli {

Command AddUniformityCommand(CLI::App& app) {
  struct Flags {
    InputFlags input;
    std::string file;
    std::string output = "-";
    std::string function;
    std::string format = "text";
    bool skip_validation = false;
    bool no_concurrent_writes = false;
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
  command->add_flag("--skip-validation", flags->skip_validation,
                    "Analyse without validating the input first (for modules spirv-val 2023.1 "
                    "rejects); the analysis may then refuse IR it cannot model");
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
    if (!HasFunction(**context, flags->function)) {
      return Report(MakeError(ExitCode::kBadInput, binary->name,
                              "no function named '" + flags->function + "'"));
    }
    UniformityOptions analysis;
    analysis.assume_no_concurrent_writes = flags->no_concurrent_writes;
    Expected<std::unique_ptr<UniformityInfo>> info =
        UniformityInfo::Compute(context->get(), analysis);
    if (!info) return Report(info.error());
    const std::string text = flags->format == "json"
                                 ? UniformityJson(**context, **info, flags->function, binary->name)
                                 : UniformityText(**context, **info, flags->function);
    Status written = WriteOutput(flags->output, text, {flags->file});
    if (!written) return Report(written.error());
    return 0;
  };
}

}  // namespace cli
}  // namespace spirv_conv
