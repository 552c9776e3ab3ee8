// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Stage 1 of the pipeline: turn an input (SPIR-V binary of either byte order,
// SPIR-V assembly, or GLSL compiled in-process by glslang) into SPIR-V words.

#ifndef INCLUDE_SPIRV_CONV_LOAD_H_
#define INCLUDE_SPIRV_CONV_LOAD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.h"
#include "spirv_conv/status.h"

namespace spirv_conv {

enum class SourceLanguage { kBinary, kAssembly, kGlsl };

// "binary", "assembly" or "GLSL".
const char* SourceLanguageName(SourceLanguage language);

// Options for compiling GLSL, after glslangValidator's.
struct GlslOptions {
  // Shader stage ("vert", "frag", "comp", ...). Empty: taken from the file
  // extension; required for ".glsl" files and standard input.
  std::string stage;
  std::vector<std::string> include_dirs;  // -I: searched for #include "..." and <...>
  std::vector<std::string> defines;       // -D: "NAME" or "NAME=VALUE"
  bool debug_info = false;                // -g: OpLine and the source text in OpSource
};

struct LoadOptions {
  // The target environment. For GLSL and assembly input it is also the code
  // generation target. Empty: derived from the module (see DefaultTargetEnv);
  // GLSL defaults to vulkan1.2, assembly to the version named by a
  // "; Version: X.Y" header comment, else SPIR-V 1.6.
  std::optional<spv_target_env> target_env;
  // Treat "%N" ids in assembly as id N (spirv-as --preserve-numeric-ids).
  bool preserve_numeric_ids = true;
  GlslOptions glsl;
};

// A module as loaded: host byte order, header checked (magic, whole words,
// five-word header), not yet validated.
struct SpirvBinary {
  std::string name;  // the file name used in messages ("<stdin>" for "-")
  SourceLanguage language = SourceLanguage::kBinary;
  spv_target_env target_env = SPV_ENV_UNIVERSAL_1_0;
  std::vector<uint32_t> words;
};

// Loads |path| ("-" reads standard input). Errors (missing or empty file,
// wrong magic, truncated words, assembly or GLSL errors) name the file and
// carry ExitCode::kBadInput.
Expected<SpirvBinary> LoadSpirv(const std::string& path, const LoadOptions& options);

// Loads a module from |bytes| already in memory; |name| names it in messages
// and its extension guides detection like a file name would.
Expected<SpirvBinary> LoadSpirvFromBytes(const std::string& name, const std::string& bytes,
                                         const LoadOptions& options);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_LOAD_H_
