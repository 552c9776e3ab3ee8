// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/load.h"

#include <filesystem>
#include <system_error>
#include <utility>

#include "io/input_formats.h"
#include "spirv_conv/target_env.h"

namespace spirv_conv {

const char* SourceLanguageName(SourceLanguage language) {
  switch (language) {
    case SourceLanguage::kBinary:
      return "binary";
    case SourceLanguage::kAssembly:
      return "assembly";
    case SourceLanguage::kGlsl:
      return "GLSL";
    case SourceLanguage::kHlsl:
      return "HLSL";
  }
  return "unknown";
}

std::optional<SourceLanguage> ParseSourceLanguage(const std::string& name) {
  static const std::pair<const char*, SourceLanguage> kNames[] = {
      {"spirv", SourceLanguage::kBinary},
      {"spvasm", SourceLanguage::kAssembly},
      {"glsl", SourceLanguage::kGlsl},
      {"hlsl", SourceLanguage::kHlsl}};
  for (const auto& [known, language] : kNames) {
    if (name == known) return language;
  }
  return std::nullopt;
}

std::string UnsavedFileKey(const std::string& path) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return (error ? std::filesystem::path(path) : absolute).lexically_normal().string();
}

Expected<SpirvBinary> LoadSpirvFromBytes(const std::string& name, const std::string& bytes,
                                         const LoadOptions& options) {
  SpirvBinary result;
  result.name = name;
  Expected<SourceLanguage> language = io::DetectLanguage(name, bytes, options.source);
  if (!language) return language.error();
  result.language = *language;

  Expected<std::vector<uint32_t>> words = std::vector<uint32_t>();
  switch (result.language) {
    case SourceLanguage::kBinary:
      words = io::WordsFromBinary(name, bytes);
      break;
    case SourceLanguage::kAssembly: {
      const spv_target_env env = options.target_env.value_or(
          io::AssemblyVersionComment(bytes).value_or(SPV_ENV_UNIVERSAL_1_6));
      words = io::WordsFromAssembly(name, bytes, env, options.preserve_numeric_ids);
      break;
    }
    case SourceLanguage::kGlsl:
    case SourceLanguage::kHlsl: {
      const spv_target_env env = options.target_env.value_or(SPV_ENV_VULKAN_1_2);
      Expected<io::CompiledSource> compiled =
          result.language == SourceLanguage::kGlsl
              ? io::WordsFromGlsl(name, bytes, env, options.source)
              : io::WordsFromHlsl(name, bytes, env, options.source);
      if (!compiled) return compiled.error();
      words = std::move(compiled->words);
      result.source_files = std::move(compiled->source_files);
      break;
    }
  }
  if (!words) return words.error();
  if (words->size() < io::kSpirvHeaderWords) {
    return MakeError(ExitCode::kBadInput, name, "no SPIR-V module (shorter than its header)");
  }
  result.words = std::move(*words);
  result.target_env = options.target_env.value_or(DefaultTargetEnv(result.words));
  return result;
}

Expected<SpirvBinary> LoadSpirv(const std::string& path, const LoadOptions& options) {
  const std::string name = path == "-" ? "<stdin>" : path;
  Expected<std::string> bytes = io::ReadInput(path, name);
  if (!bytes) return bytes.error();
  return LoadSpirvFromBytes(name, *bytes, options);
}

}  // namespace spirv_conv
