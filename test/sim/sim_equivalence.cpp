// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "sim/sim_equivalence.h"

#include <cstring>

#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/validate.h"

namespace spirv_conv {
namespace test {

Expected<sim::RunResult> RunBinary(const SpirvBinary& binary,
                                   const std::vector<sim::Buffer>& inputs,
                                   const sim::RunOptions& options, bool validate) {
  if (validate) {
    Status valid = ValidateSpirv(binary.words, binary.target_env, ValidatorFlags(), binary.name,
                                 ExitCode::kBadInput);
    if (!valid) return valid.error();
  }
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context = BuildIrContext(binary);
  if (!context) return context.error();
  Expected<std::shared_ptr<const sim::Program>> program = sim::Compile(**context, "", binary.name);
  if (!program) return program.error();
  return sim::Run(**program, inputs, options);
}

Equivalence Equivalent(const SpirvBinary& a, const SpirvBinary& b,
                       const std::vector<sim::Buffer>& inputs, const sim::RunOptions& options) {
  Expected<sim::RunResult> ra = RunBinary(a, inputs, options);
  Expected<sim::RunResult> rb = RunBinary(b, inputs, options);
  if (!ra || !rb) {
    return {false, "run failed: " + (ra ? std::string("-") : ra.error().message) + " / " +
                       (rb ? std::string("-") : rb.error().message)};
  }
  std::string differences;
  int shown = 0;
  auto note = [&](const std::string& line) {
    if (shown++ < 8) differences += line + "\n";
  };
  for (const sim::Buffer& x : ra->buffers) {
    const std::string name = "buffer " + std::to_string(x.set) + ":" + std::to_string(x.binding) +
                             "[" + std::to_string(x.element) + "]";
    const sim::Buffer* y = nullptr;
    for (const sim::Buffer& candidate : rb->buffers) {
      if (candidate.set == x.set && candidate.binding == x.binding &&
          candidate.element == x.element) {
        y = &candidate;
      }
    }
    if (!y) {
      note(name + ": only in " + a.name);
      continue;
    }
    if (x.bytes.size() != y->bytes.size()) {
      note(name + ": " + std::to_string(x.bytes.size()) + " vs " + std::to_string(y->bytes.size()) +
           " bytes");
      continue;
    }
    for (size_t i = 0; i + 4 <= x.bytes.size(); i += 4) {
      uint32_t u, v;
      std::memcpy(&u, &x.bytes[i], 4);
      std::memcpy(&v, &y->bytes[i], 4);
      if (u != v) {
        note(name + " word " + std::to_string(i / 4) + ": " + std::to_string(u) + " (" + a.name +
             ") vs " + std::to_string(v) + " (" + b.name + ")");
      }
    }
  }
  if (ra->buffers.size() != rb->buffers.size()) note("different storage buffers");
  if (shown > 8) differences += "... " + std::to_string(shown - 8) + " more\n";
  return {differences.empty(), differences};
}

}  // namespace test
}  // namespace spirv_conv
