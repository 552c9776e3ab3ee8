// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/structurize/loop_forest.h"

#include <algorithm>
#include <map>
#include <set>

#include "passes/structurize/node_split.h"
#include "spirv_conv/cycle_info.h"

namespace spirv_conv {
namespace structurize {

namespace {

// |node| branches on the selector's value to |targets| (the last one is the
// default): a conditional branch for two, a switch for more.
void AddDispatch(BlockGraph* graph, uint32_t node, uint32_t selector,
                 const std::vector<uint32_t>& targets) {
  if (targets.empty()) {  // a loop left only by returning: its merge is unreachable
    graph->Add(node, spv::Op::OpUnreachable, 0, 0, {});
    return;
  }
  if (targets.size() == 1) return graph->AddBranch(node, targets[0]);
  const uint32_t value = graph->TakeId();
  graph->Add(node, spv::Op::OpLoad, graph->UintType(), value, {selector});
  if (targets.size() == 2) {
    const uint32_t is_first = graph->AddIsOneOf(node, value, {graph->label(targets[0])});
    return graph->AddConditionalBranch(node, is_first, targets[0], targets[1]);
  }
  using spvtools::opt::Operand;
  spvtools::opt::Instruction::OperandList operands{
      Operand(SPV_OPERAND_TYPE_ID, {value}),
      Operand(SPV_OPERAND_TYPE_ID, {graph->label(targets.back())})};
  for (size_t i = 0; i + 1 < targets.size(); ++i) {
    operands.push_back(Operand(SPV_OPERAND_TYPE_LITERAL_INTEGER, {graph->label(targets[i])}));
    operands.push_back(Operand(SPV_OPERAND_TYPE_ID, {graph->label(targets[i])}));
  }
  graph->block(node)->AddInstruction(std::make_unique<spvtools::opt::Instruction>(
      graph->context(), spv::Op::OpSwitch, 0, 0, operands));
  graph->location().ApplyTo(&*graph->block(node)->tail());
}

// What Redirect did: the edge blocks the stores needed, and the source of
// the first edge it redirected (kNone when none), whose branch a block
// added for the redirected edges stands in for (its debug location).
struct Redirected {
  std::vector<uint32_t> edge_blocks;
  uint32_t first_source = BlockGraph::kNone;
};

// Every edge from a node in |sources| (all nodes when empty) to a node of
// |targets| now goes to |via|, after storing the target's label into
// |selector| when |store| is set.
Redirected Redirect(BlockGraph* graph, uint32_t selector, const std::set<uint32_t>& targets,
                    const std::set<uint32_t>* sources, uint32_t via, bool store) {
  const uint32_t before = graph->size();
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  for (uint32_t n = 0; n < before; ++n) {
    if (n == via || (sources != nullptr && sources->count(n) == 0)) continue;
    for (uint32_t s : graph->Successors(n)) {
      if (targets.count(s)) edges.emplace_back(n, s);
    }
  }
  if (store) {
    EdgeStores stores(graph, selector, graph->UintType());
    for (auto [from, to] : edges) stores.Set(from, to, graph->UintConstant(graph->label(to)));
    stores.Materialize();
  }
  Redirected result;
  if (!edges.empty()) result.first_source = edges.front().first;
  std::vector<uint32_t>& edge_blocks = result.edge_blocks;
  for (uint32_t n = before; n < graph->size(); ++n) edge_blocks.push_back(n);
  for (auto [from, to] : edges) graph->Retarget(from, to, via);
  for (uint32_t e : edge_blocks) {
    for (uint32_t s : graph->Successors(e)) {
      if (targets.count(s)) graph->Retarget(e, s, via);
    }
  }
  for (auto [from, to] : edges) graph->SimplifyTerminator(from);
  return result;
}

// The location of |node|'s branch (none for kNone), for blocks standing in
// for it.
DebugLocation BranchLocation(const BlockGraph& graph, uint32_t node) {
  return DebugLocation(node == BlockGraph::kNone ? nullptr : graph.Terminator(node));
}

std::set<uint32_t> ExitTargets(const BlockGraph& graph, const std::set<uint32_t>& body) {
  std::set<uint32_t> exits;
  for (uint32_t b : body) {
    for (uint32_t s : graph.Successors(b)) {
      if (!body.count(s)) exits.insert(s);
    }
  }
  return exits;
}

}  // namespace

uint32_t MakeReducible(BlockGraph* graph) {
  NodeSplitter splitter(graph);
  for (uint32_t fixed = 0;; ++fixed) {
    CycleInfo cycles(graph->ToCfg());
    const Cycle* irreducible = nullptr;
    for (const Cycle* cycle : cycles.AllCycles()) {  // outermost first
      if (!cycle->IsReducible()) {
        irreducible = cycle;
        break;
      }
    }
    if (irreducible == nullptr) return fixed;
    // Small extra entries are copied for the edges from outside (node_split.h).
    if (splitter.TrySplit(*irreducible)) continue;
    const std::set<uint32_t> entries(irreducible->entries().begin(), irreducible->entries().end());
    const uint32_t dispatch = graph->NewBlock();
    const uint32_t selector = graph->NewVariable(graph->UintType());
    const Redirected redirected = Redirect(graph, selector, entries, nullptr, dispatch, true);
    BlockGraph::ScopedLocation at(graph, BranchLocation(*graph, redirected.first_source));
    AddDispatch(graph, dispatch, selector, irreducible->entries());
  }
}

LoopForest ShapeLoops(BlockGraph* graph) {
  // Shaped loops by header; |own| is a loop's blocks plus its exit block,
  // which its parent must count as its own.
  std::map<uint32_t, ShapedLoop> shaped;
  std::map<uint32_t, std::set<uint32_t>> own;
  for (;;) {
    CycleInfo cycles(graph->ToCfg());
    const Cycle* next = nullptr;
    for (const Cycle* cycle : cycles.AllCycles()) {
      if (shaped.count(cycle->header())) continue;
      bool children_done = true;
      for (const Cycle* child : cycle->children())
        children_done &= shaped.count(child->header()) > 0;
      if (children_done) {
        next = cycle;
        break;
      }
    }
    if (next == nullptr) break;
    uint32_t header = next->header();
    std::set<uint32_t> body(next->blocks().begin(), next->blocks().end());
    std::set<uint32_t> child_merges;
    for (const Cycle* child : next->children()) {
      const std::set<uint32_t>& o = own.at(child->header());
      body.insert(o.begin(), o.end());
      child_merges.insert(shaped.at(child->header()).merge);
    }

    // One exit block, inside the parent loop.
    std::set<uint32_t> exits = ExitTargets(*graph, body);
    // Break blocks: an exit target reached only from the loop that leads
    // only to other exit targets belongs to the loop's construct, as in
    // `if (c) { ...; break; }`.
    const Cfg cfg_now = graph->ToCfg();
    const std::vector<std::vector<uint32_t>> preds_now = cfg_now.Predecessors();
    for (bool grew = true; grew && exits.size() > 1;) {
      grew = false;
      for (uint32_t e : exits) {
        bool absorb = e != 0;
        for (uint32_t p : preds_now[e]) absorb &= body.count(p) > 0;
        for (uint32_t s : cfg_now.successors[e])
          absorb &= s != e && (body.count(s) || exits.count(s));
        if (absorb) {
          body.insert(e);
          exits = ExitTargets(*graph, body);
          grew = true;
          break;
        }
      }
    }
    uint32_t merge = BlockGraph::kNone;
    if (exits.size() == 1) {
      const uint32_t e = *exits.begin();
      bool only_from_body = true;
      for (uint32_t p : preds_now[e]) only_from_body &= body.count(p) > 0;
      const Cycle* parent = next->parent();
      if (only_from_body && (parent == nullptr || parent->Contains(e))) merge = e;
    }
    if (merge == BlockGraph::kNone) {
      merge = graph->NewBlock();
      const uint32_t selector = exits.size() > 1 ? graph->NewVariable(graph->UintType()) : 0;
      std::vector<uint32_t> targets(exits.begin(), exits.end());
      const Redirected redirected =
          Redirect(graph, selector, exits, &body, merge, exits.size() > 1);
      body.insert(redirected.edge_blocks.begin(), redirected.edge_blocks.end());
      BlockGraph::ScopedLocation at(graph, BranchLocation(*graph, redirected.first_source));
      AddDispatch(graph, merge, selector, targets);
    }

    // One back edge, from the continue target.
    std::vector<uint32_t> latches;
    for (uint32_t b : body) {
      for (uint32_t s : graph->Successors(b)) {
        if (s == header) latches.push_back(b);
      }
    }
    uint32_t continue_target = BlockGraph::kNone;
    if (latches.size() == 1 && !child_merges.count(latches[0])) {
      bool simple = true;
      for (uint32_t s : graph->Successors(latches[0])) simple &= s == header || s == merge;
      if (simple) continue_target = latches[0];
    }
    if (continue_target == BlockGraph::kNone) {
      continue_target = graph->NewBlock();
      const std::set<uint32_t> header_set{header};
      const std::set<uint32_t> latch_set(latches.begin(), latches.end());
      Redirect(graph, 0, header_set, &latch_set, continue_target, false);
      BlockGraph::ScopedLocation at(graph, BranchLocation(*graph, latches.front()));
      graph->AddBranch(continue_target, header);
      body.insert(continue_target);
    }

    // A header whose branch needs no selection merge of its own.
    bool header_ok = true;
    const spvtools::opt::Instruction* terminator = graph->Terminator(header);
    if (terminator->opcode() == spv::Op::OpSwitch) {
      header_ok = false;
    } else if (terminator->opcode() == spv::Op::OpBranchConditional) {
      bool leaves = false;
      for (uint32_t s : graph->Successors(header)) {
        leaves |= s == merge || s == continue_target || s == header;
      }
      header_ok = leaves;
    }
    if (!header_ok) {
      const uint32_t new_header = graph->NewBlock();
      std::set<uint32_t> predecessors;
      const Cfg cfg = graph->ToCfg();
      for (uint32_t n = 0; n < cfg.size(); ++n) {
        if (n != new_header &&
            std::count(cfg.successors[n].begin(), cfg.successors[n].end(), header)) {
          predecessors.insert(n);
        }
      }
      Redirect(graph, 0, {header}, &predecessors, new_header, false);
      BlockGraph::ScopedLocation at(graph, BranchLocation(*graph, header));
      graph->AddBranch(new_header, header);
      header = new_header;
      body.insert(header);
    }

    ShapedLoop loop;
    loop.header = header;
    loop.continue_target = continue_target;
    loop.merge = merge;
    loop.blocks.assign(body.begin(), body.end());
    own[header] = body;
    own[header].insert(merge);
    shaped[header] = loop;
  }

  LoopForest forest;
  for (auto& [header, loop] : shaped) forest.loops.push_back(loop);
  return forest;
}

}  // namespace structurize
}  // namespace spirv_conv
