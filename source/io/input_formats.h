// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The input formats spirv-conv reads, each turned into SPIR-V words by its own
// translation unit; load.cpp picks one per input.

#ifndef SOURCE_IO_INPUT_FORMATS_H_
#define SOURCE_IO_INPUT_FORMATS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spirv_conv/load.h"
#include "spirv_conv/status.h"

namespace spirv_conv {
namespace io {

// SPIR-V's magic number as the first word of a module in host byte order.
constexpr uint32_t kSpirvMagic = 0x07230203u;
constexpr size_t kSpirvHeaderWords = 5;

// Reads the whole of |path| ("-" reads standard input).
Expected<std::string> ReadInput(const std::string& path, const std::string& display_name);

// Decides how to read |bytes| named |name|: SPIR-V magic first, then the file
// extension, then a look at the text. |options| may name the language, and a
// --stage or -T says the input is a shader source.
Expected<SourceLanguage> DetectLanguage(const std::string& name, const std::string& bytes,
                                        const ShaderSourceOptions& options);

// The GLSL stage implied by |name|'s extension ("frag" for "a.frag"), or "".
std::string GlslStageFromFileName(const std::string& name);

// The GLSL name of the stage a DXC profile prefix names ("ps" -> "frag"), or "".
std::string HlslStageOfProfilePrefix(const std::string& prefix);

// The stage named before an HLSL file's extension, in DXC's profile prefix or
// GLSL's name ("frag" for "a.ps.hlsl" and "a.frag.hlsl"), or by a GLSL stage
// extension ("a.frag" read with --language hlsl), or "".
std::string HlslStageFromFileName(const std::string& name);

// A shader source compiled to SPIR-V, with the files it was read from.
struct CompiledSource {
  std::vector<uint32_t> words;
  std::vector<std::string> source_files;  // the input, then its #includes
};

// Binary: checks the word stream and header and converts to host byte order.
Expected<std::vector<uint32_t>> WordsFromBinary(const std::string& name, const std::string& bytes);

// Assembly: assembles |text| for |env|.
Expected<std::vector<uint32_t>> WordsFromAssembly(const std::string& name, const std::string& text,
                                                  spv_target_env env, bool preserve_numeric_ids);

// The SPIR-V version named by a "; Version: X.Y" header comment, as spirv-dis
// writes it, if |text| has one before its first instruction.
std::optional<spv_target_env> AssemblyVersionComment(const std::string& text);

// GLSL: compiles |source| for |env| (a Vulkan or OpenGL environment) with glslang.
Expected<CompiledSource> WordsFromGlsl(const std::string& name, const std::string& source,
                                       spv_target_env env, const ShaderSourceOptions& options);

// HLSL: compiles |source| for |env| with glslang's HLSL front end, the stage
// from the profile (-T), --stage or the file name.
Expected<CompiledSource> WordsFromHlsl(const std::string& name, const std::string& source,
                                       spv_target_env env, const ShaderSourceOptions& options);

}  // namespace io
}  // namespace spirv_conv

#endif  // SOURCE_IO_INPUT_FORMATS_H_
