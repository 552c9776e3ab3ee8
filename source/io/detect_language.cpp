// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include <algorithm>
#include <cstring>

#include "io/input_formats.h"

namespace spirv_conv {
namespace io {
namespace {

// The extension of |name| after its last dot, lower-cased ("" if none).
std::string Extension(const std::string& name) {
  const size_t slash = name.find_last_of('/');
  const size_t dot = name.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = name.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext;
}

bool StartsWithMagic(const std::string& bytes) {
  if (bytes.size() < 4) return false;
  uint32_t word;
  std::memcpy(&word, bytes.data(), 4);
  const uint32_t swapped = __builtin_bswap32(word);
  return word == kSpirvMagic || swapped == kSpirvMagic;
}

// True when |bytes| reads like SPIR-V assembly: printable text whose first
// token outside comments is an instruction ("OpCapability") or a result id.
bool LooksLikeAssembly(const std::string& bytes) {
  size_t i = 0;
  while (i < bytes.size()) {
    const char c = bytes[i];
    if (c == ';') {
      i = bytes.find('\n', i);
      if (i == std::string::npos) return false;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else {
      return bytes.compare(i, 2, "Op") == 0 || c == '%';
    }
  }
  return false;
}

bool LooksLikeGlsl(const std::string& bytes) {
  return bytes.find("#version") != std::string::npos ||
         bytes.find("void main") != std::string::npos;
}

}  // namespace

std::string GlslStageFromFileName(const std::string& name) {
  static const char* const kStages[] = {"vert", "tesc", "tese", "geom",  "frag",  "comp",  "mesh",
                                        "task", "rgen", "rint", "rahit", "rchit", "rmiss", "rcall"};
  const std::string ext = Extension(name);
  for (const char* stage : kStages) {
    if (ext == stage) return ext;
  }
  return "";
}

std::string HlslStageOfProfilePrefix(const std::string& prefix) {
  static const char* const kProfileStages[][2] = {{"vs", "vert"}, {"hs", "tesc"}, {"ds", "tese"},
                                                  {"gs", "geom"}, {"ps", "frag"}, {"cs", "comp"},
                                                  {"ms", "mesh"}, {"as", "task"}};
  for (const auto& stage : kProfileStages) {
    if (prefix == stage[0]) return stage[1];
  }
  return "";
}

std::string HlslStageFromFileName(const std::string& name) {
  if (Extension(name) != "hlsl") return GlslStageFromFileName(name);
  const std::string stem = name.substr(0, name.find_last_of('.'));
  const std::string stage = HlslStageOfProfilePrefix(Extension(stem));
  return stage.empty() ? GlslStageFromFileName(stem) : stage;
}

Expected<SourceLanguage> DetectLanguage(const std::string& name, const std::string& bytes,
                                        const ShaderSourceOptions& options) {
  if (bytes.empty()) return MakeError(ExitCode::kBadInput, name, "empty file");
  if (StartsWithMagic(bytes)) return SourceLanguage::kBinary;
  if (options.language) return *options.language;

  const std::string ext = Extension(name);
  if (ext == "spv" || ext == "spirv") {
    // Named as a binary but without the magic number: say so precisely.
    return SourceLanguage::kBinary;
  }
  if (ext == "spvasm" || ext == "spvas" || ext == "spirvasm") return SourceLanguage::kAssembly;
  if (ext == "hlsl" || !options.profile.empty()) return SourceLanguage::kHlsl;
  if (!options.stage.empty() || ext == "glsl" || !GlslStageFromFileName(name).empty()) {
    return SourceLanguage::kGlsl;
  }
  if (LooksLikeAssembly(bytes)) return SourceLanguage::kAssembly;
  if (LooksLikeGlsl(bytes)) {
    return MakeError(ExitCode::kBadInput, name,
                     "looks like GLSL, but the shader stage is unknown: pass --stage "
                     "(vert, frag, comp, ...) or use a stage extension (.frag, .comp, ...)");
  }
  return MakeError(ExitCode::kBadInput, name,
                   "not a SPIR-V module: no SPIR-V magic number, and neither SPIR-V "
                   "assembly nor GLSL (for HLSL pass --language hlsl or use .hlsl)");
}

}  // namespace io
}  // namespace spirv_conv
