// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Which module-scope variables the module may write, read off the memory
// writes of the function models (stores, atomics and other instructions
// handed a pointer, image writes, pointers passed to calls). A write through
// a pointer the analysis cannot trace counts as a write to every variable
// its storage class may alias. Syntactic: a write in a function no entry
// point reaches counts too.

#ifndef SOURCE_ANALYSIS_MODULE_WRITES_H_
#define SOURCE_ANALYSIS_MODULE_WRITES_H_

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/uniformity_model.h"

namespace spirv_conv {
namespace analysis {

class ModuleWrites {
 public:
  using Models = std::unordered_map<uint32_t, std::unique_ptr<FunctionModel>>;
  ModuleWrites(const ModuleIndex& index, const Models& models);

  // Some instruction of the module may write |variable| (a module-scope
  // OpVariable).
  bool MayWrite(uint32_t variable) const;
  // |function|, or a function it calls, may write |variable|.
  bool MayWrite(uint32_t function, uint32_t variable) const;
  // |write| (one of a function model's writes) may write |variable|.
  bool MayWrite(const MemoryWrite& write, uint32_t variable) const;

 private:
  // Storage classes whose memory may overlap: an untraceable pointer into
  // one of them may point into any variable of its group.
  enum Group : uint8_t { kNone = 0, kBuffers = 1, kImages = 2, kWorkgroup = 4, kAll = 0xff };
  static uint8_t GroupOf(spv::StorageClass storage);
  struct Writes {
    std::unordered_set<uint32_t> variables;
    uint8_t groups = kNone;  // written through untraceable pointers
  };
  bool Hits(const Writes& writes, uint32_t variable) const;
  uint8_t VariableGroup(uint32_t variable) const;

  const ModuleIndex& index_;
  std::unordered_map<uint32_t, Writes> of_function_;  // with its callees
  Writes module_;
};

}  // namespace analysis
}  // namespace spirv_conv

#endif  // SOURCE_ANALYSIS_MODULE_WRITES_H_
