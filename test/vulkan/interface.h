// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The shader's resource interface checked against the job before anything
// runs. Drivers do not check it (and no validation layer is installed):
// lavapipe dereferences a null descriptor and crashes when a job leaves out
// a binding the shader uses. A mismatch is a bad job (exit 2) instead.

#ifndef SPIRV_CONV_TEST_VULKAN_INTERFACE_H_
#define SPIRV_CONV_TEST_VULKAN_INTERFACE_H_

#include <cstdint>
#include <vector>

#include "job.h"

namespace vk_runner {

// Throws JobError when |spirv| has no entry point job.entry of the job's
// stage, or declares a resource the job does not bind as the right type with
// enough elements and bytes, or push constants the job does not give.
// Every resource declared in the module counts, used or not. Render jobs:
// also the vertex shader |vertex_spirv| (empty: the built-in one) and the
// job's "inputs" against the fragment shader's inputs.
void CheckInterface(const std::vector<uint32_t>& spirv, const std::vector<uint32_t>& vertex_spirv,
                    const Job& job);

}  // namespace vk_runner

#endif  // SPIRV_CONV_TEST_VULKAN_INTERFACE_H_
