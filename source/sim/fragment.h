// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The frame of a Fragment entry point (docs/simulator.md, "Fragment shaders"):
// which quads run and which of their pixels are helpers, the values of the
// fragment built-ins and interpolated inputs, the image descriptors, and the
// attachments read back from the outputs of the invocations that finished.

#ifndef SOURCE_SIM_FRAGMENT_H_
#define SOURCE_SIM_FRAGMENT_H_

#include <cstdint>
#include <vector>

#include "sim/machine.h"

namespace spirv_conv {
namespace sim {

// m.pixels and m.invocation_count: every 2x2 quad with a covered pixel, row by
// row, its lanes in quad order (top left, top right, bottom left, bottom
// right), as Vulkan numbers a quad's invocations. Errors name the bad frame.
Status PlaceFragments(Machine& m);

// The built-in |builtin| of fragment invocation |invocation|; false if it is not
// a fragment built-in the simulator knows.
bool FragmentBuiltin(const Machine& m, uint32_t invocation, uint32_t builtin,
                     std::vector<uint64_t>* out);

// Writes the interpolated input |g| of |invocation| into |bytes| (its variable).
void InterpolatedInput(const Machine& m, const Global& g, uint32_t invocation, uint8_t* bytes);

// Every Location output (and FragDepth) of the invocations that returned
// neither terminated nor as helpers, per pixel.
void ReadAttachments(const Machine& m, RunResult* result);

}  // namespace sim
}  // namespace spirv_conv

#endif  // SOURCE_SIM_FRAGMENT_H_
