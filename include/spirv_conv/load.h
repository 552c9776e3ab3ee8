// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Stage 1 of the pipeline: turn an input (SPIR-V binary of either byte order,
// SPIR-V assembly, or GLSL or HLSL compiled in-process by glslang) into
// SPIR-V words.

#ifndef INCLUDE_SPIRV_CONV_LOAD_H_
#define INCLUDE_SPIRV_CONV_LOAD_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.h"
#include "spirv_conv/status.h"

namespace spirv_conv {

enum class SourceLanguage { kBinary, kAssembly, kGlsl, kHlsl };

// "binary", "assembly", "GLSL" or "HLSL".
const char* SourceLanguageName(SourceLanguage language);

// The language named |name| on the command line ("spirv", "spvasm", "glsl",
// "hlsl"), if it is one.
std::optional<SourceLanguage> ParseSourceLanguage(const std::string& name);

// Source texts that stand in for files on disk (an editor's unsaved
// buffers), keyed by UnsavedFileKey of the file's path.
using UnsavedFiles = std::map<std::string, std::string>;

// The key of |path| in UnsavedFiles: absolute and lexically normal, so that
// "dir/../a.h" and "/work/a.h" name the same file.
std::string UnsavedFileKey(const std::string& path);

// Options for compiling GLSL and HLSL, after glslangValidator's and DXC's.
struct ShaderSourceOptions {
  // The language, when neither the content nor the name tells (standard
  // input, unusual extensions). Empty: detected (see LoadSpirv).
  std::optional<SourceLanguage> language;
  // Shader stage ("vert", "frag", "comp", ...). Empty: taken from the file
  // extension (GLSL) or from |profile| (HLSL); required for ".glsl" files and
  // standard input.
  std::string stage;
  // HLSL: the target profile as DXC's -T names it ("ps_6_0", "cs_6_6", ...),
  // which also gives the stage. Empty: the stage from |stage| or from a
  // stage before the extension ("blur.cs.hlsl").
  std::string profile;
  // HLSL: the entry point function (DXC's -E). Empty: "main".
  std::string entry_point;
  std::vector<std::string> include_dirs;  // -I: searched for #include "..." and <...>
  std::vector<std::string> defines;       // -D: "NAME" or "NAME=VALUE"
  bool debug_info = false;                // -g: OpLine and the source text in OpSource
  // #include reads these texts instead of the files they stand for.
  UnsavedFiles unsaved_files;
};

struct LoadOptions {
  // The target environment. For GLSL and assembly input it is also the code
  // generation target. Empty: derived from the module (see DefaultTargetEnv);
  // GLSL defaults to vulkan1.2, assembly to the version named by a
  // "; Version: X.Y" header comment, else SPIR-V 1.6.
  std::optional<spv_target_env> target_env;
  // Treat "%N" ids in assembly as id N (spirv-as --preserve-numeric-ids).
  bool preserve_numeric_ids = true;
  ShaderSourceOptions source;
};

// A module as loaded: host byte order, header checked (magic, whole words,
// five-word header), not yet validated.
struct SpirvBinary {
  std::string name;  // the file name used in messages ("<stdin>" for "-")
  SourceLanguage language = SourceLanguage::kBinary;
  spv_target_env target_env = SPV_ENV_UNIVERSAL_1_0;
  std::vector<uint32_t> words;
  // GLSL and HLSL: the files the module was compiled from, the input first,
  // then every file it #included (for build systems' dependency files).
  std::vector<std::string> source_files;
};

// Loads |path| ("-" reads standard input). Errors (missing or empty file,
// wrong magic, truncated words, assembly, GLSL or HLSL errors) name the file and
// carry ExitCode::kBadInput.
Expected<SpirvBinary> LoadSpirv(const std::string& path, const LoadOptions& options);

// Loads a module from |bytes| already in memory; |name| names it in messages
// and its extension guides detection like a file name would.
Expected<SpirvBinary> LoadSpirvFromBytes(const std::string& name, const std::string& bytes,
                                         const LoadOptions& options);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_LOAD_H_
