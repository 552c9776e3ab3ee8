// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The module driver: builds one model per function, solves the entry points
// and, through callee summaries, every (function, calling context) they
// reach; then functions no entry point reaches, with divergent parameters.
// Module-scope variables written by the shader (Private, Output) are an
// outer fixed point: when a run finds stores wider than it assumed, it runs
// again with the wider assumption.

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>

#include "analysis/barrier_intervals.h"
#include "analysis/ir_tables.h"
#include "analysis/module_tables.h"
#include "analysis/module_writes.h"
#include "analysis/uniformity_solver.h"
#include "io/maximal_reconvergence.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {

using analysis::CallContext;
using analysis::CallSummary;

using analysis::FunctionModel;
using analysis::FunctionState;
using analysis::kNoNode;

namespace {

constexpr Uniformity kU = Uniformity::kUniform;
constexpr Uniformity kD = Uniformity::kDivergent;

// The id a step names for node |n|: its result id, or for a virtual phi or
// insert of memory SSA, which has none, the variable whose content it is.
uint32_t StepIdOf(const FunctionModel& model, uint32_t n) {
  if (model.values.node_id[n] != 0) return model.values.node_id[n];
  const analysis::Node& node = model.values.nodes[n];
  if (node.virtual_phi != kNoNode) return model.memory.ssa.phis[node.virtual_phi].variable;
  if (node.virtual_insert != kNoNode) return model.memory.ssa.inserts[node.virtual_insert].variable;
  return 0;
}

// The node of this function that |why|, the reason for node |n|'s level in
// |state|, names as its cause, or kNoNode. A reason names a value by its id;
// a virtual operand has none and is named by 0: then it is the first
// virtual operand or incoming value of |n| that reaches |n|'s level, itself
// or (for a temporal reason) as seen from |n|'s block.
uint32_t CauseNode(const FunctionModel& model, const FunctionState& state, uint32_t n,
                   const analysis::Reason& why) {
  using Kind = UniformityStep::Kind;
  if (why.kind != Kind::kOperand && why.kind != Kind::kMemory && why.kind != Kind::kTemporal) {
    return kNoNode;
  }
  if (why.cause != 0) {
    const uint32_t cause = model.values.NodeOf(why.cause);
    // NodeOf is module-wide: the node must be one of this function's.
    return cause < model.values.node_id.size() && model.values.node_id[cause] == why.cause
               ? cause
               : kNoNode;
  }
  const Uniformity level = state.Level(n);
  const uint32_t block = model.values.node_block[n];
  auto reaches = [&](uint32_t op) {
    if (op == kNoNode || model.values.node_id[op] != 0) return false;
    return why.kind == Kind::kTemporal ? state.TemporalLevel(op, block) >= level
                                       : state.Level(op) >= level;
  };
  for (uint32_t op : model.values.operands[n]) {
    if (reaches(op)) return op;
  }
  for (const auto& in : model.values.IncomingOf(n)) {
    if (reaches(in.node)) return in.node;
  }
  return kNoNode;
}

}  // namespace

const char* UniformityName(Uniformity level) {
  switch (level) {
    case Uniformity::kUniform:
      return "uniform";
    case Uniformity::kSubgroup:
      return "subgroup";
    case Uniformity::kQuad:
      return "quad";
    case Uniformity::kDivergent:
      return "divergent";
  }
  return "divergent";
}

class UniformityInfo::Impl : public analysis::SolverHost {
 public:
  Impl(spvtools::opt::IRContext* context, const UniformityOptions& options)
      : context_(context), options_(options), index_(context, /*record_bodies=*/true) {}

  Status Run();

  // SolverHost
  CallSummary Call(uint32_t function_id, const CallContext& context, uint32_t call_id) override;
  Uniformity VariableContent(uint32_t variable_id, uint32_t models, const char** note) override;
  void WriteVariable(uint32_t variable_id, Uniformity level) override;
  // Uniform/UniformId: the widest level |id| may have (kDivergent: none).

  spvtools::opt::IRContext* context_;
  UniformityOptions options_;
  analysis::ModuleIndex index_;
  std::vector<uint32_t> node_of_id_;  // result id -> node in its function's model
  std::unordered_map<uint32_t, std::unique_ptr<FunctionModel>> models_;  // by function id
  std::unique_ptr<analysis::ModuleWrites> module_writes_;                // over models_
  std::vector<uint32_t> function_order_;
  std::map<std::pair<uint32_t, CallContext>, std::unique_ptr<FunctionState>> states_;
  std::set<std::pair<uint32_t, CallContext>> in_progress_;
  // The call sites (OpFunctionCall ids) that called each (function, context).
  std::map<std::pair<uint32_t, CallContext>, std::vector<uint32_t>> call_sites_;
  // A call site of function |fn| that calls it in |state|'s context, or 0.
  uint32_t CallSiteOf(uint32_t fn, const FunctionState& state) const {
    auto it = call_sites_.find({fn, state.context()});
    return it == call_sites_.end() || it->second.empty() ? 0 : it->second.front();
  }
  std::unordered_map<uint32_t, Uniformity> written_;  // module variables: assumed content
  std::unordered_map<uint32_t, Uniformity> pending_;  // found by this run
  bool unknown_write_ = false;

  // Results, joined over the states of each function.
  std::vector<uint32_t> function_of_id_;  // label or result id -> function id (0: none)
  // The function id of label or result |id|, or 0 for module-level ids.
  uint32_t FunctionOf(uint32_t id) const {
    return id < function_of_id_.size() ? function_of_id_[id] : 0;
  }
  std::unordered_map<uint32_t, std::vector<const FunctionState*>> states_of_;

  // The analysis' own block index (analysis/ir_tables.h) for the
  // per-instruction queries, built on the first one (call_once: queries
  // are const and may come from several threads).
  const analysis::BlockTable& Blocks() const {
    std::call_once(blocks_built_,
                   [this] { blocks_ = std::make_unique<analysis::BlockTable>(*context_, index_); });
    return *blocks_;
  }
  // Whether block |label| lies in a cycle that threads may leave on
  // different iterations (a divergent exit, or assumed divergent), or is
  // one of its break blocks: only there can a use see temporal divergence.
  bool LeftApart(uint32_t label) const;

  mutable std::once_flag blocks_built_;
  mutable std::unique_ptr<analysis::BlockTable> blocks_;
  mutable std::once_flag left_apart_built_;
  mutable std::vector<bool> left_apart_;  // by label id

  // The join of |level_in(state)| over the calling contexts of function |fn|.
  template <typename LevelFn>
  Uniformity JoinOverContexts(uint32_t fn, const LevelFn& level_in) const {
    Uniformity level = Uniformity::kUniform;
    auto states = states_of_.find(fn);
    if (states == states_of_.end()) return level;
    for (const FunctionState* s : states->second) level = Join(level, level_in(*s));
    return level;
  }
  std::unordered_map<uint32_t, std::vector<UniformityCycle>> cycles_;

 private:
  // What VariableContent reads off a module-scope variable's storage class
  // and decorations, found once per variable: a shader loads from the same
  // few buffers over and over, and the decoration lookups would otherwise
  // be repeated for each load.
  struct VariableClass {
    enum class Kind : uint8_t {
      kFixed,    // |level|, whatever the shader does
      kWritten,  // what the shader stores to it (written_)
      kBuiltIn,  // a built-in input: BuiltInLevel(|builtin|) for the calling stages
      kFlat,     // a Flat or PerPrimitiveEXT input: quad-uniform in fragment shaders
      // ShaderRecordBufferKHR: in ray generation the one record of the trace
      // command, read like a buffer (|level|); per ray in the other stages.
      kShaderRecord,
    };
    Kind kind = Kind::kFixed;
    Uniformity level = Uniformity::kDivergent;
    uint32_t builtin = 0;
    const char* note = "";
  };
  const VariableClass& ClassOf(uint32_t variable_id);
  // A buffer (or workgroup memory) |variable|: read-only, written only by
  // the shader (an option), or written concurrently by other invocations.
  VariableClass BufferClass(const spvtools::opt::Instruction& variable) const;
  std::unordered_map<uint32_t, VariableClass> variable_classes_;
};

namespace {

// The Fragment entry point |fn| declares MaximallyReconvergesKHR and
// RequireFullQuadsKHR: its helper invocations take part in group operations
// (CallGraph::HelpersParticipate).
bool HelpersTakePart(spvtools::opt::Module& module, uint32_t fn) {
  bool maximal = false, full_quads = false;
  for (const auto& mode : module.execution_modes()) {
    if (mode.GetSingleWordInOperand(0) != fn) continue;
    const uint32_t m = mode.GetSingleWordInOperand(1);
    maximal |= m == io::kMaximallyReconvergesKHR;
    full_quads |= m == uint32_t(spv::ExecutionMode::RequireFullQuadsKHR);
  }
  return maximal && full_quads;
}

}  // namespace

Status UniformityInfo::Impl::Run() {
  spvtools::opt::Module& module = *context_->module();
  // Which functions may end the invocation (OpKill in them or a callee).
  std::unordered_map<uint32_t, bool> may_end;
  std::unordered_map<uint32_t, std::vector<uint32_t>> callees;
  for (auto& function : module) {
    function_order_.push_back(function.result_id());
    may_end[function.result_id()] = false;
  }
  if (!options_.kills_as_demotes) {
    for (uint32_t function : index_.KillingFunctions()) may_end[function] = true;
  }
  for (const auto& [caller, callee] : index_.Calls()) callees[caller].push_back(callee);
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& [caller, list] : callees) {
      if (may_end[caller]) continue;
      for (uint32_t callee : list) {
        if (may_end[callee]) may_end[caller] = changed = true;
      }
    }
  }
  // Execution models reaching each function.
  std::unordered_map<uint32_t, uint32_t> models;
  std::unordered_map<uint32_t, bool> kernel_entry;
  // helpers_apart: the functions a Fragment entry point reaches whose helper
  // invocations may be inactive for non-quad group operations.
  std::unordered_set<uint32_t> helpers_apart;
  for (auto& entry : module.entry_points()) {
    const auto model = static_cast<spv::ExecutionModel>(entry.GetSingleWordInOperand(0));
    const uint32_t fn = entry.GetSingleWordInOperand(1);
    if (model == spv::ExecutionModel::Kernel) kernel_entry[fn] = true;
    if (options_.helpers_apart && model == spv::ExecutionModel::Fragment &&
        !HelpersTakePart(module, fn)) {
      std::vector<uint32_t> reach{fn};
      while (!reach.empty()) {
        const uint32_t f = reach.back();
        reach.pop_back();
        if (!helpers_apart.insert(f).second) continue;
        for (uint32_t c : callees[f]) reach.push_back(c);
      }
    }
    std::vector<uint32_t> work{fn};
    while (!work.empty()) {
      const uint32_t f = work.back();
      work.pop_back();
      const uint32_t before = models[f];
      models[f] |= analysis::ModelBit(model);
      if (models[f] == before && f != fn) continue;
      for (uint32_t c : callees[f]) {
        if ((models[c] & analysis::ModelBit(model)) == 0) work.push_back(c);
      }
    }
  }
  node_of_id_.assign(index_.id_bound(), analysis::kNoNode);
  function_of_id_.assign(index_.id_bound(), 0);
  for (auto& function : module) {
    auto model = analysis::BuildFunctionModel(index_, &function, may_end, &node_of_id_, options_,
                                              helpers_apart.count(function.result_id()) != 0);
    const uint32_t id = function.result_id();
    model->models = models.count(id) && models[id] != 0 ? models[id] : analysis::kModelAll;
    model->kernel_entry = kernel_entry.count(id) != 0;
    for (uint32_t label : model->control.blocks.label_of) function_of_id_[label] = id;
    for (uint32_t node_id : model->values.node_id) {
      if (node_id != 0) function_of_id_[node_id] = id;
    }
    models_[id] = std::move(model);
  }
  module_writes_ = std::make_unique<analysis::ModuleWrites>(index_, models_);
  std::unordered_set<uint32_t> entry_points;
  for (auto& entry : module.entry_points()) entry_points.insert(entry.GetSingleWordInOperand(1));
  for (auto& [id, loads] :
       analysis::BarrierSeparatedLoads(models_, *module_writes_, entry_points)) {
    models_.at(id)->memory.barrier_separated_loads = std::move(loads);
  }

  // Outer fixed point over the module-scope variables the shader writes.
  for (int round = 0;; ++round) {
    states_.clear();
    call_sites_.clear();
    pending_.clear();
    for (auto& entry : module.entry_points()) {
      const uint32_t fn = entry.GetSingleWordInOperand(1);
      const FunctionModel& m = *models_.at(fn);
      CallContext context;
      const size_t params = m.values.parameter_ids.size();
      // Kernel arguments are the same for every invocation of the dispatch;
      // the global memory behind pointer arguments is not (other
      // invocations may write it) unless the user says so.
      context.parameters.assign(params, m.kernel_entry ? kU : kD);
      context.pointees.assign(params, options_.assume_no_concurrent_writes ? kU : kD);
      Call(fn, context, 0);
    }
    for (uint32_t fn : function_order_) {
      bool solved = false;
      for (auto& [key, state] : states_) solved |= key.first == fn;
      if (!solved) Call(fn, CallContext{}, 0);  // unreached: divergent parameters
    }
    bool grew = false;
    for (auto& [id, level] : pending_) {
      Uniformity& known = written_[id];
      if (level > known) known = level, grew = true;
    }
    if (!grew) break;
    if (round > 8) {
      for (auto& [id, level] : written_) level = kD;
    }
  }

  // Aggregate.
  for (auto& [key, state] : states_) states_of_[key.first].push_back(state.get());
  for (auto& [fn, model] : models_) {
    std::vector<UniformityCycle>& out = cycles_[fn];
    out.reserve(model->control.cycles.size());
    for (uint32_t ci = 0; ci < model->control.cycles.size(); ++ci) {
      const Cycle* c = model->control.cycles[ci];
      UniformityCycle cycle;
      cycle.header = model->control.blocks.label_of[c->header()];
      cycle.entries.reserve(c->entries().size());
      for (uint32_t e : c->entries()) cycle.entries.push_back(model->control.blocks.label_of[e]);
      cycle.blocks.reserve(c->blocks().size());
      for (uint32_t b : c->blocks()) cycle.blocks.push_back(model->control.blocks.label_of[b]);
      for (uint32_t b : model->control.break_blocks.of_cycle[ci]) {
        cycle.break_blocks.push_back(model->control.blocks.label_of[b]);
      }
      cycle.depth = c->depth();
      cycle.reducible = c->IsReducible();
      for (const FunctionState* s : states_of_[fn]) {
        if (s->CycleExit(ci) > cycle.divergent_exit) {
          cycle.divergent_exit = s->CycleExit(ci);
          cycle.divergent_exit_branch = model->control.blocks.label_of[s->CycleExitCause(ci)];
        }
        if (s->CycleAssumed(ci) > cycle.assumed_divergent) {
          cycle.assumed_divergent = s->CycleAssumed(ci);
          cycle.assumed_divergent_branch = model->control.blocks.label_of[s->CycleAssumedCause(ci)];
        }
      }
      out.push_back(std::move(cycle));
    }
  }
  return Ok{};
}

CallSummary UniformityInfo::Impl::Call(uint32_t function_id, const CallContext& context,
                                       uint32_t call_id) {
  auto model_it = models_.find(function_id);
  CallSummary conservative{kD, {}, kD};
  if (model_it == models_.end()) return conservative;  // an import: nothing known
  const FunctionModel& model = *model_it->second;
  conservative.pointee_writes.assign(model.values.parameter_ids.size(), kD);
  auto key = std::make_pair(function_id, FitContext(model, context));
  if (call_id != 0) {
    std::vector<uint32_t>& sites = call_sites_[key];
    if (std::find(sites.begin(), sites.end(), call_id) == sites.end()) sites.push_back(call_id);
  }
  auto found = states_.find(key);
  if (found != states_.end()) return found->second->summary();
  // Recursion (Kernel modules only): assume the worst for the inner call.
  if (in_progress_.count(key)) return conservative;
  if (model.function->IsDeclaration()) return conservative;
  in_progress_.insert(key);
  auto state = std::make_unique<FunctionState>(model, key.second);
  state->Solve(*this);
  in_progress_.erase(key);
  CallSummary summary = state->summary();
  states_[key] = std::move(state);
  return summary;
}

UniformityInfo::Impl::VariableClass UniformityInfo::Impl::BufferClass(
    const spvtools::opt::Instruction& variable) const {
  using Kind = VariableClass::Kind;
  if (analysis::IsReadOnly(index_, variable)) {
    return {Kind::kFixed, kU, 0, "read-only memory (NonWritable): the same for every invocation"};
  }
  // Nothing in the module writes it, so no invocation of this dispatch
  // changes it while another reads it (docs/uniformity.md, "Memory").
  if (!module_writes_->MayWrite(variable.result_id())) {
    return {Kind::kFixed, kU, 0, "memory no instruction of the module writes"};
  }
  if (options_.assume_no_concurrent_writes) {
    return {Kind::kWritten, kU, 0, "memory written by the shader (no concurrent writers assumed)"};
  }
  return {Kind::kFixed, kD, 0, "memory other invocations may write concurrently"};
}

const UniformityInfo::Impl::VariableClass& UniformityInfo::Impl::ClassOf(uint32_t id) {
  using Kind = VariableClass::Kind;
  auto [it, inserted] = variable_classes_.try_emplace(id);
  if (!inserted) return it->second;
  VariableClass& c = it->second;
  const auto* variable = index_.Def(id);
  const auto storage = static_cast<spv::StorageClass>(variable->GetSingleWordInOperand(0));
  switch (storage) {
    case spv::StorageClass::UniformConstant:
      // A storage image or texel buffer is memory the dispatch may write.
      c = analysis::IsStorageImage(index_, *variable)
              ? BufferClass(*variable)
              : VariableClass{Kind::kFixed, kU, 0, "uniform memory: the same for every invocation"};
      break;
    case spv::StorageClass::PushConstant:
      c = {Kind::kFixed, kU, 0, "uniform memory: the same for every invocation"};
      break;
    case spv::StorageClass::Uniform:
      // A BufferBlock is a storage buffer in disguise.
      c = analysis::IsBufferBlock(index_, *variable)
              ? BufferClass(*variable)
              : VariableClass{Kind::kFixed, kU, 0, "uniform memory: the same for every invocation"};
      break;
    case spv::StorageClass::StorageBuffer:
    case spv::StorageClass::PhysicalStorageBuffer:
    case spv::StorageClass::CrossWorkgroup:
    case spv::StorageClass::Generic:
    case spv::StorageClass::Image:
    case spv::StorageClass::Workgroup:
      c = BufferClass(*variable);
      break;
    case spv::StorageClass::ShaderRecordBufferKHR: {
      const VariableClass buffer = BufferClass(*variable);
      c = {Kind::kShaderRecord, buffer.kind == Kind::kFixed ? buffer.level : kD, 0, buffer.note};
      break;
    }
    case spv::StorageClass::Private:
    case spv::StorageClass::Output:
      c = {Kind::kWritten, kU, 0, "a per-invocation variable: what the shader stored to it"};
      break;
    case spv::StorageClass::Input: {
      uint32_t builtin = 0;
      if (index_.DecorationOperand(id, spv::Decoration::BuiltIn, &builtin)) {
        c = {Kind::kBuiltIn, kD, builtin, ""};
      } else if (analysis::IsPerPrimitive(index_, *variable)) {
        c = {Kind::kFlat, kD, 0, ""};
      } else {
        c = {Kind::kFixed, kD, 0, "a shader input: varies per invocation"};
      }
      break;
    }
    default:
      c = {Kind::kFixed, kD, 0, "memory the analysis does not model"};
      break;
  }
  return c;
}

Uniformity UniformityInfo::Impl::VariableContent(uint32_t id, uint32_t models, const char** note) {
  const VariableClass& c = ClassOf(id);
  switch (c.kind) {
    case VariableClass::Kind::kFixed:
      *note = c.note;
      return c.level;
    case VariableClass::Kind::kWritten:
      *note = c.note;
      return unknown_write_ ? kD : written_[id];
    case VariableClass::Kind::kBuiltIn:
      if (options_.without_helper_invocations &&
          c.builtin == static_cast<uint32_t>(spv::BuiltIn::HelperInvocation)) {
        *note = "false in every invocation (no helper invocations assumed)";
        return kU;
      }
      if (options_.primitive_scope) {
        const Uniformity level =
            analysis::BuiltInLevel(static_cast<spv::BuiltIn>(c.builtin), models, note);
        return level == Uniformity::kSubgroup ? kD
                                              : level;  // SubgroupId: subgroups span primitives
      }
      return analysis::BuiltInLevel(static_cast<spv::BuiltIn>(c.builtin), models, note);
    case VariableClass::Kind::kShaderRecord:
      // vkCmdTraceRaysKHR takes one ray-generation record (its size must
      // equal its stride, VUID-vkCmdTraceRaysKHR-size-04023); hit, miss and
      // callable shaders read the record of their ray's hit group or shader.
      if (models == analysis::kModelRayGeneration) {
        *note = c.level == kU ? "the trace command's one ray-generation shader record"
                              : "a shader record the shader writes";
        return c.level;
      }
      *note = "the shader record of the ray's hit group, miss or callable shader";
      return kD;
    case VariableClass::Kind::kFlat:
      // One subgroup can span primitives, a quad cannot.
      if (models == analysis::kModelFragment) {
        *note =
            "a flat input: the same for every fragment of a primitive, and a quad never spans "
            "primitives";
        return Uniformity::kQuad;
      }
      *note = "a flat input: varies between primitives, and one subgroup can span them";
      return kD;
  }
  *note = "memory the analysis does not model";
  return kD;
}

void UniformityInfo::Impl::WriteVariable(uint32_t id, Uniformity level) {
  if (id == 0) {
    unknown_write_ = true;
    pending_[0] = kD;
    return;
  }
  Uniformity& p = pending_[id];
  p = Join(p, level);
}

// ---------------------------------------------------------------------------

Expected<std::unique_ptr<UniformityInfo>> UniformityInfo::Compute(
    spvtools::opt::IRContext* context, const UniformityOptions& options) {
  auto impl = std::make_unique<Impl>(context, options);
  Status status = impl->Run();
  if (!status) return status.error();
  return std::unique_ptr<UniformityInfo>(new UniformityInfo(std::move(impl)));
}

bool UniformityInfo::Impl::LeftApart(uint32_t label) const {
  std::call_once(left_apart_built_, [this] {
    left_apart_.assign(context_->module()->IdBound(), false);
    for (const auto& [function, cycles] : cycles_) {
      for (const UniformityCycle& cycle : cycles) {
        if (cycle.divergent_exit == kU && cycle.assumed_divergent == kU) continue;
        for (const std::vector<uint32_t>* list : {&cycle.blocks, &cycle.break_blocks}) {
          for (uint32_t b : *list) {
            if (b < left_apart_.size()) left_apart_[b] = true;
          }
        }
      }
    }
  });
  return label < left_apart_.size() && left_apart_[label];
}

UniformityInfo::UniformityInfo(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
UniformityInfo::~UniformityInfo() = default;

Uniformity UniformityInfo::ValueLevel(uint32_t id) const {
  const uint32_t fn = impl_->FunctionOf(id);
  if (fn == 0) return kU;
  const uint32_t node = impl_->models_.at(fn)->values.NodeOf(id);
  if (node == kNoNode) return kU;  // a label, or the function's own id
  return impl_->JoinOverContexts(fn, [&](const FunctionState& s) { return s.Level(node); });
}

Uniformity UniformityInfo::UseLevel(const spvtools::opt::Instruction& user,
                                    uint32_t in_operand_index) const {
  const uint32_t id = user.GetSingleWordInOperand(in_operand_index);
  const uint32_t fn = impl_->FunctionOf(id);
  if (fn == 0) return kU;
  const FunctionModel& model = *impl_->models_.at(fn);
  const uint32_t node = model.values.NodeOf(id);
  if (node == kNoNode) return kU;  // a label operand
  const Uniformity defined =
      impl_->JoinOverContexts(fn, [&](const FunctionState& s) { return s.Level(node); });
  if (defined == Uniformity::kDivergent) return defined;
  // Temporal divergence needs a definition in a cycle left on different
  // iterations (or its break block) and a use in the same function.
  const analysis::BlockTable& blocks = impl_->Blocks();
  const spvtools::opt::Instruction* def = impl_->index_.Def(id);
  const spvtools::opt::BasicBlock* def_block = def == nullptr ? nullptr : blocks.Of(*def);
  if (def_block == nullptr || !impl_->LeftApart(def_block->id())) return defined;
  const spvtools::opt::BasicBlock* block = blocks.Of(user);
  if (block == nullptr) return defined;
  return impl_->JoinOverContexts(fn, [&](const FunctionState& s) {
    return s.UseLevel(node, model.control.blocks.Index(block->id()));
  });
}

Uniformity UniformityInfo::BranchLevel(uint32_t label) const {
  const uint32_t fn = impl_->FunctionOf(label);
  if (fn == 0) return kU;
  const FunctionModel& model = *impl_->models_.at(fn);
  const uint32_t b = model.control.blocks.Index(label);
  if (b >= model.values.condition.size()) return kU;  // not a block
  return impl_->JoinOverContexts(fn, [&](const FunctionState& s) { return s.Branch(b); });
}

std::vector<uint32_t> UniformityInfo::Joins(uint32_t label) const {
  const uint32_t fn = impl_->FunctionOf(label);
  if (fn == 0) return {};
  const FunctionModel& model = *impl_->models_.at(fn);
  const uint32_t b = model.control.blocks.Index(label);
  if (b >= model.values.condition.size()) return {};  // not a block
  // The solver marks joins for a branch whose condition is not uniform.
  const uint32_t condition = model.values.condition[b];
  if (condition == analysis::kNoNode) return {};
  const Uniformity level =
      impl_->JoinOverContexts(fn, [&](const FunctionState& s) { return s.UseLevel(condition, b); });
  if (level == kU) return {};
  std::vector<uint32_t> joins;
  for (uint32_t join : model.control.sync->Divergence(b).joins)
    joins.push_back(model.control.blocks.label_of[join]);
  return joins;
}

Uniformity UniformityInfo::ControlFlowLevel(uint32_t label) const {
  const uint32_t fn = impl_->FunctionOf(label);
  if (fn == 0) return kU;
  const FunctionModel& model = *impl_->models_.at(fn);
  const uint32_t b = model.control.blocks.Index(label);
  if (b >= model.values.condition.size()) return kU;  // not a block
  return impl_->JoinOverContexts(fn, [&](const FunctionState& s) { return s.ControlFlow(b); });
}

Uniformity UniformityInfo::ControlFlowLevel(const spvtools::opt::Instruction& instruction) const {
  const analysis::BlockTable& blocks = impl_->Blocks();
  const spvtools::opt::BasicBlock* block = blocks.Of(instruction);
  if (block == nullptr) return kU;
  const uint32_t fn = impl_->FunctionOf(block->id());
  if (fn == 0) return kU;
  const FunctionModel& model = *impl_->models_.at(fn);
  const uint32_t b = model.control.blocks.Index(block->id());
  const uint32_t calls_before = blocks.CallsBefore(instruction);
  return impl_->JoinOverContexts(
      fn, [&](const FunctionState& s) { return s.ControlFlowBeforeCall(b, calls_before); });
}

Uniformity UniformityInfo::ControlFlowLevelInFunction(uint32_t label) const {
  const uint32_t fn = impl_->FunctionOf(label);
  if (fn == 0) return kU;
  const FunctionModel& model = *impl_->models_.at(fn);
  const uint32_t b = model.control.blocks.Index(label);
  if (b >= model.values.condition.size()) return kU;  // not a block
  return impl_->JoinOverContexts(
      fn, [&](const FunctionState& s) { return s.ControlFlowInFunction(b); });
}

const UniformityOptions& UniformityInfo::options() const { return impl_->options_; }

const std::vector<UniformityCycle>& UniformityInfo::Cycles(uint32_t function_id) const {
  static const std::vector<UniformityCycle> kNone;
  auto it = impl_->cycles_.find(function_id);
  return it == impl_->cycles_.end() ? kNone : it->second;
}

std::vector<UniformityStep> UniformityInfo::ExplainValue(uint32_t id) const {
  std::vector<UniformityStep> steps;
  // The walk goes from node to node, not from id to id: a virtual phi or
  // insert of memory SSA (a Function variable's content at -O0) has no id,
  // and a step's cause may be one (the regression tests
  // LintCrashClass.* in test/lint/explain_crash_test.cpp).
  uint32_t fn = impl_->FunctionOf(id);
  uint32_t node = fn == 0 ? kNoNode : impl_->models_.at(fn)->values.NodeOf(id);
  std::set<std::pair<uint32_t, uint32_t>> seen;  // (function, node)
  while (node != kNoNode && seen.insert({fn, node}).second && steps.size() < 64) {
    const FunctionModel& model = *impl_->models_.at(fn);
    const FunctionState* widest = nullptr;
    for (const FunctionState* s : impl_->states_of_[fn]) {
      if (widest == nullptr || s->Level(node) > widest->Level(node)) widest = s;
    }
    if (widest == nullptr || widest->Level(node) == kU) break;
    const analysis::Reason& why = widest->Why(node);
    const uint32_t cause_node = CauseNode(model, *widest, node, why);
    // A parameter: the argument at a call site that passes this level.
    uint32_t argument = 0;
    const uint32_t parameter = model.values.nodes[node].parameter;
    if (why.kind == UniformityStep::Kind::kCall && parameter != kNoNode) {
      const uint32_t site = impl_->CallSiteOf(fn, *widest);
      const spvtools::opt::Instruction* call = site != 0 ? impl_->index_.Def(site) : nullptr;
      if (call != nullptr && call->NumInOperands() > parameter + 1) {
        argument = call->GetSingleWordInOperand(parameter + 1);
      }
    }
    uint32_t cause = why.cause;
    if (argument != 0) {
      cause = argument;
    } else if (cause == 0 && cause_node != kNoNode) {
      cause = StepIdOf(model, cause_node);
    }
    steps.push_back({StepIdOf(model, node), why.kind, cause, widest->Level(node), why.note});
    // Why the branch in block index |b| is divergent: its condition, or a
    // call before it that may end some invocations.
    auto branch_cause = [&](uint32_t b) {
      return b < model.values.condition.size() ? widest->BranchWhy(b).cause : 0;
    };
    // Where the walk goes on: a node of this function, or an id (of any
    // function) to look up.
    uint32_t next_node = kNoNode;
    uint32_t next_id = 0;
    switch (why.kind) {
      case UniformityStep::Kind::kOperand:
      case UniformityStep::Kind::kMemory:
        next_node = cause_node;
        break;
      case UniformityStep::Kind::kCall:
        next_id = argument;  // into the caller; 0 (stop) for return values
        break;
      case UniformityStep::Kind::kTemporal: {
        // Continue with the branch that makes threads leave the cycle
        // defining the cause on different iterations.
        const Cycle* cycle = nullptr;
        if (cause_node != kNoNode)
          widest->TemporalLevel(cause_node, model.values.node_block[node], &cycle);
        next_id = cycle == nullptr ? 0 : branch_cause(widest->LeavingCause(cycle->index()));
        break;
      }
      case UniformityStep::Kind::kJoin:
        if (impl_->FunctionOf(why.cause) == fn)
          next_id = branch_cause(model.control.blocks.Index(why.cause));
        break;
      case UniformityStep::Kind::kCycle: {
        // Continue with the branch whose diverged paths broke m-convergence.
        if (impl_->FunctionOf(why.cause) != fn) break;
        const uint32_t header = model.control.blocks.Index(why.cause);
        const Cycle* cycle = model.control.graph->cycles.InnermostCycle(header);
        while (cycle != nullptr && cycle->header() != header) cycle = cycle->parent();
        next_id = cycle == nullptr ? 0 : branch_cause(widest->CycleAssumedCause(cycle->index()));
        break;
      }
      default:
        break;
    }
    if (next_node == kNoNode && next_id != 0) {
      fn = impl_->FunctionOf(next_id);
      next_node = fn == 0 ? kNoNode : impl_->models_.at(fn)->values.NodeOf(next_id);
    }
    node = next_node;
  }
  return steps;
}

std::vector<UniformityStep> UniformityInfo::ExplainControlFlow(uint32_t label) const {
  std::vector<UniformityStep> steps;
  std::set<uint32_t> seen;
  while (label != 0 && seen.insert(label).second && steps.size() < 64) {
    const uint32_t fn = impl_->FunctionOf(label);
    if (fn == 0) break;
    const FunctionModel& model = *impl_->models_.at(fn);
    const uint32_t b = model.control.blocks.Index(label);
    if (b >= model.values.condition.size()) break;  // not a block
    const FunctionState* widest = nullptr;
    for (const FunctionState* s : impl_->states_of_[fn]) {
      if (widest == nullptr || s->ControlFlow(b) > widest->ControlFlow(b)) widest = s;
    }
    if (widest == nullptr || widest->ControlFlow(b) == kU) break;
    const analysis::Reason& why = widest->ControlFlowWhy(b);
    // The calling context is the cause when it is wider than anything inside
    // the function (a branch there at a narrower level would end the chain
    // at a value uniform where it matters:
    // test/lint/explain/light_flags_call_context.frag), or when the
    // function's own reason names nothing.
    const bool from_call_site = widest->ControlFlowInFunction(b) < widest->ControlFlow(b) ||
                                (why.kind != UniformityStep::Kind::kControlFlow && why.cause == 0 &&
                                 widest->context().control_flow != kU);
    if (from_call_site) {
      // Continue with the control flow of a call site that calls the
      // function in that context.
      const uint32_t site = impl_->CallSiteOf(fn, *widest);
      steps.push_back({label, UniformityStep::Kind::kCallSite, site, widest->ControlFlow(b),
                       "the function is called in non-uniform control flow"});
      const uint32_t caller = impl_->FunctionOf(site);
      if (site == 0 || caller == 0) break;
      const FunctionModel& caller_model = *impl_->models_.at(caller);
      const uint32_t call = caller_model.values.NodeOf(site);
      if (call == kNoNode) break;
      label = caller_model.control.blocks.label_of[caller_model.values.node_block[call]];
      continue;
    }
    steps.push_back({label, why.kind, why.cause, widest->ControlFlow(b), why.note});
    if (why.kind != UniformityStep::Kind::kControlFlow) break;
    // The branch itself: why its decision is non-uniform, unless its own
    // control flow is the reason.
    if (impl_->FunctionOf(why.cause) != fn) break;
    const uint32_t d = model.control.blocks.Index(why.cause);
    if (widest->Branch(d) >= widest->ControlFlow(b)) {
      const analysis::Reason& branch_why = widest->BranchWhy(d);
      for (const UniformityStep& step : ExplainValue(branch_why.cause)) steps.push_back(step);
      break;
    }
    label = why.cause;
  }
  return steps;
}

namespace analysis {

const ModuleIndex& IndexOf(const UniformityInfo& info) { return info.impl().index_; }
const BlockTable& BlocksOf(const UniformityInfo& info) { return info.impl().Blocks(); }

}  // namespace analysis

}  // namespace spirv_conv
