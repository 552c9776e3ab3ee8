// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv opt: load -> validate -> passes -> validate -> write.

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include "commands.h"
#include "common.h"
#include "spirv_conv/emit.h"
#include "spirv_conv/pipeline.h"
#include "spirv_conv/target_env.h"

namespace spirv_conv {
namespace cli {
namespace {

namespace fs = std::filesystem;

// Where the result for |input| goes: |output| itself for one input, else a
// file named after the input inside the directory |output|.
std::string OutputPathFor(const std::string& input, const std::string& output, bool into_dir,
                          bool text) {
  if (!into_dir) return output;
  fs::path name = fs::path(input == "-" ? "stdin" : input).filename();
  name.replace_extension(text ? ".spvasm" : ".spv");
  return (fs::path(output) / name).string();
}

}  // namespace

Command AddOptCommand(CLI::App& app) {
  struct Flags {
    InputFlags input;
    std::vector<std::string> files;
    std::string output;
    bool text = false;
    bool skip_validation = false;
    bool verbose = false;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* command = app.add_subcommand(
      "opt",
      "Run the pass pipeline: load, validate, transform, validate the result, write it. Output "
      "is written atomically and only when spirv-val accepts it; an input is never overwritten.");
  AddFilesOption(command, &flags->files);
  command
      ->add_option("-o", flags->output,
                   "Output file (- for stdout); with several inputs, an existing directory")
      ->required();
  command->add_flag("--text", flags->text, "Write SPIR-V assembly instead of a binary");
  command->add_flag("--skip-validation", flags->skip_validation,
                    "Do not validate the input (the output is validated regardless)");
  command->add_flag("-v,--verbose", flags->verbose, "Print one line per module written");
  AddInputFlags(command, &flags->input);

  return [flags]() {
    Expected<LoadOptions> options = ToLoadOptions(flags->input);
    if (!options) return Report(options.error());
    const bool into_dir = flags->files.size() > 1;
    if (into_dir && !fs::is_directory(flags->output)) {
      return Report(Error{
          ExitCode::kBadInput,
          "several inputs need -o to name an existing directory, not '" + flags->output + "'"});
    }
    // Two inputs named alike ("x/a.spv", "y/a.spv") would write one file:
    // refuse before anything is written.
    std::vector<std::string> output_paths;
    std::map<std::string, std::string> input_of;  // output path -> input
    for (const std::string& file : flags->files) {
      const std::string& path =
          output_paths.emplace_back(OutputPathFor(file, flags->output, into_dir, flags->text));
      auto [it, inserted] = input_of.emplace(path, file);
      if (!inserted) {
        return Report(MakeError(ExitCode::kBadInput, file,
                                "its output '" + path + "' would also be the output of '" +
                                    it->second + "'; run them separately"));
      }
    }
    PipelineOptions pipeline;
    pipeline.validator = flags->input.validator;
    pipeline.skip_input_validation = flags->skip_validation;

    int exit_code = 0;
    for (size_t i = 0; i < flags->files.size(); ++i) {
      const std::string& file = flags->files[i];
      Expected<SpirvBinary> binary = LoadSpirv(file, *options);
      if (!binary) {
        exit_code = Worst(exit_code, Report(binary.error()));
        continue;
      }
      Expected<std::vector<uint32_t>> words = RunPipeline(*binary, pipeline);
      if (!words) {
        exit_code = Worst(exit_code, Report(words.error()));
        continue;
      }
      std::string contents;
      if (flags->text) {
        Expected<std::string> text =
            Disassemble(*words, binary->target_env, DisassembleOptions(), binary->name);
        if (!text) {
          exit_code = Worst(exit_code, Report(text.error()));
          continue;
        }
        contents = std::move(*text);
      } else {
        contents = WordsToBytes(*words);
      }
      const std::string& path = output_paths[i];
      Status written = WriteOutput(path, contents, flags->files);
      if (!written) {
        exit_code = Worst(exit_code, Report(written.error()));
        continue;
      }
      if (flags->verbose) {
        std::cerr << binary->name << " -> " << path << ": " << words->size() << " words, valid for "
                  << TargetEnvName(binary->target_env) << "\n";
      }
    }
    return exit_code;
  };
}

}  // namespace cli
}  // namespace spirv_conv
