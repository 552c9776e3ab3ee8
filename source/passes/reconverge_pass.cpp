// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// reconverge (include/spirv_conv/reconverge_pass.h): one exit block for
// functions with returns in divergent control flow, then common tails sunk
// into it and into the joins of divergent branches.
//
//   if (a) { ...; out[i] = x; return; }        if (a) { ...; v = x; goto exit; }
//   ...                                  ==>   ...
//   if (b) { ...; out[i] = y; return; }        if (b) { ...; v = y; goto exit; }
//   ...; out[i] = z; return;                   ...; v = z;
//                                              exit: out[i] = phi(v); return;

#include "spirv_conv/reconverge_pass.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "analysis/convergence_classes.h"
#include "passes/control_flow_analyses.h"
#include "passes/promote_variables.h"
#include "passes/value_types.h"
#include "source/opt/cfg.h"
#include "source/opt/ir_builder.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/uniformity.h"

namespace spirv_conv {

namespace {

using spvtools::opt::BasicBlock;
using spvtools::opt::Function;
using spvtools::opt::Instruction;
using spvtools::opt::IRContext;
using spvtools::opt::Operand;

bool IsReturn(spv::Op op) { return op == spv::Op::OpReturn || op == spv::Op::OpReturnValue; }

// Instructions that may move to a join: no convergence requirement, no call
// (its callee might have one), no atomic, nothing structural.
bool MaySink(const Instruction& inst) {
  const spv::Op op = inst.opcode();
  if (op == spv::Op::OpPhi || op == spv::Op::OpVariable || op == spv::Op::OpFunctionCall ||
      op == spv::Op::OpLine || op == spv::Op::OpNoLine || op == spv::Op::OpSelectionMerge ||
      op == spv::Op::OpLoopMerge || spvOpcodeIsBlockTerminator(op) || spvOpcodeIsAtomicOp(op) ||
      op == spv::Op::OpExtInst) {
    return false;
  }
  return analysis::ClassifyConvergence(inst).flags == 0;
}

// Whether in-operand |operand| of |inst| must stay a constant, so values
// that differ between copies cannot become a phi there: a struct member
// index of an access chain, or an image operand after the mask (ConstOffset,
// ConstOffsets and Sample among them; the others merely stay as they are).
bool MustStayConstant(IRContext* context, const Instruction& inst, uint32_t operand) {
  for (uint32_t i = 0; i < operand; ++i) {
    const spv_operand_type_t type = inst.GetInOperand(i).type;
    if (type == SPV_OPERAND_TYPE_IMAGE || type == SPV_OPERAND_TYPE_OPTIONAL_IMAGE) return true;
  }
  const spv::Op op = inst.opcode();
  const bool ptr_chain = op == spv::Op::OpPtrAccessChain || op == spv::Op::OpInBoundsPtrAccessChain;
  if (op != spv::Op::OpAccessChain && op != spv::Op::OpInBoundsAccessChain && !ptr_chain) {
    return false;
  }
  auto* defs = context->get_def_use_mgr();
  const Instruction* base = defs->GetDef(inst.GetSingleWordInOperand(0));
  const Instruction* pointer = base == nullptr ? nullptr : defs->GetDef(base->type_id());
  if (pointer == nullptr || pointer->opcode() != spv::Op::OpTypePointer) return true;
  // The type each index steps into; a pointer chain's first index steps
  // over elements of the pointee and into nothing.
  const Instruction* type = defs->GetDef(pointer->GetSingleWordInOperand(1));
  for (uint32_t i = ptr_chain ? 2 : 1; i < operand && type != nullptr; ++i) {
    if (type->opcode() == spv::Op::OpTypeStruct) {
      const Instruction* index = defs->GetDef(inst.GetSingleWordInOperand(i));
      if (index == nullptr || index->opcode() != spv::Op::OpConstant) return true;
      type = defs->GetDef(type->GetSingleWordInOperand(index->GetSingleWordInOperand(0)));
    } else {
      type = defs->GetDef(type->GetSingleWordInOperand(0));  // element, component or column
    }
  }
  return type == nullptr || type->opcode() == spv::Op::OpTypeStruct;
}

class Reconverger {
 public:
  Reconverger(IRContext* context, ReconvergeStats* stats) : context_(context), stats_(stats) {}

  // One exit block for each group of |function|'s returns that end with an
  // instruction alike (a store, or another instruction without a result),
  // which then runs once in the exit block: routing returns through guards
  // costs instructions, so it must buy a shared tail. Returns the exits.
  // Returns ending otherwise stay (an exit for part of the returns: the
  // others are not made to wait for code they do not run).
  std::vector<BasicBlock*> UnifyReturns(Function* function) {
    // Returning blocks grouped by their last instruction before the return
    // (alike with the group's first).
    std::vector<std::vector<BasicBlock*>> groups;
    for (BasicBlock& block : *function) {
      if (!IsReturn(block.tail()->opcode())) continue;
      bool placed = false;
      for (std::vector<BasicBlock*>& group : groups) {
        if (SharedTail({group[0], &block})) {
          group.push_back(&block);
          placed = true;
          break;
        }
      }
      if (!placed) groups.push_back({&block});
    }
    std::vector<BasicBlock*> exits;
    for (const std::vector<BasicBlock*>& group : groups) {
      if (group.size() >= 2) exits.push_back(OneExit(function, group));
    }
    return exits;
  }

  // The exit block of |returns| (their values in a phi), placed last.
  BasicBlock* OneExit(Function* function, const std::vector<BasicBlock*>& returns) {
    const uint32_t label = context_->TakeNextId();
    auto exit = std::make_unique<BasicBlock>(std::make_unique<Instruction>(
        context_, spv::Op::OpLabel, 0, label, Instruction::OperandList{}));
    const bool value = returns[0]->tail()->opcode() == spv::Op::OpReturnValue;
    Instruction::OperandList incoming;
    for (BasicBlock* block : returns) {
      if (value) {
        incoming.push_back(
            Operand(SPV_OPERAND_TYPE_ID, {block->tail()->GetSingleWordInOperand(0)}));
        incoming.push_back(Operand(SPV_OPERAND_TYPE_ID, {block->id()}));
      }
      Instruction* terminator = &*block->tail();
      terminator->SetOpcode(spv::Op::OpBranch);
      terminator->SetInOperands({Operand(SPV_OPERAND_TYPE_ID, {label})});
    }
    if (value) {
      const uint32_t phi = context_->TakeNextId();
      exit->AddInstruction(std::make_unique<Instruction>(context_, spv::Op::OpPhi,
                                                         function->type_id(), phi, incoming));
      exit->AddInstruction(std::make_unique<Instruction>(
          context_, spv::Op::OpReturnValue, 0, 0,
          Instruction::OperandList{Operand(SPV_OPERAND_TYPE_ID, {phi})}));
    } else {
      exit->AddInstruction(std::make_unique<Instruction>(context_, spv::Op::OpReturn, 0, 0,
                                                         Instruction::OperandList{}));
    }
    // The shared return stands in for the first one (its source location).
    exit->tail()->UpdateDebugInfoFrom(&*returns[0]->tail());
    exit->SetParent(function);
    BasicBlock* placed = &*function->end().InsertBefore(std::move(exit));
    ++stats_->unified_exits;
    return placed;
  }

  // Sinks the instructions |join|'s predecessors |preds| all end with alike.
  void SinkCommonTails(BasicBlock* join, const std::vector<BasicBlock*>& preds) {
    if (preds.size() < 2) return;
    for (BasicBlock* pred : preds) {
      if (!BranchesOnlyTo(pred)) return;
    }
    while (SinkOne(join, preds)) ++stats_->sunk;
  }

  // When only some of |join|'s predecessors end alike, a new block between
  // them and |join| is their own join, and their tails sink into it:
  //
  //   A: ...; x = f(a); br J          A: ...; br N
  //   B: ...; x = f(b); br J   ==>    B: ...; br N
  //   C: ...; br J                    N: x = f(phi(a, b)); br J
  //                                   C: ...; br J
  //
  // Returns N, or null when no two predecessors end alike (or all do).
  BasicBlock* SplitJoin(BasicBlock* join) {
    const std::vector<uint32_t>& preds = context_->cfg()->preds(join->id());
    std::vector<BasicBlock*> group;
    for (uint32_t label : preds) {
      BasicBlock* pred = context_->cfg()->block(label);
      if (!BranchesOnlyTo(pred)) continue;
      if (group.empty() || SharedTail({group[0], pred})) group.push_back(pred);
    }
    if (group.size() < 2 || group.size() == preds.size()) return nullptr;
    std::set<uint32_t> from;
    for (BasicBlock* pred : group) from.insert(pred->id());
    const uint32_t label = context_->TakeNextId();
    auto split = std::make_unique<BasicBlock>(std::make_unique<Instruction>(
        context_, spv::Op::OpLabel, 0, label, Instruction::OperandList{}));
    // |join|'s phis take the group's values from the new block (through a
    // phi of its own when they differ).
    join->ForEachPhiInst([&](Instruction* phi) {
      Instruction::OperandList kept, moved;
      for (uint32_t i = 0; i + 1 < phi->NumInOperands(); i += 2) {
        Instruction::OperandList& into =
            from.count(phi->GetSingleWordInOperand(i + 1)) != 0 ? moved : kept;
        into.push_back(phi->GetInOperand(i));
        into.push_back(phi->GetInOperand(i + 1));
      }
      uint32_t value = moved[0].words[0];
      for (size_t i = 0; i < moved.size(); i += 2) {
        if (moved[i].words[0] != value) value = 0;
      }
      if (value == 0) {
        value = context_->TakeNextId();
        split->AddInstruction(
            std::make_unique<Instruction>(context_, spv::Op::OpPhi, phi->type_id(), value, moved));
      }
      kept.push_back(Operand(SPV_OPERAND_TYPE_ID, {value}));
      kept.push_back(Operand(SPV_OPERAND_TYPE_ID, {label}));
      phi->SetInOperands(std::move(kept));
    });
    split->AddInstruction(std::make_unique<Instruction>(
        context_, spv::Op::OpBranch, 0, 0,
        Instruction::OperandList{Operand(SPV_OPERAND_TYPE_ID, {join->id()})}));
    for (BasicBlock* pred : group)
      pred->tail()->SetInOperands({Operand(SPV_OPERAND_TYPE_ID, {label})});
    Function* function = join->GetParent();
    split->SetParent(function);
    BasicBlock* placed = nullptr;
    for (auto it = function->begin(); it != function->end(); ++it) {
      if (&*it == join) {
        placed = &*it.InsertBefore(std::move(split));
        break;
      }
    }
    passes::InvalidateFunctionAnalyses(context_);
    ++stats_->split_joins;
    return placed;
  }

  // Undoes SplitJoin(|join|) = |split| (nothing could sink into it).
  void Unsplit(BasicBlock* split, BasicBlock* join) {
    auto* defs = context_->get_def_use_mgr();
    const std::vector<uint32_t> group = context_->cfg()->preds(split->id());
    join->ForEachPhiInst([&](Instruction* phi) {
      Instruction::OperandList restored;
      for (uint32_t i = 0; i + 1 < phi->NumInOperands(); i += 2) {
        if (phi->GetSingleWordInOperand(i + 1) != split->id()) {
          restored.push_back(phi->GetInOperand(i));
          restored.push_back(phi->GetInOperand(i + 1));
          continue;
        }
        const uint32_t value = phi->GetSingleWordInOperand(i);
        const Instruction* def = defs->GetDef(value);
        for (uint32_t pred : group) {
          uint32_t incoming = value;  // a value common to the group, or the split's phi
          if (def != nullptr && def->opcode() == spv::Op::OpPhi &&
              context_->get_instr_block(value) == split) {
            for (uint32_t k = 0; k + 1 < def->NumInOperands(); k += 2) {
              if (def->GetSingleWordInOperand(k + 1) == pred)
                incoming = def->GetSingleWordInOperand(k);
            }
          }
          restored.push_back(Operand(SPV_OPERAND_TYPE_ID, {incoming}));
          restored.push_back(Operand(SPV_OPERAND_TYPE_ID, {pred}));
        }
      }
      phi->SetInOperands(std::move(restored));
    });
    for (uint32_t pred : group) {
      context_->cfg()->block(pred)->tail()->SetInOperands(
          {Operand(SPV_OPERAND_TYPE_ID, {join->id()})});
    }
    split->KillAllInsts(true);
    join->GetParent()->RemoveEmptyBlocks();
    passes::InvalidateFunctionAnalyses(context_);
    --stats_->split_joins;
  }

 private:
  // A phi of |type| in |join| taking values[p] from preds[p]: one |join|
  // has, or one of |phis| (made for the instruction being sunk), or a new
  // one appended to |phis|. Sharing phis lets the next round sink what
  // feeds them: a value used twice by the sunk code (x ^ (x >> 16)) is one
  // phi, used by nothing else.
  uint32_t PhiOf(uint32_t type, const std::vector<uint32_t>& values,
                 const std::vector<BasicBlock*>& preds, BasicBlock* join,
                 std::vector<std::unique_ptr<Instruction>>* phis) {
    auto takes = [&](const Instruction& phi) {
      if (phi.opcode() != spv::Op::OpPhi || phi.type_id() != type ||
          phi.NumInOperands() != 2 * values.size()) {
        return false;
      }
      for (uint32_t i = 0; i < phi.NumInOperands(); i += 2) {
        const uint32_t from = phi.GetSingleWordInOperand(i + 1);
        bool matched = false;
        for (size_t p = 0; p < preds.size(); ++p) {
          if (preds[p]->id() == from) matched = phi.GetSingleWordInOperand(i) == values[p];
        }
        if (!matched) return false;
      }
      return true;
    };
    for (const auto& phi : *phis) {
      if (takes(*phi)) return phi->result_id();
    }
    for (auto it = join->begin(); it != join->end() && it->opcode() == spv::Op::OpPhi; ++it) {
      if (takes(*it)) return it->result_id();
    }
    Instruction::OperandList incoming;
    for (size_t p = 0; p < values.size(); ++p) {
      incoming.push_back(Operand(SPV_OPERAND_TYPE_ID, {values[p]}));
      incoming.push_back(Operand(SPV_OPERAND_TYPE_ID, {preds[p]->id()}));
    }
    const uint32_t phi = context_->TakeNextId();
    phis->push_back(std::make_unique<Instruction>(context_, spv::Op::OpPhi, type, phi, incoming));
    return phi;
  }

  // |chains| (one per predecessor): access chains with one base and one
  // type, and non-pointer indices. Returns the id of an equivalent chain
  // to place in |join| (appended to |code| after the phis it needs), or 0.
  uint32_t SinkChain(const std::vector<Instruction*>& chains, const std::vector<BasicBlock*>& preds,
                     BasicBlock* join, std::vector<std::unique_ptr<Instruction>>* code) {
    const Instruction* first = chains[0];
    if (first == nullptr || (first->opcode() != spv::Op::OpAccessChain &&
                             first->opcode() != spv::Op::OpInBoundsAccessChain)) {
      return 0;
    }
    for (const Instruction* c : chains) {
      if (c == nullptr || c->opcode() != first->opcode() || c->type_id() != first->type_id() ||
          c->NumInOperands() != first->NumInOperands() ||
          c->GetSingleWordInOperand(0) != first->GetSingleWordInOperand(0)) {
        return 0;
      }
    }
    std::unique_ptr<Instruction> chain(first->Clone(context_));
    if (!SameLine(chains)) chain->ClearDbgLineInsts();
    chain->SetResultId(context_->TakeNextId());
    for (uint32_t i = 1; i < first->NumInOperands(); ++i) {
      std::vector<uint32_t> values;
      for (const Instruction* c : chains) values.push_back(c->GetSingleWordInOperand(i));
      if (std::equal(values.begin() + 1, values.end(), values.begin())) continue;
      const Instruction* index = context_->get_def_use_mgr()->GetDef(values[0]);
      if (index == nullptr || MustStayConstant(context_, *first, i) ||
          passes::TypeOpcode(context_, index->type_id()) != spv::Op::OpTypeInt) {
        return 0;
      }
      chain->SetInOperand(i, {PhiOf(index->type_id(), values, preds, join, code)});
    }
    const uint32_t id = chain->result_id();
    code->push_back(std::move(chain));
    return id;
  }

  // Whether |block| ends with an unconditional branch and heads nothing.
  static bool BranchesOnlyTo(BasicBlock* block) {
    return block->tail()->opcode() == spv::Op::OpBranch && block->GetMergeInst() == nullptr;
  }

  static bool SharedTail(const std::vector<BasicBlock*>& blocks) {
    const std::vector<Instruction*> tails = Tails(blocks);
    return Alike(tails) && !tails[0]->HasResultId();
  }

  // The last instruction before each block's terminator (null for none).
  static std::vector<Instruction*> Tails(const std::vector<BasicBlock*>& blocks) {
    std::vector<Instruction*> tails;
    for (BasicBlock* block : blocks) tails.push_back(LastBeforeTerminator(block));
    return tails;
  }

  // |tails| could be one instruction in the join: each may move, and they
  // share opcode, type and literal operands (ids may differ).
  static bool Alike(const std::vector<Instruction*>& tails) {
    const Instruction* first = tails[0];
    for (const Instruction* inst : tails) {
      if (inst == nullptr || !MaySink(*inst) || inst->opcode() != first->opcode() ||
          inst->type_id() != first->type_id() || inst->NumInOperands() != first->NumInOperands()) {
        return false;
      }
      for (uint32_t i = 0; i < inst->NumInOperands(); ++i) {
        const Operand& mine = inst->GetInOperand(i);
        const Operand& theirs = first->GetInOperand(i);
        if (mine.type != theirs.type) return false;
        if (!spvIsIdType(mine.type) && !(mine.words == theirs.words)) return false;
      }
    }
    return true;
  }

  // Whether |copies| have one source line (OpLine or DebugLine, operand for
  // operand, or none at all). One instruction standing in for copies from
  // several lines gets none, as LLVM's merged debug locations get line 0:
  // the first copy's line would attribute the others' statements to it.
  static bool SameLine(const std::vector<Instruction*>& copies) {
    auto line_of = [](const Instruction* inst) {
      return inst->dbg_line_insts().empty() ? nullptr : &inst->dbg_line_insts().back();
    };
    const Instruction* first = line_of(copies[0]);
    for (const Instruction* copy : copies) {
      const Instruction* line = line_of(copy);
      if (line == nullptr || first == nullptr) {
        if (line != first) return false;
        continue;
      }
      if (line->opcode() != first->opcode() || line->NumInOperands() != first->NumInOperands()) {
        return false;
      }
      for (uint32_t i = 0; i < line->NumInOperands(); ++i) {
        if (!(line->GetInOperand(i).words == first->GetInOperand(i).words)) return false;
      }
    }
    return true;
  }

  static Instruction* LastBeforeTerminator(BasicBlock* block) {
    auto it = block->tail();
    if (it == block->begin()) return nullptr;
    --it;
    return &*it;
  }

  bool SinkOne(BasicBlock* join, const std::vector<BasicBlock*>& preds) {
    auto* defs = context_->get_def_use_mgr();
    const std::vector<Instruction*> tails = Tails(preds);
    if (!Alike(tails)) return false;
    const Instruction& first = *tails[0];
    // A result may only feed one phi of |join|, pred by pred.
    Instruction* result_phi = nullptr;
    if (first.HasResultId()) {
      for (size_t p = 0; p < tails.size(); ++p) {
        bool ok = true;
        defs->ForEachUser(tails[p], [&](Instruction* user) {
          if (user->opcode() != spv::Op::OpPhi || context_->get_instr_block(user) != join)
            ok = false;
          else if (result_phi == nullptr)
            result_phi = user;
          else if (result_phi != user)
            ok = false;
        });
        if (!ok) return false;
      }
      if (result_phi != nullptr) {
        for (uint32_t i = 0; i + 1 < result_phi->NumInOperands(); i += 2) {
          const uint32_t from = result_phi->GetSingleWordInOperand(i + 1);
          for (size_t p = 0; p < preds.size(); ++p) {
            if (preds[p]->id() == from &&
                result_phi->GetSingleWordInOperand(i) != tails[p]->result_id()) {
              return false;
            }
          }
        }
      }
    }
    // Operands that differ become phis; pointers and opaque values cannot.
    std::unique_ptr<Instruction> sunk(first.Clone(context_));
    if (!SameLine(tails)) sunk->ClearDbgLineInsts();
    std::vector<std::unique_ptr<Instruction>> phis;
    std::set<Instruction*> replaced_chains;  // the predecessors' chains a join chain replaces
    for (uint32_t i = 0; i < first.NumInOperands(); ++i) {
      if (!spvIsInIdType(first.GetInOperand(i).type)) continue;
      std::vector<uint32_t> values;
      for (const Instruction* inst : tails) values.push_back(inst->GetSingleWordInOperand(i));
      if (std::equal(values.begin() + 1, values.end(), values.begin())) continue;
      const Instruction* value = defs->GetDef(values[0]);
      if (value == nullptr || value->type_id() == 0 || MustStayConstant(context_, first, i)) {
        return false;
      }
      // A phi takes values of one type (copies alike but for an operand's
      // type: extracts from a vec4 and a vec3).
      for (uint32_t id : values) {
        const Instruction* other = defs->GetDef(id);
        if (other == nullptr || other->type_id() != value->type_id()) return false;
      }
      if (passes::TypeOpcode(context_, value->type_id()) == spv::Op::OpTypePointer) {
        // Access chains alike but for their indices: one chain in the join.
        std::vector<Instruction*> chains;
        for (uint32_t id : values) chains.push_back(defs->GetDef(id));
        const uint32_t chain = SinkChain(chains, preds, join, &phis);
        if (chain == 0) return false;
        sunk->SetInOperand(i, {chain});
        replaced_chains.insert(chains.begin(), chains.end());
        continue;
      }
      if (passes::IsPointerOrOpaqueType(context_, value->type_id())) return false;
      sunk->SetInOperand(i, {PhiOf(value->type_id(), values, preds, join, &phis)});
    }
    // Place: the new phis after the join's phis, then the instruction.
    Instruction* insert_at = &*join->begin();
    while (insert_at->opcode() == spv::Op::OpPhi) insert_at = insert_at->NextNode();
    std::stable_partition(phis.begin(), phis.end(),
                          [](const auto& inst) { return inst->opcode() == spv::Op::OpPhi; });
    for (auto& inst : phis) {
      Instruction* placed = insert_at->InsertBefore(std::move(inst));
      defs->AnalyzeInstDefUse(placed);
      context_->set_instr_block(placed, join);
    }
    if (first.HasResultId()) sunk->SetResultId(first.result_id());
    Instruction* placed = insert_at->InsertBefore(std::move(sunk));
    for (Instruction* inst : tails) {
      if (inst != tails[0] && inst->HasResultId()) context_->KillNamesAndDecorates(inst);
      context_->KillInst(inst);
    }
    // A predecessor's chain that only the moved instruction used is dead
    // now (left alone, the next round would sink it too: a dead chain in
    // the join).
    for (Instruction* chain : replaced_chains) {
      if (defs->NumUsers(chain) == 0) context_->KillInst(chain);
    }
    defs->AnalyzeInstDefUse(placed);
    context_->set_instr_block(placed, join);
    if (result_phi != nullptr) {
      context_->ReplaceAllUsesWith(result_phi->result_id(), placed->result_id());
      context_->KillInst(result_phi);
    }
    return true;
  }

  IRContext* context_;
  ReconvergeStats* stats_;
};

}  // namespace

spvtools::opt::Pass::Status ReconvergePass::Process() {
  // The exits' code compared in SSA form: at glslang's -O0 each exit
  // computes in a variable of its own (--structurize promotes them anyway).
  std::vector<Function*> functions;
  for (Function& function : *get_module()) {
    if (function.IsDeclaration()) continue;
    if (!only_ || only_->count(function.result_id()) != 0) functions.push_back(&function);
  }
  const uint32_t bound = context()->module()->IdBound();
  if (!passes::PromoteFunctionVariables(context(), functions)) {
    error_ = "the SSA rewriter failed";
    return Status::Failure;
  }
  const bool promoted = context()->module()->IdBound() != bound;
  Expected<std::unique_ptr<UniformityInfo>> info = UniformityInfo::Compute(context());
  if (!info) {
    error_ = info.error().message;
    return Status::Failure;
  }
  // Decide on the module as it is: joins of divergent branches and the
  // functions whose returns are in divergent control flow.
  std::set<uint32_t> joins;
  std::vector<Function*> exits;
  for (Function* function : functions) {
    bool divergent_return = false;
    for (BasicBlock& block : *function) {
      if (IsReturn(block.tail()->opcode()) &&
          (*info)->ControlFlowLevel(block.id()) != Uniformity::kUniform) {
        divergent_return = true;
      }
      if (!(*info)->HasDivergentBranch(block.id())) continue;
      for (uint32_t join : (*info)->Joins(block.id())) joins.insert(join);
    }
    if (divergent_return) exits.push_back(function);
  }
  info->reset();
  Reconverger reconverger(context(), &stats_);
  // Sinks into |join| what all its predecessors end with alike; whether any.
  auto sink_into = [&](BasicBlock* join) {
    std::vector<BasicBlock*> preds;
    for (uint32_t p : cfg()->preds(join->id())) preds.push_back(cfg()->block(p));
    const uint32_t sunk = stats_.sunk;
    reconverger.SinkCommonTails(join, preds);
    if (stats_.sunk == sunk) return false;
    stats_.changed.insert(join->GetParent()->result_id());
    return true;
  };
  std::vector<uint32_t> partial;  // joins whose predecessors do not all end alike
  for (uint32_t join : joins) {
    if (!sink_into(cfg()->block(join))) partial.push_back(join);
  }
  for (uint32_t join : partial) {
    BasicBlock* split = reconverger.SplitJoin(cfg()->block(join));
    if (split != nullptr && !sink_into(split)) reconverger.Unsplit(split, cfg()->block(join));
  }
  for (Function* function : exits) {
    const std::vector<BasicBlock*> unified = reconverger.UnifyReturns(function);
    if (unified.empty()) continue;
    stats_.changed.insert(function->result_id());
    passes::InvalidateFunctionAnalyses(context());
    for (BasicBlock* exit : unified) sink_into(exit);
  }
  const bool changed = promoted || stats_.unified_exits + stats_.split_joins + stats_.sunk > 0;
  return changed ? Status::SuccessWithChange : Status::SuccessWithoutChange;
}

}  // namespace spirv_conv
