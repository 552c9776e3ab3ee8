// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The lint of files: load → validate → IR → uniformity → Lint() for one
// input, directories expanded to their shader files, and a batch on
// several threads (each file has its own IR, nothing is shared).

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <thread>

#include "io/input_formats.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/lint.h"

namespace spirv_conv {
namespace {

// |error| with its message naming |file| (LoadModule's errors already do).
Error NamingFile(Error error, const std::string& file) {
  if (error.message.rfind(file + ":", 0) != 0) error.message = file + ": " + error.message;
  return error;
}

bool IsShaderFile(const std::filesystem::path& path, const LintInputOptions& input) {
  const std::string extension = path.extension().string();
  if (extension == ".spv" || extension == ".spirv" || extension == ".spvasm" ||
      extension == ".spvas") {
    return true;
  }
  if (extension == ".glsl") return input.sources_without_stage;
  if (extension == ".hlsl") {
    return input.sources_without_stage ||
           !io::HlslStageFromFileName(path.filename().string()).empty();
  }
  return !io::GlslStageFromFileName(path.filename().string()).empty();
}

}  // namespace

FileFindings LintFile(const std::string& path, const LintInputOptions& input,
                      const LintOptions& options) {
  FileFindings result;
  result.file = path;
  Expected<Module> module = LoadModule(path, input.module);
  if (!module) {
    result.error = module.error();
    return result;
  }
  result.source_files = module->binary().source_files;
  Expected<std::unique_ptr<UniformityInfo>> info =
      UniformityInfo::Compute(&module->ir(), options.uniformity);
  if (!info) {
    result.error = NamingFile(info.error(), module->name());
    return result;
  }
  LintOptions file_options = options;
  if (path != "-") file_options.input_path = path;
  result.findings = Lint(module->ir(), **info, file_options);
  return result;
}

std::vector<std::string> ExpandLintInputs(const std::vector<std::string>& paths,
                                          const LintInputOptions& input) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (path == "-" || !std::filesystem::is_directory(path, error)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = std::filesystem::recursive_directory_iterator(
             path, std::filesystem::directory_options::skip_permission_denied, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      if (it->is_regular_file(error) && IsShaderFile(it->path(), input)) {
        found.push_back(it->path().string());
      }
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

std::vector<FileFindings> LintFiles(
    const std::vector<std::string>& files, const LintInputOptions& input,
    const LintOptions& options, unsigned jobs,
    const std::function<void(size_t done, size_t total)>& progress) {
  std::vector<FileFindings> results(files.size());
  std::atomic<size_t> next{0};
  std::mutex mutex;
  size_t done = 0;
  auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      try {
        results[i] = LintFile(files[i], input, options);
      } catch (const std::exception& e) {
        results[i].file = files[i];
        results[i].error =
            Error{ExitCode::kInternalError, files[i] + ": internal error: " + e.what()};
      }
      std::lock_guard<std::mutex> lock(mutex);
      ++done;
      if (progress) progress(done, files.size());
    }
  };
  const size_t threads = std::max<size_t>(1, std::min<size_t>(jobs, files.size()));
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  return results;
}

}  // namespace spirv_conv
