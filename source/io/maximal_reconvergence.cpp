// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "io/maximal_reconvergence.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "spirv/unified1/spirv.hpp11"

namespace spirv_conv {
namespace io {
namespace {

struct Block {
  uint32_t label = 0;
  std::vector<uint32_t> successors;  // in terminator order, repeats kept
  bool equal_conditional_labels = false;
};

struct Function {
  uint32_t id = 0;
  std::vector<Block> blocks;
  std::set<uint32_t> reconvergence_points;  // loop headers, merges, continues, switch targets
  std::set<uint32_t> callees;
};

// What the rules need of a module, gathered in one pass of the parser.
struct Module {
  std::map<uint32_t, std::string> names;
  std::set<uint32_t> maximal_entries;
  std::map<uint32_t, Function> functions;
  Function* current = nullptr;
};

uint32_t Word(const spv_parsed_instruction_t& inst, uint16_t operand) {
  return inst.words[inst.operands[operand].offset];
}

spv_result_t Gather(void* user_data, const spv_parsed_instruction_t* parsed) {
  Module& module = *static_cast<Module*>(user_data);
  const spv_parsed_instruction_t& inst = *parsed;
  Block* block =
      module.current && !module.current->blocks.empty() ? &module.current->blocks.back() : nullptr;
  switch (static_cast<spv::Op>(inst.opcode)) {
    case spv::Op::OpName:
      module.names[Word(inst, 0)] = reinterpret_cast<const char*>(inst.words + 2);
      break;
    case spv::Op::OpExecutionMode:
      if (Word(inst, 1) == kMaximallyReconvergesKHR) module.maximal_entries.insert(Word(inst, 0));
      break;
    case spv::Op::OpFunction:
      module.current = &module.functions[inst.result_id];
      module.current->id = inst.result_id;
      break;
    case spv::Op::OpFunctionEnd:
      module.current = nullptr;
      break;
    case spv::Op::OpLabel:
      if (module.current) module.current->blocks.push_back(Block{inst.result_id, {}, false});
      break;
    case spv::Op::OpFunctionCall:
      if (module.current) module.current->callees.insert(Word(inst, 2));
      break;
    case spv::Op::OpLoopMerge:
      if (!block) break;
      module.current->reconvergence_points.insert(
          {block->label, Word(inst, 0), Word(inst, 1)});  // header, merge, continue
      break;
    case spv::Op::OpSelectionMerge:
      if (block) module.current->reconvergence_points.insert(Word(inst, 0));
      break;
    case spv::Op::OpBranch:
      if (block) block->successors.push_back(Word(inst, 0));
      break;
    case spv::Op::OpBranchConditional:
      if (!block) break;
      block->successors = {Word(inst, 1), Word(inst, 2)};
      block->equal_conditional_labels = Word(inst, 1) == Word(inst, 2);
      break;
    case spv::Op::OpSwitch:
      if (!block) break;
      for (uint16_t i = 1; i < inst.num_operands; ++i) {
        if (inst.operands[i].type != SPV_OPERAND_TYPE_ID) continue;  // case literals
        block->successors.push_back(Word(inst, i));
        module.current->reconvergence_points.insert(Word(inst, i));
      }
      break;
    default:
      break;
  }
  return SPV_SUCCESS;
}

std::string Name(const Module& module, uint32_t id) {
  auto it = module.names.find(id);
  const std::string number = "%" + std::to_string(id);
  return it == module.names.end() || it->second.empty() ? number
                                                        : "%" + it->second + " (" + number + ")";
}

// The functions an entry point declaring the mode executes.
std::vector<const Function*> MaximalFunctions(const Module& module) {
  std::vector<const Function*> result;
  std::set<uint32_t> seen;
  std::vector<uint32_t> work(module.maximal_entries.begin(), module.maximal_entries.end());
  while (!work.empty()) {
    const uint32_t id = work.back();
    work.pop_back();
    auto it = module.functions.find(id);
    if (!seen.insert(id).second || it == module.functions.end()) continue;
    result.push_back(&it->second);
    work.insert(work.end(), it->second.callees.begin(), it->second.callees.end());
  }
  return result;
}

std::string CheckFunction(const Module& module, const Function& function) {
  const std::string where = "in function " + Name(module, function.id) +
                            ", executed by an entry point with MaximallyReconvergesKHR, ";
  std::map<uint32_t, std::set<uint32_t>> predecessors;
  for (const Block& block : function.blocks) {
    if (block.equal_conditional_labels) {
      return where + "block " + Name(module, block.label) +
             " ends with an OpBranchConditional whose True Label and False Label are both " +
             Name(module, block.successors[0]) + "; SPV_KHR_maximal_reconvergence requires them " +
             "to differ";
    }
    for (uint32_t successor : block.successors) predecessors[successor].insert(block.label);
  }
  for (const Block& block : function.blocks) {
    const std::set<uint32_t>& preds = predecessors[block.label];
    if (preds.size() < 2 || function.reconvergence_points.count(block.label)) continue;
    std::string list;
    for (uint32_t pred : preds) list += (list.empty() ? "" : ", ") + Name(module, pred);
    return where + "block " + Name(module, block.label) + " has " + std::to_string(preds.size()) +
           " predecessors (" + list + ") but is no loop header, merge block, continue target " +
           "or switch target; SPV_KHR_maximal_reconvergence allows joins only there";
  }
  return {};
}

// A cheap look for "OpExecutionMode %f MaximallyReconvergesKHR" before the
// parser runs: almost no module declares it.
bool DeclaresTheMode(const std::vector<uint32_t>& words) {
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    if (count == 0) return false;
    if ((words[i] & 0xffff) == uint32_t(spv::Op::OpExecutionMode) && count >= 3 &&
        i + 2 < words.size() && words[i + 2] == kMaximallyReconvergesKHR) {
      return true;
    }
    if ((words[i] & 0xffff) == uint32_t(spv::Op::OpFunction)) return false;  // modes come first
    i += count;
  }
  return false;
}

}  // namespace

std::string FindMaximalReconvergenceViolation(const std::vector<uint32_t>& words,
                                              spv_target_env env) {
  if (!DeclaresTheMode(words)) return {};
  Module module;
  spv_context context = spvContextCreate(env);
  const spv_result_t parsed =
      spvBinaryParse(context, &module, words.data(), words.size(), nullptr, Gather, nullptr);
  spvContextDestroy(context);
  if (parsed != SPV_SUCCESS || module.maximal_entries.empty()) return {};
  for (const Function* function : MaximalFunctions(module)) {
    std::string violation = CheckFunction(module, *function);
    if (!violation.empty()) return violation;
  }
  return {};
}

}  // namespace io
}  // namespace spirv_conv
