// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Options and helpers every spirv-conv subcommand shares.

#ifndef TOOLS_SPIRV_CONV_COMMON_H_
#define TOOLS_SPIRV_CONV_COMMON_H_

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "spirv_conv/load.h"
#include "spirv_conv/status.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {
namespace cli {

// Input options: target env, GLSL front end, validator relaxations.
struct InputFlags {
  std::string target_env;
  std::string stage;
  std::vector<std::string> include_dirs;
  std::vector<std::string> defines;
  bool debug_info = false;
  bool raw_assembly_ids = false;
  ValidatorFlags validator;
};

// Adds --target-env, --stage, -I, -D, -g, --no-preserve-numeric-ids and the
// spirv-val relaxation flags to |command|.
void AddInputFlags(CLI::App* command, InputFlags* flags);

// Turns |flags| into LoadOptions; a bad --target-env is a usage error.
Expected<LoadOptions> ToLoadOptions(const InputFlags& flags);

// Adds the required positional FILE... argument.
void AddFilesOption(CLI::App* command, std::vector<std::string>* files);

// Adds the required positional FILE argument and -o (default "-", stdout)
// of a command that reads one input and writes one output.
void AddFileAndOutputOptions(CLI::App* command, std::string* file, std::string* output);

// Prints |error| as "spirv-conv: error: <message>" and returns its exit code.
int Report(const Error& error);

// The larger of two exit codes: a batch ends with the worst.
int Worst(int a, int b);

}  // namespace cli
}  // namespace spirv_conv

#endif  // TOOLS_SPIRV_CONV_COMMON_H_
