// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What GLSL and HLSL input share: glslang configured like glslangValidator,
// with includes resolved against the including file and -I, its messages
// trimmed to the lines that name a place, and standard output kept clean.

#ifndef SOURCE_IO_GLSLANG_FRONTEND_H_
#define SOURCE_IO_GLSLANG_FRONTEND_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "glslang/Public/ShaderLang.h"
#include "io/input_formats.h"

namespace spirv_conv {
namespace io {

// One compilation: the language-specific choices the GLSL and HLSL inputs make.
struct GlslangJob {
  glslang::EShSource language = glslang::EShSourceGlsl;
  EShLanguage stage = EShLangVertex;
  std::string entry_point;  // HLSL only; GLSL's is always main
  std::string preamble;     // text before the source, after the -D macros
  // Runs between parsing and code generation, on the parsed tree; a message
  // fails the compilation as bad input.
  std::function<std::optional<std::string>(glslang::TIntermediate&)> rewrite;
  // Runs on the generated module; an error message fails the compilation.
  std::function<std::optional<std::string>(std::vector<uint32_t>* words)> legalize;
};

// The stage glslang calls |stage| ("vert", "frag", ...; GLSL's extensions).
std::optional<EShLanguage> GlslangStageFromName(const std::string& stage);

// Compiles |source| named |name| for |env| (a Vulkan or OpenGL environment).
// Errors say "<language> compilation failed:" and list glslang's messages.
// HLSL is compiled in a child process: glslang's HLSL front end crashes on
// some malformed input (HlslInput.GlslangCrashIsBadInput), which must end
// as bad input, not end the process.
Expected<CompiledSource> CompileWithGlslang(const std::string& name, const std::string& source,
                                            spv_target_env env, const ShaderSourceOptions& options,
                                            const GlslangJob& job);

}  // namespace io
}  // namespace spirv_conv

#endif  // SOURCE_IO_GLSLANG_FRONTEND_H_
