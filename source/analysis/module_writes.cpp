// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/module_writes.h"

namespace spirv_conv {
namespace analysis {

uint8_t ModuleWrites::GroupOf(spv::StorageClass storage) {
  switch (storage) {
    // A physical pointer may address any buffer's memory.
    case spv::StorageClass::Uniform:
    case spv::StorageClass::StorageBuffer:
    case spv::StorageClass::PhysicalStorageBuffer:
      return kBuffers;
    case spv::StorageClass::UniformConstant:
    case spv::StorageClass::Image:
      return kImages;
    case spv::StorageClass::Workgroup:
      return kWorkgroup;
    // Per-invocation memory is not what this answers for.
    case spv::StorageClass::Function:
    case spv::StorageClass::Private:
    case spv::StorageClass::Input:
    case spv::StorageClass::Output:
    case spv::StorageClass::PushConstant:
      return kNone;
    default:  // Generic, CrossWorkgroup, unknown: anything
      return kAll;
  }
}

uint8_t ModuleWrites::VariableGroup(uint32_t variable) const {
  const auto* def = index_.Def(variable);
  if (def == nullptr || def->opcode() != spv::Op::OpVariable) return kAll;
  const uint8_t group = GroupOf(static_cast<spv::StorageClass>(InOperandWord(*def, 0)));
  return group == kNone ? kAll : group;
}

bool ModuleWrites::Hits(const Writes& writes, uint32_t variable) const {
  return writes.variables.count(variable) != 0 || (writes.groups & VariableGroup(variable)) != 0;
}

ModuleWrites::ModuleWrites(const ModuleIndex& index, const Models& models) : index_(index) {
  // Each function's own writes and callees; a pointer passed to a call
  // counts as written (the callee's writes through it are not traced back).
  std::unordered_map<uint32_t, std::vector<uint32_t>> callees;
  for (const auto& [function, model] : models) {
    Writes& own = of_function_[function];
    for (const MemoryWrite& w : model->memory.writes) {
      switch (w.root.kind) {
        case PointerRoot::Kind::kVariable:
          if (w.root.storage != spv::StorageClass::Function) own.variables.insert(w.root.id);
          break;
        case PointerRoot::Kind::kParameter:
          break;  // the caller passed the pointer: a write there
        case PointerRoot::Kind::kUnknown:
          own.groups |= GroupOf(w.root.storage);
          break;
      }
    }
    for (uint32_t b = 0; b < model->control.block_calls.size(); ++b) {
      for (uint32_t call : model->control.block_calls[b]) {
        const auto* inst = model->values.nodes[call].inst;
        if (inst != nullptr) callees[function].push_back(InOperandWord(*inst, 0));
      }
    }
  }
  // With the callees' writes (the call graph is acyclic in shaders; kernels
  // may recurse, hence the fixed point).
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& [function, writes] : of_function_) {
      for (uint32_t callee : callees[function]) {
        auto found = of_function_.find(callee);
        if (found == of_function_.end() || &found->second == &writes) continue;
        const Writes& inner = found->second;
        if ((inner.groups | writes.groups) != writes.groups) {
          writes.groups |= inner.groups;
          changed = true;
        }
        for (uint32_t v : inner.variables) changed |= writes.variables.insert(v).second;
      }
    }
  }
  for (const auto& [function, writes] : of_function_) {
    module_.groups |= writes.groups;
    module_.variables.insert(writes.variables.begin(), writes.variables.end());
  }
}

bool ModuleWrites::MayWrite(uint32_t variable) const { return Hits(module_, variable); }

bool ModuleWrites::MayWrite(uint32_t function, uint32_t variable) const {
  auto found = of_function_.find(function);
  return found == of_function_.end() || Hits(found->second, variable);
}

bool ModuleWrites::MayWrite(const MemoryWrite& write, uint32_t variable) const {
  switch (write.root.kind) {
    case PointerRoot::Kind::kVariable:
      return write.root.id == variable;
    case PointerRoot::Kind::kParameter:
      return false;  // counted at the call that passed the pointer
    case PointerRoot::Kind::kUnknown:
      return (GroupOf(write.root.storage) & VariableGroup(variable)) != 0;
  }
  return true;
}

}  // namespace analysis
}  // namespace spirv_conv
