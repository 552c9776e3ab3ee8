// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Functions into blocks of pre-decoded instructions. Ids become register
// slots, labels block indices, OpPhi becomes moves on the edges into its
// block, and each block records its structured merge/continue targets and its
// immediate post-dominator: everything the tangle scheduler asks at run time.

#include <algorithm>
#include <unordered_map>

#include "sim/decoder.h"
#include "sim/ext_map.h"
#include "sim/opcodes.h"
#include "source/opcode.h"
#include "source/opt/ir_context.h"
#include "spirv/unified1/GLSL.std.450.h"
#include "spirv_conv/ir.h"

namespace spirv_conv {
namespace sim {
namespace {

using spvtools::opt::Instruction;

// Callers before callees, starting at the entry point (calls are acyclic).
std::vector<spvtools::opt::Function*> CallOrder(spvtools::opt::IRContext& context, uint32_t entry) {
  std::unordered_map<uint32_t, std::vector<uint32_t>> callees;
  std::unordered_map<uint32_t, int> callers;
  for (auto& f : *context.module()) {
    f.ForEachInst([&](Instruction* inst) {
      if (inst->opcode() != spv::Op::OpFunctionCall) return;
      const uint32_t callee = inst->GetSingleWordInOperand(0);
      callees[f.result_id()].push_back(callee);
      ++callers[callee];
    });
  }
  // Only functions reachable from the entry point, in Kahn's order.
  std::vector<uint32_t> reachable = {entry}, order;
  std::unordered_map<uint32_t, int> in_degree;
  for (size_t i = 0; i < reachable.size(); ++i) {
    for (uint32_t c : callees[reachable[i]]) {
      if (in_degree[c]++ == 0) reachable.push_back(c);
    }
  }
  std::vector<uint32_t> ready = {entry};
  while (!ready.empty()) {
    const uint32_t f = ready.back();
    ready.pop_back();
    order.push_back(f);
    for (uint32_t c : callees[f]) {
      if (--in_degree[c] == 0) ready.push_back(c);
    }
  }
  std::vector<spvtools::opt::Function*> functions;
  for (uint32_t id : order) functions.push_back(context.GetFunction(id));
  return functions;
}

}  // namespace

class FunctionDecoder {
 public:
  FunctionDecoder(Decoder& d, spvtools::opt::Function& f, Function& out,
                  const std::unordered_map<uint32_t, uint32_t>& function_index)
      : d_(d), f_(f), out_(out), function_index_(function_index) {}

  Status Run();

 private:
  Status DecodeInst(Instruction& inst, uint32_t block);
  uint32_t Slot(uint32_t id) const { return d_.SlotOf(id); }
  uint32_t Comps(uint32_t id) const { return d_.Type(d_.TypeOfId(id)).comps; }
  Error Fail(const std::string& what, uint32_t block) const;
  // The image an image instruction reads is one the simulator runs: 2D,
  // single-sampled, not arrayed, float texels.
  // |*aux|: the image's Dim, | kImageArrayed.
  Status CheckImageType(Instruction& inst, uint32_t block, uint32_t* aux) const;

  Decoder& d_;
  spvtools::opt::Function& f_;
  Function& out_;
  const std::unordered_map<uint32_t, uint32_t>& function_index_;
  std::unordered_map<uint32_t, uint32_t> block_index_;
};

Status FunctionDecoder::CheckImageType(Instruction& inst, uint32_t block, uint32_t* aux) const {
  auto* defs = d_.context().get_def_use_mgr();
  const Instruction* type = defs->GetDef(defs->GetDef(inst.GetSingleWordInOperand(0))->type_id());
  if (type->opcode() == spv::Op::OpTypeSampledImage) {
    type = defs->GetDef(type->GetSingleWordInOperand(0));
  }
  if (type->opcode() != spv::Op::OpTypeImage) return Fail("image operand", block);
  const auto dim = static_cast<spv::Dim>(type->GetSingleWordInOperand(1));
  if (dim != spv::Dim::Dim2D && dim != spv::Dim::Dim3D && dim != spv::Dim::Cube &&
      dim != spv::Dim::SubpassData) {
    static const char* kNames[] = {"1D", "2D", "3D", "Cube", "Rect", "Buffer", "SubpassData"};
    const uint32_t n = static_cast<uint32_t>(dim);
    return Fail(std::string("image dimension ") + (n < 7 ? kNames[n] : std::to_string(n)) +
                    " (2D, 3D, Cube and SubpassData only)",
                block);
  }
  const bool arrayed = type->GetSingleWordInOperand(3) != 0;
  if (arrayed && dim == spv::Dim::Dim3D) return Fail("arrayed 3D image", block);
  if (type->GetSingleWordInOperand(4) != 0) return Fail("multisampled image", block);
  if (d_.Type(type->GetSingleWordInOperand(0)).scalar == ScalarKind::kNone) {
    return Fail("image of void texels", block);
  }
  *aux = static_cast<uint32_t>(dim) | (arrayed ? kImageArrayed : 0);
  return Ok{};
}

Error FunctionDecoder::Fail(const std::string& what, uint32_t block) const {
  return d_.Unsupported(what + " in function " + out_.name + ", block %" +
                        std::to_string(out_.blocks[block].id));
}

Status FunctionDecoder::Run() {
  for (auto& block : f_) {
    block_index_[block.id()] = static_cast<uint32_t>(out_.blocks.size());
    Block b;
    b.id = block.id();
    out_.blocks.push_back(b);
  }
  // Every result gets its slots before any operand is decoded: phis and
  // branches name values defined further down.
  for (auto& block : f_) {
    for (auto& inst : block) {
      if (!inst.HasResultId() || !inst.type_id()) continue;
      d_.NewSlots(inst.result_id(), std::max<uint32_t>(1, d_.Type(inst.type_id()).comps));
    }
  }
  auto* pdom = d_.context().GetPostDominatorAnalysis(&f_);
  struct PendingMove {
    uint32_t pred, succ;
    PhiMove move;
  };
  std::vector<PendingMove> pending;
  for (auto& block : f_) {
    const uint32_t index = block_index_[block.id()];
    Block& b = out_.blocks[index];
    if (auto* ipdom = pdom->ImmediateDominator(&block)) {
      auto it = block_index_.find(ipdom->id());
      if (it != block_index_.end()) b.ipdom = it->second;
    }
    b.first = static_cast<uint32_t>(out_.insts.size());
    for (auto& inst : block) {
      switch (inst.opcode()) {
        case spv::Op::OpPhi:
          for (uint32_t i = 0; i + 1 < inst.NumInOperands(); i += 2) {
            const uint32_t value = inst.GetSingleWordInOperand(i);
            const uint32_t pred = block_index_[inst.GetSingleWordInOperand(i + 1)];
            pending.push_back({pred, index, {Slot(inst.result_id()), Slot(value), Comps(value)}});
            if (d_.Type(inst.type_id()).kind == TypeInfo::kPointer) {
              d_.id_layout[inst.result_id()] = d_.id_layout[value];
            }
          }
          continue;
        case spv::Op::OpSelectionMerge:
          b.merge = block_index_[inst.GetSingleWordInOperand(0)];
          continue;
        case spv::Op::OpLoopMerge:
          b.merge = block_index_[inst.GetSingleWordInOperand(0)];
          b.continue_target = block_index_[inst.GetSingleWordInOperand(1)];
          b.loop_header = true;
          continue;
        case spv::Op::OpLine:
        case spv::Op::OpNoLine:
          continue;
        default:
          break;
      }
      Status decoded = DecodeInst(inst, index);
      if (!decoded) return decoded;
    }
    out_.blocks[index].end = static_cast<uint32_t>(out_.insts.size());
  }
  // Phi moves, grouped by edge.
  std::stable_sort(pending.begin(), pending.end(), [](const PendingMove& a, const PendingMove& b) {
    return std::make_pair(a.pred, a.succ) < std::make_pair(b.pred, b.succ);
  });
  for (size_t i = 0; i < pending.size();) {
    Edge e;
    e.successor = pending[i].succ;
    e.moves_begin = static_cast<uint32_t>(out_.moves.size());
    const uint32_t pred = pending[i].pred;
    for (; i < pending.size() && pending[i].pred == pred && pending[i].succ == e.successor; ++i) {
      out_.moves.push_back(pending[i].move);
    }
    e.moves_end = static_cast<uint32_t>(out_.moves.size());
    out_.blocks[pred].edges.push_back(e);
  }
  return Ok{};
}

Status FunctionDecoder::DecodeInst(Instruction& inst, uint32_t block) {
  Inst d;
  const spv::Op op = inst.opcode();
  d.opcode = static_cast<uint16_t>(op);
  d.family = FamilyOf(op);
  d.id = inst.result_id();
  if (inst.HasResultId() && inst.type_id()) {
    const TypeInfo& t = d_.Type(inst.type_id());
    d.result = Slot(d.id);
    d.comps = t.comps;
    d.kind = t.scalar;
    d.width = t.width;
  }
  d.ops = static_cast<uint32_t>(out_.operands.size());
  bool first_value = true;
  for (uint32_t i = 0; i < inst.NumInOperands(); ++i) {
    const auto& operand = inst.GetInOperand(i);
    uint32_t word = operand.words[0];
    if (spvIsIdType(operand.type)) {
      if (operand.type == SPV_OPERAND_TYPE_ID && block_index_.count(word)) {
        word = block_index_[word];
      } else if (Slot(word) != kNone) {
        if (first_value) {
          const TypeInfo& t = d_.Type(d_.TypeOfId(word));
          d.op_kind = t.scalar;
          d.op_width = t.width;
          first_value = false;
        }
        word = Slot(word);
      }
    }
    out_.operands.push_back(word);
    // 64-bit switch literals.
    for (size_t w = 1; w < operand.words.size(); ++w) out_.operands.push_back(operand.words[w]);
  }
  d.num_ops = static_cast<uint16_t>(out_.operands.size() - d.ops);
  auto& ops = out_.operands;
  auto in = [&](uint32_t i) { return inst.GetSingleWordInOperand(i); };
  const bool kernel = d_.program().kernel;
  if (kernel &&
      ((op == spv::Op::OpBitcast &&
        (d.kind == ScalarKind::kPointer || d.op_kind == ScalarKind::kPointer)) ||
       (op == spv::Op::OpLoad && d.kind == ScalarKind::kPointer) ||
       (op == spv::Op::OpStore && d_.Type(d_.TypeOfId(in(1))).kind == TypeInfo::kPointer))) {
    d.family = Family::kPointer;  // pointer bitcasts, pointers in memory (as addresses)
  }
  switch (d.family) {
    case Family::kArith:
      if (op == spv::Op::OpSelect) ops.push_back(Comps(in(0)));
      break;
    case Family::kConvert:
      ops.push_back(Comps(in(0)));
      break;
    case Family::kComposite:
      if (op == spv::Op::OpCompositeExtract || op == spv::Op::OpCompositeInsert) {
        // aux: the first flattened component the indices select.
        const uint32_t composite = op == spv::Op::OpCompositeExtract ? 0 : 1;
        uint32_t type = d_.TypeOfId(in(composite)), offset = 0;
        for (uint32_t i = composite + 1; i < inst.NumInOperands(); ++i) {
          const TypeInfo& t = d_.Type(type);
          if (t.kind == TypeInfo::kStruct) {
            offset += t.member_first[in(i)];
            type = t.members[in(i)];
          } else {
            offset += in(i)*d_.Type(t.element).comps;
            type = t.element;
          }
        }
        d.aux = offset;
        if (op == spv::Op::OpCompositeInsert) ops.push_back(Comps(in(0)));
      } else if (op == spv::Op::OpCompositeConstruct) {
        for (uint32_t i = 0; i < inst.NumInOperands(); ++i) ops.push_back(Comps(in(i)));
      } else if (op == spv::Op::OpVectorShuffle) {
        ops.push_back(Comps(in(0)));
      } else if (op == spv::Op::OpVectorExtractDynamic) {
        ops.push_back(Comps(in(0)));
      } else if (op == spv::Op::OpTranspose) {
        d.aux = d_.Type(d_.TypeOfId(in(0))).length;  // columns of the operand
      }
      break;
    case Family::kMatrix:
      // Operand component counts, after the slots.
      for (uint32_t i = 0; i < inst.NumInOperands(); ++i) ops.push_back(Comps(in(i)));
      if (op == spv::Op::OpMatrixTimesVector || op == spv::Op::OpMatrixTimesMatrix ||
          op == spv::Op::OpVectorTimesMatrix || op == spv::Op::OpOuterProduct) {
        const TypeInfo& m = d_.Type(d_.TypeOfId(in(op == spv::Op::OpVectorTimesMatrix ? 1 : 0)));
        d.aux = m.kind == TypeInfo::kMatrix ? d_.Type(m.element).length : m.comps;  // rows
      }
      break;
    case Family::kVariable: {
      const TypeInfo& pointer = d_.Type(inst.type_id());
      d.aux = d_.LayoutOf(pointer.pointee);
      d_.id_layout[d.id] = d.aux;
      const uint32_t offset = d_.program().invocation_bytes;
      d_.program().invocation_bytes += (d_.program().layouts[d.aux].size + 7) & ~7u;
      ops.resize(d.ops);
      ops.push_back(offset);
      ops.push_back(inst.NumInOperands() > 1 ? Slot(in(1)) : kNone);
      d.num_ops = 2;
      break;
    }
    case Family::kAccessChain: {
      Status chained = d_.DecodeAccessChain(inst, &out_.operands, &d);
      if (!chained) return Fail(chained.error().message, block);
      break;
    }
    case Family::kLoad:
    case Family::kStore:
    case Family::kAtomic:
      d.aux = d_.PointerLayout(in(0));
      if (d.aux == kNone) return Fail("pointer %" + std::to_string(in(0)), block);
      if (op == spv::Op::OpLoad && d.kind == ScalarKind::kPointer) {
        return Fail("load of a pointer (variable pointers)", block);
      }
      // Image and sampler descriptors hold handles; nothing else opaque is in memory.
      if (op == spv::Op::OpLoad && d_.Type(inst.type_id()).kind == TypeInfo::kOpaque &&
          (d_.Type(inst.type_id()).comps != 1 || kernel)) {
        return Fail("load of an opaque value other than an image or sampler", block);
      }
      if (d_.HoldsPointer(op == spv::Op::OpStore ? d_.TypeOfId(in(1)) : inst.type_id())) {
        return Fail("load or store of a struct or array holding pointers", block);
      }
      if (op == spv::Op::OpAtomicStore) {
        const TypeInfo& t = d_.Type(d_.TypeOfId(in(3)));
        d.kind = t.scalar;
        d.width = t.width;
      }
      break;
    case Family::kCopyMemory:
      d.aux = d_.PointerLayout(in(0));
      ops.push_back(d_.PointerLayout(in(1)));
      if (op == spv::Op::OpCopyMemorySized) ops.push_back(d_.Type(d_.TypeOfId(in(2))).width);
      break;
    case Family::kArrayLength:
      d.aux = d_.PointerLayout(in(0));
      break;
    case Family::kPointer: {
      const TypeInfo& t = d_.Type(inst.type_id());
      if (op == spv::Op::OpPtrDiff) d.aux = d_.program().layouts[d_.PointerLayout(in(0))].size;
      if (t.kind == TypeInfo::kPointer) {
        d.aux = t.storage_class;  // generic casts: the storage class it must point to
        d_.id_layout[d.id] = d_.LayoutOf(t.pointee);
      }
      break;
    }
    case Family::kCall: {
      auto it = function_index_.find(in(0));
      d.aux = it->second;
      Function& callee = d_.program().functions[d.aux];
      for (uint32_t i = 1; i < inst.NumInOperands(); ++i) {
        // A pointer parameter takes the layout of what callers pass.
        auto* def = d_.context().get_def_use_mgr()->GetDef(in(i));
        if (d_.Type(def->type_id()).kind == TypeInfo::kPointer) {
          auto& param_layout = d_.id_layout[callee.param_ids[i - 1]];
          const uint32_t arg_layout = d_.PointerLayout(in(i));
          if (param_layout != kNone && param_layout != arg_layout) {
            return Fail("pointer arguments of different layouts to one parameter", block);
          }
          param_layout = arg_layout;
        }
      }
      break;
    }
    case Family::kGlsl: {
      // Ldexp's exponent may be a 64-bit integer: its component width, after
      // the first argument's component count (glsl_std450.cpp).
      auto ldexp_exponent_width = [&] {
        if ((d.aux & kExtOpMask) == GLSLstd450Ldexp && inst.NumInOperands() > 3) {
          ops.push_back(d_.Type(d_.TypeOfId(in(3))).width);
        }
      };
      if (in(0) == d_.opencl_import && in(0)) {
        d.aux = in(1);
        d.family = OpenClFamily(&d.aux);
        for (uint32_t i = 2; i < inst.NumInOperands() && i < 2 + 8; ++i) {
          if (d.comps > 1 && Comps(in(i)) == 1) d.aux |= 1u << (kScalarArgShift + i - 2);
        }
        d.ops += 2;
        d.num_ops -= 2;
        if (inst.NumInOperands() > 2) ops.push_back(Comps(in(2)));
        ldexp_exponent_width();
        // Then per argument (ext_map.h, ArgInfo): a pointer's pointee layout, a
        // value's component width, 0 for a literal (vloadn's n, a rounding mode).
        for (uint32_t i = 2; d.family == Family::kOpenCL && i < inst.NumInOperands(); ++i) {
          const TypeInfo& t =
              d_.Type(inst.GetInOperand(i).type == SPV_OPERAND_TYPE_ID ? d_.TypeOfId(in(i)) : 0);
          ops.push_back(t.kind == TypeInfo::kPointer ? d_.PointerLayout(in(i)) : t.width);
        }
        break;
      }
      if (in(0) != d_.glsl_import) {
        if (d.kind == ScalarKind::kNone) {
          d.family = Family::kNop;  // NonSemantic debug info and the like
          break;
        }
        return Fail("extended instruction set", block);
      }
      d.aux = in(1);
      // Operands: the arguments' slots; first value operand is the first argument.
      d.ops += 2;
      d.num_ops -= 2;
      if (inst.NumInOperands() > 2) ops.push_back(Comps(in(2)));
      ldexp_exponent_width();
      if (d.aux == GLSLstd450Modf || d.aux == GLSLstd450Frexp) {
        ops.push_back(d_.id_layout[in(3)]);  // where the second result is stored
      }
      if (d.aux == GLSLstd450Frexp || d.aux == GLSLstd450FrexpStruct) {
        const TypeInfo& t = d_.Type(inst.type_id());  // the exponent's width
        ops.push_back(d.aux == GLSLstd450Frexp ? d_.Type(d_.Type(d_.TypeOfId(in(3))).pointee).width
                                               : d_.Type(t.members[1]).width);
      }
      break;
    }
    case Family::kImage: {
      Status checked = CheckImageType(inst, block, &d.aux);
      if (!checked) return checked;
      if (op == spv::Op::OpImageWrite) {
        ops.push_back(Comps(in(2)));  // the texel's components, then the coordinate's
        ops.push_back(Comps(in(1)));
      } else if (op == spv::Op::OpImageSampleDrefImplicitLod ||
                 op == spv::Op::OpImageSampleDrefExplicitLod ||
                 op == spv::Op::OpImageSampleProjDrefImplicitLod ||
                 op == spv::Op::OpImageSampleProjDrefExplicitLod) {
        ops.push_back(Comps(in(1)));
        d.aux |= kImageDref;
      } else if (op != spv::Op::OpSampledImage && op != spv::Op::OpImage &&
                 op != spv::Op::OpImageQuerySize && op != spv::Op::OpImageQuerySizeLod &&
                 op != spv::Op::OpImageQueryLevels) {
        ops.push_back(Comps(in(1)));  // the coordinate's components
      }
      break;
    }
    case Family::kFragment:
      if (!d_.program().fragment) {
        return Fail("Op" + std::string(spvOpcodeString(op)) + " outside a Fragment entry point",
                    block);
      }
      if (d.kind == ScalarKind::kFloat && d.width != 32) {
        return Fail("derivative of " + std::to_string(d.width) + "-bit floats", block);
      }
      break;
    case Family::kBarrier: {
      bool known = false;
      d.aux = static_cast<uint32_t>(d_.ConstantValue(in(0), &known));
      if (!known) return Fail("OpControlBarrier with a non-constant scope", block);
      break;
    }
    case Family::kSubgroup: {
      bool known = false;
      const auto scope = static_cast<uint32_t>(d_.ConstantValue(in(0), &known));
      // Instructions without an Execution scope operand.
      const bool khr =
          op == spv::Op::OpSubgroupBallotKHR || op == spv::Op::OpSubgroupFirstInvocationKHR ||
          op == spv::Op::OpSubgroupAllKHR || op == spv::Op::OpSubgroupAnyKHR ||
          op == spv::Op::OpSubgroupAllEqualKHR || op == spv::Op::OpSubgroupReadInvocationKHR ||
          op == kOpGroupNonUniformQuadAllKHR || op == kOpGroupNonUniformQuadAnyKHR;
      if (!khr && (!known || scope != uint32_t(spv::Scope::Subgroup))) {
        return Fail("Op" + std::string(spvOpcodeString(op)) + " with a scope other than Subgroup",
                    block);
      }
      // The value operand's kind and width: after the scope and the group operation.
      uint32_t value = khr ? 0 : 1;
      for (uint32_t i = 0; i < inst.NumInOperands(); ++i) {
        if (inst.GetInOperand(i).type == SPV_OPERAND_TYPE_GROUP_OPERATION) ++value;
      }
      if (value < inst.NumInOperands()) {
        const TypeInfo& t = d_.Type(d_.TypeOfId(in(value)));
        d.op_kind = t.scalar;
        d.op_width = t.width;
        ops.push_back(t.comps);
      } else {
        ops.push_back(0);
      }
      break;
    }
    default:
      break;
  }
  if (d.kind == ScalarKind::kPointer && d.family != Family::kAccessChain &&
      d.family != Family::kVariable && d.family != Family::kCall && d.family != Family::kPointer) {
    // OpCopyObject, OpSelect, OpPhi of pointers keep the layout of their operand.
    for (uint32_t i = 0; i < inst.NumInOperands(); ++i) {
      if (inst.GetInOperand(i).type == SPV_OPERAND_TYPE_ID && d_.id_layout[in(i)] != kNone) {
        d_.id_layout[d.id] = d_.id_layout[in(i)];
      }
    }
  }
  out_.insts.push_back(d);
  return Ok{};
}

Status Decoder::DecodeFunctions(uint32_t entry_function) {
  std::unordered_map<uint32_t, uint32_t> function_index;
  std::vector<spvtools::opt::Function*> order = CallOrder(context_, entry_function);
  for (auto* f : order) {
    function_index[f->result_id()] = static_cast<uint32_t>(program_.functions.size());
    Function out;
    out.id = f->result_id();
    out.name = OpNameOf(context_, out.id);
    if (out.name.empty()) out.name = "%" + std::to_string(out.id);
    if (f->begin() == f->end()) {
      return Unsupported("call to function " + out.name + " without a body (a Linkage import)");
    }
    f->ForEachParam([&](Instruction* param) {
      const TypeInfo& t = Type(param->type_id());
      out.param_ids.push_back(param->result_id());
      out.params.push_back(NewSlots(param->result_id(), std::max<uint32_t>(1, t.comps)));
      out.param_comps.push_back(std::max<uint32_t>(1, t.comps));
    });
    program_.functions.push_back(std::move(out));
  }
  for (size_t i = 0; i < order.size(); ++i) {
    Function& out = program_.functions[i];
    FunctionDecoder decoder(*this, *order[i], out, function_index);
    Status decoded = decoder.Run();
    if (!decoded) return decoded;
    out.stats_base = program_.num_blocks;
    program_.num_blocks += static_cast<uint32_t>(out.blocks.size());
  }
  return Ok{};
}

}  // namespace sim
}  // namespace spirv_conv
