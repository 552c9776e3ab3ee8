// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The sources of divergence and uniformity: what one instruction does to the
// level of its result, given its operands. The table behind it, with the
// Vulkan/SPIR-V reasons, is docs/uniformity.md; keep the two in step.

#ifndef SOURCE_ANALYSIS_UNIFORMITY_SOURCES_H_
#define SOURCE_ANALYSIS_UNIFORMITY_SOURCES_H_

#include <cstdint>

#include "analysis/module_index.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {
namespace analysis {

enum class Rule : uint8_t {
  kFollow,      // a pure function of the operands: their join
  kFixed,       // |level| whatever the operands (a source)
  kCollective,  // a subgroup/quad operation: uniform operands give a uniform
                // result, otherwise |level| (its scope)
  kPhi,         // handled by the solver: joins and incoming values
  kLoad,        // handled by the solver: address and memory
  kCall,        // handled by the solver: callee summary
  kParameter,   // handled by the solver: calling context
  kNoValue,     // no result worth a level (stores, barriers, branches)
};

struct InstructionRule {
  Rule rule = Rule::kFixed;
  Uniformity level = Uniformity::kDivergent;
  const char* note = "";  // why, for explanations (kFixed, kCollective)
};

// Bits of the execution models an entry point can run a function under.
enum ModelBits : uint32_t {
  kModelCompute = 1u << 0,  // GLCompute, TaskNV/EXT, MeshNV/EXT
  kModelKernel = 1u << 1,   // OpenCL kernels
  kModelFragment = 1u << 2,
  kModelVertexLike = 1u << 3,  // vertex, tessellation, geometry
  kModelRayTracing = 1u << 4,  // the ray-tracing stages but ray generation
  kModelRayGeneration = 1u << 5,
  kModelAll = 0x3f,
};
uint32_t ModelBit(spv::ExecutionModel model);

// The rule for |inst| (which has a result id). |index| resolves scopes.
InstructionRule ClassifyInstruction(const spvtools::opt::Instruction& inst,
                                    const ModuleIndex& index);
// The same with |inst|'s opcode given: a pure instruction (most of them)
// is classified without reading |inst|.
InstructionRule ClassifyInstruction(spv::Op opcode, const spvtools::opt::Instruction& inst,
                                    const ModuleIndex& index);

// The level of built-in |builtin| read under any of |models|, with a note.
Uniformity BuiltInLevel(spv::BuiltIn builtin, uint32_t models, const char** note);

// The level of a subgroup-or-wider collective at scope id |scope_id|
// (divergent if the scope is not a known constant).
Uniformity ScopeLevel(uint32_t scope_id, const ModuleIndex& index);

// What Uniform / UniformId decorations on |id| assert: the widest level it
// may have (kDivergent when it has none).
Uniformity DecoratedLevel(const ModuleIndex& index, uint32_t id);
// The same, with the answer for an id without decorations (most values,
// asked for each node) inline.
inline Uniformity AssertedLevel(const ModuleIndex& index, uint32_t id) {
  return index.MayBeDecorated(id) ? DecoratedLevel(index, id) : Uniformity::kDivergent;
}

// Whether |variable| is a Uniform-class block decorated BufferBlock (a
// storage buffer in the old spelling).
bool IsBufferBlock(const ModuleIndex& index, const spvtools::opt::Instruction& variable);
// Whether |variable| is NonWritable, or a block all of whose members are.
bool IsReadOnly(const ModuleIndex& index, const spvtools::opt::Instruction& variable);
// Whether image type |image| (OpTypeImage) is a storage image or storage
// texel buffer: Sampled 2, or 0 (known only at run time; Vulkan allows 1
// and 2 only).
bool IsStorageImageType(const spvtools::opt::Instruction& image);
// Whether |variable| holds one (through arrays).
bool IsStorageImage(const ModuleIndex& index, const spvtools::opt::Instruction& variable);
// Whether input |variable| has one value per primitive: decorated Flat or
// PerPrimitiveEXT, or a block all of whose members are.
bool IsPerPrimitive(const ModuleIndex& index, const spvtools::opt::Instruction& variable);
// Whether nothing can change what |variable| holds while an invocation
// runs: UniformConstant (but storage images), PushConstant, Input, Uniform
// blocks (not BufferBlock) and read-only buffers and storage images. A load from it at the same
// address reads the same value on every iteration of a cycle.
bool IsImmutable(const ModuleIndex& index, const spvtools::opt::Instruction& variable);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_UNIFORMITY_SOURCES_H_
