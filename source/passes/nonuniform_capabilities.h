// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The capabilities and extension that go with NonUniform: ShaderNonUniform
// for the decoration itself, <Class>ArrayNonUniformIndexing for each
// descriptor class indexed non-uniformly, and SPV_EXT_descriptor_indexing
// below SPIR-V 1.5, where they were core.

#ifndef SOURCE_PASSES_NONUNIFORM_CAPABILITIES_H_
#define SOURCE_PASSES_NONUNIFORM_CAPABILITIES_H_

#include "source/opt/ir_context.h"
#include "spirv_conv/device_profile.h"
#include "spirv_conv/nonuniform_passes.h"

namespace spirv_conv {
namespace passes {

// Declares ShaderNonUniform, the ArrayNonUniformIndexing capability of each
// class in |classes|, and the extension where the module's version needs it;
// records what was added (as pass |pass|) in |log|. Returns whether anything
// was added.
bool AddNonUniformCapabilities(spvtools::opt::IRContext* context, DescriptorClassSet classes,
                               const char* pass, ChangeLog* log);

// Removes the ArrayNonUniformIndexing capabilities of the classes no
// NonUniform resource operand belongs to any more, ShaderNonUniform when no
// NonUniform decoration is left, and SPV_EXT_descriptor_indexing when no
// capability of that extension is left. Returns whether anything was removed.
bool PruneNonUniformCapabilities(spvtools::opt::IRContext* context, const char* pass,
                                 ChangeLog* log);

}  // namespace passes
}  // namespace spirv_conv

#endif  // SOURCE_PASSES_NONUNIFORM_CAPABILITIES_H_
