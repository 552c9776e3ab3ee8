// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the tests of the control-flow transforms (--structurize,
// --reconverge) share: a compute-shader prefix to put a hand-written
// function body after, running a transform and checking its output against
// the input in the SIMT simulator, and questions about the output's words.

#ifndef TEST_PASSES_CONTROL_FLOW_TEST_UTIL_H_
#define TEST_PASSES_CONTROL_FLOW_TEST_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "spirv/unified1/spirv.hpp11"
#include "spirv_conv/pipeline.h"
#include "spirv_conv/status.h"

namespace spirv_conv {
namespace test {

// Types, constants (%u0 .. %u999), the LocalInvocationIndex input %lid and
// the storage buffer %out of 16 invocations of a GLCompute shader; each
// case stores its result to out[LocalInvocationIndex].
extern const char kControlFlowPrefix[];

struct TransformOutcome {
  SpirvBinary output;
  StructurizeStats stats;
  ReconvergeStats reconverge;   // for ReconvergeBinary
  std::vector<uint32_t> words;  // the output's buffer
};

// A transform of |input|, filling |outcome|'s stats.
using ControlFlowTransform =
    std::function<Expected<SpirvBinary>(const SpirvBinary& input, TransformOutcome* outcome)>;

// Runs |transform| on |module| (assembly), checks that the output computes
// what the input computes (the input under post-dominator reconvergence,
// the only model for unstructured code; the output under maximal and
// ipdom, two subgroups of 8) and returns it.
TransformOutcome RunControlFlowTransform(const std::string& module,
                                         const ControlFlowTransform& transform);

// RunControlFlowTransform with StructurizeBinary.
TransformOutcome RunStructurize(const std::string& module);

// Calls |visit(opcode, operands)| for each instruction of |binary|, the
// operands being the words after the opcode word.
template <typename Visit>
void ForEachInstruction(const SpirvBinary& binary, const Visit& visit) {
  const std::vector<uint32_t>& w = binary.words;
  for (size_t i = 5; i < w.size() && (w[i] >> 16) != 0; i += w[i] >> 16) {
    visit(static_cast<spv::Op>(w[i] & 0xffff),
          std::vector<uint32_t>(w.begin() + i + 1, w.begin() + i + (w[i] >> 16)));
  }
}

// The instructions of |binary| with opcode |op|.
size_t CountOpcode(const SpirvBinary& binary, spv::Op op);
inline size_t CountBlocks(const SpirvBinary& binary) {
  return CountOpcode(binary, spv::Op::OpLabel);
}

// Values computed in function bodies without side effects that nothing uses.
size_t DeadValues(const SpirvBinary& binary);

}  // namespace test
}  // namespace spirv_conv

#endif  // TEST_PASSES_CONTROL_FLOW_TEST_UTIL_H_
