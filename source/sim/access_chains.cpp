// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Access chains into their run-time form: OpAccessChain, OpInBoundsAccessChain
// and (Kernel modules) OpPtrAccessChain, OpInBoundsPtrAccessChain become a base
// pointer and steps of constant offsets, checked or unchecked dynamic indices
// and descriptor indices, executed by exec_memory.cpp.

#include <algorithm>

#include "sim/decoder.h"
#include "source/opt/ir_context.h"

namespace spirv_conv {
namespace sim {

// ops: base slot, step count, then 4 words a step: kind | index width << 8, a, b, c.
// Kinds: 0 constant byte offset a; 1 index in slot a times stride b, below length
// c (0: unchecked, a runtime array); 2 descriptor index in slot a below count c;
// 3 OpPtrAccessChain's element: signed index in slot a times stride b, unchecked.
Status Decoder::DecodeAccessChain(spvtools::opt::Instruction& inst, std::vector<uint32_t>* operands,
                                  Inst* out) {
  auto& ops = *operands;
  ops.resize(out->ops);
  const uint32_t base = inst.GetSingleWordInOperand(0);
  uint32_t layout = PointerLayout(base);
  if (layout == kNone) return Unsupported("access chain base %" + std::to_string(base));
  ops.push_back(SlotOf(base));
  ops.push_back(0);
  const size_t count_at = ops.size() - 1;
  auto push = [&](uint32_t kind, uint32_t a, uint32_t b, uint32_t c) {
    if (kind == 0 && ops.size() > count_at + 1 && ops[ops.size() - 4] == 0) {
      ops[ops.size() - 3] += a;  // fold into the previous constant step
      return;
    }
    ops.insert(ops.end(), {kind, a, b, c});
    ++ops[count_at];
  };
  uint32_t first = 1;
  if (inst.opcode() == spv::Op::OpPtrAccessChain ||
      inst.opcode() == spv::Op::OpInBoundsPtrAccessChain) {
    // Element: the base points into an array of its pointee, unchecked (kind 3).
    const uint32_t element = inst.GetSingleWordInOperand(1);
    uint32_t stride = program_.layouts[layout].size;
    decorations.Has(TypeOfId(base), uint32_t(spv::Decoration::ArrayStride), &stride);
    push(3 | Type(TypeOfId(element)).width << 8, SlotOf(element), stride, 0);
    first = 2;
  }
  for (uint32_t i = first; i < inst.NumInOperands(); ++i) {
    const uint32_t index = inst.GetSingleWordInOperand(i);
    bool known = false;
    const uint64_t value = ConstantValue(index, &known);  // 64-bit indices too
    const uint32_t width = Type(TypeOfId(index)).width;
    const Layout& l = program_.layouts[layout];
    if (l.descriptors) {
      push(2 | width << 8, SlotOf(index), 0, l.descriptors);
      layout = l.element;
    } else if (!l.member_layout.empty()) {
      if (!known || value >= l.member_layout.size()) return Unsupported("struct index");
      push(0, l.member_offset[value], 0, 0);
      layout = l.member_layout[value];
    } else if (l.element != kNone) {
      const uint32_t length = l.runtime ? 0 : l.length;
      // A constant index folds into the offset only when it is in bounds (a
      // runtime array: when the offset fits); others are checked at run time.
      const bool fits = value < (1ull << 31) / std::max(1u, l.stride);
      if (known && fits && (l.runtime || value < length)) {
        push(0, static_cast<uint32_t>(value) * l.stride, 0, 0);
      } else {
        push(1 | width << 8, SlotOf(index), l.stride, length);
      }
      layout = l.element;
    } else {
      return Unsupported("access chain into a scalar");
    }
  }
  out->num_ops = static_cast<uint16_t>(ops.size() - out->ops);
  id_layout[inst.result_id()] = layout;
  return Ok{};
}

}  // namespace sim
}  // namespace spirv_conv
