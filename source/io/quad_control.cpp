// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "io/quad_control.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace io {
namespace {

struct Module {
  bool quad_control = false;
  std::map<uint32_t, std::string> names;
  std::map<uint32_t, std::set<spv::ExecutionModel>> models;  // entry function -> models
  std::vector<std::pair<uint32_t, spv::ExecutionMode>> modes;
  std::set<uint32_t> bool_types;
  std::map<uint32_t, uint32_t> type_of;  // result id -> its type id
  std::string first_bad_vote;            // rule 3
};

uint32_t Word(const spv_parsed_instruction_t& inst, uint16_t operand) {
  return inst.words[inst.operands[operand].offset];
}

std::string Name(const Module& module, uint32_t id) {
  auto it = module.names.find(id);
  const std::string number = "%" + std::to_string(id);
  return it == module.names.end() || it->second.empty() ? number
                                                        : "%" + it->second + " (" + number + ")";
}

spv_result_t Gather(void* user_data, const spv_parsed_instruction_t* parsed) {
  Module& module = *static_cast<Module*>(user_data);
  const spv_parsed_instruction_t& inst = *parsed;
  if (inst.type_id != 0 && inst.result_id != 0) module.type_of[inst.result_id] = inst.type_id;
  switch (static_cast<spv::Op>(inst.opcode)) {
    case spv::Op::OpCapability:
      module.quad_control |= Word(inst, 0) == uint32_t(spv::Capability::QuadControlKHR);
      break;
    case spv::Op::OpName:
      module.names[Word(inst, 0)] = reinterpret_cast<const char*>(inst.words + 2);
      break;
    case spv::Op::OpEntryPoint:
      module.models[Word(inst, 1)].insert(static_cast<spv::ExecutionModel>(Word(inst, 0)));
      break;
    case spv::Op::OpExecutionMode:
    case spv::Op::OpExecutionModeId:
      module.modes.emplace_back(Word(inst, 0), static_cast<spv::ExecutionMode>(Word(inst, 1)));
      break;
    case spv::Op::OpTypeBool:
      module.bool_types.insert(inst.result_id);
      break;
    case spv::Op::OpGroupNonUniformQuadAllKHR:
    case spv::Op::OpGroupNonUniformQuadAnyKHR: {
      if (!module.first_bad_vote.empty()) break;
      const uint32_t predicate = Word(inst, 2);
      auto type = module.type_of.find(predicate);
      const char* opname = inst.opcode == uint32_t(spv::Op::OpGroupNonUniformQuadAllKHR)
                               ? "OpGroupNonUniformQuadAllKHR"
                               : "OpGroupNonUniformQuadAnyKHR";
      if (!module.bool_types.count(inst.type_id)) {
        module.first_bad_vote = std::string(opname) + " " + Name(module, inst.result_id) +
                                ": Result Type must be a Boolean Type (SPV_KHR_quad_control)";
      } else if (type == module.type_of.end() || !module.bool_types.count(type->second)) {
        module.first_bad_vote = std::string(opname) + " " + Name(module, inst.result_id) +
                                ": Predicate must be a Boolean Type (SPV_KHR_quad_control)";
      }
      break;
    }
    default:
      break;
  }
  return SPV_SUCCESS;
}

// A cheap look for "OpCapability QuadControlKHR" before the parser runs.
bool DeclaresTheCapability(const std::vector<uint32_t>& words) {
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    if (count == 0) return false;
    const uint32_t opcode = words[i] & 0xffff;
    if (opcode == uint32_t(spv::Op::OpCapability) && count >= 2 && i + 1 < words.size() &&
        words[i + 1] == uint32_t(spv::Capability::QuadControlKHR)) {
      return true;
    }
    if (opcode != uint32_t(spv::Op::OpCapability)) return false;  // capabilities come first
    i += count;
  }
  return false;
}

}  // namespace

std::string FindQuadControlViolation(const std::vector<uint32_t>& words, spv_target_env env) {
  if (!DeclaresTheCapability(words)) return {};
  Module module;
  spv_context context = spvContextCreate(env);
  const spv_result_t parsed =
      spvBinaryParse(context, &module, words.data(), words.size(), nullptr, Gather, nullptr);
  spvContextDestroy(context);
  if (parsed != SPV_SUCCESS || !module.quad_control) return {};
  for (const auto& [entry, mode] : module.modes) {
    const std::set<spv::ExecutionModel>& models = module.models[entry];
    if (mode == spv::ExecutionMode::RequireFullQuadsKHR) {
      for (spv::ExecutionModel model : models) {
        if (model != spv::ExecutionModel::Fragment) {
          return "entry point " + Name(module, entry) +
                 " declares RequireFullQuadsKHR, which SPV_KHR_quad_control allows only with the "
                 "Fragment execution model";
        }
      }
    }
    if (mode == spv::ExecutionMode::QuadDerivativesKHR) {
      for (spv::ExecutionModel model : models) {
        if (model != spv::ExecutionModel::Fragment && model != spv::ExecutionModel::GLCompute) {
          return "entry point " + Name(module, entry) +
                 " declares QuadDerivativesKHR, which is valid only with the Fragment or "
                 "GLCompute execution model";
        }
      }
    }
  }
  return module.first_bad_vote;
}

}  // namespace io
}  // namespace spirv_conv
