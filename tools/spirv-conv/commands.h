// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The subcommands. Each Add*Command registers its options on a new
// subcommand of |app| and returns what to run when that subcommand is chosen.

#ifndef TOOLS_SPIRV_CONV_COMMANDS_H_
#define TOOLS_SPIRV_CONV_COMMANDS_H_

#include <functional>

#include "CLI/CLI.hpp"

namespace spirv_conv {
namespace cli {

using Command = std::function<int()>;

Command AddValidateCommand(CLI::App& app);
Command AddOptCommand(CLI::App& app);
Command AddDisCommand(CLI::App& app);
Command AddUniformityCommand(CLI::App& app);
Command AddLintCommand(CLI::App& app);
Command AddCfgCommand(CLI::App& app);
Command AddCheckMotionCommand(CLI::App& app);
Command AddRunCommand(CLI::App& app);
Command AddLspCommand(CLI::App& app);

}  // namespace cli
}  // namespace spirv_conv

#endif  // TOOLS_SPIRV_CONV_COMMANDS_H_
