// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/function_cfg.h"

#include <algorithm>

namespace spirv_conv {
namespace analysis {

FunctionCfg BuildFunctionCfg(const spvtools::opt::Function& function) {
  FunctionCfg result;
  for (const auto& block : function) {
    result.index[block.id()] = static_cast<uint32_t>(result.label_of.size());
    result.label_of.push_back(block.id());
  }
  result.cfg.successors.resize(result.label_of.size());
  uint32_t index = 0;
  for (const auto& block : function) {
    std::vector<uint32_t>& successors = result.cfg.successors[index++];
    block.ForEachSuccessorLabel([&](uint32_t label) {
      const uint32_t successor = result.index.at(label);
      // OpSwitch may name a target more than once.
      if (std::find(successors.begin(), successors.end(), successor) == successors.end()) {
        successors.push_back(successor);
      }
    });
  }
  return result;
}

}  // namespace analysis
}  // namespace spirv_conv
