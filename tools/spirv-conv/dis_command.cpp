// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv dis: disassemble (like spirv-dis; the input is not validated).

#include <memory>

#include "commands.h"
#include "common.h"
#include "spirv_conv/emit.h"

namespace spirv_conv {
namespace cli {

Command AddDisCommand(CLI::App& app) {
  struct Flags {
    InputFlags input;
    std::string file;
    std::string output = "-";
    bool raw_id = false;
    bool no_indent = false;
    bool no_header = false;
    bool offsets = false;
    bool comment = false;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* command = app.add_subcommand(
      "dis",
      "Disassemble one input to SPIR-V assembly. The input is not validated, so invalid "
      "modules can be inspected.");
  AddFileAndOutputOptions(command, &flags->file, &flags->output);
  command->add_flag("--raw-id", flags->raw_id, "Show %N ids instead of friendly names");
  command->add_flag("--no-indent", flags->no_indent, "Do not align result ids");
  command->add_flag("--no-header", flags->no_header, "Omit the header comment");
  command->add_flag("--offsets", flags->offsets, "Show byte offsets of instructions");
  command->add_flag("--comment", flags->comment, "Add comments (as spirv-dis --comment)");
  AddInputFlags(command, &flags->input);

  return [flags]() {
    Expected<LoadOptions> options = ToLoadOptions(flags->input);
    if (!options) return Report(options.error());
    Expected<SpirvBinary> binary = LoadSpirv(flags->file, *options);
    if (!binary) return Report(binary.error());
    DisassembleOptions dis;
    dis.friendly_names = !flags->raw_id;
    dis.indent = !flags->no_indent;
    dis.header = !flags->no_header;
    dis.offsets = flags->offsets;
    dis.comment = flags->comment;
    Expected<std::string> text = Disassemble(binary->words, binary->target_env, dis, binary->name);
    if (!text) return Report(text.error());
    Status written = WriteOutput(flags->output, *text, {flags->file});
    if (!written) return Report(written.error());
    return 0;
  };
}

}  // namespace cli
}  // namespace spirv_conv
