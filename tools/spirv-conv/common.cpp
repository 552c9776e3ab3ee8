// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "common.h"

#include <algorithm>
#include <iostream>

#include "spirv_conv/target_env.h"

namespace spirv_conv {
namespace cli {

void AddInputFlags(CLI::App* command, InputFlags* flags) {
  command
      ->add_option("--target-env", flags->target_env,
                   "Target environment, as spirv-val names it (" + TargetEnvNameList() +
                       "). Default: from the module (Vulkan for Shader, universal SPIR-V for "
                       "Kernel modules, at the module's SPIR-V version); vulkan1.2 for GLSL")
      ->group("Input");
  command
      ->add_option("--language", flags->language,
                   "Input language when neither content nor name tells: spirv, spvasm, glsl, "
                   "hlsl. Default: detected (SPIR-V magic, then the extension: .spv, .spvasm, "
                   ".hlsl, GLSL's stage extensions, .glsl)")
      ->check(CLI::IsMember({"spirv", "spvasm", "glsl", "hlsl"}))
      ->group("Input");
  command
      ->add_option("--stage", flags->stage,
                   "Shader stage (vert, tesc, tese, geom, frag, comp, mesh, task, rgen, rint, "
                   "rahit, rchit, rmiss, rcall); needed for .glsl files and GLSL on stdin")
      ->group("Input");
  command
      ->add_option("-T", flags->profile,
                   "HLSL: target profile as in DXC (ps_6_0, vs_6_0, cs_6_0, gs, hs, ds, ms, as), "
                   "which gives the stage. Default: --stage, else the name (blur.cs.hlsl)")
      ->group("Input");
  command->add_option("-E", flags->entry_point, "HLSL: entry point function (default: main)")
      ->group("Input");
  command->add_option("-I", flags->include_dirs, "GLSL/HLSL: add an #include search directory")
      ->group("Input")
      ->allow_extra_args(false);
  command->add_option("-D", flags->defines, "GLSL/HLSL: define a macro (NAME or NAME=VALUE)")
      ->group("Input")
      ->allow_extra_args(false);
  command
      ->add_flag("-g", flags->debug_info,
                 "GLSL/HLSL: emit debug info (OpLine, source text in OpSource)")
      ->group("Input");
  command
      ->add_flag("--no-preserve-numeric-ids", flags->raw_assembly_ids,
                 "Assembly: renumber %N ids instead of keeping N (spirv-as' default)")
      ->group("Input");

  // spirv-val's relaxations, under spirv-val's names.
  struct ValidatorFlag {
    const char* name;
    bool ValidatorFlags::*member;
    const char* help;
  };
  static const ValidatorFlag kValidatorFlags[] = {
      {"--relax-block-layout", &ValidatorFlags::relax_block_layout, "Relaxed block layout"},
      {"--uniform-buffer-standard-layout", &ValidatorFlags::uniform_buffer_standard_layout,
       "Uniform buffers may use std430-like layout"},
      {"--scalar-block-layout", &ValidatorFlags::scalar_block_layout, "Scalar block layout"},
      {"--workgroup-scalar-block-layout", &ValidatorFlags::workgroup_scalar_block_layout,
       "Scalar layout for Workgroup blocks"},
      {"--skip-block-layout", &ValidatorFlags::skip_block_layout, "Skip block layout checks"},
      {"--relax-logical-pointer", &ValidatorFlags::relax_logical_pointer,
       "Allow pointer-typed values in logical addressing"},
      {"--relax-struct-store", &ValidatorFlags::relax_struct_store,
       "Allow OpStore of structs with different but compatible types"},
      {"--before-hlsl-legalization", &ValidatorFlags::before_hlsl_legalization,
       "Accept HLSL before legalization"},
      {"--allow-localsizeid", &ValidatorFlags::allow_localsizeid, "Allow LocalSizeId"},
  };
  for (const ValidatorFlag& flag : kValidatorFlags) {
    command->add_flag(flag.name, flags->validator.*flag.member, flag.help)
        ->group("Validator (as spirv-val)");
  }
}

Expected<LoadOptions> ToLoadOptions(const InputFlags& flags) {
  LoadOptions options;
  if (!flags.target_env.empty()) {
    options.target_env = ParseTargetEnv(flags.target_env);
    if (!options.target_env) {
      return Error{ExitCode::kBadInput, "unknown --target-env '" + flags.target_env +
                                            "'; one of: " + TargetEnvNameList()};
    }
  }
  options.preserve_numeric_ids = !flags.raw_assembly_ids;
  if (!flags.language.empty()) options.source.language = ParseSourceLanguage(flags.language);
  options.source.stage = flags.stage;
  options.source.profile = flags.profile;
  options.source.entry_point = flags.entry_point;
  options.source.include_dirs = flags.include_dirs;
  options.source.defines = flags.defines;
  options.source.debug_info = flags.debug_info;
  return options;
}

namespace {

// |path| escaped for a Make rule: blanks and '#' behind a backslash, '$' doubled.
std::string MakeEscaped(const std::string& path) {
  std::string escaped;
  for (char c : path) {
    if (c == ' ' || c == '\t' || c == '#') escaped += '\\';
    if (c == '$') escaped += '$';
    escaped += c;
  }
  return escaped;
}

}  // namespace

std::string DependencyRules(const std::vector<DependencyRule>& rules) {
  std::string text;
  for (const DependencyRule& rule : rules) {
    text += MakeEscaped(rule.target) + ":";
    for (const std::string& dependency : rule.dependencies) {
      text += " \\\n  " + MakeEscaped(dependency);
    }
    text += "\n";
  }
  return text;
}

void AddFilesOption(CLI::App* command, std::vector<std::string>* files) {
  command->add_option("FILE", *files, "Inputs: SPIR-V binary or assembly, GLSL, HLSL; - for stdin")
      ->required();
}

void AddFileAndOutputOptions(CLI::App* command, std::string* file, std::string* output) {
  command->add_option("FILE", *file, "Input: SPIR-V binary or assembly, GLSL, HLSL; - for stdin")
      ->required();
  command->add_option("-o", *output, "Output file (default: - for stdout)");
}

UniformityOptions AnalysisFlags::Uniformity() const {
  UniformityOptions options;
  options.assume_no_concurrent_writes = no_concurrent_writes;
  return options;
}

void AddAnalysisFlags(CLI::App* command, AnalysisFlags* flags) {
  command->add_flag("--skip-validation", flags->skip_validation,
                    "Analyse without validating the input first (for modules spirv-val 2023.1 "
                    "rejects; capabilities and execution modes newer than it are left out, with a "
                    "warning); the analysis may then refuse IR it cannot model");
  AddConcurrentWritesFlag(command, &flags->no_concurrent_writes);
  AddInputFlags(command, &flags->input);
}

CLI::Option* AddConcurrentWritesFlag(CLI::App* command, bool* no_concurrent_writes) {
  return command->add_flag("--assume-no-concurrent-writes", *no_concurrent_writes,
                           "Treat storage buffer, workgroup and storage image reads as uniform "
                           "when the address and every value the shader stores there are");
}

ModuleOptions AnalysisFlags::ToModuleOptions(const LoadOptions& load) const {
  ModuleOptions options;
  options.load = load;
  options.validator = input.validator;
  options.skip_validation = skip_validation;
  options.ir = IrLoad::kAnalysis;
  return options;
}

Expected<Module> LoadForAnalysis(const std::string& file, const AnalysisFlags& flags) {
  Expected<LoadOptions> options = ToLoadOptions(flags.input);
  if (!options) return options.error();
  return LoadModule(file, flags.ToModuleOptions(*options));
}

int Report(const Error& error) {
  std::cerr << "spirv-conv: error: " << error.message << "\n";
  return static_cast<int>(error.code);
}

int Worst(int a, int b) { return std::max(a, b); }

}  // namespace cli
}  // namespace spirv_conv
