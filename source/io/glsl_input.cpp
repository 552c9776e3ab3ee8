// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// GLSL through glslang, as `glslangValidator -V` compiles it.

#include "io/glslang_frontend.h"

namespace spirv_conv {
namespace io {

Expected<CompiledSource> WordsFromGlsl(const std::string& name, const std::string& source,
                                       spv_target_env env, const ShaderSourceOptions& options) {
  const std::string stage_name =
      options.stage.empty() ? GlslStageFromFileName(name) : options.stage;
  if (stage_name.empty()) {
    return MakeError(ExitCode::kBadInput, name,
                     "the shader stage is unknown: pass --stage (vert, frag, comp, ...)");
  }
  const std::optional<EShLanguage> stage = GlslangStageFromName(stage_name);
  if (!stage) {
    return MakeError(ExitCode::kBadInput, name, "unknown shader stage '" + stage_name + "'");
  }
  GlslangJob job;
  job.language = glslang::EShSourceGlsl;
  job.stage = *stage;
  return CompileWithGlslang(name, source, env, options, job);
}

}  // namespace io
}  // namespace spirv_conv
