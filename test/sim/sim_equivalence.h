// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The simulator as a differential oracle for transform tests: run two
// modules on the same inputs and compare every storage buffer they leave.

#ifndef TEST_SIM_SIM_EQUIVALENCE_H_
#define TEST_SIM_SIM_EQUIVALENCE_H_

#include <string>
#include <vector>

#include "spirv_conv/load.h"
#include "spirv_conv/sim.h"

namespace spirv_conv {
namespace test {

struct Equivalence {
  bool equivalent = false;
  // Empty when equivalent; else the first differences ("buffer 0:1[0] word 5: 3 vs 4")
  // or the error that stopped a run.
  std::string description;
  explicit operator bool() const { return equivalent; }
};

// Runs |a| and |b| (validated, then built into IR) under |options| on |inputs|
// and compares their storage buffers word by word.
Equivalence Equivalent(const SpirvBinary& a, const SpirvBinary& b,
                       const std::vector<sim::Buffer>& inputs, const sim::RunOptions& options = {});

// Runs one module; what Equivalent runs twice.
// Validates |binary| (unless |validate| is false: unstructured input for the
// ipdom model breaks spirv-val's structured rules), compiles and runs it.
Expected<sim::RunResult> RunBinary(const SpirvBinary& binary,
                                   const std::vector<sim::Buffer>& inputs,
                                   const sim::RunOptions& options = {}, bool validate = true);

}  // namespace test
}  // namespace spirv_conv

#endif  // TEST_SIM_SIM_EQUIVALENCE_H_
