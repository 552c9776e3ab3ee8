// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/access_rewrite.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "analysis/convergence_classes.h"
#include "analysis/descriptor_access.h"
#include "passes/change_log.h"
#include "passes/nonuniform_capabilities.h"
#include "source/opcode.h"
#include "source/opt/decoration_manager.h"
#include "source/opt/ir_builder.h"
#include "source/opt/log.h"
#include "source/opt/reflect.h"
#include "source/opt/type_manager.h"
#include "spirv_conv/ir.h"

namespace spirv_conv {
namespace passes {

using spvtools::opt::BasicBlock;
using spvtools::opt::Instruction;
using spvtools::opt::InstructionBuilder;
using spvtools::opt::IRContext;

namespace {

const IRContext::Analysis kPreserved =
    IRContext::kAnalysisDefUse | IRContext::kAnalysisInstrToBlockMapping;

// ---------------------------------------------------------------------------
// Names for messages and the change log.

std::string IdText(IRContext* context, uint32_t id) {
  const std::string name = OpNameOf(*context, id);
  return "%" + std::to_string(id) + (name.empty() ? "" : " '" + name + "'");
}

std::string Describe(IRContext* context, const Instruction& inst) {
  std::string text = std::string("Op") + spvOpcodeString(inst.opcode());
  if (inst.result_id() != 0) text += " %" + std::to_string(inst.result_id());
  if (const BasicBlock* block = context->get_instr_block(const_cast<Instruction*>(&inst))) {
    text += " in function " + IdText(context, block->GetParent()->result_id());
  }
  return text;
}

std::string ArrayName(IRContext* context, const Instruction* variable) {
  if (variable == nullptr) return "a descriptor array";
  const std::string name = OpNameOf(*context, variable->result_id());
  return name.empty() ? "%" + std::to_string(variable->result_id()) : name;
}

// ---------------------------------------------------------------------------
// Types.

// Whether a Function variable can hold a value of |type_id|: no pointers,
// no opaque handles, no runtime arrays.
bool IsStorable(const analysis::ModuleIndex& index, uint32_t type_id) {
  const Instruction* type = index.Def(type_id);
  if (type == nullptr) return false;
  switch (type->opcode()) {
    case spv::Op::OpTypeBool:
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat:
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeMatrix:
      return true;
    case spv::Op::OpTypeArray:
      return IsStorable(index, type->GetSingleWordInOperand(0));
    case spv::Op::OpTypeStruct:
      for (uint32_t i = 0; i < type->NumInOperands(); ++i) {
        if (!IsStorable(index, type->GetSingleWordInOperand(i))) return false;
      }
      return true;
    default:
      return false;
  }
}

bool IsNameOrDecoration(spv::Op op) {
  return spvtools::opt::IsAnnotationInst(op) || spvtools::opt::IsDebug2Inst(op);
}

// ---------------------------------------------------------------------------
// Finding accesses.

bool IsAccessChain(spv::Op op) {
  return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain;
}

// The descriptor array an access chain starts from, through further access
// chains and copies; null when it starts elsewhere (a parameter).
const Instruction* RootVariable(const analysis::ModuleIndex& index, const Instruction* chain) {
  const Instruction* inst = chain;
  for (int depth = 0; inst != nullptr && depth < 64; ++depth) {
    if (inst->opcode() == spv::Op::OpVariable) return inst;
    if (!IsAccessChain(inst->opcode()) && inst->opcode() != spv::Op::OpCopyObject) return nullptr;
    inst = index.Def(inst->GetSingleWordInOperand(0));
  }
  return nullptr;
}

// The values the descriptor behind |id| flows through, backwards from |id|
// to the descriptor variables: access chains, copies, loads, both operands
// of OpSampledImage, ... (analysis::DescriptorValues follows only the array
// of one resource operand, not the sampler of a separate image and sampler.)
// Phis, selects and parameters end the walk; they are in the result.
std::set<uint32_t> SliceValues(const analysis::ModuleIndex& index, uint32_t id) {
  std::set<uint32_t> values;
  std::vector<uint32_t> work{id};
  while (!work.empty()) {
    const uint32_t value = work.back();
    work.pop_back();
    const Instruction* def = index.Def(value);
    if (def == nullptr || def->opcode() == spv::Op::OpVariable || !values.insert(value).second) {
      continue;
    }
    // Phis and selects end the walk (the caller refuses to rewrite them).
    if (def->opcode() == spv::Op::OpPhi || def->opcode() == spv::Op::OpSelect) continue;
    for (uint32_t source : analysis::DescriptorOperands(*def)) work.push_back(source);
  }
  return values;
}

// The selectors of |chain|: its leading indices into arrays of descriptors.
void AddSelectors(const DescriptorAccesses& found, const analysis::ResourceOperand& resource,
                  const LoweringRequest& request, Instruction* chain,
                  std::vector<Selector>* selectors) {
  const analysis::ModuleIndex& index = found.tables().index;
  const Instruction* pointer = index.TypeOf(chain->GetSingleWordInOperand(0));
  if (pointer == nullptr || pointer->opcode() != spv::Op::OpTypePointer) return;
  const auto storage = static_cast<spv::StorageClass>(pointer->GetSingleWordInOperand(0));
  if (storage != spv::StorageClass::UniformConstant && storage != spv::StorageClass::Uniform &&
      storage != spv::StorageClass::StorageBuffer) {
    return;
  }
  const Instruction* variable = RootVariable(index, chain);
  std::optional<DescriptorClass> descriptor_class;
  if (variable != nullptr) descriptor_class = analysis::DescriptorArrayClass(index, *variable);
  if (!descriptor_class) {
    variable = resource.variable;
    descriptor_class = resource.descriptor_class;
  }
  const Instruction* type = index.Def(pointer->GetSingleWordInOperand(1));
  for (uint32_t k = 1;
       k < chain->NumInOperands() && analysis::IsDescriptorArrayType(index, type, storage); ++k) {
    Selector selector;
    selector.chain = chain;
    selector.operand = k;
    uint64_t length = 0;
    if (type->opcode() == spv::Op::OpTypeArray &&
        index.IntegerConstant(type->GetSingleWordInOperand(1), &length) && length <= UINT32_MAX) {
      selector.length = static_cast<uint32_t>(length);
    }
    selector.variable = variable;
    selector.descriptor_class = *descriptor_class;
    selector.level = found.info().UseLevel(*chain, k);
    const Instruction* def = index.Def(chain->GetSingleWordInOperand(k));
    selector.constant = def != nullptr && spvOpcodeIsConstant(def->opcode());
    selector.lowered =
        request.classes.test(Bit(selector.descriptor_class)) && request.lower(selector);
    selectors->push_back(selector);
    type = index.Def(type->GetSingleWordInOperand(0));
  }
}

Uniformity LoweredLevel(const Access& access) {
  Uniformity level = Uniformity::kUniform;
  for (const Selector& selector : access.selectors) {
    if (selector.lowered) level = Join(level, selector.level);
  }
  return level;
}

// The distinct lowered index ids of |access|, sorted.
std::vector<uint32_t> LoweredIndexSet(const Access& access) {
  std::set<uint32_t> ids;
  for (const Selector& selector : access.selectors) {
    if (selector.lowered) ids.insert(selector.index());
  }
  return std::vector<uint32_t>(ids.begin(), ids.end());
}

// Whether an instruction between two accesses may move into the construct
// with them: it must not care which invocations run with it (derivatives,
// group operations, barriers), end or demote the invocation, or hide any of
// that behind a call.
bool IsMovable(const Instruction& inst) {
  switch (inst.opcode()) {
    case spv::Op::OpFunctionCall:
    case spv::Op::OpPhi:
    case spv::Op::OpVariable:
    case spv::Op::OpKill:
    case spv::Op::OpTerminateInvocation:
    case spv::Op::OpDemoteToHelperInvocation:
    case spv::Op::OpIsHelperInvocationEXT:
    case spv::Op::OpMemoryBarrier:
    case spv::Op::OpBeginInvocationInterlockEXT:
    case spv::Op::OpEndInvocationInterlockEXT:
    case spv::Op::OpEmitVertex:
    case spv::Op::OpEndPrimitive:
    case spv::Op::OpEmitStreamVertex:
    case spv::Op::OpEndStreamPrimitive:
    case spv::Op::OpReadClockKHR:
      return false;
    default:
      return analysis::ClassifyConvergence(inst).flags == 0;
  }
}

// The operands of an implicit-LOD sample that the gradients before the
// construct read: the coordinate and the Bias.
std::vector<uint32_t> GradientInputs(const Instruction& sample) {
  std::vector<uint32_t> ids{sample.GetSingleWordInOperand(1)};
  const bool dref = sample.opcode() == spv::Op::OpImageSampleDrefImplicitLod ||
                    sample.opcode() == spv::Op::OpImageSampleProjDrefImplicitLod ||
                    sample.opcode() == spv::Op::OpImageSparseSampleDrefImplicitLod ||
                    sample.opcode() == spv::Op::OpImageSparseSampleProjDrefImplicitLod;
  const uint32_t mask_operand = dref ? 3 : 2;
  if (sample.NumInOperands() > mask_operand + 1 &&
      (sample.GetSingleWordInOperand(mask_operand) &
       static_cast<uint32_t>(spv::ImageOperandsMask::Bias)) != 0) {
    ids.push_back(sample.GetSingleWordInOperand(mask_operand + 1));
  }
  return ids;
}

// The instructions from |first| to |last| of one block.
std::vector<Instruction*> Range(Instruction* first, Instruction* last) {
  std::vector<Instruction*> range;
  for (Instruction* inst = first; inst != nullptr; inst = inst->NextNode()) {
    range.push_back(inst);
    if (inst == last) break;
  }
  return range;
}

// A region value used after the region that a Function variable cannot
// carry, or null.
const Instruction* UnstorableEscape(const DescriptorAccesses& found,
                                    const std::vector<Instruction*>& region) {
  const std::unordered_set<const Instruction*> inside(region.begin(), region.end());
  for (const Instruction* inst : region) {
    if (inst->result_id() == 0 || inst->type_id() == 0) continue;
    bool escapes = false;
    for (const analysis::UseTable::Use& use : found.tables().uses.UsesOf(inst->result_id())) {
      if (!inside.count(use.user) && !IsNameOrDecoration(use.user->opcode())) escapes = true;
    }
    if (escapes && !IsStorable(found.tables().index, inst->type_id())) return inst;
  }
  return nullptr;
}

// Whether the region from |first| can grow to |next|, the access after
// |last| (the region's last so far) in the list of accesses -- apart from
// the values it leaves (UnstorableEscape, checked on the region that is
// finally chosen: a pointer used by a later access stops escaping once
// that access joins too).
bool CanExtend(const DescriptorAccesses& found, const Access& first, const Access& last,
               const Access& next) {
  const analysis::BlockTable& blocks = found.tables().blocks;
  if (blocks.Of(*first.user) != blocks.Of(*next.user)) return false;
  if (LoweredIndexSet(first) != LoweredIndexSet(next)) return false;
  const std::vector<Instruction*> region = Range(first.user, next.user);
  if (region.back() != next.user) return false;
  for (Instruction* inst = last.user->NextNode(); inst != next.user; inst = inst->NextNode()) {
    if (!IsMovable(*inst)) return false;
  }
  // The construct reads the indices, and the gradients before it the
  // coordinates: those must be ready before the region starts.
  const std::unordered_set<const Instruction*> inside(region.begin(), region.end());
  std::vector<uint32_t> needed = LoweredIndexSet(next);
  if (HasExplicitGradientForm(next.user->opcode())) {
    for (uint32_t id : GradientInputs(*next.user)) needed.push_back(id);
  }
  for (uint32_t id : needed) {
    if (inside.count(found.tables().index.Def(id))) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Rewriting.

void CopyDecorations(IRContext* context, uint32_t from, uint32_t to, bool drop_non_uniform) {
  auto* decorations = context->get_decoration_mgr();
  std::vector<spv::Decoration> kinds;
  for (const Instruction* decoration : decorations->GetDecorationsFor(from, false)) {
    if (decoration->opcode() != spv::Op::OpDecorate &&
        decoration->opcode() != spv::Op::OpDecorateId &&
        decoration->opcode() != spv::Op::OpDecorateString) {
      continue;
    }
    const auto kind = static_cast<spv::Decoration>(decoration->GetSingleWordInOperand(1));
    if (drop_non_uniform && kind == spv::Decoration::NonUniform) continue;
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
  }
  if (!kinds.empty()) decorations->CloneDecorations(from, to, kinds);
}

// A new OpVariable |variable| placed first in |function|'s entry block,
// before |next|, takes the debug line in effect there: SPIRV-Tools emits a
// DebugNoLine before an instruction without a line that follows one with a
// line, and spirv-val rejects anything but OpLine before the OpVariables
// (NonSemantic.Shader.DebugInfo.100). The line in effect is |next|'s when
// it is an OpVariable (as the module was valid, that emits nothing before
// it), else the last of the function's header instructions that has one.
void KeepLineState(spvtools::opt::Function* function, Instruction* variable,
                   const Instruction* next) {
  const Instruction* source = nullptr;
  if (next->opcode() == spv::Op::OpVariable) {
    source = next;
  } else {
    if (!function->DefInst().dbg_line_insts().empty()) source = &function->DefInst();
    function->ForEachParam([&](const Instruction* parameter) {
      if (!parameter->dbg_line_insts().empty()) source = parameter;
    });
    const Instruction* label = function->begin()->GetLabelInst();
    if (!label->dbg_line_insts().empty()) source = label;
  }
  if (source != nullptr) variable->UpdateDebugInfoFrom(source);
}

BasicBlock::iterator At(BasicBlock* block, const Instruction* inst) {
  for (auto it = block->begin(); it != block->end(); ++it) {
    if (&*it == inst) return it;
  }
  return block->end();
}

// OpSampledImage (a validation rule) and OpImage (drivers and SPIRV-Tools'
// inliner treat it alike) must be in the block of their users. After a
// split, |block| may use such values from another block: each gets a copy
// at its first use in |block|.
void LocalizeSameBlockOps(IRContext* context, BasicBlock* block, LeftOvers* left_overs) {
  auto* def_use = context->get_def_use_mgr();
  std::unordered_map<uint32_t, uint32_t> local;
  std::function<uint32_t(uint32_t, Instruction*)> localize = [&](uint32_t id, Instruction* before) {
    Instruction* def = def_use->GetDef(id);
    if (def == nullptr ||
        (def->opcode() != spv::Op::OpSampledImage && def->opcode() != spv::Op::OpImage) ||
        context->get_instr_block(def) == block) {
      return id;
    }
    auto known = local.find(id);
    if (known != local.end()) return known->second;
    std::unique_ptr<Instruction> copy(def->Clone(context));
    const uint32_t copy_id = context->TakeNextId();
    copy->SetResultId(copy_id);
    copy->ForEachInId([&](uint32_t* operand) { *operand = localize(*operand, before); });
    Instruction* added = before->InsertBefore(std::move(copy));
    def_use->AnalyzeInstDefUse(added);
    context->set_instr_block(added, block);
    CopyDecorations(context, id, copy_id, false);
    local[id] = copy_id;
    left_overs->Add(id);
    return copy_id;
  };
  for (Instruction& inst : *block) {
    if (inst.opcode() == spv::Op::OpPhi) continue;
    bool changed = false;
    inst.ForEachInId([&](uint32_t* operand) {
      const uint32_t id = localize(*operand, &inst);
      if (id != *operand) {
        *operand = id;
        changed = true;
      }
    });
    if (changed) def_use->AnalyzeInstUse(&inst);
  }
}

}  // namespace

// ---------------------------------------------------------------------------

Expected<std::vector<Access>> CollectAccesses(IRContext* context, const DescriptorAccesses& found,
                                              const LoweringRequest& request) {
  const analysis::ModuleTables& tables = found.tables();
  // The descriptor values of each user, over all its resource operands.
  struct Site {
    std::set<uint32_t> values;
    const analysis::ResourceOperand* resource = nullptr;
  };
  std::unordered_map<const Instruction*, Site> sites;
  for (const analysis::ResourceOperand& resource : found.accesses()) {
    if (resource.chain == nullptr) continue;  // no array to select from
    // Across calls, DescriptorValues finds the access chains in the callers.
    std::set<uint32_t> values = SliceValues(tables.index, resource.id);
    for (uint32_t id : analysis::DescriptorValues(tables, resource)) values.insert(id);
    for (const analysis::UseTable::Use& use : tables.uses.UsesOf(resource.id)) {
      if (!analysis::AccessesResource(tables.index, *use.user, use.operand)) continue;
      Site& site = sites[use.user];
      site.values.insert(values.begin(), values.end());
      if (site.resource == nullptr) site.resource = &resource;
    }
  }

  // In module order, so that the first access that cannot be rewritten is
  // the one reported.
  std::vector<std::pair<const Instruction*, const Site*>> ordered;
  for (const auto& [user, site] : sites) ordered.emplace_back(user, &site);
  std::sort(ordered.begin(), ordered.end(), [&](const auto& a, const auto& b) {
    return tables.blocks.Position(*a.first) < tables.blocks.Position(*b.first);
  });

  std::vector<Access> accesses;
  for (const auto& entry : ordered) {
    const Instruction* user = entry.first;
    const Site& site = *entry.second;
    Access access;
    access.user = const_cast<Instruction*>(user);
    const uint32_t function = tables.blocks.FunctionOf(*user);
    std::string problem;
    uint32_t parameter = 0;
    for (uint32_t id : site.values) {
      Instruction* def = tables.index.Def(id);
      if (def == nullptr) continue;
      if (IsAccessChain(def->opcode())) {
        AddSelectors(found, *site.resource, request, def, &access.selectors);
      }
      switch (def->opcode()) {
        case spv::Op::OpPhi:
        case spv::Op::OpSelect:
          problem = "is chosen by Op" + std::string(spvOpcodeString(def->opcode())) + " %" +
                    std::to_string(id) + ", which cannot be re-created with a new index";
          continue;
        case spv::Op::OpFunctionParameter:
          parameter = id;
          continue;
        default:
          break;
      }
      if (tables.blocks.FunctionOf(*def) == function) access.slice.push_back(def);
    }
    bool lowered = false;
    bool lowered_in_caller = false;
    for (const Selector& selector : access.selectors) {
      lowered |= selector.lowered;
      lowered_in_caller |=
          selector.lowered && tables.blocks.FunctionOf(*selector.chain) != function;
    }
    if (!lowered) continue;
    // A parameter that passes the whole array, or a descriptor selected
    // with indices that stay, is just where the slice starts.
    if (lowered_in_caller && parameter != 0) {
      problem = "comes through parameter " + IdText(context, parameter) +
                ": the index is chosen in a caller. Inline the function first "
                "(spirv-opt --inline-entry-points-exhaustive)";
    }

    auto fail = [&](const std::string& why) {
      return Error{ExitCode::kBadInput, std::string(request.pass) + ": cannot rewrite " +
                                            Describe(context, *user) + ", an access to " +
                                            LoweredArrays(context, access) + ": " + why};
    };
    if (!problem.empty()) return fail("its descriptor " + problem);
    if (request.needs_length) {
      for (const Selector& selector : access.selectors) {
        if (selector.lowered && selector.length == 0) {
          return fail(ArrayName(context, selector.variable) +
                      " has no element count known at compile time (a runtime array or a "
                      "specialization-constant length), so there is nothing to switch over");
        }
      }
    }
    if (analysis::ClassifyConvergence(*user).derivative == analysis::DerivativeKind::kImplicit) {
      if (HasExplicitGradientForm(user->opcode())) {
        const std::string gradients = GradientProblem(context, *user);
        if (!gradients.empty()) {
          return fail("its gradients cannot be taken before the new control flow: " + gradients);
        }
      } else if (LoweredLevel(access) > Uniformity::kQuad) {
        return fail(
            "it takes implicit derivatives and has no explicit-gradient form, and its index is "
            "not quad-uniform, so inside the new control flow its derivatives would be undefined");
      }
    }
    std::sort(access.slice.begin(), access.slice.end(),
              [&](const Instruction* a, const Instruction* b) {
                return tables.blocks.Position(*a) < tables.blocks.Position(*b);
              });
    accesses.push_back(std::move(access));
  }
  return accesses;
}

Expected<std::vector<AccessGroup>> GroupAccesses(IRContext* context,
                                                 const DescriptorAccesses& found,
                                                 std::vector<Access> accesses, const char* pass) {
  std::vector<AccessGroup> groups;
  for (size_t first = 0; first < accesses.size();) {
    if (const Instruction* escape = UnstorableEscape(found, {accesses[first].user})) {
      return Error{ExitCode::kBadInput,
                   std::string(pass) + ": cannot rewrite " + Describe(context, *escape) +
                       ": its result is used after it and is not a value a Function variable "
                       "can carry out of the new control flow"};
    }
    // The longest run of accesses that can share the construct.
    size_t last = first;
    for (size_t next = first + 1; next < accesses.size(); ++next) {
      if (!CanExtend(found, accesses[first], accesses[next - 1], accesses[next])) break;
      if (UnstorableEscape(found, Range(accesses[first].user, accesses[next].user)) == nullptr) {
        last = next;
      }
    }
    AccessGroup group;
    for (size_t k = first; k <= last; ++k) group.members.push_back(std::move(accesses[k]));
    groups.push_back(std::move(group));
    first = last + 1;
  }
  return groups;
}

std::string LoweredArrays(IRContext* context, const Access& access) {
  std::vector<const Instruction*> arrays;
  for (const Selector& selector : access.selectors) {
    if (selector.lowered &&
        std::find(arrays.begin(), arrays.end(), selector.variable) == arrays.end()) {
      arrays.push_back(selector.variable);
    }
  }
  std::string text = arrays.size() == 1 ? "descriptor array " : "descriptor arrays ";
  for (size_t i = 0; i < arrays.size(); ++i) {
    text += (i == 0 ? "" : ", ") + ArrayName(context, arrays[i]);
  }
  return text;
}

void LeftOvers::RemoveDead(IRContext* context) {
  auto* def_use = context->get_def_use_mgr();
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t& id : candidates_) {
      Instruction* inst = id == 0 ? nullptr : def_use->GetDef(id);
      if (inst == nullptr) continue;
      const bool unused = def_use->WhileEachUser(
          inst, [](Instruction* user) { return IsNameOrDecoration(user->opcode()); });
      if (!unused) continue;
      context->KillInst(inst);
      id = 0;
      changed = true;
    }
  }
}

// ---------------------------------------------------------------------------

AccessRewriter::AccessRewriter(IRContext* context, const AccessGroup& group, LeftOvers* left_overs)
    : context_(context), group_(group), left_overs_(left_overs) {}

void AccessRewriter::Prepare() {
  Instruction* first = group_.members.front().user;
  Instruction* last = group_.members.back().user;
  block_ = context_->get_instr_block(first);
  if (block_->GetLoopMergeInst() != nullptr) PeelLoopHeader();
  region_ = Range(first, last);
  in_region_.insert(region_.begin(), region_.end());

  // The slices outside the region, in function order (their union is
  // ordered: each value's definition dominates its users).
  std::unordered_map<const Instruction*, size_t> position;
  block_->GetParent()->ForEachInst(
      [&](Instruction* inst) { position.emplace(inst, position.size()); });
  std::unordered_set<const Instruction*> fully_lowered;
  std::unordered_set<const Instruction*> partly_lowered;
  for (const Access& access : group_.members) {
    bool all = true;
    for (const Selector& selector : access.selectors) {
      if (selector.lowered) {
        lowered_operands_[selector.chain].push_back(selector.operand);
        const uint32_t index = selector.index();
        auto known = std::find(indices_.begin(), indices_.end(), index);
        if (known == indices_.end()) {
          indices_.push_back(index);
          lengths_.push_back(selector.length);
        } else {
          uint32_t& length = lengths_[known - indices_.begin()];
          length = std::min(length, selector.length);
        }
      } else if (selector.level > Uniformity::kSubgroup) {
        all = false;
      }
    }
    auto& lowered = all ? fully_lowered : partly_lowered;
    lowered.insert(access.user);
    for (Instruction* inst : access.slice) {
      lowered.insert(inst);
      if (!in_region_.count(inst) &&
          std::find(outside_slice_.begin(), outside_slice_.end(), inst) == outside_slice_.end()) {
        outside_slice_.push_back(inst);
      }
    }
  }
  for (const Instruction* inst : fully_lowered) {
    if (!partly_lowered.count(inst)) drop_non_uniform_.insert(inst);
  }
  std::sort(outside_slice_.begin(), outside_slice_.end(),
            [&](const Instruction* a, const Instruction* b) { return position[a] < position[b]; });

  Split();
  HoistGradients();
  CreateResultVariables();
}

void AccessRewriter::PeelLoopHeader() {
  // header: phis, code, OpLoopMerge, branch  ==>  header: phis, OpLoopMerge,
  // OpBranch %body; body: code, branch. The region is then in body, and the
  // loop header keeps its phis and merge instruction.
  BasicBlock* header = block_;
  Instruction* loop_merge = header->GetLoopMergeInst();
  auto code = header->begin();
  while (code->opcode() == spv::Op::OpPhi) ++code;
  BasicBlock* body = header->SplitBasicBlock(context_, context_->TakeNextId(), code);
  loop_merge->RemoveFromList();
  header->AddInstruction(std::unique_ptr<Instruction>(loop_merge));
  context_->set_instr_block(loop_merge, header);
  if (loop_merge->GetSingleWordInOperand(1) == header->id()) {
    // A one-block loop: its back edge now leaves from body.
    loop_merge->SetInOperand(1, {body->id()});
    context_->get_def_use_mgr()->AnalyzeInstUse(loop_merge);
  }
  InstructionBuilder(context_, header, kPreserved).AddBranch(body->id());
  block_ = body;
}

void AccessRewriter::Split() {
  pre_ = block_;
  entry_ = pre_->SplitBasicBlock(context_, context_->TakeNextId(), At(pre_, region_.front()));
  merge_ = entry_->SplitBasicBlock(context_, context_->TakeNextId(),
                                   At(entry_, region_.back()->NextNode()));
  InstructionBuilder(context_, pre_, kPreserved).AddBranch(entry_->id());
}

void AccessRewriter::HoistGradients() {
  InstructionBuilder builder(context_, &*pre_->tail(), kPreserved);
  for (const Access& access : group_.members) {
    if (HasExplicitGradientForm(access.user->opcode())) {
      gradients_[access.user] = EmitGradients(context_, *access.user, &builder);
    }
  }
}

void AccessRewriter::CreateResultVariables() {
  auto* def_use = context_->get_def_use_mgr();
  BasicBlock* first_block = &*block_->GetParent()->begin();
  for (Instruction* inst : region_) {
    if (inst->result_id() == 0 || inst->type_id() == 0) continue;
    const bool escapes = !def_use->WhileEachUser(inst, [&](Instruction* user) {
      return in_region_.count(user) || IsNameOrDecoration(user->opcode());
    });
    if (!escapes) continue;
    const uint32_t pointer =
        context_->get_type_mgr()->FindPointerToType(inst->type_id(), spv::StorageClass::Function);
    Instruction* next = &*first_block->begin();
    Instruction* variable = InstructionBuilder(context_, next, kPreserved)
                                .AddVariable(pointer, uint32_t(spv::StorageClass::Function));
    KeepLineState(block_->GetParent(), variable, next);
    results_.push_back({inst, variable->result_id()});
  }
}

BasicBlock* AccessRewriter::NewBlock() {
  auto block = std::make_unique<BasicBlock>(std::unique_ptr<Instruction>(
      new Instruction(context_, spv::Op::OpLabel, 0, context_->TakeNextId(), {})));
  block->SetParent(merge_->GetParent());
  context_->get_def_use_mgr()->AnalyzeInstDefUse(block->GetLabelInst());
  context_->set_instr_block(block->GetLabelInst(), block.get());
  new_blocks_.push_back(std::move(block));
  return new_blocks_.back().get();
}

void AccessRewriter::Materialize(BasicBlock* block,
                                 const std::unordered_map<uint32_t, uint32_t>& values) {
  auto* def_use = context_->get_def_use_mgr();
  std::unordered_map<uint32_t, uint32_t> copies;  // original id -> copy id
  auto copy = [&](const Instruction* original) {
    std::unique_ptr<Instruction> clone(original->Clone(context_));
    clone->ForEachInId([&](uint32_t* id) {
      auto it = copies.find(*id);
      if (it != copies.end()) *id = it->second;
    });
    auto lowered = lowered_operands_.find(original);
    if (lowered != lowered_operands_.end()) {
      for (uint32_t operand : lowered->second) {
        auto value = values.find(original->GetSingleWordInOperand(operand));
        if (value != values.end()) clone->SetInOperand(operand, {value->second});
      }
    }
    auto gradients = gradients_.find(original);
    if (gradients != gradients_.end()) UseExplicitGradients(clone.get(), gradients->second);
    if (original->result_id() != 0) {
      const uint32_t id = context_->TakeNextId();
      clone->SetResultId(id);
      copies[original->result_id()] = id;
    }
    Instruction* added = clone.get();
    block->AddInstruction(std::move(clone));
    def_use->AnalyzeInstDefUse(added);
    context_->set_instr_block(added, block);
    if (added->result_id() != 0) {
      CopyDecorations(context_, original->result_id(), added->result_id(),
                      drop_non_uniform_.count(original) != 0);
    }
  };
  for (const Instruction* inst : outside_slice_) copy(inst);
  for (const Instruction* inst : region_) copy(inst);
  InstructionBuilder builder(context_, block, kPreserved);
  for (const Result& result : results_) {
    builder.AddStore(result.variable, copies.at(result.value->result_id()));
  }
  LocalizeSameBlockOps(context_, block, left_overs_);
}

void AccessRewriter::Finish() {
  InstructionBuilder builder(context_, &*merge_->begin(), kPreserved);
  for (const Result& result : results_) {
    // Names and decorations of the value move to the load with its uses.
    const Instruction* load = builder.AddLoad(result.value->type_id(), result.variable);
    context_->ReplaceAllUsesWith(result.value->result_id(), load->result_id());
  }
  for (auto inst = region_.rbegin(); inst != region_.rend(); ++inst) context_->KillInst(*inst);
  region_.clear();
  for (Instruction* inst : outside_slice_) left_overs_->Add(inst->result_id());
  LocalizeSameBlockOps(context_, merge_, left_overs_);
}

void AccessRewriter::InsertBlocks() {
  spvtools::opt::Function* function = merge_->GetParent();
  for (auto& block : new_blocks_) function->InsertBasicBlockBefore(std::move(block), merge_);
  new_blocks_.clear();
}

spvtools::opt::Pass::Status LowerAccesses(spvtools::opt::Pass& pass,
                                          const NonUniformPassOptions& options,
                                          const LoweringRequest& request, const char* action,
                                          const std::function<void()>& prepare,
                                          const std::function<void(AccessRewriter*)>& emit) {
  using Status = spvtools::opt::Pass::Status;
  spvtools::opt::IRContext* context = pass.context();
  auto fail = [&](const std::string& message) {
    spvtools::Error(pass.consumer(), nullptr, {0, 0, 0}, message.c_str());
    return Status::Failure;
  };
  Status status = Status::SuccessWithoutChange;
  const auto found = StartNonUniformPass(pass, options.uniformity, &status);
  if (found == nullptr) return status;

  // Everything to rewrite, decided before the first change.
  auto accesses = CollectAccesses(context, *found, request);
  if (!accesses.ok()) return fail(accesses.error().message);
  auto groups = GroupAccesses(context, *found, std::move(accesses).value(), pass.name());
  if (!groups.ok()) return fail(groups.error().message);
  if (groups->empty()) return Status::SuccessWithoutChange;

  prepare();
  LeftOvers left_overs;
  for (const AccessGroup& group : *groups) {
    AccessRewriter rewriter(context, group, &left_overs);
    rewriter.Prepare();
    for (const Access& access : group.members) {
      RecordChange(options.log, pass.name(), action, context, access.user,
                   LoweredArrays(context, access));
    }
    emit(&rewriter);
  }
  left_overs.RemoveDead(context);
  PruneNonUniformCapabilities(context, pass.name(), options.log);
  return Status::SuccessWithChange;
}

}  // namespace passes
}  // namespace spirv_conv
