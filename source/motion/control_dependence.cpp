// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "motion/control_dependence.h"

#include <vector>

#include "analysis/cfg_analyses.h"
#include "analysis/function_cfg.h"
#include "analysis/loop_constructs.h"

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

// A break block of a structured loop (analysis/loop_constructs.h) runs on
// the iteration an invocation leaves: which one the loop's exiting branches
// decide, even where the block post-dominates them.
void AddBreakDependence(const analysis::FunctionCfg& graph, const analysis::CfgAnalyses& cfg,
                        std::vector<std::vector<uint32_t>>* depends) {
  const analysis::BreakBlocks breaks = analysis::FindBreakBlocks(graph, cfg);
  const std::vector<const Cycle*> cycles = cfg.cycles.AllCycles();
  for (const Cycle* cycle : cycles) {
    const std::vector<uint32_t>& blocks = breaks.of_cycle[cycle->index()];
    if (blocks.empty()) continue;
    std::vector<uint32_t> exiting;
    for (const auto& [from, to] : cycle->exit_edges()) exiting.push_back(from);
    for (uint32_t b : blocks) {
      for (uint32_t a : exiting) {
        if (cfg.cfg.successors[a].size() > 1) (*depends)[b].push_back(a);
      }
    }
  }
}

}  // namespace

ControlDependence::ControlDependence(spvtools::opt::IRContext& context,
                                     const analysis::CallGraph& calls,
                                     const analysis::BlockTable& blocks)
    : context_(context), calls_(calls), blocks_(blocks) {
  for (const spvtools::opt::Function& function : *context.module()) {
    const analysis::FunctionCfg graph = analysis::BuildFunctionCfg(function);
    const analysis::CfgAnalyses cfg(graph.cfg);
    std::vector<std::vector<uint32_t>> direct = DirectDependence(cfg);
    AddBreakDependence(graph, cfg, &direct);
    for (uint32_t b = 0; b < graph.cfg.size(); ++b) {
      if (!cfg.dominators.IsReachable(b) || b == cfg.dominators.root()) continue;
      idom_[graph.label_of[b]] = graph.label_of[cfg.dominators.Idom(b)];
    }
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
  const std::set<uint32_t> ends = EndsBefore(inst);
  result.insert(ends.begin(), ends.end());
  return result;
}

void ControlDependence::AddEndsOfCall(const spvtools::opt::Instruction& call,
                                      std::set<uint32_t>* out) const {
  if (call.opcode() != spv::Op::OpFunctionCall) return;
  const uint32_t callee = call.GetSingleWordInOperand(0);
  if (calls_.InvocationEnd(callee) == nullptr) return;
  const std::set<uint32_t>& ends = EndDependence(callee);
  out->insert(ends.begin(), ends.end());
}

std::set<uint32_t> ControlDependence::EndsBefore(const spvtools::opt::Instruction& inst) const {
  std::set<uint32_t> result;
  const spvtools::opt::BasicBlock* block = blocks_.Of(inst);
  if (block == nullptr) return result;
  if (blocks_.CallsBefore(inst) != 0) {
    for (const spvtools::opt::Instruction& earlier : *block) {
      if (&earlier == &inst) break;
      AddEndsOfCall(earlier, &result);
    }
  }
  const std::set<uint32_t>& above = EndsAbove(block->id());
  result.insert(above.begin(), above.end());
  return result;
}

const std::set<uint32_t>& ControlDependence::EndsAbove(uint32_t label) const {
  auto found = ends_above_.find(label);
  if (found != ends_above_.end()) return found->second;
  std::set<uint32_t> result;
  auto idom = idom_.find(label);
  if (idom != idom_.end()) {
    result = EndsAbove(idom->second);
    if (const spvtools::opt::BasicBlock* dominator = blocks_.OfLabel(idom->second)) {
      for (const spvtools::opt::Instruction& inst : *dominator) AddEndsOfCall(inst, &result);
    }
  }
  return ends_above_[label] = std::move(result);
}

const std::set<uint32_t>& ControlDependence::EndDependence(uint32_t function) const {
  auto found = end_dependence_.find(function);
  if (found != end_dependence_.end()) return found->second;
  end_dependence_[function];  // recursion, which shaders do not have, ends here
  std::set<uint32_t> result;
  const spvtools::opt::Function* f = context_.GetFunction(function);
  if (f != nullptr) {
    for (const spvtools::opt::BasicBlock& block : *f) {
      bool ends = false;
      for (const spvtools::opt::Instruction& inst : block) {
        if (analysis::EndsInvocation(inst.opcode())) ends = true;
        if (inst.opcode() == spv::Op::OpFunctionCall &&
            calls_.InvocationEnd(inst.GetSingleWordInOperand(0)) != nullptr) {
          ends = true;
          AddEndsOfCall(inst, &result);
        }
      }
      if (!ends) continue;
      auto deciders = by_label_.find(block.id());
      if (deciders != by_label_.end())
        result.insert(deciders->second.begin(), deciders->second.end());
    }
  }
  return end_dependence_[function] = std::move(result);
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
