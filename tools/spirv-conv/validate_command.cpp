// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv validate: load each input and run spirv-val on it.

#include <iostream>
#include <memory>

#include "commands.h"
#include "common.h"
#include "spirv_conv/target_env.h"

namespace spirv_conv {
namespace cli {

Command AddValidateCommand(CLI::App& app) {
  struct Flags {
    InputFlags input;
    std::vector<std::string> files;
    bool quiet = false;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* command = app.add_subcommand(
      "validate",
      "Validate each input with spirv-val for its target env. Prints one line per valid module; "
      "exits 1 if any module is invalid, 2 if any cannot be loaded or uses SPIR-V newer than the "
      "bundled SPIRV-Tools.");
  AddFilesOption(command, &flags->files);
  command->add_flag("-q,--quiet", flags->quiet, "Print nothing for valid modules");
  AddInputFlags(command, &flags->input);

  return [flags]() {
    Expected<LoadOptions> options = ToLoadOptions(flags->input);
    if (!options) return Report(options.error());
    int exit_code = 0;
    for (const std::string& file : flags->files) {
      Expected<SpirvBinary> binary = LoadSpirv(file, *options);
      if (!binary) {
        exit_code = Worst(exit_code, Report(binary.error()));
        continue;
      }
      Status valid = ValidateSpirv(binary->words, binary->target_env, flags->input.validator,
                                   binary->name, ExitCode::kFindings);
      if (!valid) {
        exit_code = Worst(exit_code, Report(valid.error()));
        continue;
      }
      if (!flags->quiet) {
        std::cout << binary->name << ": valid (" << TargetEnvName(binary->target_env) << ", SPIR-V "
                  << SpirvVersionString(binary->words[1]) << ", "
                  << SourceLanguageName(binary->language) << " input)\n";
      }
    }
    return exit_code;
  };
}

}  // namespace cli
}  // namespace spirv_conv
