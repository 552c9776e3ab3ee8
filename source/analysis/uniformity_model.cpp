// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/uniformity_model.h"

#include <algorithm>
#include <optional>
#include <set>

namespace spirv_conv {
namespace analysis {

// The solver and the model build walk the nodes in order; one cache line
// each (uniformity_model.h moves what only phis need out of Node).
static_assert(sizeof(Node) <= 64, "a Node should fit a cache line");

bool FunctionValues::SelectsAmong(uint32_t n, CompressedLists::Range predecessors) const {
  // A value is its node when it has one (virtual phis have placeholder
  // ids), else its id (a constant or global); undefined ones are skipped.
  bool seen = false;
  uint64_t first = 0;
  for (const Node::Incoming& in : IncomingOf(n)) {
    if (in.id == 0 ||
        !std::binary_search(predecessors.begin(), predecessors.end(), in.predecessor)) {
      continue;
    }
    const uint64_t key = in.node != kNoNode ? (uint64_t{1} << 32) | in.node : in.id;
    if (!seen) {
      seen = true, first = key;
    } else if (key != first) {
      return true;
    }
  }
  return false;
}
namespace {

using spvtools::opt::Instruction;

bool IsKill(spv::Op op) { return op == spv::Op::OpKill || op == spv::Op::OpTerminateInvocation; }

// UniformityOptions::kills_as_demotes: the edges into the blocks from which
// every path ends in a kill are left out, as if the invocations that take
// them went on (as demoted ones do) where the others go. A block is doomed
// when it ends in a kill or all its successors are doomed (the least such
// set: a cycle is never doomed, its invocations may stay in it). A block
// that is not doomed keeps a successor that is not.
void RemoveKillPaths(FunctionCfg* blocks) {
  Cfg& cfg = blocks->cfg;
  const uint32_t n = cfg.size();
  std::vector<char> doomed(n, 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = 0; b < n; ++b) {
      if (doomed[b]) continue;
      const auto& succ = cfg.successors[b];
      const bool now = succ.empty() ? IsKill(blocks->terminator_opcode[b])
                                    : std::all_of(succ.begin(), succ.end(),
                                                  [&](uint32_t s) { return doomed[s] != 0; });
      if (now) doomed[b] = 1, changed = true;
    }
  }
  for (uint32_t b = 0; b < n; ++b) {
    if (doomed[b]) continue;
    auto& succ = cfg.successors[b];
    succ.erase(std::remove_if(succ.begin(), succ.end(), [&](uint32_t s) { return doomed[s] != 0; }),
               succ.end());
  }
}

// The indices from |base| to the part of it |pointer| points to, when
// |pointer| is |base| reached through access chains of constant indices
// only (glslang copies an aggregate argument member by member, and an array
// member element by element through a chain of its member's chain);
// nullopt otherwise.
std::optional<std::vector<uint32_t>> PathInto(const ModuleIndex& index, uint32_t pointer,
                                              uint32_t base) {
  std::vector<uint32_t> reversed;
  for (int depth = 0; pointer != base; ++depth) {
    const Instruction* chain = index.Def(pointer);
    if (depth == 8 || chain == nullptr ||
        (chain->opcode() != spv::Op::OpAccessChain &&
         chain->opcode() != spv::Op::OpInBoundsAccessChain)) {
      return std::nullopt;
    }
    for (uint32_t i = chain->NumInOperands(); i-- > 1;) {
      uint64_t value = 0;
      if (!index.IntegerConstant(InOperandWord(*chain, i), &value)) return std::nullopt;
      reversed.push_back(static_cast<uint32_t>(value));
    }
    pointer = InOperandWord(*chain, 0);
  }
  if (reversed.empty()) return std::nullopt;  // |base| itself
  return std::vector<uint32_t>(reversed.rbegin(), reversed.rend());
}

// The parts of a value of type |type|: members of a struct, elements of an
// array of constant length, columns, components; 0 for scalars and others.
// Arrays longer than a copy would be written out element by element count
// as unknown.
uint32_t PartCount(const ModuleIndex& index, const Instruction& type) {
  switch (type.opcode()) {
    case spv::Op::OpTypeStruct:
      return type.NumInOperands();
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeMatrix:
      return InOperandWord(type, 1);
    case spv::Op::OpTypeArray: {
      uint64_t length = 0;
      return index.IntegerConstant(InOperandWord(type, 1), &length) && length <= 4096
                 ? static_cast<uint32_t>(length)
                 : 0;
    }
    default:
      return 0;
  }
}

const Instruction* PartType(const ModuleIndex& index, const Instruction& type, uint32_t part) {
  return index.Def(InOperandWord(type, type.opcode() == spv::Op::OpTypeStruct ? part : 0));
}

// Whether the stores to |paths| (index paths into a value of |type|, from
// |prefix| on) write all of it: the whole, or every part in turn.
bool CoversAll(const ModuleIndex& index, const Instruction* type,
               const std::set<std::vector<uint32_t>>& paths, std::vector<uint32_t>* prefix) {
  if (paths.count(*prefix)) return true;
  const uint32_t parts = type == nullptr ? 0 : PartCount(index, *type);
  if (parts == 0) return false;
  for (uint32_t part = 0; part < parts; ++part) {
    prefix->push_back(part);
    const bool covered = CoversAll(index, PartType(index, *type, part), paths, prefix);
    prefix->pop_back();
    if (!covered) return false;
  }
  return true;
}

// The type |pointer| points to, or null.
const Instruction* PointeeType(const ModuleIndex& index, uint32_t pointer) {
  const Instruction* def = index.Def(pointer);
  const Instruction* type = def == nullptr ? nullptr : index.Def(def->type_id());
  if (type == nullptr || type->opcode() != spv::Op::OpTypePointer) return nullptr;
  return index.Def(InOperandWord(*type, 1));
}

}  // namespace

PointerRoot FindRoot(const ModuleIndex& index, uint32_t pointer_id) {
  for (int steps = 0; steps < 1000; ++steps) {
    const Instruction* def = index.Def(pointer_id);
    if (def == nullptr) return {};
    switch (def->opcode()) {
      case spv::Op::OpAccessChain:
      case spv::Op::OpInBoundsAccessChain:
      case spv::Op::OpPtrAccessChain:
      case spv::Op::OpInBoundsPtrAccessChain:
      case spv::Op::OpCopyObject:
      case spv::Op::OpImageTexelPointer:
        pointer_id = InOperandWord(*def, 0);  // the base (image variable)
        continue;
      case spv::Op::OpVariable:
        return {PointerRoot::Kind::kVariable, ResultIdOf(*def),
                static_cast<spv::StorageClass>(InOperandWord(*def, 0))};
      case spv::Op::OpFunctionParameter:
        return {PointerRoot::Kind::kParameter, ResultIdOf(*def), spv::StorageClass::Function};
      default: {
        // Untraceable, but its storage class bounds what it may point to.
        PointerRoot unknown;
        const Instruction* type = index.Def(def->type_id());
        if (type != nullptr && type->opcode() == spv::Op::OpTypePointer) {
          unknown.storage = static_cast<spv::StorageClass>(InOperandWord(*type, 0));
        }
        return unknown;
      }
    }
  }
  return {};
}

uint32_t FunctionValues::NodeOf(uint32_t id) const {
  return id < node_of_id->size() ? (*node_of_id)[id] : kNoNode;
}

namespace {

// Trivial phis (Braun et al., "Simple and Efficient Construction of SSA
// Form"): a phi whose incoming values, apart from itself and undefined ones,
// are all one value V *is* V. spirv-opt's --ssa-rewrite leaves them behind
// for a variable a loop or an `if` does not assign (phi(%i, %i) at the merge
// of a divergent `if`, phi(%i, itself) at an inner loop header); read as
// written they look like joins of different values and make %i divergent,
// while the same code before the rewrite, where the analysis reads the
// variable through its stores, keeps it uniform. Every incoming value is
// replaced by what it stands for, so the join test compares real values.
// |phis|: the nodes with incoming values (real and virtual phis), ascending;
// the rounds visit only them, not every node of the function again.
void ResolveTrivialPhis(FunctionModel* m, const std::vector<uint32_t>& phis,
                        std::vector<std::pair<uint32_t, uint32_t>>* def_user) {
  using Incoming = Node::Incoming;
  // What each trivial phi stands for, by its place in |phis|.
  std::vector<Incoming> alias(phis.size(), Incoming{0, kNoNode, 0});
  std::vector<char> aliased(m->values.nodes.size(), 0);
  auto alias_of = [&](uint32_t phi) -> const Incoming& {
    return alias[std::lower_bound(phis.begin(), phis.end(), phi) - phis.begin()];
  };
  auto resolve = [&](Incoming value) {
    for (int steps = 0; value.node != kNoNode && aliased[value.node] && steps < 1 << 20; ++steps) {
      const Incoming& to = alias_of(value.node);
      value = Incoming{to.id, to.node, value.predecessor};
    }
    return value;
  };
  auto same = [](const Incoming& a, const Incoming& b) {
    return a.node != kNoNode ? a.node == b.node : b.node == kNoNode && a.id == b.id;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < phis.size(); ++i) {
      const uint32_t n = phis[i];
      if (aliased[n]) continue;
      std::optional<Incoming> only;
      bool trivial = true;
      for (const Incoming& in : m->values.IncomingOf(n)) {
        if (in.id == 0) continue;  // undefined: any value
        const Incoming value = resolve(in);
        if (value.node == n) continue;  // itself, around a loop
        if (!only) {
          only = value;
        } else if (!same(*only, value)) {
          trivial = false;
          break;
        }
      }
      if (trivial && only) alias[i] = *only, aliased[n] = 1, changed = true;
      if (trivial && only) m->values.nodes[n].trivial = true;
    }
  }
  for (uint32_t n : phis) {
    for (Incoming& in : m->values.IncomingOf(n)) {
      if (in.id == 0) continue;
      const Incoming value = resolve(in);
      if (value.node == n) continue;
      in.id = value.id, in.node = value.node;
      if (in.node != kNoNode) def_user->emplace_back(in.node, n);
    }
  }
}

// Control dependence: b depends on branch D when b post-dominates a
// successor of D but not D itself (a block with a call that may end the
// invocation decides too).
void FindControlDependence(const CfgAnalyses& g, FunctionControl* control) {
  FunctionControl& c = *control;
  const uint32_t n_blocks = c.blocks.cfg.size();
  std::vector<std::pair<uint32_t, uint32_t>> dependences;  // (branch d, dependent block b)
  dependences.reserve(2 * static_cast<size_t>(n_blocks));  // about one or two per block
  std::vector<uint32_t> last_parent(n_blocks, kNoNode);    // per b: the last d added
  const DominatorTree& pdt = g.post_dominators;
  for (uint32_t d = 0; d < n_blocks; ++d) {
    if (!g.dominators.IsReachable(d)) continue;
    const bool decides = c.blocks.cfg.successors[d].size() > 1 || c.may_end_invocation[d];
    if (!decides) continue;
    const uint32_t stop = pdt.Idom(d);
    for (uint32_t s : c.blocks.cfg.successors[d]) {
      for (uint32_t b = s; b != stop && b != DominatorTree::kNone && b != pdt.root();
           b = pdt.Idom(b)) {
        if (last_parent[b] != d) last_parent[b] = d, dependences.emplace_back(d, b);
      }
    }
  }
  c.control_children = CompressedLists::FromPairs(n_blocks, dependences);
  for (auto& [d, b] : dependences) std::swap(d, b);
  c.control_parents = CompressedLists::FromPairs(n_blocks, dependences);
}

// Invariance: a pure node is invariant in an enclosing cycle C when each
// operand is defined outside C or is itself invariant in C. Operands come
// first in dominance order, so one pass in reverse post-order suffices.
// It reads the dense cycle tree and per-node rule array; only the nodes
// whose rule needs more (loads, phis, fixed levels) read their Node.
void FindInvariantDepths(const ModuleIndex& index, const CfgAnalyses& g, FunctionValues* values) {
  FunctionValues& v = *values;
  v.node_invariant_depth.assign(v.nodes.size(), ~0u);  // unreachable blocks: never invariant
  const CycleTree& tree = g.cycle_tree;
  auto depth_of = [&](uint32_t block) {
    const uint32_t c = tree.innermost[block];
    return c == CycleTree::kNone ? 0u : tree.depth[c];
  };
  // IsImmutable per variable (it reads decorations; a shader loads from
  // the same few variables many times).
  std::unordered_map<uint32_t, bool> immutable;
  auto is_immutable = [&](uint32_t variable) {
    auto [it, inserted] = immutable.try_emplace(variable, false);
    if (inserted) it->second = IsImmutable(index, *index.Def(variable));
    return it->second;
  };
  for (uint32_t b : g.rpo) {
    const uint32_t block_depth = depth_of(b);
    for (uint32_t n : v.block_nodes[b]) {
      bool pure = false;
      switch (v.node_rule[n]) {
        case Rule::kFollow:
          pure = true;
          break;
        case Rule::kLoad: {
          // A load from memory nothing writes during the invocation (a
          // uniform block, push constants, an input) reads the same value
          // at the same address on every iteration.
          const Node& node = v.nodes[n];
          pure = !node.promoted && node.root.kind == PointerRoot::Kind::kVariable &&
                 is_immutable(node.root.id);
          break;
        }
        case Rule::kPhi:
          pure = v.nodes[n].trivial;
          break;
        case Rule::kFixed:
          pure = v.nodes[n].rule.level == Uniformity::kUniform;
          break;
        default:
          break;
      }
      if (!pure) {
        v.node_invariant_depth[n] = block_depth + 1;
        continue;
      }
      uint32_t need = 1;
      auto take_operand = [&](uint32_t op) {
        // The depth of the smallest cycle around both b and the operand's block.
        const uint32_t op_block = v.node_block[op];
        uint32_t shared = block_depth;
        if (op_block != b) {
          uint32_t c = tree.innermost[b];
          while (c != CycleTree::kNone && !tree.Contains(c, op_block)) c = tree.parent[c];
          shared = c == CycleTree::kNone ? 0 : tree.depth[c];
        }
        need = std::max(need, std::min(shared + 1, v.node_invariant_depth[op]));
      };
      for (uint32_t op : v.operands[n]) take_operand(op);
      if (v.node_rule[n] == Rule::kPhi) {  // a trivial phi: the value it stands for
        for (const Node::Incoming& in : v.IncomingOf(n)) {
          if (in.node != kNoNode && in.node != n) take_operand(in.node);
        }
      }
      v.node_invariant_depth[n] = need;
    }
  }
}

}  // namespace

std::unique_ptr<FunctionModel> BuildFunctionModel(const ModuleIndex& index,
                                                  spvtools::opt::Function* function,
                                                  const std::unordered_map<uint32_t, bool>& may_end,
                                                  std::vector<uint32_t>* node_of_id,
                                                  const UniformityOptions& options,
                                                  bool helpers_apart) {
  const bool kills_as_demotes = options.kills_as_demotes;
  auto model = std::make_unique<FunctionModel>();
  FunctionModel& m = *model;
  m.index = &index;
  m.values.node_of_id = node_of_id;
  m.function = function;
  // The function's instructions as ModuleIndex recorded them (one array;
  // recorded here when the index kept none).
  FunctionBody own_body;
  const FunctionBody* body = index.Body(function);
  if (body == nullptr) own_body = RecordFunctionBody(*function), body = &own_body;
  // The rows of block |b|'s instructions (its OpLabel left out).
  auto rows_of = [&](uint32_t b) {
    return std::make_pair(body->block_start[b] + 1, body->block_start[b + 1]);
  };
  m.control.blocks = BuildFunctionCfg(*body);
  const uint32_t n_blocks = m.control.blocks.cfg.size();
  if (kills_as_demotes) RemoveKillPaths(&m.control.blocks);

  // Blocks with a call that may end the invocation: extra exits for
  // post-dominance. |may_end| is closed over calls, so a function that may
  // not end the invocation calls none that may, and its instructions need
  // not be looked at here.
  m.control.may_end_invocation.assign(n_blocks, 0);
  m.control.kills.assign(n_blocks, 0);
  {
    const auto self = may_end.find(function->result_id());
    if (self == may_end.end() || self->second) {
      for (uint32_t b = 0; b < n_blocks; ++b) {
        for (auto [r, end] = rows_of(b); r < end; ++r) {
          if (body->rows[r].opcode != spv::Op::OpFunctionCall) continue;
          auto it = may_end.find(body->in_ids[r][0]);
          if (it != may_end.end() && it->second) m.control.may_end_invocation[b] = 1;
        }
      }
    }
    for (uint32_t b = 0; b < n_blocks; ++b)
      m.control.kills[b] = !kills_as_demotes && IsKill(m.control.blocks.terminator_opcode[b]);
  }
  m.control.graph =
      std::make_unique<CfgAnalyses>(&m.control.blocks.cfg, m.control.may_end_invocation);
  m.control.sync = std::make_unique<SyncDependence>(*m.control.graph);
  m.memory.ssa = BuildMemorySsa(*body, m.control.blocks, *m.control.graph);
  const CfgAnalyses& g = *m.control.graph;

  m.control.cycles = g.cycles.AllCycles();
  m.control.break_blocks = FindBreakBlocks(m.control.blocks, g);

  // Nodes: parameters, then per block (in function order) its instructions
  // with the virtual phis placed with the block's phis. The entry is the
  // first block, so each block's nodes are one run of node indices.
  m.values.block_nodes.StartList();
  // As many nodes as the parameters, values and memory SSA's virtual nodes,
  // reserved up front: growing the vectors from empty copies them again and
  // again on a large function. Exact rather than generous: mimalloc maps an
  // array of more than 16 MiB by itself and unmaps it when freed, and a
  // process that analyses one large function after another then faults all
  // of it in again.
  size_t parameters = 0;
  function->ForEachParam([&](const Instruction*) { ++parameters; });
  const size_t expected_nodes =
      parameters + body->values + m.memory.ssa.phis.size() + m.memory.ssa.inserts.size();
  m.values.nodes.reserve(expected_nodes);
  m.values.node_block.reserve(expected_nodes);
  m.values.node_id.reserve(expected_nodes);
  m.values.node_rule.reserve(expected_nodes);
  m.values.node_asserted.reserve(expected_nodes);
  m.values.block_nodes.Reserve(n_blocks, expected_nodes);
  m.control.block_calls.Reserve(n_blocks, 0);
  // The row (FunctionBody) of each node, taken while the walk below has its
  // instruction at hand: the operand pass after it then reads the row's
  // opcode and in-operand ids instead of SPIRV-Tools' instruction objects a
  // second time (on a 100,000-block function each such walk is a cache
  // miss or two per instruction).
  constexpr uint32_t kNoRow = ~0u;  // parameters and virtual nodes
  std::vector<uint32_t> node_row;
  node_row.reserve(expected_nodes);
  auto operand_ids = [&](uint32_t n) {
    return node_row[n] == kNoRow ? CompressedLists::Range{nullptr, nullptr}
                                 : body->in_ids[node_row[n]];
  };
  // OpNop for a node without a row: none of the opcodes the operand pass
  // asks about.
  auto opcode_of = [&](uint32_t n) {
    return node_row[n] == kNoRow ? spv::Op::OpNop : body->rows[node_row[n]].opcode;
  };
  size_t phi_incoming = 0;  // incoming values of the OpPhi nodes
  // |inst|: null for a virtual node; |id| and |row|: its result id and row
  // (kNoRow if it has none).
  auto add_node = [&](Instruction* inst, uint32_t id, uint32_t row, uint32_t block,
                      const InstructionRule& rule) {
    Node node;
    node.inst = inst;
    node.rule = rule;
    const uint32_t n = static_cast<uint32_t>(m.values.nodes.size());
    if (id != 0) (*node_of_id)[id] = n;
    m.values.node_block.push_back(block);
    m.values.node_id.push_back(id);
    m.values.node_rule.push_back(rule.rule);
    m.values.node_asserted.push_back(id != 0 ? AssertedLevel(index, id) : Uniformity::kDivergent);
    m.values.any_asserted |= m.values.node_asserted.back() != Uniformity::kDivergent;
    node_row.push_back(row);
    if (opcode_of(n) == spv::Op::OpPhi) phi_incoming += body->in_ids[row].size() / 2;
    m.values.nodes.push_back(std::move(node));
    m.values.block_nodes.Add(n);
    return n;
  };
  function->ForEachParam([&](Instruction* param) {
    const uint32_t n = add_node(param, ResultIdOf(*param), kNoRow, m.control.blocks.cfg.entry,
                                {Rule::kParameter, Uniformity::kUniform, ""});
    m.values.nodes[n].parameter = static_cast<uint32_t>(m.values.parameter_ids.size());
    m.values.parameter_ids.push_back(param->result_id());
    m.values.parameter_is_pointer.push_back(index.IsPointer(param->result_id()));
  });
  CompressedLists virtual_phis_at;
  {
    std::vector<std::pair<uint32_t, uint32_t>> pairs;  // (block, virtual phi)
    for (uint32_t i = 0; i < m.memory.ssa.phis.size(); ++i) {
      pairs.emplace_back(m.memory.ssa.phis[i].block, i);
    }
    virtual_phis_at = CompressedLists::FromPairs(n_blocks, pairs);
  }
  std::vector<uint32_t> virtual_phi_node(m.memory.ssa.phis.size(), kNoNode);
  std::unordered_map<const Instruction*, uint32_t> insert_of_store;
  for (uint32_t i = 0; i < m.memory.ssa.inserts.size(); ++i) {
    insert_of_store[m.memory.ssa.inserts[i].store] = i;
  }
  std::vector<uint32_t> virtual_insert_node(m.memory.ssa.inserts.size(), kNoNode);
  // Calls and memory writes are found in the same walk. A write's pointer
  // and stored value may be defined further on (a phi's operand), so their
  // nodes are looked up after it.
  std::vector<std::pair<uint32_t, uint32_t>> write_ids;  // per write: (pointer, value or 0)
  struct ArgumentStoreIds {
    uint32_t call, argument, variable, value;
  };
  std::vector<ArgumentStoreIds> argument_store_ids;
  auto add_write = [&](MemoryWrite w, uint32_t pointer, uint32_t value) {
    m.memory.writes.push_back(w);
    write_ids.emplace_back(pointer, value);
  };
  {
    for (uint32_t b = 0; b < n_blocks; ++b) {
      if (b != 0) m.values.block_nodes.StartList();
      m.control.block_calls.StartList();
      for (uint32_t phi : virtual_phis_at[b]) {
        const uint32_t n = add_node(nullptr, 0, kNoRow, b, {Rule::kPhi, Uniformity::kUniform, ""});
        m.values.nodes[n].virtual_phi = phi;
        virtual_phi_node[phi] = n;
      }
      for (auto [r, end] = rows_of(b); r < end; ++r) {
        const FunctionBody::Row& row = body->rows[r];
        Instruction& inst = *row.inst;
        const spv::Op op = row.opcode;
        const CompressedLists::Range ids = body->in_ids[r];
        if (op == spv::Op::OpStore) {  // in-operand ids: the pointer, the object
          auto it = insert_of_store.empty() ? insert_of_store.end() : insert_of_store.find(&inst);
          if (it != insert_of_store.end()) {
            const uint32_t n =
                add_node(nullptr, 0, kNoRow, b, {Rule::kFollow, Uniformity::kUniform, ""});
            m.values.nodes[n].virtual_insert = it->second;
            virtual_insert_node[it->second] = n;
          }
          const uint32_t pointer = ids[0];
          // Stores to promoted variables are definitions in the virtual SSA.
          if (m.memory.ssa.promoted.count(pointer) || m.memory.ssa.chains.count(pointer)) continue;
          MemoryWrite w;
          w.block = b;
          w.inst = &inst;
          w.root = FindRoot(index, pointer);
          add_write(w, pointer, ids[1]);
          continue;
        }
        if (row.result_id != 0) {
          InstructionRule rule = ClassifyInstruction(op, inst, index);
          if (options.without_helper_invocations && op == spv::Op::OpIsHelperInvocationEXT) {
            rule = {Rule::kFixed, Uniformity::kUniform,
                    "false in every invocation (no helper invocations assumed)"};
          }
          // A subgroup spans primitives and a quad is only part of one: no
          // group result is known to be the same in the whole primitive.
          if (options.primitive_scope &&
              (rule.rule == Rule::kFixed || rule.rule == Rule::kCollective) &&
              (rule.level == Uniformity::kSubgroup || rule.level == Uniformity::kQuad)) {
            rule = {Rule::kFixed, Uniformity::kDivergent,
                    "a subgroup or quad operation's result, not known to be the same in the "
                    "whole primitive"};
          }
          // Helpers inactive for a subgroup operation compute it over other
          // invocations (Vulkan, "Helper Invocations"): the result may differ
          // between a helper and the rest of its quad (regression:
          // docs/execution-agreement.md, glsl_gen.py seed 164).
          if (helpers_apart && (rule.rule == Rule::kFixed || rule.rule == Rule::kCollective) &&
              rule.level == Uniformity::kSubgroup) {
            rule.level = Uniformity::kDivergent;
            rule.note =
                "a subgroup operation: helper invocations, inactive for it, may get "
                "another result than the rest of their quad";
          }
          add_node(&inst, row.result_id, r, b, rule);
        }
        if (op == spv::Op::OpFunctionCall) {  // in-operand ids: the callee, the arguments
          const uint32_t call = m.values.NodeOf(row.result_id);
          m.control.block_calls.Add(call);
          for (uint32_t a = 1; a < ids.size(); ++a) {
            const uint32_t arg = ids[a];
            if (!index.IsPointer(arg)) continue;
            // The stores that fill an argument temporary right before the
            // call, in the same block (glslang -O0 passes every argument
            // so): one of the whole variable, or stores of its parts through
            // access chains of constant indices that together write all of
            // it (a struct member by member, an array member element by
            // element).
            std::vector<ArgumentStoreIds> found;
            std::set<std::vector<uint32_t>> parts;
            bool whole = false;
            for (uint32_t back = r; back-- > rows_of(b).first;) {
              const FunctionBody::Row& prior = body->rows[back];
              const CompressedLists::Range prior_ids = body->in_ids[back];
              if (prior.opcode == spv::Op::OpStore && prior_ids[0] == arg) {
                found.push_back({call, a - 1, arg, prior_ids[1]});
                whole = true;
                break;
              }
              if (prior.opcode == spv::Op::OpStore) {
                std::optional<std::vector<uint32_t>> path = PathInto(index, prior_ids[0], arg);
                if (path) {
                  found.push_back({call, a - 1, arg, prior_ids[1]});
                  parts.insert(std::move(*path));
                  continue;
                }
              }
              if ((prior.opcode == spv::Op::OpAccessChain ||
                   prior.opcode == spv::Op::OpInBoundsAccessChain) &&
                  PathInto(index, prior.result_id, arg)) {
                continue;
              }
              if (std::find(prior_ids.begin(), prior_ids.end(), arg) != prior_ids.end()) break;
            }
            std::vector<uint32_t> prefix;
            if (whole ||
                (!parts.empty() && CoversAll(index, PointeeType(index, arg), parts, &prefix))) {
              argument_store_ids.insert(argument_store_ids.end(), found.begin(), found.end());
            }
            MemoryWrite w;
            w.block = b;
            w.inst = &inst;
            w.root = FindRoot(index, arg);
            w.call_node = call;
            w.argument = a - 1;
            add_write(w, arg, 0);
          }
          continue;
        }
        if (op == spv::Op::OpImageWrite) {  // in-operand ids: the image, the coordinate, ...
          // The image is written through the variable it was loaded from.
          const Instruction* image = index.Def(ids[0]);
          MemoryWrite w;
          w.block = b;
          w.inst = &inst;
          if (image != nullptr && image->opcode() == spv::Op::OpLoad) {
            w.root = FindRoot(index, InOperandWord(*image, 0));
          } else {
            w.root.storage = spv::StorageClass::UniformConstant;
          }
          w.opaque = true;
          add_write(w, 0, 0);
          continue;
        }
        if (op == spv::Op::OpLoad || op == spv::Op::OpAccessChain ||
            op == spv::Op::OpInBoundsAccessChain || op == spv::Op::OpPtrAccessChain ||
            op == spv::Op::OpInBoundsPtrAccessChain || op == spv::Op::OpCopyObject ||
            op == spv::Op::OpImageTexelPointer || op == spv::Op::OpArrayLength ||
            IsDebugOpcode(op)) {
          continue;
        }
        // Anything else handed a pointer may write through it.
        for (uint32_t id : ids) {
          if (!index.IsPointer(id) || index.Def(id)->opcode() == spv::Op::OpFunction) continue;
          MemoryWrite w;
          w.block = b;
          w.inst = &inst;
          w.root = FindRoot(index, id);
          w.opaque = true;
          add_write(w, id, 0);
        }
      }
    }
    m.values.block_nodes.Finish();
    m.control.block_calls.Finish();
  }
  for (size_t i = 0; i < m.memory.writes.size(); ++i) {
    const auto [pointer, value] = write_ids[i];
    m.memory.writes[i].address = m.values.NodeOf(pointer);
    if (value != 0) m.memory.writes[i].value = m.values.NodeOf(value);
  }
  // An argument temporary is what its stores put there when they and the
  // call are the variable's only writes: no other store, no other call
  // handed it (mip_store_helper_arg.comp, struct_argument_members.frag).
  if (!argument_store_ids.empty()) {
    std::unordered_map<uint32_t, uint32_t> writes_of;  // Function variable -> writes
    for (const MemoryWrite& w : m.memory.writes) {
      if (w.root.kind != PointerRoot::Kind::kVariable) continue;
      ++writes_of[w.root.id];
    }
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> stores_of;  // (call, argument) -> stores
    for (const ArgumentStoreIds& a : argument_store_ids) ++stores_of[{a.call, a.argument}];
    for (const ArgumentStoreIds& a : argument_store_ids) {
      const Instruction* variable = index.Def(a.variable);
      if (variable->opcode() != spv::Op::OpVariable ||
          InOperandWord(*variable, 0) != uint32_t(spv::StorageClass::Function) ||
          writes_of[a.variable] != stores_of[{a.call, a.argument}] + 1) {
        continue;
      }
      m.memory.argument_stores[{a.call, a.argument}].push_back(m.values.NodeOf(a.value));
    }
  }

  // Operands, phis, loads and memory writes.
  std::vector<std::pair<uint32_t, uint32_t>> def_user;  // (operand or incoming node, user)
  def_user.reserve(body->in_ids.total_items() + m.values.nodes.size());
  for (const MemorySsa::VirtualPhi& phi : m.memory.ssa.phis) phi_incoming += phi.incoming.size();
  m.values.incoming.reserve(phi_incoming);
  m.values.incoming_start.reserve(m.values.nodes.size() + 1);
  m.values.operands.Reserve(m.values.nodes.size(),
                            body->in_ids.total_items() + m.values.nodes.size());
  auto def_node = [&](const MemorySsa::Def& def) -> std::pair<uint32_t, uint32_t> {
    switch (def.kind) {
      case MemorySsa::Def::Kind::kValue:
        return {def.index, m.values.NodeOf(def.index)};
      case MemorySsa::Def::Kind::kPhi:
        return {1, virtual_phi_node[def.index]};
      case MemorySsa::Def::Kind::kInsert:
        return {1, virtual_insert_node[def.index]};
      default:
        return {0, kNoNode};
    }
  };
  std::vector<uint32_t> phis;  // real and virtual, for ResolveTrivialPhis
  // The Node (a cache line each) is read only for the virtual nodes, loads
  // and image reads; the others are handled from the compact per-node
  // arrays. A node is virtual exactly when it has no result id, and every
  // other one has an instruction.
  for (uint32_t self = 0; self < m.values.nodes.size(); ++self) {
    const Rule rule = m.values.node_rule[self];
    const bool is_virtual = m.values.node_id[self] == 0;
    const CompressedLists::Range ids = operand_ids(self);
    const spv::Op opcode = opcode_of(self);
    m.values.operands.StartList();
    const auto incoming_begin = static_cast<uint32_t>(m.values.incoming.size());
    m.values.incoming_start.push_back(incoming_begin);
    if (is_virtual) {
      const Node& node = m.values.nodes[self];
      if (node.virtual_phi != kNoNode) {
        for (const auto& [def, pred] : m.memory.ssa.phis[node.virtual_phi].incoming) {
          auto [id, n] = def_node(def);
          m.values.incoming.push_back({id, n, pred});
        }
      } else {
        // The previous content, the stored value and the chain's indices.
        const MemorySsa::VirtualInsert& insert = m.memory.ssa.inserts[node.virtual_insert];
        for (uint32_t n : {def_node(insert.previous).second, m.values.NodeOf(insert.value),
                           m.values.NodeOf(insert.pointer)}) {
          if (n != kNoNode) m.values.operands.Add(n);
        }
      }
    } else if (rule == Rule::kPhi) {
      // (value, parent label) pairs: every in-operand of OpPhi is an id.
      for (size_t i = 0; i + 1 < ids.size(); i += 2) {
        const uint32_t id = ids[i];
        const uint32_t pred = m.control.blocks.Index(ids[i + 1]);
        m.values.incoming.push_back({index.IsUndef(id) ? 0 : id, m.values.NodeOf(id), pred});
      }
    } else if (rule == Rule::kLoad && opcode == spv::Op::OpLoad) {
      Node& node = m.values.nodes[self];
      const uint32_t pointer = ids.empty() ? 0 : ids[0];
      auto it = m.memory.ssa.load_def.find(m.values.node_id[self]);
      if (it != m.memory.ssa.load_def.end()) {
        node.promoted = true;
        const uint32_t n = def_node(it->second).second;
        if (n != kNoNode) m.values.operands.Add(n);
        // A part of the variable: which part depends on the chain's indices.
        if (m.memory.ssa.chains.count(pointer)) {
          node.address = m.values.NodeOf(pointer);
          if (node.address != kNoNode) m.values.operands.Add(node.address);
        }
      } else {
        node.address = m.values.NodeOf(pointer);
        if (node.address != kNoNode) m.values.operands.Add(node.address);
        node.root = FindRoot(index, pointer);
      }
    } else if (rule != Rule::kParameter) {
      // A call's first id is the callee, an extended instruction's the set.
      const bool skip_first = rule == Rule::kCall || opcode == spv::Op::OpExtInst;
      for (size_t i = skip_first ? 1 : 0; i < ids.size(); ++i) {
        const uint32_t n = m.values.NodeOf(ids[i]);
        if (n != kNoNode) m.values.operands.Add(n);
        // The value stored to an argument temporary is read by the call.
        if (rule == Rule::kCall && !m.memory.argument_stores.empty()) {
          auto stored = m.memory.argument_stores.find({self, static_cast<uint32_t>(i - 1)});
          if (stored != m.memory.argument_stores.end()) {
            for (uint32_t value : stored->second) {
              if (value != kNoNode) m.values.operands.Add(value);
            }
          }
        }
      }
      if ((opcode == spv::Op::OpImageRead || opcode == spv::Op::OpImageSparseRead) &&
          !ids.empty()) {
        // The image operand is loaded from its variable.
        const Instruction* image = index.Def(ids[0]);
        if (image != nullptr && image->opcode() == spv::Op::OpLoad) {
          m.values.nodes[self].root = FindRoot(index, image->GetSingleWordInOperand(0));
        }
      }
    }
    if (m.values.incoming.size() != incoming_begin) {
      phis.push_back(self);
      for (size_t i = incoming_begin; i < m.values.incoming.size(); ++i) {
        if (m.values.incoming[i].node != kNoNode)
          def_user.emplace_back(m.values.incoming[i].node, self);
      }
    }
    for (uint32_t op : m.values.operands.Building()) def_user.emplace_back(op, self);
    if ((rule == Rule::kLoad && !m.values.nodes[self].promoted) || rule == Rule::kCall) {
      m.memory.readers.push_back(self);
    }
  }
  m.values.incoming_start.push_back(static_cast<uint32_t>(m.values.incoming.size()));
  ResolveTrivialPhis(&m, phis, &def_user);
  m.values.operands.Finish();

  // Branch conditions, which are users of their node too (UserBlock).
  const auto n_nodes = static_cast<uint32_t>(m.values.nodes.size());
  m.values.condition.assign(n_blocks, kNoNode);
  m.values.condition_id.assign(n_blocks, 0);
  for (uint32_t b = 0; b < n_blocks; ++b) {
    if (m.control.blocks.cfg.successors[b].size() > 1) {
      const uint32_t id = m.control.blocks.terminator_operand[b];
      m.values.condition_id[b] = id;
      m.values.condition[b] = m.values.NodeOf(id);
      if (m.values.condition[b] != kNoNode)
        def_user.emplace_back(m.values.condition[b], n_nodes + b);
    }
  }
  // A user may be listed more than once; the solver's worklists ignore repeats.
  m.values.users = CompressedLists::FromPairs(n_nodes, def_user);

  FindControlDependence(g, &m.control);
  FindInvariantDepths(index, g, &m.values);
  return model;
}

}  // namespace analysis
}  // namespace spirv_conv
