// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "lint/explainer.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "source/opcode.h"

namespace spirv_conv {
namespace lint {

using spvtools::opt::Instruction;
using Kind = UniformityStep::Kind;

namespace {

constexpr size_t kMaxNotes = 32;

bool IsConditional(const Instruction& terminator) {
  return terminator.opcode() == spv::Op::OpBranchConditional ||
         terminator.opcode() == spv::Op::OpSwitch;
}

// "varies per invocation", "is only uniform within a subgroup", ...
std::string LevelPhrase(Uniformity level) {
  switch (level) {
    case Uniformity::kSubgroup:
      return "is only uniform within a subgroup";
    case Uniformity::kQuad:
      return "is only uniform within a quad";
    default:
      return "varies per invocation";
  }
}

}  // namespace

// One explanation: notes in order, each place explained at most once.
class Explainer::Chain {
 public:
  explicit Chain(const Explainer& e) : e_(e) {}

  std::vector<Note> Take() { return std::move(notes_); }

  void ControlFlowAt(const Instruction& inst) {
    const auto* block = e_.blocks_.Of(inst);
    if (block == nullptr) return;
    if (e_.AfterEndingCall(inst, *block)) {
      // A call earlier in the block may end some invocations.
      if (const Instruction* call = EndingCall(block->id(), &inst)) InvocationsEndIn(*call);
    }
    ControlFlow(block->id());
  }

  void ControlFlow(uint32_t label) {
    if (Full() || !First('b', label)) return;
    const std::vector<UniformityStep> steps = e_.info_.ExplainControlFlow(label);
    if (steps.empty()) return;
    // A chain of control dependences ends at the branch that decides.
    size_t i = 0;
    while (i + 1 < steps.size() && steps[i].kind == Kind::kControlFlow &&
           steps[i + 1].kind == Kind::kControlFlow) {
      ++i;
    }
    const UniformityStep& step = steps[i];
    switch (step.kind) {
      case Kind::kControlFlow:
        Branch(step.cause);
        break;
      case Kind::kCallSite:
        CallSite(FunctionOfBlock(step.subject), step.cause);
        break;
      case Kind::kCycle:
        Add("this runs in a loop whose invocations are not converged (its header is " +
                e_.names_.Block(step.cause) + ")",
            Terminator(step.cause));
        break;
      default:
        Add(step.note, Terminator(label));
        break;
    }
  }

  void Value(uint32_t id) { Value(id, ""); }

  void Use(const Instruction& user, uint32_t operand) {
    if (Full() || operand >= user.NumInOperands()) return;
    const uint32_t id = user.GetSingleWordInOperand(operand);
    if (e_.info_.UseLevel(user, operand) > e_.info_.ValueLevel(id)) {
      TemporalUse(user, id);
    } else {
      Value(id, "");
    }
  }

 private:
  bool Full() const { return notes_.size() >= kMaxNotes; }
  bool First(char tag, uint32_t id) { return seen_.insert({tag, id}).second; }

  void Add(const std::string& message, const Instruction* at) {
    if (Full()) return;
    notes_.push_back({message, at != nullptr ? e_.locator_.At(*at) : Location{}});
  }

  const Instruction* Def(uint32_t id) const { return e_.index_.Def(id); }
  const Instruction* Terminator(uint32_t label) const {
    const auto* block = e_.blocks_.OfLabel(label);
    return block == nullptr ? nullptr : &*block->ctail();
  }
  uint32_t FunctionOfBlock(uint32_t label) const {
    const auto* block = e_.blocks_.OfLabel(label);
    return block == nullptr ? 0 : block->GetParent()->result_id();
  }
  std::string FunctionName(uint32_t function) const { return e_.names_.Function(function); }
  // A value as notes name it; |alias| names an unnamed value stored to a
  // named variable. Without either, the value is named by what it is and
  // its source line ("the condition on line 17"): optimised code keeps the
  // lines but few names.
  std::string Describe(uint32_t id, const std::string& alias) const {
    const std::string described = e_.names_.Describe(id);
    if (described != e_.names_.IdName(id)) return described;
    if (!alias.empty()) return alias;
    const Instruction* def = Def(id);
    if (def == nullptr) return described;
    if (def->opcode() == spv::Op::OpPhi) {
      // A phi has no line of its own: its block's branch has one.
      const auto* block = e_.blocks_.Of(*def);
      const uint32_t line = block != nullptr ? e_.locator_.AtBlock(block->id()).line : 0;
      if (line == 0) return described;
      if (block->GetLoopMergeInst() != nullptr) {
        return "the value the loop on line " + std::to_string(line) + " carries";
      }
      return "the value merged on line " + std::to_string(line);
    }
    const uint32_t line = e_.locator_.At(*def).line;
    if (line == 0) return described;
    const Instruction* type = def->type_id() != 0 ? Def(def->type_id()) : nullptr;
    const bool condition = type != nullptr && type->opcode() == spv::Op::OpTypeBool;
    return (condition ? "the condition on line " : "the value on line ") + std::to_string(line);
  }
  bool IsNamed(uint32_t id) const { return e_.names_.Describe(id) != e_.names_.IdName(id); }

  // The branch at the end of block |label| decides the control flow.
  void Branch(uint32_t label) {
    const Instruction* terminator = Terminator(label);
    if (terminator == nullptr) return;
    if (IsConditional(*terminator)) {
      Operand("control flow depends on", "condition", *terminator, 0);
      return;
    }
    // An unconditional end of a block that diverges: a call that may end
    // some invocations.
    if (const Instruction* call = EndingCall(label, nullptr)) InvocationsEndIn(*call);
  }

  // "|what| 'x'" for in-operand |operand| of |user|, then why 'x' is not
  // uniform. An unnamed value is shown by the named values it is computed
  // from: "|what| a |noun| computed from 'y'".
  void Operand(const std::string& what, const char* noun, const Instruction& user,
               uint32_t operand) {
    const uint32_t id = user.GetSingleWordInOperand(operand);
    const bool temporal = e_.info_.UseLevel(user, operand) > e_.info_.ValueLevel(id);
    const Instruction* at = WithLine(user, id);
    if (IsNamed(id) || temporal || !First('v', id)) {
      Add(what + " " + Describe(id, ""), at);
      Use(user, operand);
      return;
    }
    const std::vector<UniformityStep> steps = e_.info_.ExplainValue(id);
    if (!steps.empty() && steps[0].kind == Kind::kOperand) {
      const size_t last = CollapseOperands(steps, 0);
      Add(what + " a " + noun + " computed from " + Describe(steps[last].cause, ""), at);
      Steps(steps, "", last + 1);
    } else {
      Add(what + " " + Describe(id, ""), at);
      Steps(steps, "", 0);
    }
  }

  const Instruction* WithLine(const Instruction& user, uint32_t id) const {
    return e_.WithLine(user, id);
  }

  // The last call in block |label| before |stop| (null: in the whole block)
  // to a function that may end invocations, or null.
  const Instruction* EndingCall(uint32_t label, const Instruction* stop) const {
    const Instruction* found = nullptr;
    for (const Instruction& i : *e_.blocks_.OfLabel(label)) {
      if (&i == stop) break;
      if (i.opcode() == spv::Op::OpFunctionCall &&
          e_.calls_.InvocationEnd(i.GetSingleWordInOperand(0)) != nullptr) {
        found = &i;
      }
    }
    return found;
  }

  // Some invocations may end inside the call |call|.
  void InvocationsEndIn(const Instruction& call) {
    const uint32_t callee = call.GetSingleWordInOperand(0);
    Add("some invocations may end in the call to '" + FunctionName(callee) + "'", &call);
    const Instruction* end = e_.calls_.InvocationEnd(callee);
    if (end == nullptr || !First('k', callee)) return;
    Add(std::string("invocations end here (Op") + spvOpcodeString(end->opcode()) + ")", end);
    if (const auto* block = e_.blocks_.Of(*end)) {
      ControlFlow(block->id());
    }
  }

  // |function| runs in non-uniform control flow because the analysis found
  // it called in such control flow by the OpFunctionCall |call_id|.
  void CallSite(uint32_t function, uint32_t call_id) {
    if (!First('c', function)) return;
    const Instruction* call = call_id != 0 ? Def(call_id) : nullptr;
    if (call == nullptr) {
      Add("'" + FunctionName(function) + "' is called in non-uniform control flow", nullptr);
      return;
    }
    const uint32_t caller = e_.locator_.FunctionOf(*call);
    Add("'" + FunctionName(function) + "' is called from '" + FunctionName(caller) +
            "' in non-uniform control flow",
        call);
    ControlFlowAt(*call);
  }

  void Value(uint32_t id, const std::string& alias) {
    if (Full() || id == 0 || !First('v', id)) return;
    Steps(e_.info_.ExplainValue(id), alias, 0);
  }

  // |id| is used by |user| outside a loop that invocations leave on
  // different iterations.
  void TemporalUse(const Instruction& user, uint32_t id) {
    const Instruction* def = Def(id);
    const auto* def_block = def == nullptr ? nullptr : e_.blocks_.Of(*def);
    if (def_block == nullptr) return;
    const uint32_t function = def_block->GetParent()->result_id();
    const UniformityCycle* loop = nullptr;
    for (const UniformityCycle& cycle : e_.info_.Cycles(function)) {
      if (cycle.divergent_exit == Uniformity::kUniform) continue;
      if (std::find(cycle.blocks.begin(), cycle.blocks.end(), def_block->id()) ==
          cycle.blocks.end()) {
        continue;
      }
      loop = &cycle;  // parents come first: the last match is the innermost
    }
    Add(Describe(id, "") +
            " is computed in a loop that invocations leave on different iterations, so they "
            "see different values of it here",
        &user);
    if (loop == nullptr) return;
    // A divergent branch that leaves the loop.
    for (uint32_t label : loop->blocks) {
      const Instruction* terminator = Terminator(label);
      if (terminator == nullptr || !IsConditional(*terminator) ||
          !e_.info_.HasDivergentBranch(label)) {
        continue;
      }
      bool exits = false;
      e_.blocks_.OfLabel(label)->ForEachSuccessorLabel([&](uint32_t successor) {
        exits |=
            std::find(loop->blocks.begin(), loop->blocks.end(), successor) == loop->blocks.end();
      });
      if (!exits) continue;
      Add("invocations leave the loop depending on " +
              Describe(terminator->GetSingleWordInOperand(0), ""),
          terminator);
      Use(*terminator, 0);
      return;
    }
  }

  // The last of the operand steps from |i| on that pass through unnamed
  // intermediate values.
  size_t CollapseOperands(const std::vector<UniformityStep>& steps, size_t i) const {
    while (i + 1 < steps.size() && steps[i + 1].kind == Kind::kOperand &&
           steps[i + 1].subject == steps[i].cause && !IsNamed(steps[i].cause)) {
      ++i;
    }
    return i;
  }

  void Steps(const std::vector<UniformityStep>& steps, std::string alias, size_t start) {
    for (size_t i = start; i < steps.size() && !Full(); ++i) {
      const UniformityStep& step = steps[i];
      const std::string subject = Describe(step.subject, alias);
      alias.clear();
      switch (step.kind) {
        case Kind::kOperand: {
          // Through unnamed intermediate values to the first named one.
          const size_t last = CollapseOperands(steps, i);
          const std::string cause = Describe(steps[last].cause, "");
          // A load's only operand is its address.
          const Instruction* def = Def(step.subject);
          const bool load = def != nullptr && (def->opcode() == spv::Op::OpLoad ||
                                               def->opcode() == spv::Op::OpImageRead);
          // "the 'normal' member of 'm'" already says it comes from 'm'.
          const std::string of_cause = " of " + cause;
          const bool part_of_cause =
              subject.size() > of_cause.size() &&
              subject.compare(subject.size() - of_cause.size(), of_cause.size(), of_cause) == 0;
          if (cause != subject && !part_of_cause) {
            Add(subject + (load ? " is read at an address computed from " : " is computed from ") +
                    cause,
                def);
          }
          i = last;
          break;
        }
        case Kind::kMemory:
          alias = Memory(step, subject);
          break;
        case Kind::kSource:
          Source(step, subject);
          break;
        case Kind::kJoin: {
          const Instruction* branch = Terminator(step.cause);
          Add(subject + " merges different values from the paths of a divergent branch",
              Def(step.subject));
          if (branch != nullptr && IsConditional(*branch)) {
            Add("the paths diverge at the branch on " +
                    Describe(branch->GetSingleWordInOperand(0), ""),
                branch);
          }
          break;
        }
        case Kind::kTemporal: {
          // A load of a variable the loop stores to names the variable as
          // its cause (memory SSA): say what it reads.
          const std::string cause = Describe(step.cause, "");
          Add(cause == subject
                  ? subject +
                        " is read after a loop that invocations leave on different "
                        "iterations, so each sees the value from the iteration it left in"
                  : subject + " uses " + cause +
                        " after the loop that computes it; invocations leave that loop on "
                        "different iterations, so each sees the value from the iteration it "
                        "left in",
              Def(step.subject));
          // The next step explains the condition of the branch that leaves;
          // an unnamed one is shown by the named values it is computed from.
          if (i + 1 < steps.size()) {
            const UniformityStep& condition = steps[i + 1];
            std::string what = Describe(condition.subject, "");
            if (condition.kind == Kind::kOperand && !IsNamed(condition.subject)) {
              i = CollapseOperands(steps, i + 1);
              what = "a condition computed from " + Describe(steps[i].cause, "");
            }
            Add("invocations leave the loop depending on " + what, Def(condition.subject));
          }
          break;
        }
        case Kind::kCycle:
          Add(subject +
                  " is computed in a loop whose invocations are not converged (its header "
                  "is " +
                  e_.names_.Block(step.cause) + ")",
              Def(step.subject));
          break;
        case Kind::kCall:
          Call(step, subject);
          return;  // Call continues the chain itself
        case Kind::kDecoration:
          Add(subject + ": " + step.note, Def(step.subject));
          break;
        default:
          break;
      }
    }
  }

  // A load that reads what was stored: note where, unless the stored value
  // is unnamed (then it takes the variable's name). Returns the alias for the
  // next step's subject.
  std::string Memory(const UniformityStep& step, const std::string& subject) {
    const Instruction* load = Def(step.subject);
    const Instruction* variable = load != nullptr && load->opcode() == spv::Op::OpLoad
                                      ? e_.names_.RootVariable(load->GetSingleWordInOperand(0))
                                      : nullptr;
    if (step.cause == 0) {
      // Memory the analysis treats as a whole: a store of a non-uniform value.
      const Instruction* store = variable != nullptr ? e_.NonUniformStore(*variable) : nullptr;
      if (store == nullptr) {
        Add(subject + " is loaded from memory: " + step.note, load);
        return "";
      }
      const uint32_t stored = store->GetSingleWordInOperand(1);
      Add(subject + " is assigned from " + Describe(stored, subject), store);
      Value(stored, subject);
      return "";
    }
    if (!IsNamed(step.cause)) return subject;
    Add(subject + " is assigned from " + Describe(step.cause, ""), Store(step.cause, variable));
    return "";
  }

  // The store of |value| into |variable|, or |value|'s definition.
  const Instruction* Store(uint32_t value, const Instruction* variable) const {
    for (const analysis::UseTable::Use& use : e_.uses_.UsesOf(value)) {
      const Instruction* user = use.user;
      if (user->opcode() == spv::Op::OpStore && use.operand == 1 &&
          (variable == nullptr ||
           e_.names_.RootVariable(user->GetSingleWordInOperand(0)) == variable)) {
        return user;
      }
    }
    return Def(value);
  }

  void Source(const UniformityStep& step, const std::string& subject) {
    const Instruction* def = Def(step.subject);
    const Instruction* variable = step.cause != 0 ? Def(step.cause) : nullptr;
    if (variable == nullptr || variable->opcode() != spv::Op::OpVariable) {
      const std::string opcode =
          def != nullptr ? std::string("Op") + spvOpcodeString(def->opcode()) : "its instruction";
      Add(subject + " is computed by " + opcode + ": " + step.note, def);
      return;
    }
    const std::string name = Describe(variable->result_id(), "");
    uint32_t builtin = 0;
    e_.index_.DecorationOperand(variable->result_id(), spv::Decoration::BuiltIn, &builtin);
    const auto storage = static_cast<spv::StorageClass>(variable->GetSingleWordInOperand(0));
    const std::string read = subject == name ? name : subject + " is read from " + name;
    if (builtin != 0 || storage == spv::StorageClass::Input) {
      std::string what = "a shader input";
      spv_operand_desc desc = nullptr;
      if (builtin != 0 && e_.context_.grammar().lookupOperand(SPV_OPERAND_TYPE_BUILT_IN, builtin,
                                                              &desc) == SPV_SUCCESS) {
        what = std::string("the built-in ") + desc->name;
      }
      Add(read + (subject == name ? " is " : ", ") + what + ", which " + LevelPhrase(step.level),
          def);
      return;
    }
    Add(read + ": " + step.note, def);
  }

  void Call(const UniformityStep& step, const std::string& subject) {
    const Instruction* def = Def(step.subject);
    const Instruction* cause = step.cause != 0 ? Def(step.cause) : nullptr;
    if (def != nullptr && def->opcode() == spv::Op::OpFunctionParameter) {
      Parameter(*def);
    } else if (def != nullptr && cause != nullptr && cause->opcode() == spv::Op::OpFunction) {
      ReturnValue(subject, *def, cause->result_id());
    } else if (cause != nullptr && cause->opcode() == spv::Op::OpFunctionParameter) {
      if (subject != Describe(cause->result_id(), "")) {
        Add(subject + " is read through parameter " + Describe(cause->result_id(), ""), def);
      }
      Parameter(*cause);
    } else if (cause != nullptr) {
      Add(subject + " comes from " + Describe(step.cause, ""), def);
      Value(step.cause, "");
    } else {
      Add(subject + ": " + step.note, def);
    }
  }

  // Parameter |param|: the argument of its most divergent call.
  void Parameter(const Instruction& param) {
    const uint32_t function = e_.locator_.FunctionOf(param);
    uint32_t index = 0;
    if (auto* f = e_.context_.GetFunction(function)) {
      uint32_t i = 0;
      f->ForEachParam([&](const Instruction* p) {
        if (p == &param) index = i;
        ++i;
      });
    }
    const uint32_t operand = index + 1;  // in-operand 0 is the callee
    const Instruction* widest = WidestCall(param, function, operand);
    const std::string name = Describe(param.result_id(), "");
    if (widest == nullptr) {
      Add("parameter " + name + " of '" + FunctionName(function) + "' may be non-uniform", &param);
      return;
    }
    const uint32_t argument = widest->GetSingleWordInOperand(operand);
    Add("parameter " + name + " of '" + FunctionName(function) + "' receives " +
            Describe(argument, "") + " from '" + FunctionName(e_.locator_.FunctionOf(*widest)) +
            "'",
        widest);
    if (const Instruction* store = StoreBehind(*widest, operand)) {
      const uint32_t stored = store->GetSingleWordInOperand(1);
      if (IsNamed(stored)) {
        Add(Describe(argument, "") + " is assigned from " + Describe(stored, ""), store);
      }
      Value(stored, Describe(argument, ""));
      return;
    }
    Use(*widest, operand);
  }

  // The first call of |function| that passes the least uniform argument for
  // |param| (in-operand |operand|), or null; once per parameter.
  const Instruction* WidestCall(const Instruction& param, uint32_t function, uint32_t operand) {
    auto [cached, added] = e_.widest_calls_.try_emplace(&param, nullptr);
    if (!added) return cached->second;
    Uniformity widest_level = Uniformity::kUniform;
    for (const Instruction* call : e_.calls_.CallsOf(function)) {
      if (operand >= call->NumInOperands()) continue;
      Uniformity level = e_.info_.UseLevel(*call, operand);
      // A pointer argument: what the caller stored behind it.
      if (const Instruction* store = StoreBehind(*call, operand)) {
        level = Join(level, e_.info_.ValueLevel(store->GetSingleWordInOperand(1)));
      }
      if (cached->second == nullptr || level > widest_level) {
        cached->second = call;
        widest_level = level;
      }
      if (widest_level == Uniformity::kDivergent) break;  // none can be wider
    }
    return cached->second;
  }

  // The last store before |call| (in its block) to the variable that
  // pointer argument |operand| points into.
  const Instruction* StoreBehind(const Instruction& call, uint32_t operand) const {
    const Instruction* argument = Def(call.GetSingleWordInOperand(operand));
    if (argument == nullptr) return nullptr;
    const Instruction* pointer_type = Def(argument->type_id());
    if (pointer_type == nullptr || pointer_type->opcode() != spv::Op::OpTypePointer) {
      return nullptr;
    }
    const Instruction* variable = e_.names_.RootVariable(argument->result_id());
    const auto* block = e_.blocks_.Of(call);
    if (variable == nullptr || block == nullptr) return nullptr;
    const Instruction* last = nullptr;
    for (const Instruction& i : *block) {
      if (&i == &call) break;
      if (i.opcode() == spv::Op::OpStore &&
          e_.names_.RootVariable(i.GetSingleWordInOperand(0)) == variable) {
        last = &i;
      }
    }
    return last;
  }

  // The call |call| returns a non-uniform value from |callee|.
  void ReturnValue(const std::string& subject, const Instruction& call, uint32_t callee) {
    const Instruction* widest = nullptr;
    if (auto* f = e_.context_.GetFunction(callee)) {
      for (auto& block : *f) {
        const Instruction* ret = &*block.tail();
        if (ret->opcode() != spv::Op::OpReturnValue) continue;
        if (widest == nullptr || e_.info_.UseLevel(*ret, 0) > e_.info_.UseLevel(*widest, 0)) {
          widest = ret;
        }
      }
    }
    // A named result says where it comes from; an unnamed one already reads
    // "the result of 'f'".
    if (subject != e_.names_.Describe(call.result_id())) {
      Add(subject + " is the value returned by '" + FunctionName(callee) + "'", &call);
    }
    if (widest == nullptr || !First('r', callee)) return;
    if (e_.info_.UseLevel(*widest, 0) == Uniformity::kUniform) {
      Add("'" + FunctionName(callee) + "' returns from paths that diverged", widest);
      return;
    }
    Operand("'" + FunctionName(callee) + "' returns", "value", *widest, 0);
  }

  const Explainer& e_;
  std::vector<Note> notes_;
  std::set<std::pair<char, uint32_t>> seen_;
};

Explainer::Explainer(spvtools::opt::IRContext& context, const UniformityInfo& info,
                     const analysis::ModuleIndex& index, const analysis::BlockTable& blocks,
                     const analysis::UseTable& uses, const diagnostics::Names& names,
                     const diagnostics::Locator& locator, const analysis::CallGraph& calls)
    : context_(context),
      info_(info),
      index_(index),
      blocks_(blocks),
      uses_(uses),
      names_(names),
      locator_(locator),
      calls_(calls) {}

bool Explainer::AfterEndingCall(const Instruction& inst,
                                const spvtools::opt::BasicBlock& block) const {
  return info_.ControlFlowLevel(inst) > info_.ControlFlowLevel(block.id());
}

const Instruction* Explainer::WithLine(const Instruction& user, uint32_t id) const {
  if (locator_.At(user).line != 0) return &user;
  const Instruction* phi = index_.Def(id);
  if (phi == nullptr || phi->opcode() != spv::Op::OpPhi) return &user;
  const Instruction* best = &user;
  uint32_t best_line = 0;
  auto consider = [&](const Instruction* candidate) {
    if (candidate == nullptr) return;
    const uint32_t line = locator_.At(*candidate).line;
    if (line != 0 && (best_line == 0 || line < best_line)) best = candidate, best_line = line;
  };
  for (uint32_t i = 0; i + 1 < phi->NumInOperands(); i += 2) {
    consider(index_.Def(phi->GetSingleWordInOperand(i)));
    const auto* block = blocks_.OfLabel(phi->GetSingleWordInOperand(i + 1));
    consider(block == nullptr ? nullptr : &*block->ctail());
  }
  return best;
}

std::vector<Note> Explainer::ControlFlowAt(const Instruction& inst) const {
  const auto* block = blocks_.Of(inst);
  if (block == nullptr) return {};
  const bool after_ending_call = AfterEndingCall(inst, *block);
  auto cached = block_notes_.find(block->id());
  if (after_ending_call || cached == block_notes_.end()) {
    Chain chain(*this);
    chain.ControlFlowAt(inst);
    if (after_ending_call) return chain.Take();
    cached = block_notes_.emplace(block->id(), chain.Take()).first;
  }
  return cached->second;
}

const Instruction* Explainer::NonUniformStore(const Instruction& variable) const {
  if (!stores_indexed_) {
    stores_indexed_ = true;
    for (spvtools::opt::Function& function : *context_.module()) {
      for (auto& block : function) {
        for (const Instruction& inst : block) {
          if (inst.opcode() != spv::Op::OpStore ||
              info_.ValueLevel(inst.GetSingleWordInOperand(1)) == Uniformity::kUniform) {
            continue;
          }
          if (const Instruction* root = names_.RootVariable(inst.GetSingleWordInOperand(0))) {
            non_uniform_stores_.emplace(root, &inst);
          }
        }
      }
    }
  }
  auto it = non_uniform_stores_.find(&variable);
  return it == non_uniform_stores_.end() ? nullptr : it->second;
}

std::vector<Note> Explainer::Use(const Instruction& user, uint32_t operand) const {
  Chain chain(*this);
  chain.Use(user, operand);
  return chain.Take();
}

std::vector<Note> Explainer::Value(uint32_t id) const {
  Chain chain(*this);
  chain.Value(id);
  return chain.Take();
}

}  // namespace lint
}  // namespace spirv_conv
