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
      ->add_option("--stage", flags->stage,
                   "GLSL shader stage (vert, tesc, tese, geom, frag, comp, mesh, task, rgen, "
                   "rint, rahit, rchit, rmiss, rcall); needed for .glsl files and stdin")
      ->group("Input");
  command->add_option("-I", flags->include_dirs, "GLSL: add an #include search directory")
      ->group("Input")
      ->allow_extra_args(false);
  command->add_option("-D", flags->defines, "GLSL: define a macro (NAME or NAME=VALUE)")
      ->group("Input")
      ->allow_extra_args(false);
  command
      ->add_flag("-g", flags->debug_info, "GLSL: emit debug info (OpLine, source text in OpSource)")
      ->group("Input");
  command
      ->add_flag("--no-preserve-numeric-ids", flags->raw_assembly_ids,
                 "Assembly: renumber %N ids instead of keeping N (spirv-as' default)")
      ->group("Input");

  const char* kVal = "Validator (as spirv-val)";
  ValidatorFlags& v = flags->validator;
  command->add_flag("--relax-block-layout", v.relax_block_layout, "Relaxed block layout")
      ->group(kVal);
  command
      ->add_flag("--uniform-buffer-standard-layout", v.uniform_buffer_standard_layout,
                 "Uniform buffers may use std430-like layout")
      ->group(kVal);
  command->add_flag("--scalar-block-layout", v.scalar_block_layout, "Scalar block layout")
      ->group(kVal);
  command
      ->add_flag("--workgroup-scalar-block-layout", v.workgroup_scalar_block_layout,
                 "Scalar layout for Workgroup blocks")
      ->group(kVal);
  command->add_flag("--skip-block-layout", v.skip_block_layout, "Skip block layout checks")
      ->group(kVal);
  command
      ->add_flag("--relax-logical-pointer", v.relax_logical_pointer,
                 "Allow pointer-typed values in logical addressing")
      ->group(kVal);
  command
      ->add_flag("--relax-struct-store", v.relax_struct_store,
                 "Allow OpStore of structs with different but compatible types")
      ->group(kVal);
  command
      ->add_flag("--before-hlsl-legalization", v.before_hlsl_legalization,
                 "Accept HLSL before legalization")
      ->group(kVal);
  command->add_flag("--allow-localsizeid", v.allow_localsizeid, "Allow LocalSizeId")->group(kVal);
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
  options.glsl.stage = flags.stage;
  options.glsl.include_dirs = flags.include_dirs;
  options.glsl.defines = flags.defines;
  options.glsl.debug_info = flags.debug_info;
  return options;
}

int Report(const Error& error) {
  std::cerr << "spirv-conv: error: " << error.message << "\n";
  return static_cast<int>(error.code);
}

int Worst(int a, int b) { return std::max(a, b); }

}  // namespace cli
}  // namespace spirv_conv
