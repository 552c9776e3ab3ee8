// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// fast-forward-loops (include/spirv_conv/fast_forward_pass.h), shapes A and
// B of docs/fast-forward.md. Shape A: in a loop with header H and merge M, a divergent
// branch S directly in its body (no nested loop around it) whose arm E only
// leaves to the branch's merge J:
//
//   before                     after (window D)
//
//   pre -> H                   pre -> OH: d = 0 -> H
//   H .. S: c ? E : C          H .. S: c ? park : C     (inner loop, header H)
//   E -> J,  C -> J            C -> J .. latch -> W: ++d < D ? H : window
//   J .. latch -> H            exits to M -> done
//   exits -> M                 park / window / done: why = ... -> IM
//                              IM: why == park ? E : why == done ? M : OH
//                              E -> J' .. latch' -> OH  (copies of J's tail)
//
// IM is the confluence node: every invocation that parked in this outer
// trip waits there for the inner loop to end, so E issues once for all of
// them. The tail from J to the back edge is copied for E's invocations
// (they finish their iteration together, then start the next outer trip);
// the copies' exits go to M directly. Per invocation, the operations and
// their order are the original's: parking replaces nothing, the window
// counter and `why` are new variables.
//
// Shape B (MergeInnerLoop): for a loop whose body runs an inner loop with a
// divergent exit, the back edges of both loops go to one new header N,
// which the outer loop's entry reaches too: N sends an invocation to the
// inner header while its inner loop runs and to the outer header
// otherwise, so finished invocations go on to their next outer iteration.
// Only with a profile showing skewed trip counts (EstimateMerge), or
// everywhere, and only where shape A finds no arm that pays.
//
// The rewrite runs on the function's blocks as a BlockGraph with phis and
// cross-block values in Function variables (DemoteSsa), so blocks can be
// redirected and copied freely; the structurizer rebuilds the merge
// instructions and the SSA form (FastForwardBinary).

#include "spirv_conv/fast_forward_pass.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/convergence_classes.h"
#include "analysis/dominance.h"
#include "nlohmann/json.hpp"
#include "passes/change_log.h"
#include "passes/control_flow_analyses.h"
#include "passes/control_flow_binary.h"
#include "passes/fast_forward_cost.h"
#include "passes/issue_cost.h"
#include "passes/promote_variables.h"
#include "passes/structurize/block_graph.h"
#include "passes/structurize/demote_ssa.h"
#include "source/opcode.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/structurize_pass.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {

namespace {

using spvtools::opt::BasicBlock;
using spvtools::opt::Function;
using spvtools::opt::Instruction;
using spvtools::opt::IRContext;
using structurize::BlockGraph;

// The values of the `why` variable: why an invocation left the inner loop.
constexpr uint32_t kWindowEnded = 0;
constexpr uint32_t kParked = 1;
constexpr uint32_t kDone = 2;
// The values of shape B's `state`: where the merged loop's header sends an
// invocation.
constexpr uint32_t kOuterStep = 0;
constexpr uint32_t kInnerTrip = 1;

// The expensive arm's rarity when no profile measures it: the cost model
// must expect a gain for each of these probabilities.
constexpr double kAssumedProbabilities[] = {1.0 / 4, 1.0 / 8, 1.0 / 16, 1.0 / 32};
// The estimated gain (issues before / after) below which the pass declines.
constexpr double kMinimumGain = 1.05;

// A CFG over node indices with its dominator tree: the function's blocks
// before the rewrite, its BlockGraph during it.
struct Graph {
  Cfg cfg;
  analysis::DominatorTree dominators;
  explicit Graph(Cfg c) : cfg(std::move(c)), dominators(cfg, false) {}
};

// The blocks of one shape-A loop, as nodes of a Graph.
struct LoopShape {
  uint32_t header = 0, merge = 0, branch = 0, expensive_entry = 0, join = 0;
  std::set<uint32_t> construct;  // the loop construct: H dominates, M does not
  std::set<uint32_t> expensive;  // E: reached from its entry before J
  std::set<uint32_t> cheap;      // C (empty when the branch goes to J directly)
  std::set<uint32_t> tail;       // reached from J before the back edge
};

std::set<uint32_t> Construct(const Graph& graph, uint32_t header, uint32_t merge) {
  std::set<uint32_t> blocks;
  for (uint32_t n = 0; n < graph.cfg.size(); ++n) {
    if (graph.dominators.IsReachable(n) && graph.dominators.Dominates(header, n) &&
        !graph.dominators.Dominates(merge, n)) {
      blocks.insert(n);
    }
  }
  return blocks;
}

// The blocks reached from |start| without passing |stop| or the loop's
// header; false when an arm (|arm|) leaves the construct, continues the loop
// or is entered other than at |start|.
bool Region(const Graph& graph, const std::set<uint32_t>& construct, uint32_t header,
            uint32_t start, uint32_t stop, bool arm, std::set<uint32_t>* region) {
  if (start == stop) return true;
  std::vector<uint32_t> work = {start};
  while (!work.empty()) {
    const uint32_t n = work.back();
    work.pop_back();
    if (!region->insert(n).second) continue;
    if (arm && !graph.dominators.Dominates(start, n)) return false;
    for (uint32_t s : graph.cfg.successors[n]) {
      if (s == stop) continue;
      if (s == header || !construct.count(s) || (arm && s == start)) {
        if (arm) return false;
        continue;
      }
      work.push_back(s);
    }
  }
  return true;
}

// The shape of the loop |header| .. |merge| around |branch| with arms
// |expensive_entry| and |other|, joining at |join|; false when the expensive
// arm leaves otherwise than through |join| (its invocations finish their
// iteration in the copy of the tail). The cheap arm may break or continue:
// it stays in the inner loop.
bool FindShape(const Graph& graph, uint32_t header, uint32_t merge, uint32_t branch,
               uint32_t expensive_entry, uint32_t other, uint32_t join, LoopShape* shape) {
  shape->header = header;
  shape->merge = merge;
  shape->branch = branch;
  shape->expensive_entry = expensive_entry;
  shape->join = join;
  shape->construct = Construct(graph, header, merge);
  shape->expensive.clear();
  shape->cheap.clear();
  shape->tail.clear();
  if (!Region(graph, shape->construct, header, expensive_entry, join, true, &shape->expensive))
    return false;
  Region(graph, shape->construct, header, join, BlockGraph::kNone, false, &shape->tail);
  Region(graph, shape->construct, header, other, join, false, &shape->cheap);
  for (uint32_t n : shape->tail) shape->cheap.erase(n);
  return !shape->cheap.count(expensive_entry);
}

// The function's CFG over its blocks in function order, and the labels.
Graph FunctionGraph(Function* function, std::vector<BasicBlock*>* blocks) {
  std::map<uint32_t, uint32_t> node_of;
  for (BasicBlock& block : *function) {
    node_of[block.id()] = static_cast<uint32_t>(blocks->size());
    blocks->push_back(&block);
  }
  Cfg cfg;
  cfg.successors.resize(blocks->size());
  for (uint32_t n = 0; n < blocks->size(); ++n) {
    (*blocks)[n]->ForEachSuccessorLabel([&](uint32_t label) {
      auto& successors = cfg.successors[n];
      const uint32_t s = node_of.at(label);
      if (std::find(successors.begin(), successors.end(), s) == successors.end())
        successors.push_back(s);
    });
  }
  return Graph(std::move(cfg));
}

// The node of the block labelled |label| in FunctionGraph's order.
uint32_t NodeOf(const std::vector<BasicBlock*>& blocks, uint32_t label) {
  uint32_t n = 0;
  while (blocks[n]->id() != label) ++n;
  return n;
}

// The node of the merge block of the loop headed by node |header|.
uint32_t LoopMergeNode(const std::vector<BasicBlock*>& blocks, uint32_t header) {
  return NodeOf(blocks, blocks[header]->GetLoopMergeInst()->GetSingleWordInOperand(0));
}

// Why the loop (or the functions it calls) may not be fast-forwarded: the
// first instruction that changes meaning when other invocations run beside
// it, or "" when there is none.
class Preconditions {
 public:
  explicit Preconditions(IRContext* context) : context_(context) {}

  std::string InBlock(const BasicBlock& block, bool in_loop) {
    for (const Instruction& inst : block) {
      std::string why = InInstruction(inst, in_loop);
      if (!why.empty()) return why;
    }
    return "";
  }

 private:
  static std::string Named(const char* what, const Instruction& inst) {
    return std::string(what) + " (Op" + spvOpcodeString(inst.opcode()) + ")";
  }

  std::string InInstruction(const Instruction& inst, bool in_loop) {
    const spv::Op op = inst.opcode();
    if (analysis::ClassifyConvergence(inst).flags != 0)
      return Named("a convergent or co-convergent operation", inst);
    if (spvOpcodeIsAtomicOp(op)) return Named("an atomic operation", inst);
    if (op == spv::Op::OpMemoryBarrier) return Named("a memory barrier", inst);
    if (op == spv::Op::OpKill || op == spv::Op::OpTerminateInvocation ||
        op == spv::Op::OpDemoteToHelperInvocation || op == spv::Op::OpUnreachable ||
        (in_loop && (op == spv::Op::OpReturn || op == spv::Op::OpReturnValue))) {
      return Named("an instruction that ends the invocation", inst);
    }
    if ((op == spv::Op::OpStore || op == spv::Op::OpCopyMemory ||
         op == spv::Op::OpCopyMemorySized) &&
        IsWorkgroup(inst.GetSingleWordInOperand(0))) {
      return Named("a store to Workgroup memory", inst);
    }
    if (op == spv::Op::OpFunctionCall) {
      Function* callee = context_->GetFunction(inst.GetSingleWordInOperand(0));
      if (callee == nullptr) return "";
      auto [it, inserted] = callee_.emplace(callee->result_id(), "");
      if (!inserted) return it->second;
      std::string why;
      for (const BasicBlock& block : *callee) {
        why = InBlock(block, false);
        if (!why.empty()) break;
      }
      callee_[callee->result_id()] = why;
      return why.empty() ? "" : why + " in a called function";
    }
    return "";
  }

  bool IsWorkgroup(uint32_t pointer) {
    const Instruction* def = context_->get_def_use_mgr()->GetDef(pointer);
    const Instruction* type =
        def == nullptr ? nullptr : context_->get_def_use_mgr()->GetDef(def->type_id());
    return type != nullptr && type->opcode() == spv::Op::OpTypePointer &&
           spv::StorageClass(type->GetSingleWordInOperand(0)) == spv::StorageClass::Workgroup;
  }

  IRContext* context_;
  std::map<uint32_t, std::string> callee_;  // function id -> why (being scanned: "")
};

// One loop's decision; the labels identify the shape in the BlockGraph.
struct Decision {
  uint32_t header = 0, merge = 0, branch = 0, expensive_entry = 0, other = 0, join = 0;
  uint32_t window = 0;
  bool merge_inner = false;  // shape B, with the inner loop below
  uint32_t inner_header = 0, inner_merge = 0;
  bool apply = false;
};

std::string Format(const char* format, double a, double b = 0, double c = 0) {
  char text[160];
  std::snprintf(text, sizeof(text), format, a, b, c);
  return text;
}

class FastForwarder {
 public:
  FastForwarder(IRContext* context, const UniformityInfo& uniformity,
                const FastForwardOptions& options)
      : context_(context), uniformity_(uniformity), options_(options), preconditions_(context) {}

  // The decisions for |function|'s loops, innermost first; one change each
  // in the log.
  std::vector<Decision> Decide(Function* function) {
    std::vector<BasicBlock*> blocks;
    const Graph graph = FunctionGraph(function, &blocks);
    const std::unordered_map<const BasicBlock*, double> weights =
        passes::LoopWeights(context_, function);
    std::vector<uint32_t> headers;
    for (uint32_t n = 0; n < blocks.size(); ++n) {
      if (blocks[n]->GetLoopMergeInst() != nullptr && graph.dominators.IsReachable(n))
        headers.push_back(n);
    }
    std::map<uint32_t, std::set<uint32_t>> constructs;
    for (uint32_t h : headers) {
      constructs[h] = Construct(graph, h, LoopMergeNode(blocks, h));
    }
    // Innermost first: a loop after the loops nested in it.
    std::sort(headers.begin(), headers.end(),
              [&](uint32_t a, uint32_t b) { return constructs[a].size() < constructs[b].size(); });
    std::vector<Decision> decisions;
    std::set<uint32_t> taken;  // blocks of loops fast-forwarded
    for (uint32_t h : headers) {
      const std::set<uint32_t>& construct = constructs[h];
      Decision decision;
      decision.header = blocks[h]->id();
      decision.merge = blocks[h]->GetLoopMergeInst()->GetSingleWordInOperand(0);
      const std::string why = Consider(graph, blocks, weights, h, construct, constructs, &decision);
      const Instruction* at = blocks[h]->GetLoopMergeInst();
      if (!why.empty()) {
        passes::RecordChange(options_.log, "fast-forward-loops", "decline", context_, at,
                             FunctionName(function) + why);
        continue;
      }
      bool overlaps = false;
      for (uint32_t n : construct) overlaps = overlaps || taken.count(n) != 0;
      if (overlaps) {
        passes::RecordChange(options_.log, "fast-forward-loops", "decline", context_, at,
                             FunctionName(function) + "a loop nested in it is fast-forwarded");
        continue;
      }
      const char* action = !decision.apply        ? "decline"
                           : decision.merge_inner ? "merge-inner-loop"
                                                  : "fast-forward";
      passes::RecordChange(options_.log, "fast-forward-loops", action, context_, at,
                           FunctionName(function) + detail_);
      if (!decision.apply) continue;
      taken.insert(construct.begin(), construct.end());
      decisions.push_back(decision);
    }
    return decisions;
  }

  // Rewrites |function| as the decisions say. False with |error| set when
  // its values cannot be demoted.
  bool Rewrite(Function* function, const std::vector<Decision>& decisions, std::string* error) {
    BlockGraph graph(context_, function);
    // The structurizer rebuilds every merge; DemoteSsa's loads before a
    // terminator would otherwise land between it and its merge instruction.
    for (uint32_t n = 0; n < graph.size(); ++n) graph.RemoveMergeInstruction(n);
    if (!structurize::DemoteSsa(&graph, error)) {
      graph.PutBack(analysis::ReversePostOrder(graph.ToCfg().successors, 0));
      return false;
    }
    for (const Decision& decision : decisions) {
      if (decision.merge_inner) {
        MergeInnerLoop(&graph, decision);
      } else {
        RewriteLoop(&graph, decision);
      }
    }
    graph.PutBack(analysis::ReversePostOrder(graph.ToCfg().successors, 0));
    return true;
  }

 private:
  // "function 'name': ", or "" for a function without OpName.
  std::string FunctionName(Function* function) {
    std::string name;
    for (const Instruction& debug : context_->module()->debugs2()) {
      if (debug.opcode() == spv::Op::OpName &&
          debug.GetSingleWordInOperand(0) == function->result_id()) {
        name = debug.GetInOperand(1).AsString();
      }
    }
    return name.empty() ? "" : "function '" + name + "': ";
  }

  // Checks the loop with header node |h| and, when it qualifies, fills
  // |decision| (apply or not by the cost model, with detail_ saying why).
  // Returns the reason it does not qualify, or "".
  std::string Consider(const Graph& graph, const std::vector<BasicBlock*>& blocks,
                       const std::unordered_map<const BasicBlock*, double>& weights, uint32_t h,
                       const std::set<uint32_t>& construct,
                       const std::map<uint32_t, std::set<uint32_t>>& constructs,
                       Decision* decision) {
    const uint32_t m = NodeOf(blocks, decision->merge);
    for (uint32_t n : construct) {
      for (uint32_t s : graph.cfg.successors[n]) {
        if (s != m && s != h && !construct.count(s))
          return "it leaves other than through its merge block";
      }
    }
    for (uint32_t n : construct) {
      const std::string why = preconditions_.InBlock(*blocks[n], true);
      if (!why.empty()) return "it contains " + why;
    }
    // The divergent two-way branches directly in the body; the one whose
    // expensive arm costs most.
    double best_expensive = -1;
    LoopShape best;
    std::string why = "no divergent two-way branch in its body";
    for (uint32_t s : construct) {
      const Instruction* merge = blocks[s]->GetMergeInst();
      const Instruction* branch = &*blocks[s]->tail();
      if (s == h || merge == nullptr || merge->opcode() != spv::Op::OpSelectionMerge ||
          branch->opcode() != spv::Op::OpBranchConditional ||
          !uniformity_.HasDivergentBranch(blocks[s]->id())) {
        continue;
      }
      bool nested = false;
      for (const auto& [other, blocks_of] : constructs) {
        nested = nested || (other != h && construct.count(other) && blocks_of.count(s));
      }
      if (nested) continue;
      const uint32_t j = NodeOf(blocks, merge->GetSingleWordInOperand(0));
      const uint32_t t = graph.cfg.successors[s][0];
      const uint32_t f = graph.cfg.successors[s].size() > 1 ? graph.cfg.successors[s][1] : t;
      if (t == f) continue;
      for (auto [e, c] : {std::pair{t, f}, std::pair{f, t}}) {
        if (e == j) continue;
        LoopShape shape;
        if (!FindShape(graph, h, m, s, e, c, j, &shape)) {
          why = "the expensive arm of its divergent branch leaves otherwise than through its merge";
          continue;
        }
        const double expensive = Cost(blocks, weights, h, shape.expensive);
        const double cheap = Cost(blocks, weights, h, shape.cheap);
        if (expensive <= cheap || expensive <= best_expensive) continue;
        best_expensive = expensive;
        best = std::move(shape);
      }
    }
    if (best_expensive < 0)
      return ConsiderMerge(graph, blocks, weights, h, construct, constructs, why, decision);
    decision->branch = blocks[best.branch]->id();
    decision->expensive_entry = blocks[best.expensive_entry]->id();
    decision->join = blocks[best.join]->id();
    for (uint32_t s : graph.cfg.successors[best.branch]) {
      if (s != best.expensive_entry) decision->other = blocks[s]->id();
    }
    passes::LoopPartCosts costs;
    costs.expensive = best_expensive;
    costs.cheap = Cost(blocks, weights, h, best.cheap);
    costs.tail = Cost(blocks, weights, h, best.tail);
    std::set<uint32_t> before_branch;
    for (uint32_t n : best.construct) {
      if (!best.expensive.count(n) && !best.cheap.count(n) && !best.tail.count(n))
        before_branch.insert(n);
    }
    costs.before_branch = Cost(blocks, weights, h, before_branch);
    if (Choose(costs, ProfiledProbability(blocks[best.branch]->id(), decision->expensive_entry),
               decision)) {
      return "";
    }
    // Fast-forwarding does not pay: merging an inner loop may.
    const std::string fast_forward_detail = detail_;
    Decision merge;
    merge.header = decision->header;
    merge.merge = decision->merge;
    if (ConsiderMerge(graph, blocks, weights, h, construct, constructs, "no loop nested in it",
                      &merge)
            .empty()) {
      *decision = merge;
    } else {
      detail_ = fast_forward_detail;
    }
    return "";
  }

  // Shape B: the costliest loop nested directly in |h|'s body that leaves
  // only to its merge, inside |h|'s construct, and through a divergent
  // branch. Returns the reason there is none (|why_not_a| when no loop is
  // nested in it), else "" with |decision| filled.
  std::string ConsiderMerge(const Graph& graph, const std::vector<BasicBlock*>& blocks,
                            const std::unordered_map<const BasicBlock*, double>& weights,
                            uint32_t h, const std::set<uint32_t>& construct,
                            const std::map<uint32_t, std::set<uint32_t>>& constructs,
                            const std::string& why_not_a, Decision* decision) {
    std::string why = why_not_a;
    double best_cost = -1;
    uint32_t best = 0, best_merge = 0;
    for (const auto& [inner, inner_construct] : constructs) {
      if (inner == h || !construct.count(inner)) continue;
      bool directly = true;
      for (const auto& [other, other_construct] : constructs) {
        directly = directly && (other == h || other == inner || !construct.count(other) ||
                                !other_construct.count(inner));
      }
      if (!directly) continue;
      const uint32_t inner_merge = LoopMergeNode(blocks, inner);
      bool leaves = !construct.count(inner_merge), divergent_exit = false;
      for (uint32_t n : inner_construct) {
        for (uint32_t s : graph.cfg.successors[n]) {
          if (inner_construct.count(s)) continue;
          leaves = leaves || s != inner_merge;
          divergent_exit = divergent_exit || uniformity_.HasDivergentBranch(blocks[n]->id());
        }
      }
      if (leaves) {
        why = "its inner loop leaves other than through its merge block";
        continue;
      }
      if (!divergent_exit) {
        if (best_cost < 0)
          why = "no divergent two-way branch in its body, and its inner loop's exits are uniform";
        continue;
      }
      const double cost = Cost(blocks, weights, h, inner_construct);
      if (cost > best_cost) best_cost = cost, best = inner, best_merge = inner_merge;
    }
    if (best_cost < 0) return why;
    decision->merge_inner = true;
    decision->inner_header = blocks[best]->id();
    decision->inner_merge = blocks[best_merge]->id();
    const std::set<uint32_t>& inner = constructs.at(best);
    std::set<uint32_t> rest;
    for (uint32_t n : construct) {
      if (!inner.count(n)) rest.insert(n);
    }
    const double inner_trip = Cost(blocks, weights, best, inner);
    const double rest_cost = Cost(blocks, weights, h, rest);
    const bool everywhere = options_.policy == FastForwardPolicy::kEverywhere;
    detail_ = Format("inner loop %.0f instructions per trip, the rest of the iteration %.0f; ",
                     inner_trip, rest_cost);
    passes::MergeProfile profile;
    if (!MeasuredTrips(*decision, &profile)) {
      decision->apply = everywhere;
      detail_ +=
          "merging it pays only for skewed trip counts, which a profile measures "
          "(--fast-forward-profile)";
      if (everywhere) detail_ += " (applied everywhere)";
      return "";
    }
    const passes::FastForwardEstimate estimate =
        passes::EstimateMerge(inner_trip, rest_cost, profile);
    const double gain = estimate.before / estimate.after;
    decision->apply = everywhere || gain >= kMinimumGain;
    detail_ +=
        Format("per outer trip %.1f inner trips in lock step, %.1f per invocation (profile); ",
               profile.subgroup_trips, profile.invocation_trips);
    detail_ += Format("expected issues per subgroup %.1f before, %.1f merged", estimate.before,
                      estimate.after);
    if (gain < kMinimumGain) {
      detail_ += decision->apply ? "; no gain expected (applied everywhere)" : "; no gain expected";
    }
    return "";
  }

  // Shape B's trip counts from the profile: false when it has no visits of
  // the loops' blocks. Header visits count the exit test too.
  bool MeasuredTrips(const Decision& decision, passes::MergeProfile* profile) const {
    if (options_.profile == nullptr) return false;
    auto get = [](const std::map<uint32_t, double>& counts, uint32_t label) {
      auto it = counts.find(label);
      return it == counts.end() ? 0.0 : it->second;
    };
    const BlockProfile& p = *options_.profile;
    const double runs = get(p.visits, decision.merge);
    const double outer_trips = get(p.visits, decision.inner_merge);
    const double inner_visits = get(p.visits, decision.inner_header);
    const double invocations_out = get(p.entries, decision.inner_merge);
    if (runs <= 0 || outer_trips <= 0 || inner_visits <= 0 || invocations_out <= 0) return false;
    profile->outer_trips = outer_trips / runs;
    profile->subgroup_trips = inner_visits / outer_trips;
    profile->invocation_trips = get(p.entries, decision.inner_header) / invocations_out;
    return true;
  }

  // The probability that an invocation at |branch| goes to |arm|, from the
  // profile; negative when there is none.
  double ProfiledProbability(uint32_t branch, uint32_t arm) const {
    if (options_.profile == nullptr) return -1;
    auto at = options_.profile->entries.find(branch);
    auto taken = options_.profile->entries.find(arm);
    if (at == options_.profile->entries.end() || at->second <= 0) return -1;
    return taken == options_.profile->entries.end() ? 0 : taken->second / at->second;
  }

  // The window and whether to apply, with detail_ saying why; true when the
  // estimate expects a gain.
  bool Choose(const passes::LoopPartCosts& costs, double profiled, Decision* decision) {
    std::vector<double> probabilities;
    if (profiled >= 0) {
      probabilities.push_back(profiled);
    } else {
      probabilities.assign(std::begin(kAssumedProbabilities), std::end(kAssumedProbabilities));
    }
    std::vector<uint32_t> windows;
    if (options_.window != 0) {
      windows.push_back(options_.window);
    } else {
      windows.assign(std::begin(kFastForwardWindows), std::end(kFastForwardWindows));
    }
    double best_gain = 0;
    passes::FastForwardEstimate best_worst;
    for (uint32_t window : windows) {
      double worst_gain = INFINITY;
      passes::FastForwardEstimate worst;
      for (double p : probabilities) {
        const passes::FastForwardEstimate estimate = passes::EstimateFastForward(costs, p, window);
        const double gain = estimate.before / estimate.after;
        if (gain < worst_gain) worst_gain = gain, worst = estimate;
      }
      if (worst_gain > best_gain) best_gain = worst_gain, best_worst = worst;
    }
    decision->window = best_worst.window;
    decision->apply =
        options_.policy == FastForwardPolicy::kEverywhere || best_gain >= kMinimumGain;
    detail_ = Format("expensive arm %.0f instructions, the rest of the iteration %.0f; ",
                     costs.expensive, costs.before_branch + costs.cheap + costs.tail);
    detail_ += profiled >= 0 ? Format("%.3f of the invocations take it (profile)", profiled)
                             : std::string("assuming 1 in 4 to 1 in 32 invocations take it");
    detail_ += Format("; expected issues per subgroup %.1f before, %.1f after with window %.0f",
                      best_worst.before, best_worst.after, best_worst.window);
    if (best_gain < kMinimumGain) {
      detail_ += decision->apply ? "; no gain expected (applied everywhere)" : "; no gain expected";
    }
    return best_gain >= kMinimumGain;
  }

  double Cost(const std::vector<BasicBlock*>& blocks,
              const std::unordered_map<const BasicBlock*, double>& weights, uint32_t header,
              const std::set<uint32_t>& nodes) {
    double cost = 0;
    for (uint32_t n : nodes) {
      cost += passes::IssuedWithCallees(context_, *blocks[n]) * weights.at(blocks[n]) /
              weights.at(blocks[header]);
    }
    return cost;
  }

  void RewriteLoop(BlockGraph* graph, const Decision& decision) {
    const Graph before(graph->ToCfg());
    LoopShape shape;
    FindShape(before, graph->Node(decision.header), graph->Node(decision.merge),
              graph->Node(decision.branch), graph->Node(decision.expensive_entry),
              graph->Node(decision.other), graph->Node(decision.join), &shape);
    const uint32_t h = shape.header, m = shape.merge;
    // The block whose edge enters E: the branch, or a block of stores
    // DemoteSsa put on that edge.
    uint32_t into_expensive = shape.branch;
    for (uint32_t s : before.cfg.successors[shape.branch]) {
      const std::vector<uint32_t>& next = before.cfg.successors[s];
      if (s != shape.expensive_entry && next.size() == 1 && next[0] == shape.expensive_entry)
        into_expensive = s;
    }
    const std::vector<std::vector<uint32_t>> preds = before.cfg.Predecessors();
    const std::map<uint32_t, uint32_t> tail_copy = graph->CopyBlocks(shape.tail);

    BlockGraph::ScopedLocation location(graph, graph->Terminator(h));
    const uint32_t uint_type = graph->UintType();
    const uint32_t trips = graph->NewVariable(uint_type);  // inner trips in this outer trip
    const uint32_t why = graph->NewVariable(uint_type);
    const uint32_t outer = graph->NewBlock();
    const uint32_t window = graph->NewBlock();
    const uint32_t confluence = graph->NewBlock();
    const uint32_t not_parked = graph->NewBlock();
    // Every way out of the inner loop leads to the confluence node (one exit
    // for the structurizer), the reason stored on the edge.
    structurize::EdgeStores reasons(graph, why, uint_type);
    auto leave = [&](uint32_t from, uint32_t to, uint32_t reason) {
      graph->Retarget(from, to, confluence);
      reasons.Set(from, confluence, graph->UintConstant(reason));
    };
    for (uint32_t p : preds[h]) graph->Retarget(p, h, shape.construct.count(p) ? window : outer);
    for (auto [original, copy] : tail_copy) graph->Retarget(copy, h, outer);
    for (uint32_t n : shape.construct) {
      const std::vector<uint32_t>& next = before.cfg.successors[n];
      if (!shape.expensive.count(n) && std::find(next.begin(), next.end(), m) != next.end())
        leave(n, m, kDone);
    }
    leave(into_expensive, shape.expensive_entry, kParked);
    for (uint32_t n : shape.expensive) graph->Retarget(n, shape.join, tail_copy.at(shape.join));

    graph->Add(outer, spv::Op::OpStore, 0, 0, {trips, graph->UintConstant(0)});
    graph->AddBranch(outer, h);
    const uint32_t count =
        graph->Add(window, spv::Op::OpLoad, uint_type, graph->TakeId(), {trips})->result_id();
    const uint32_t next = graph
                              ->Add(window, spv::Op::OpIAdd, uint_type, graph->TakeId(),
                                    {count, graph->UintConstant(1)})
                              ->result_id();
    graph->Add(window, spv::Op::OpStore, 0, 0, {trips, next});
    const uint32_t more = graph
                              ->Add(window, spv::Op::OpULessThan, graph->BoolType(),
                                    graph->TakeId(), {next, graph->UintConstant(decision.window)})
                              ->result_id();
    graph->AddConditionalBranch(window, more, h, confluence);
    reasons.Set(window, confluence, graph->UintConstant(kWindowEnded));
    reasons.Materialize();
    const uint32_t reason =
        graph->Add(confluence, spv::Op::OpLoad, uint_type, graph->TakeId(), {why})->result_id();
    graph->AddConditionalBranch(confluence, graph->AddIsOneOf(confluence, reason, {kParked}),
                                shape.expensive_entry, not_parked);
    const uint32_t reason_again =
        graph->Add(not_parked, spv::Op::OpLoad, uint_type, graph->TakeId(), {why})->result_id();
    graph->AddConditionalBranch(not_parked, graph->AddIsOneOf(not_parked, reason_again, {kDone}), m,
                                outer);
  }

  // Shape B: every back edge of the outer loop and of the inner loop goes to
  // one new header, which sends an invocation to the inner loop's header
  // while its inner loop runs and to the outer loop's header otherwise; the
  // way into the inner loop from the outer body stays. Each invocation runs
  // the same blocks in the same order; only its iterations regroup.
  void MergeInnerLoop(BlockGraph* graph, const Decision& decision) {
    const Graph before(graph->ToCfg());
    const uint32_t h = graph->Node(decision.header);
    const uint32_t inner_header = graph->Node(decision.inner_header);
    const std::set<uint32_t> inner =
        Construct(before, inner_header, graph->Node(decision.inner_merge));
    const std::vector<std::vector<uint32_t>> preds = before.cfg.Predecessors();

    BlockGraph::ScopedLocation location(graph, graph->Terminator(h));
    const uint32_t uint_type = graph->UintType();
    const uint32_t state = graph->NewVariable(uint_type);
    const uint32_t dispatch = graph->NewBlock();
    structurize::EdgeStores states(graph, state, uint_type);
    for (uint32_t p : preds[h]) {
      graph->Retarget(p, h, dispatch);
      states.Set(p, dispatch, graph->UintConstant(kOuterStep));
    }
    for (uint32_t p : preds[inner_header]) {
      if (!inner.count(p)) continue;
      graph->Retarget(p, inner_header, dispatch);
      states.Set(p, dispatch, graph->UintConstant(kInnerTrip));
    }
    states.Materialize();
    const uint32_t value =
        graph->Add(dispatch, spv::Op::OpLoad, uint_type, graph->TakeId(), {state})->result_id();
    graph->AddConditionalBranch(dispatch, graph->AddIsOneOf(dispatch, value, {kInnerTrip}),
                                inner_header, h);
  }

  IRContext* context_;
  const UniformityInfo& uniformity_;
  const FastForwardOptions& options_;
  Preconditions preconditions_;
  std::string detail_;  // the last Choose's reasoning
};

}  // namespace

Expected<BlockProfile> LoadBlockProfile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return MakeError(ExitCode::kBadInput, path, "cannot read the profile");
  nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded()) return MakeError(ExitCode::kBadInput, path, "the profile is not JSON");
  if (json.is_object() && json.contains("stats")) json = json["stats"];
  if (!json.is_object() || !json.contains("blocks") || !json["blocks"].is_array()) {
    return MakeError(ExitCode::kBadInput, path,
                     "not simulator statistics (`spirv-conv run --stats json`): no \"blocks\"");
  }
  BlockProfile profile;
  for (const nlohmann::json& block : json["blocks"]) {
    if (!block.is_object() || !block.contains("block") || !block["block"].is_number_unsigned() ||
        !block.contains("entries") || !block["entries"].is_number()) {
      return MakeError(ExitCode::kBadInput, path,
                       "a \"blocks\" entry without \"block\" and \"entries\" numbers");
    }
    const uint32_t label = block["block"].get<uint32_t>();
    profile.entries[label] += block["entries"].get<double>();
    if (block.contains("visits") && block["visits"].is_number())
      profile.visits[label] += block["visits"].get<double>();
  }
  return profile;
}

spvtools::opt::Pass::Status FastForwardPass::Process() {
  std::vector<Function*> functions;
  for (Function& function : *get_module()) {
    if (!function.IsDeclaration()) functions.push_back(&function);
  }
  const uint32_t bound = context()->module()->IdBound();
  if (!passes::PromoteFunctionVariables(context(), functions)) {
    error_ = "the SSA rewriter failed";
    return Status::Failure;
  }
  bool changed = context()->module()->IdBound() != bound;
  Expected<std::unique_ptr<UniformityInfo>> info = UniformityInfo::Compute(context());
  if (!info) {
    error_ = info.error().message;
    return Status::Failure;
  }
  FastForwarder forwarder(context(), **info, options_);
  std::vector<std::pair<Function*, std::vector<Decision>>> rewrites;
  for (Function* function : functions) {
    std::vector<Decision> decisions = forwarder.Decide(function);
    if (!decisions.empty()) rewrites.emplace_back(function, std::move(decisions));
  }
  info->reset();
  // The rewrite deletes merge instructions behind the def-use manager's back.
  passes::InvalidateFunctionAnalyses(context());
  for (auto& [function, decisions] : rewrites) {
    std::string error;
    if (!forwarder.Rewrite(function, decisions, &error)) {
      passes::InvalidateFunctionAnalyses(context());
      error_ = "function %" + std::to_string(function->result_id()) + ": " + error;
      return Status::Failure;
    }
    passes::InvalidateFunctionAnalyses(context());
    for (const Decision& decision : decisions)
      ++(decision.merge_inner ? stats_.merged : stats_.applied);
    changed = true;
  }
  return changed ? Status::SuccessWithChange : Status::SuccessWithoutChange;
}

Expected<SpirvBinary> FastForwardBinary(const SpirvBinary& binary, const ValidatorFlags& validator,
                                        bool skip_input_validation,
                                        const FastForwardOptions& options,
                                        FastForwardStats* stats) {
  // The pass needs structured loops: unstructured input is structurized first.
  SpirvBinary input = binary;
  if (!skip_input_validation) {
    Status valid =
        ValidateSpirv(binary.words, binary.target_env, validator, binary.name, ExitCode::kBadInput);
    if (!valid && !IsStructuredControlFlowError(valid.error().message)) return valid.error();
    if (!valid) {
      Expected<SpirvBinary> structured = StructurizeBinary(binary, validator, true);
      if (!structured) return structured;
      input = std::move(*structured);
    }
  }
  FastForwardPass pass(options);
  Expected<SpirvBinary> forwarded =
      passes::RunControlFlowPass(input, validator, true, &pass, [&] { return pass.error(); });
  if (!forwarded) return forwarded;
  if (stats != nullptr) *stats = pass.stats();
  // The pass leaves the structured control-flow rules to the structurizer;
  // any other rule its output breaks is the pass's fault, not the input's.
  Status valid = ValidateSpirv(forwarded->words, binary.target_env, validator,
                               binary.name + " (fast-forwarded)", ExitCode::kInvalidOutput);
  if (!valid && !IsStructuredControlFlowError(valid.error().message)) return valid.error();
  return StructurizeBinary(*forwarded, validator, true);
}

}  // namespace spirv_conv
