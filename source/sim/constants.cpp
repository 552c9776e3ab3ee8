// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Constants, specialization constants (their default values: the simulator
// specializes nothing) and OpUndef (zero, so runs are deterministic). Each
// gets register slots that hold the same value in every lane.

#include "sim/decoder.h"
#include "sim/machine.h"
#include "sim/scalar.h"
#include "source/opcode.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace sim {

uint32_t Decoder::NewSlots(uint32_t id, uint32_t comps) {
  const uint32_t slot = program_.num_slots;
  program_.num_slots += comps;
  if (id < id_slot.size()) id_slot[id] = slot;
  return slot;
}

uint32_t Decoder::SlotOf(uint32_t id) const { return id < id_slot.size() ? id_slot[id] : kNone; }

uint32_t Decoder::TypeOfId(uint32_t id) const {
  const spvtools::opt::Instruction* def = context_.get_def_use_mgr()->GetDef(id);
  return def ? def->type_id() : 0;
}

uint64_t Decoder::ConstantValue(uint32_t id, bool* known) const {
  const auto* c = context_.get_constant_mgr()->FindDeclaredConstant(id);
  *known = c && (c->AsIntConstant() || c->AsNullConstant());
  return *known ? c->GetZeroExtendedValue() : 0;
}

Status Decoder::DecodeConstants() {
  std::vector<uint64_t> known;  // by slot
  for (const auto& inst : context_.module()->types_values()) {
    const spv::Op op = inst.opcode();
    const uint32_t id = inst.result_id();
    const TypeInfo& type = program_.types[inst.type_id()];
    auto in = [&](uint32_t i) { return inst.GetSingleWordInOperand(i); };
    std::vector<uint64_t> values;
    switch (op) {
      case spv::Op::OpConstantTrue:
      case spv::Op::OpSpecConstantTrue:
        values = {1};
        break;
      case spv::Op::OpConstantFalse:
      case spv::Op::OpSpecConstantFalse:
        values = {0};
        break;
      case spv::Op::OpConstant:
      case spv::Op::OpSpecConstant: {
        // A literal wider than 32 bits is one operand of two words, low word
        // first (there is no second in-operand to read).
        const auto& words = inst.GetInOperand(0).words;
        uint64_t bits = words[0];
        if (type.width > 32 && words.size() > 1) bits |= static_cast<uint64_t>(words[1]) << 32;
        values = {bits & WidthMask(type.width)};
        break;
      }
      case spv::Op::OpConstantComposite:
      case spv::Op::OpSpecConstantComposite:
        for (uint32_t i = 0; i < inst.NumInOperands(); ++i) {
          const uint32_t part = in(i);
          const uint32_t slot = SlotOf(part);
          const uint32_t comps = program_.types[TypeOfId(part)].comps;
          if (slot == kNone) return Unsupported("constant operand %" + std::to_string(part));
          for (uint32_t c = 0; c < comps; ++c) values.push_back(known[slot + c]);
        }
        break;
      case spv::Op::OpConstantNull:
      case spv::Op::OpUndef:
        values.assign(type.comps, 0);
        if (type.kind == TypeInfo::kPointer && program_.kernel) values = {kNullPointer};
        break;
      case spv::Op::OpSpecConstantOp: {
        const auto inner = static_cast<spv::Op>(in(0));
        if (inner != spv::Op::OpCompositeExtract || inst.NumInOperands() != 3) {
          return Unsupported("OpSpecConstantOp with Op" + std::string(spvOpcodeString(inner)));
        }
        // The one form glslang emits: an element of gl_WorkGroupSize.
        const uint32_t from = SlotOf(in(1));
        if (from == kNone) return Unsupported("OpSpecConstantOp operand");
        values = {known[from + in(2)]};
        break;
      }
      default:
        continue;
    }
    if (op == spv::Op::OpUndef && type.kind == TypeInfo::kPointer) {
      return Unsupported("OpUndef of a pointer type");
    }
    const uint32_t slot = NewSlots(id, static_cast<uint32_t>(values.size()));
    known.resize(program_.num_slots);
    for (size_t i = 0; i < values.size(); ++i) {
      program_.constants.push_back({static_cast<uint32_t>(slot + i), values[i]});
      known[slot + i] = values[i];
    }
    if (decorations.Has(id, uint32_t(spv::Decoration::BuiltIn)) && values.size() == 3) {
      uint32_t builtin = 0;
      decorations.Has(id, uint32_t(spv::Decoration::BuiltIn), &builtin);
      if (builtin == uint32_t(spv::BuiltIn::WorkgroupSize)) {
        for (int i = 0; i < 3; ++i) program_.local_size[i] = static_cast<uint32_t>(values[i]);
      }
    }
  }
  return Ok{};
}

}  // namespace sim
}  // namespace spirv_conv
