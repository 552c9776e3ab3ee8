// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv lsp: the language server on standard input and output
// (docs/editor.md).

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <system_error>
#include <thread>

#include "commands.h"
#include "spirv_conv/lsp.h"

namespace spirv_conv {
namespace cli {
namespace {

// The rule pages next to the installed executable
// (<prefix>/share/doc/spirv-conv/rules), else in the source tree it was
// built from, as a file: URI prefix; empty when neither is there.
std::string DefaultRuleDocs() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  std::vector<std::filesystem::path> candidates;
  if (!error) {
    candidates.push_back(exe.parent_path().parent_path() / "share/doc/spirv-conv/rules");
  }
  candidates.push_back(std::filesystem::path(SPIRV_CONV_SOURCE_DIR) / "docs/rules");
  for (const std::filesystem::path& dir : candidates) {
    if (std::filesystem::is_regular_file(dir / "README.md", error)) {
      return "file://" + dir.lexically_normal().string() + "/";
    }
  }
  return "";
}

}  // namespace

Command AddLspCommand(CLI::App& app) {
  struct Flags {
    LanguageServerOptions server;
    bool stdio = true;
  };
  auto flags = std::make_shared<Flags>();
  flags->server.jobs = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
  CLI::App* command = app.add_subcommand(
      "lsp",
      "Run the language server on stdin/stdout: the convergence lint's findings as diagnostics "
      "with their explanations, quick fixes and uniformity on hover for GLSL, HLSL and SPIR-V "
      "assembly (docs/editor.md). Exits 0 after the client's shutdown and exit, 1 otherwise.");
  command->add_flag("--stdio", flags->stdio,
                    "Talk on standard input and output (the only transport; editors' LSP "
                    "clients pass it)");
  command->add_option("--rule-docs", flags->server.rule_docs,
                      "URI prefix of the rule pages that diagnostics link to (the rule id and "
                      ".md follow). Default: the installed docs, else the source tree's");
  command->add_option("-j,--jobs", flags->server.jobs, "Documents linted at the same time")
      ->check(CLI::PositiveNumber);

  return [flags]() {
    if (flags->server.rule_docs.empty()) flags->server.rule_docs = DefaultRuleDocs();
    return RunLanguageServer(STDIN_FILENO, STDOUT_FILENO, flags->server);
  };
}

}  // namespace cli
}  // namespace spirv_conv
