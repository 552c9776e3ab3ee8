// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv lint: the convergence lint over files and directories, as text,
// JSON or SARIF (docs/rules/, docs/json.md, docs/sarif.md).

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

#include "commands.h"
#include "common.h"
#include "spirv_conv/emit.h"
#include "spirv_conv/lint.h"
#include "spirv_conv/report.h"

namespace spirv_conv {
namespace cli {
namespace {

// "[3/40]" on one terminal line, rewritten as files finish.
void ShowProgress(size_t done, size_t total) {
  std::cerr << "\r[" << done << "/" << total << "]" << std::flush;
  if (done == total) std::cerr << "\r\033[K" << std::flush;
}

}  // namespace

Command AddLintCommand(CLI::App& app) {
  struct Flags {
    AnalysisFlags analysis;
    std::vector<std::string> paths;
    std::string output = "-";
    std::string format = "text";
    std::vector<std::string> rules;
    unsigned jobs = 1;
    std::string depfile;
    bool werror = false;
    bool exit_zero = false;
    bool no_group = false;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* command = app.add_subcommand(
      "lint",
      "Find derivatives, barriers and subgroup operations in non-uniform control flow and "
      "descriptor accesses with a missing or redundant NonUniform (docs/rules/). Exits 1 when an "
      "error-level finding remains (--werror: also a warning), 2 for bad input.");
  command
      ->add_option("FILE|DIR", flags->paths,
                   "Inputs: SPIR-V binary or assembly, GLSL, HLSL, or directories searched for "
                   "them (.spv .spvasm, GLSL stage extensions, .hlsl named after a stage as in "
                   "a.ps.hlsl); - for stdin")
      ->required();
  command->add_option("-o", flags->output, "Report file (default: - for stdout)");
  command
      ->add_option("--format", flags->format,
                   "text, json (docs/json.md) or sarif (SARIF 2.1.0 for GitHub code scanning, "
                   "docs/sarif.md)")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  command->add_flag("--werror", flags->werror, "Exit 1 on warnings too");
  command->add_flag("--exit-zero", flags->exit_zero,
                    "Exit 0 whatever the findings (for a report step; bad input still exits 2)");
  command->add_option("--depfile", flags->depfile,
                      "Also write a Make-style dependency file: the report (-o) depends on every "
                      "input and the files GLSL/HLSL inputs #include (for CMake's DEPFILE)");
  command->add_flag("--no-group", flags->no_group,
                    "One finding per site: do not merge findings of a rule with the same "
                    "explanation into one with more sites");
  command
      ->add_option("--rule", flags->rules,
                   "Set a rule's level: ID=off|note|warning|error (repeatable)")
      ->allow_extra_args(false);
  command->add_option("-j,--jobs", flags->jobs, "Lint this many files in parallel")
      ->check(CLI::PositiveNumber);
  AddAnalysisFlags(command, &flags->analysis);

  return [flags]() {
    Expected<LoadOptions> load = ToLoadOptions(flags->analysis.input);
    if (!load) return Report(load.error());
    LintOptions options;
    options.uniformity = flags->analysis.Uniformity();
    options.group_by_cause = !flags->no_group;
    for (const std::string& rule : flags->rules) {
      Status parsed = ParseRuleLevel(rule, &options);
      if (!parsed) return Report(parsed.error());
    }
    LintInputOptions input;
    input.module = flags->analysis.ToModuleOptions(*load);
    input.sources_without_stage =
        !flags->analysis.input.stage.empty() || !flags->analysis.input.profile.empty();

    int exit_code = 0;
    std::vector<std::string> paths;
    for (const std::string& path : flags->paths) {
      std::error_code error;
      const std::vector<std::string> found = ExpandLintInputs({path}, input);
      if (found.empty() && std::filesystem::is_directory(path, error)) {
        exit_code =
            Worst(exit_code, Report(MakeError(ExitCode::kBadInput, path,
                                              "no SPIR-V, GLSL or HLSL files in the directory")));
      }
      paths.insert(paths.end(), found.begin(), found.end());
    }
    const bool terminal = isatty(STDERR_FILENO) && paths.size() > 1;
    const std::vector<FileFindings> results =
        LintFiles(paths, input, options, flags->jobs,
                  terminal ? ShowProgress : std::function<void(size_t, size_t)>());
    for (const FileFindings& file : results) {
      if (file.error) {
        exit_code = Worst(exit_code, Report(*file.error));
        continue;
      }
      for (const Finding& finding : file.findings) {
        if (!flags->exit_zero && (finding.severity == Severity::kError ||
                                  (flags->werror && finding.severity == Severity::kWarning))) {
          exit_code = Worst(exit_code, static_cast<int>(ExitCode::kFindings));
        }
      }
    }
    std::string report;
    if (flags->format == "json") {
      report = RenderJson(results);
    } else if (flags->format == "sarif") {
      // Relative paths are relative to the working directory: it is %SRCROOT%.
      std::error_code error;
      SarifOptions sarif;
      sarif.source_root = std::filesystem::current_path(error).string();
      report = RenderSarif(results, sarif);
    } else {
      report = RenderText(results);
    }
    Status written = WriteOutput(flags->output, report, paths);
    if (!written) return Worst(exit_code, Report(written.error()));
    if (!flags->depfile.empty()) {
      DependencyRule rule{flags->output, {}};
      for (const FileFindings& file : results) {
        if (file.source_files.empty()) {
          rule.dependencies.push_back(file.file);
        } else {
          rule.dependencies.insert(rule.dependencies.end(), file.source_files.begin(),
                                   file.source_files.end());
        }
      }
      written = WriteOutput(flags->depfile, DependencyRules({rule}), paths);
      if (!written) return Worst(exit_code, Report(written.error()));
    }
    return exit_code;
  };
}

}  // namespace cli
}  // namespace spirv_conv
