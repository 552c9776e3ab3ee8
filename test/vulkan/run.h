// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The two kinds of job: a compute dispatch and an off-screen full-screen draw.

#ifndef SPIRV_CONV_TEST_VULKAN_RUN_H_
#define SPIRV_CONV_TEST_VULKAN_RUN_H_

#include <cstdint>
#include <vector>

#include "descriptors.h"
#include "job.h"
#include "vk_context.h"

namespace vk_runner {

// Dispatches job.groups workgroups of |spirv|'s job.entry.
void RunCompute(Context& context, const Job& job, const std::vector<uint32_t>& spirv,
                const Descriptors& descriptors);

// Draws a triangle of 3 vertices into a job.width x job.height RGBA8 target
// with |spirv|'s job.entry as the fragment shader and |vertex_spirv|'s "main"
// as the vertex shader (empty: the built-in full-screen triangle); returns the
// pixels, rows top first.
std::vector<uint8_t> RunRender(Context& context, const Job& job, const std::vector<uint32_t>& spirv,
                               const std::vector<uint32_t>& vertex_spirv,
                               const Descriptors& descriptors);

}  // namespace vk_runner

#endif  // SPIRV_CONV_TEST_VULKAN_RUN_H_
