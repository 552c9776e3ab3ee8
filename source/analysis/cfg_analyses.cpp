// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/cfg_analyses.h"

#include <algorithm>
#include <utility>

namespace spirv_conv {
namespace analysis {

CfgAnalyses::CfgAnalyses(Cfg graph, const std::vector<char>& also_exit)
    : CfgAnalyses(std::move(graph), nullptr, also_exit) {}

CfgAnalyses::CfgAnalyses(const Cfg* graph, const std::vector<char>& also_exit)
    : CfgAnalyses(Cfg{}, graph, also_exit) {}

CfgAnalyses::CfgAnalyses(Cfg owned, const Cfg* borrowed, const std::vector<char>& also_exit)
    : owned_(std::move(owned)),
      cfg(borrowed != nullptr ? *borrowed : owned_),
      predecessors(CompressedPredecessors(cfg)),
      rpo(cfg.size() == 0 ? std::vector<uint32_t>{} : ReversePostOrder(cfg.successors, cfg.entry)),
      rpo_index(cfg.size(), ~0u),
      cycles(cfg, predecessors),
      dominators(cfg, predecessors, rpo),
      post_dominators(cfg, predecessors, /*post=*/true, also_exit) {
  for (uint32_t i = 0; i < rpo.size(); ++i) rpo_index[rpo[i]] = i;
}

}  // namespace analysis
}  // namespace spirv_conv
