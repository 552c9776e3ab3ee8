// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv check-motion BEFORE AFTER: is AFTER a convergence-legal
// transformation of BEFORE (docs/motion.md)? Findings as text, JSON or SARIF.

#include <filesystem>
#include <memory>
#include <system_error>

#include "commands.h"
#include "common.h"
#include "spirv_conv/emit.h"
#include "spirv_conv/motion.h"
#include "spirv_conv/report.h"

namespace spirv_conv {
namespace cli {
namespace {

std::string Render(const std::string& format, const std::vector<FileFindings>& files) {
  if (format == "json") return RenderJson(files);
  if (format == "text") return RenderText(files);
  std::error_code error;
  SarifOptions sarif;
  sarif.source_root = std::filesystem::current_path(error).string();
  sarif.rules = &MotionRules();
  sarif.rules_doc = "docs/motion.md#the-rules";
  return RenderSarif(files, sarif);
}

}  // namespace

Command AddCheckMotionCommand(CLI::App& app) {
  struct Flags {
    AnalysisFlags analysis;
    std::string before;
    std::string after;
    std::string output = "-";
    std::string format = "text";
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* command = app.add_subcommand(
      "check-motion",
      "Check that AFTER, a transformation of BEFORE, moved no convergent instruction into more "
      "divergent control flow, no co-convergent one across divergent control flow, and made no "
      "uniform operand less uniform (docs/motion.md). Exits 1 on violations, 2 for bad input.");
  command->add_option("BEFORE", flags->before, "The original module")->required();
  command->add_option("AFTER", flags->after, "The transformed module")->required();
  command->add_option("-o", flags->output, "Report file (default: - for stdout)");
  command->add_option("--format", flags->format, "text, json (docs/json.md) or sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  AddAnalysisFlags(command, &flags->analysis);

  return [flags]() {
    Expected<Module> before = LoadForAnalysis(flags->before, flags->analysis);
    if (!before) return Report(before.error());
    Expected<Module> after = LoadForAnalysis(flags->after, flags->analysis);
    if (!after) return Report(after.error());
    MotionOptions options;
    options.uniformity = flags->analysis.Uniformity();
    options.before_path = flags->before;
    options.after_path = flags->after;
    Expected<std::vector<Finding>> findings = CheckMotion(before->ir(), after->ir(), options);
    if (!findings) return Report(findings.error());
    const bool clean = findings->empty();
    const std::vector<FileFindings> files = {{flags->after, std::move(*findings), std::nullopt}};
    Status written =
        WriteOutput(flags->output, Render(flags->format, files), {flags->before, flags->after});
    if (!written) return Report(written.error());
    return clean ? 0 : static_cast<int>(ExitCode::kFindings);
  };
}

}  // namespace cli
}  // namespace spirv_conv
