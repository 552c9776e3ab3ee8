// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "motion/control_dependence.h"

#include <vector>

#include "analysis/cfg_analyses.h"
#include "analysis/function_cfg.h"

namespace spirv_conv {
namespace motion {
namespace {

// For each block index, the blocks it is directly control dependent on: b
// depends on a when a has an edge to s, b post-dominates s and b does not
// strictly post-dominate a.
std::vector<std::vector<uint32_t>> DirectDependence(const analysis::CfgAnalyses& cfg) {
  const analysis::DominatorTree& post = cfg.post_dominators;
  const uint32_t exit = cfg.cfg.size();
  std::vector<std::vector<uint32_t>> depends(exit);
  for (uint32_t a = 0; a < exit; ++a) {
    if (cfg.cfg.successors[a].size() < 2) continue;
    const uint32_t stop = post.Idom(a);
    for (uint32_t s : cfg.cfg.successors[a]) {
      for (uint32_t r = s; r != stop && r < exit; r = post.Idom(r)) depends[r].push_back(a);
    }
  }
  return depends;
}

}  // namespace

ControlDependence::ControlDependence(spvtools::opt::IRContext& context,
                                     const analysis::CallGraph& calls,
                                     const analysis::BlockTable& blocks)
    : calls_(calls), blocks_(blocks) {
  for (const spvtools::opt::Function& function : *context.module()) {
    const analysis::FunctionCfg graph = analysis::BuildFunctionCfg(function);
    const analysis::CfgAnalyses cfg(graph.cfg);
    const std::vector<std::vector<uint32_t>> direct = DirectDependence(cfg);
    for (uint32_t b = 0; b < graph.cfg.size(); ++b) {
      std::set<uint32_t>& closure = by_label_[graph.label_of[b]];
      std::vector<uint32_t> work = direct[b];
      std::vector<bool> seen(graph.cfg.size(), false);
      while (!work.empty()) {
        const uint32_t a = work.back();
        work.pop_back();
        if (seen[a]) continue;
        seen[a] = true;
        closure.insert(graph.label_of[a]);
        work.insert(work.end(), direct[a].begin(), direct[a].end());
      }
    }
  }
}

std::set<uint32_t> ControlDependence::Of(const spvtools::opt::Instruction& inst) const {
  const spvtools::opt::BasicBlock* block = blocks_.Of(inst);
  if (block == nullptr) return {};
  std::set<uint32_t> result;
  auto found = by_label_.find(block->id());
  if (found != by_label_.end()) result = found->second;
  const std::set<uint32_t>& context = CallContext(blocks_.FunctionOf(inst));
  result.insert(context.begin(), context.end());
  return result;
}

const std::set<uint32_t>& ControlDependence::CallContext(uint32_t function) const {
  auto found = call_context_.find(function);
  if (found != call_context_.end()) return found->second;
  std::set<uint32_t> context;
  call_context_[function];  // recursion, which shaders do not have, ends here
  for (const spvtools::opt::Instruction* call : calls_.CallsOf(function)) {
    const std::set<uint32_t> of_call = Of(*call);
    context.insert(of_call.begin(), of_call.end());
  }
  return call_context_[function] = std::move(context);
}

}  // namespace motion
}  // namespace spirv_conv
