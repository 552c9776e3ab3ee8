// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The one way spirv-conv reads a module: load (binary, assembly or GLSL;
// spirv_conv/load.h), validate, and build the optimizer IR every analysis
// and pass works on (spirv_conv/ir.h). The lint, the CLI's commands and
// library users all start here.

#ifndef INCLUDE_SPIRV_CONV_MODULE_H_
#define INCLUDE_SPIRV_CONV_MODULE_H_

#include <memory>
#include <string>

#include "spirv_conv/ir.h"
#include "spirv_conv/load.h"
#include "spirv_conv/status.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {

struct ModuleOptions {
  LoadOptions load;
  ValidatorFlags validator;
  // Build the IR without validating first, for modules the bundled spirv-val
  // rejects (SPIRV-Tools' IR loader trusts its input: the analyses may then
  // refuse IR they cannot model).
  bool skip_validation = false;
  IrLoad ir = IrLoad::kAnalysis;
};

// A loaded module: its binary as loaded and its optimizer IR, which the
// Module owns. Move-only.
class Module {
 public:
  Module(SpirvBinary binary, std::unique_ptr<spvtools::opt::IRContext> ir);
  Module(Module&&) noexcept;
  Module& operator=(Module&&) noexcept;
  ~Module();

  const SpirvBinary& binary() const { return binary_; }
  // The name messages use for the module (its path, or "<stdin>").
  const std::string& name() const { return binary_.name; }
  spvtools::opt::IRContext& ir() const { return *ir_; }

 private:
  SpirvBinary binary_;
  std::unique_ptr<spvtools::opt::IRContext> ir_;
};

// Loads |path| ("-": standard input), validates it unless
// |options.skip_validation|, and builds its IR. Every error is one line
// naming the file (ExitCode::kBadInput).
Expected<Module> LoadModule(const std::string& path, const ModuleOptions& options);

// The same for a binary already in memory (|options.load| is not used).
Expected<Module> LoadModule(SpirvBinary binary, const ModuleOptions& options);

}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_MODULE_H_
