// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/cfg_analyses.h"

#include <algorithm>
#include <utility>

namespace spirv_conv {
namespace analysis {
namespace {

std::vector<uint32_t> RpoIndex(const Cfg& cfg) {
  std::vector<uint32_t> index(cfg.size(), ~0u);
  if (cfg.size() == 0) return index;
  std::vector<uint32_t> post;
  std::vector<char> seen(cfg.size(), 0);
  std::vector<std::pair<uint32_t, size_t>> stack{{cfg.entry, 0}};
  seen[cfg.entry] = 1;
  while (!stack.empty()) {
    auto& [block, next] = stack.back();
    if (next < cfg.successors[block].size()) {
      const uint32_t successor = cfg.successors[block][next++];
      if (!seen[successor]) seen[successor] = 1, stack.emplace_back(successor, 0);
    } else {
      post.push_back(block);
      stack.pop_back();
    }
  }
  const uint32_t n = static_cast<uint32_t>(post.size());
  for (uint32_t i = 0; i < n; ++i) index[post[i]] = n - 1 - i;
  return index;
}

}  // namespace

CfgAnalyses::CfgAnalyses(Cfg graph, const std::vector<char>& also_exit)
    : cfg(std::move(graph)),
      predecessors(cfg.Predecessors()),
      rpo_index(RpoIndex(cfg)),
      cycles(cfg),
      dominators(cfg, /*post=*/false),
      post_dominators(cfg, /*post=*/true, also_exit) {}

}  // namespace analysis
}  // namespace spirv_conv
