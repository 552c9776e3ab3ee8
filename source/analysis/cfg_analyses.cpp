// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/cfg_analyses.h"

#include <algorithm>
#include <utility>

namespace spirv_conv {
namespace analysis {

CfgAnalyses::CfgAnalyses(Cfg graph, const std::vector<char>& also_exit)
    : cfg(std::move(graph)),
      predecessors(CompressedPredecessors(cfg)),
      rpo(cfg.size() == 0 ? std::vector<uint32_t>{} : ReversePostOrder(cfg.successors, cfg.entry)),
      rpo_index(cfg.size(), ~0u),
      cycles(cfg),
      dominators(cfg, predecessors, /*post=*/false),
      post_dominators(cfg, predecessors, /*post=*/true, also_exit) {
  for (uint32_t i = 0; i < rpo.size(); ++i) rpo_index[rpo[i]] = i;
}

}  // namespace analysis
}  // namespace spirv_conv
