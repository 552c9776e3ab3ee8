// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "diagnostics/names.h"

#include "source/opcode.h"

namespace spirv_conv {
namespace diagnostics {

const char* ScopeWord(Uniformity required) {
  switch (required) {
    case Uniformity::kQuad:
      return "quad";
    case Uniformity::kSubgroup:
      return "subgroup";
    default:
      return "workgroup";
  }
}

std::string OpcodeName(const spvtools::opt::Instruction& inst) {
  return std::string("Op") + spvOpcodeString(inst.opcode());
}

bool SelectsFunction(const std::string& wanted, uint32_t function, const std::string& op_name) {
  if (wanted.empty() || wanted == "%" + std::to_string(function) || wanted == op_name) return true;
  // glslang names functions by their signature: "helper(f1;".
  const size_t paren = op_name.find('(');
  return paren != std::string::npos && paren > 0 && op_name.compare(0, paren, wanted) == 0 &&
         wanted.size() == paren;
}

using spvtools::opt::Instruction;

Names::Names(spvtools::opt::IRContext& context, const analysis::ModuleIndex& index,
             const Disassembly& disassembly)
    : index_(index), disassembly_(disassembly) {
  for (const Instruction& inst : context.module()->debugs2()) {
    if (inst.opcode() == spv::Op::OpMemberName) {
      member_names_.emplace(
          uint64_t{inst.GetSingleWordInOperand(0)} << 32 | inst.GetSingleWordInOperand(1),
          inst.GetInOperand(2).AsString());
      continue;
    }
    if (inst.opcode() != spv::Op::OpName) continue;
    std::string name = inst.GetInOperand(1).AsString();
    // glslang names functions by their signature: "helper(f1;".
    const size_t paren = name.find('(');
    if (paren != std::string::npos && paren > 0) name.resize(paren);
    names_.emplace(inst.GetSingleWordInOperand(0), std::move(name));
  }
}

std::string Names::Name(uint32_t id) const {
  auto it = names_.find(id);
  return it == names_.end() ? std::string() : it->second;
}

std::string Names::IdName(uint32_t id) const { return "%" + disassembly_.Name(id); }

std::string Names::NameOrId(uint32_t id) const {
  const std::string name = Name(id);
  return name.empty() ? IdName(id) : name;
}

const Instruction* Names::RootVariable(uint32_t pointer_id) const {
  const Instruction* inst = index_.Def(pointer_id);
  for (int depth = 0; inst != nullptr && depth < 64; ++depth) {
    switch (inst->opcode()) {
      case spv::Op::OpVariable:
      case spv::Op::OpFunctionParameter:
        return inst;
      case spv::Op::OpAccessChain:
      case spv::Op::OpInBoundsAccessChain:
      case spv::Op::OpPtrAccessChain:
      case spv::Op::OpInBoundsPtrAccessChain:
      case spv::Op::OpCopyObject:
        inst = index_.Def(inst->GetSingleWordInOperand(0));
        break;
      default:
        return nullptr;
    }
  }
  return nullptr;
}

std::string Names::Describe(uint32_t id) const {
  const std::string name = Name(id);
  if (!name.empty()) return "'" + name + "'";
  const Instruction* inst = index_.Def(id);
  // nonuniformEXT(i) and HLSL's NonUniformResourceIndex(i) copy the index;
  // HLSL's legalized structs are copied between layouts.
  if (inst != nullptr &&
      (inst->opcode() == spv::Op::OpCopyObject || inst->opcode() == spv::Op::OpCopyLogical)) {
    return Describe(inst->GetSingleWordInOperand(0));
  }
  // A struct member read out of a loaded struct (spirv-opt and glslang's
  // HLSL legalization split struct loads): "the 'normal' member of 'm'".
  if (inst != nullptr && inst->opcode() == spv::Op::OpCompositeExtract &&
      inst->NumInOperands() == 2) {
    const Instruction* composite = index_.Def(inst->GetSingleWordInOperand(0));
    auto member = composite == nullptr ? member_names_.end()
                                       : member_names_.find(uint64_t{composite->type_id()} << 32 |
                                                            inst->GetSingleWordInOperand(1));
    if (member != member_names_.end() && !member->second.empty()) {
      const std::string whole = Describe(composite->result_id());
      if (whole.rfind("'", 0) == 0) return "the '" + member->second + "' member of " + whole;
    }
  }
  if (inst != nullptr && inst->opcode() == spv::Op::OpFunctionCall) {
    const std::string callee = Name(inst->GetSingleWordInOperand(0));
    return "the result of '" + (callee.empty() ? IdName(inst->GetSingleWordInOperand(0)) : callee) +
           "'";
  }
  if (inst != nullptr && inst->opcode() == spv::Op::OpLoad) {
    const Instruction* variable = RootVariable(inst->GetSingleWordInOperand(0));
    if (variable != nullptr) {
      const std::string variable_name = Name(variable->result_id());
      if (!variable_name.empty()) return "'" + variable_name + "'";
    }
  }
  return IdName(id);
}

}  // namespace diagnostics
}  // namespace spirv_conv
