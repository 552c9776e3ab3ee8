// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/module.h"

#include <utility>

#include "source/opt/ir_context.h"

namespace spirv_conv {

Module::Module(SpirvBinary binary, std::unique_ptr<spvtools::opt::IRContext> ir)
    : binary_(std::move(binary)), ir_(std::move(ir)) {}
Module::Module(Module&&) noexcept = default;
Module& Module::operator=(Module&&) noexcept = default;
Module::~Module() = default;

Expected<Module> LoadModule(const std::string& path, const ModuleOptions& options) {
  Expected<SpirvBinary> binary = LoadSpirv(path, options.load);
  if (!binary) return binary.error();
  return LoadModule(std::move(binary.value()), options);
}

Expected<Module> LoadModule(SpirvBinary binary, const ModuleOptions& options) {
  if (!options.skip_validation) {
    Status valid = ValidateSpirv(binary.words, binary.target_env, options.validator, binary.name,
                                 ExitCode::kBadInput);
    if (!valid) return valid.error();
  }
  Expected<std::unique_ptr<spvtools::opt::IRContext>> ir = BuildIrContext(binary, options.ir);
  if (!ir) {
    // IR errors name the module already; one that does not gets its name.
    Error error = ir.error();
    if (error.message.rfind(binary.name + ":", 0) != 0) {
      error.message = binary.name + ": " + error.message;
    }
    return error;
  }
  return Module(std::move(binary), std::move(ir.value()));
}

}  // namespace spirv_conv
