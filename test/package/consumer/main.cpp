// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// uniformity_verdict FILE: a user of the installed spirv_conv package
// (test/package/package_test.py). Loads one module (binary, assembly or
// GLSL), runs the uniformity analysis and prints the level of every
// conditional branch, then whether any is not uniform:
//
//   main: branch at block 12 is uniform
//   main: branch at block 20 is divergent
//   verdict: divergent
//
// Exit 0, or the library's exit code with its message.

#include <cstdio>
#include <memory>
#include <string>

#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/module.h"
#include "spirv_conv/status.h"
#include "spirv_conv/uniformity.h"

namespace {

int Fail(const spirv_conv::Error& error) {
  std::fprintf(stderr, "uniformity_verdict: %s\n", error.message.c_str());
  return static_cast<int>(error.code);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: uniformity_verdict FILE\n");
    return static_cast<int>(spirv_conv::ExitCode::kBadInput);
  }
  spirv_conv::Expected<spirv_conv::Module> module = spirv_conv::LoadModule(argv[1], {});
  if (!module) return Fail(module.error());
  spvtools::opt::IRContext& context = module->ir();
  spirv_conv::Expected<std::unique_ptr<spirv_conv::UniformityInfo>> info =
      spirv_conv::UniformityInfo::Compute(&context);
  if (!info) return Fail(info.error());

  bool divergent = false;
  for (const spvtools::opt::Function& function : *context.module()) {
    const std::string name = spirv_conv::OpNameOf(context, function.result_id());
    for (const spvtools::opt::BasicBlock& block : function) {
      const spv::Op opcode = block.ctail()->opcode();
      if (opcode != spv::Op::OpBranchConditional && opcode != spv::Op::OpSwitch) continue;
      const spirv_conv::Uniformity level = (*info)->BranchLevel(block.id());
      divergent = divergent || level != spirv_conv::Uniformity::kUniform;
      std::printf("%s: branch at block %u is %s\n", name.c_str(), block.id(),
                  spirv_conv::UniformityName(level));
    }
  }
  std::printf("verdict: %s\n", divergent ? "divergent" : "uniform");
  return 0;
}
