// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv <command> [options] FILE...

#include <exception>
#include <iostream>
#include <map>

#include "allocator.h"
#include "commands.h"
#include "spirv-tools/libspirv.h"
#include "spirv_conv/status.h"
#include "spirv_conv/version.h"

int main(int argc, char** argv) {
  using spirv_conv::ExitCode;
  CLI::App app(
      "spirv-conv: convergence and uniformity tools for SPIR-V.\n"
      "Exit codes: 0 ok, 1 findings (e.g. invalid module), 2 bad input or usage, 3 invalid "
      "output refused, 4 internal error, 5 output not writable.",
      "spirv-conv");
  app.set_version_flag("--version", [] {
    return spirv_conv::VersionString() + "\nallocator: " + spirv_conv::cli::AllocatorDescription();
  });
  app.require_subcommand(1);
  app.fallthrough(false);

  std::map<CLI::App*, spirv_conv::cli::Command> commands;
  auto add = [&](spirv_conv::cli::Command (*adder)(CLI::App&)) {
    spirv_conv::cli::Command command = adder(app);
    commands[app.get_subcommands({}).back()] = std::move(command);
  };
  add(spirv_conv::cli::AddValidateCommand);
  add(spirv_conv::cli::AddOptCommand);
  add(spirv_conv::cli::AddDisCommand);
  add(spirv_conv::cli::AddUniformityCommand);
  add(spirv_conv::cli::AddLintCommand);
  add(spirv_conv::cli::AddCfgCommand);
  add(spirv_conv::cli::AddCheckMotionCommand);
  add(spirv_conv::cli::AddRunCommand);
  add(spirv_conv::cli::AddLspCommand);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(ExitCode::kBadInput);
  }
  try {
    for (CLI::App* chosen : app.get_subcommands()) return commands.at(chosen)();
  } catch (const std::exception& e) {
    std::cerr << "spirv-conv: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::kInternalError);
  }
  return static_cast<int>(ExitCode::kBadInput);
}
