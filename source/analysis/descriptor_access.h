// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Accesses through descriptor arrays, for the NonUniform rules: which
// access chain selects a descriptor (and with which indices), and which
// operand of which instruction then accesses memory through that resource.
// VUID-RuntimeSpirv-None-10148/-subgroupSize-10149 put the NonUniform
// decoration on exactly that operand: the image or sampled image operand of
// an image instruction (an OpSampledImage result when the shader combines a
// separate image and sampler), the pointer operand of a load, store or
// atomic on a buffer, the texel pointer of an image atomic, the acceleration
// structure operand of a ray query or trace.

#ifndef SOURCE_ANALYSIS_DESCRIPTOR_ACCESS_H_
#define SOURCE_ANALYSIS_DESCRIPTOR_ACCESS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/module_tables.h"
#include "spirv_conv/descriptor_class.h"

namespace spirv_conv {
namespace analysis {

// One operand through which an instruction accesses a descriptor array's
// resource, with the index that selected the descriptor.
struct ResourceOperand {
  const spvtools::opt::Instruction* user = nullptr;                    // accesses memory
  uint32_t operand = 0;                                                // in-operand of |user|
  uint32_t id = 0;                                                     // the operand's id
  const spvtools::opt::Instruction* variable = nullptr;                // the descriptor array
  DescriptorClass descriptor_class = DescriptorClass::kStorageBuffer;  // of |variable|
  // The access chain and in-operand of the least uniform index that selects
  // the descriptor, and the level of that index there (UseLevel): the join
  // over every access chain that reaches |id|.
  const spvtools::opt::Instruction* chain = nullptr;
  uint32_t index_operand = 0;
  Uniformity index_level = Uniformity::kUniform;
};

// The operands through which |inst| passes a descriptor (or a value made
// from one) on to its result: the base of an access chain, the pointer of a
// load of a handle, the image of OpImage / OpImageTexelPointer, both
// operands of OpSampledImage, the values of a phi or select, a copied value.
// Empty for every other instruction.
std::vector<uint32_t> DescriptorOperands(const spvtools::opt::Instruction& inst);

// In-operand |in| of |user| is the resource operand of an access
// (VUID-RuntimeSpirv-None-10148): the pointer of a load of buffer data, a
// store, a memory copy, OpArrayLength or an atomic; the image of an image
// instruction; the acceleration structure of a ray query or trace.
bool AccessesResource(const ModuleIndex& index, const spvtools::opt::Instruction& user,
                      uint32_t in);

// |type| is an array (of arrays) of descriptors in |storage|.
bool IsDescriptorArrayType(const ModuleIndex& index, const spvtools::opt::Instruction* type,
                           spv::StorageClass storage);

// The descriptor class of |variable| when it is an array of descriptors
// (images, samplers, acceleration structures, buffer blocks), else nothing.
std::optional<DescriptorClass> DescriptorArrayClass(const ModuleIndex& index,
                                                    const spvtools::opt::Instruction& variable);

// Every resource operand of every descriptor-array access, one per operand
// id (the first user in module order), in module order. |levels| answers
// the uniformity of each index where the access chain uses it.
std::vector<ResourceOperand> FindResourceOperands(const ModuleTables& tables,
                                                  const UniformityInfo& info);

// The values through which the descriptor flows from the descriptor array
// to |resource|.id, |resource|.id included: access chains, loaded handles,
// OpSampledImage/OpImage/OpImageTexelPointer results, copies, phis and
// selects whose value may be the descriptor (found backwards from the
// operand, across calls from a parameter to the arguments), in module order.
// These are the ids a NonUniform access decorates.
std::vector<uint32_t> DescriptorValues(const ModuleTables& tables, const ResourceOperand& resource);

// |id| is decorated NonUniform.
bool IsDecoratedNonUniform(const ModuleIndex& index, uint32_t id);

// What the rules say about the operand's kind: "sampled image", "image",
// "sampler", "pointer", "texel pointer", "acceleration structure".
std::string OperandRole(const ModuleIndex& index, const ResourceOperand& resource);

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_DESCRIPTOR_ACCESS_H_
