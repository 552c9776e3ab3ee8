// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/ir.h"

#include <iostream>
#include <mutex>

#include "io/message_capture.h"
#include "io/newer_spirv.h"
#include "source/opt/build_module.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace {

std::mutex& WarningMutex() {
  static std::mutex mutex;
  return mutex;
}

std::function<void(const std::string&)>& WarningHandler() {
  static std::function<void(const std::string&)> handler = [](const std::string& line) {
    std::cerr << "spirv-conv: warning: " << line << "\n";
  };
  return handler;
}

void Warn(const std::string& line) {
  std::lock_guard<std::mutex> lock(WarningMutex());
  if (WarningHandler()) WarningHandler()(line);
}

std::unique_ptr<spvtools::opt::IRContext> Build(spv_target_env env, io::MessageCapture& errors,
                                                const std::vector<uint32_t>& words) {
  return spvtools::BuildModule(env, errors.Consumer(), words.data(), words.size());
}

}  // namespace

void SetIrWarningHandler(std::function<void(const std::string& line)> handler) {
  std::lock_guard<std::mutex> lock(WarningMutex());
  WarningHandler() = std::move(handler);
}

Expected<std::unique_ptr<spvtools::opt::IRContext>> BuildIrContext(const SpirvBinary& binary,
                                                                   IrLoad mode) {
  io::MessageCapture errors;
  std::unique_ptr<spvtools::opt::IRContext> context =
      Build(binary.target_env, errors, binary.words);
  if (!context) {
    // Something newer than the bundled SPIRV-Tools? (Only here, on failure:
    // a module that loads costs nothing more.)
    const io::NewerSpirvScan scan = io::ScanForNewerSpirv(binary.words, binary.target_env);
    if (!scan.FoundNewer()) {
      return MakeError(ExitCode::kBadInput, binary.name,
                       "cannot parse SPIR-V: " + errors.First("malformed module"));
    }
    const std::string what =
        io::BundledSpirvTools() + " does not know " + io::DescribeAll(scan.All());
    if (scan.blocking) {
      return MakeError(ExitCode::kBadInput, binary.name,
                       "cannot load: " + what + ", so its IR cannot represent the module");
    }
    if (!scan.other_error.empty()) {
      return MakeError(ExitCode::kBadInput, binary.name,
                       "cannot load: " + what + ", and without " +
                           (scan.dropped.size() == 1 ? "it" : "them") +
                           " the module does not parse: " + scan.other_error);
    }
    if (mode == IrLoad::kExact) {
      return MakeError(ExitCode::kBadInput, binary.name,
                       "cannot load: " + what +
                           " (only the analysis commands leave such declarations out; spirv-conv "
                           "never writes a module without them)");
    }
    io::MessageCapture retry_errors;
    context = Build(binary.target_env, retry_errors, scan.words);
    if (!context) {
      return MakeError(ExitCode::kBadInput, binary.name,
                       "cannot parse SPIR-V: " + retry_errors.First("malformed module"));
    }
    Warn(binary.name + ": not validated; analysed without " + io::DescribeAll(scan.dropped) +
         ", which " + io::BundledSpirvTools() + " does not know");
  }
  // The context keeps its consumer, and |errors| dies here: passes that run
  // later install their own.
  context->SetMessageConsumer(
      [](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
  return context;
}

std::vector<uint32_t> EmitBinary(spvtools::opt::IRContext& context) {
  std::vector<uint32_t> words;
  context.module()->ToBinary(&words, /* skip_nop = */ false);
  return words;
}

std::string OpNameOf(spvtools::opt::IRContext& context, uint32_t id) {
  for (const auto& [target, name] : context.GetNames(id)) return name->GetInOperand(1).AsString();
  return "";
}

}  // namespace spirv_conv
