// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Options and helpers every spirv-conv subcommand shares.

#ifndef TOOLS_SPIRV_CONV_COMMON_H_
#define TOOLS_SPIRV_CONV_COMMON_H_

#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "spirv_conv/load.h"
#include "spirv_conv/module.h"
#include "spirv_conv/status.h"
#include "spirv_conv/uniformity.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {
namespace cli {

// Input options: target env, GLSL and HLSL front ends, validator relaxations.
struct InputFlags {
  std::string target_env;
  std::string language;
  std::string stage;
  std::string profile;
  std::string entry_point;
  std::vector<std::string> include_dirs;
  std::vector<std::string> defines;
  bool debug_info = false;
  bool raw_assembly_ids = false;
  ValidatorFlags validator;
};

// Adds --target-env, --language, --stage, -T, -E, -I, -D, -g,
// --no-preserve-numeric-ids and the
// spirv-val relaxation flags to |command|.
void AddInputFlags(CLI::App* command, InputFlags* flags);

// Turns |flags| into LoadOptions; a bad --target-env is a usage error.
Expected<LoadOptions> ToLoadOptions(const InputFlags& flags);

// One rule of a Make-style dependency file (--depfile): |target| is out of
// date when one of |dependencies| changes.
struct DependencyRule {
  std::string target;
  std::vector<std::string> dependencies;
};

// The rules as compilers write depfiles (-MD): "target: dep ...", paths with
// blanks and '#' escaped by a backslash and '$' doubled.
std::string DependencyRules(const std::vector<DependencyRule>& rules);

// Adds the required positional FILE... argument.
void AddFilesOption(CLI::App* command, std::vector<std::string>* files);

// Adds the required positional FILE argument and -o (default "-", stdout)
// of a command that reads one input and writes one output.
void AddFileAndOutputOptions(CLI::App* command, std::string* file, std::string* output);

// Prints |error| as "spirv-conv: error: <message>" and returns its exit code.
// The options of the commands that analyse modules (uniformity, cfg, lint):
// the input flags, --skip-validation and --assume-no-concurrent-writes.
struct AnalysisFlags {
  InputFlags input;
  bool skip_validation = false;
  bool no_concurrent_writes = false;
  UniformityOptions Uniformity() const;
  // How LoadModule reads an input for analysis, with |load| from the input flags.
  ModuleOptions ToModuleOptions(const LoadOptions& load) const;
};

void AddAnalysisFlags(CLI::App* command, AnalysisFlags* flags);

// Adds --assume-no-concurrent-writes (UniformityOptions::assume_no_concurrent_writes).
CLI::Option* AddConcurrentWritesFlag(CLI::App* command, bool* no_concurrent_writes);

// LoadModule with the analysis flags (ToLoadOptions, AnalysisFlags::ToModuleOptions).
Expected<Module> LoadForAnalysis(const std::string& file, const AnalysisFlags& flags);

int Report(const Error& error);

// The larger of two exit codes: a batch ends with the worst.
int Worst(int a, int b);

}  // namespace cli
}  // namespace spirv_conv

#endif  // TOOLS_SPIRV_CONV_COMMON_H_
