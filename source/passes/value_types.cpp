// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/value_types.h"

namespace spirv_conv {
namespace passes {

spv::Op TypeOpcode(spvtools::opt::IRContext* context, uint32_t type_id) {
  const spvtools::opt::Instruction* def = context->get_def_use_mgr()->GetDef(type_id);
  return def == nullptr ? spv::Op::OpNop : def->opcode();
}

bool IsPointerOrOpaqueType(spvtools::opt::IRContext* context, uint32_t type_id) {
  switch (TypeOpcode(context, type_id)) {
    case spv::Op::OpTypePointer:
    case spv::Op::OpTypeImage:
    case spv::Op::OpTypeSampler:
    case spv::Op::OpTypeSampledImage:
    case spv::Op::OpTypeAccelerationStructureKHR:
    case spv::Op::OpTypeRayQueryKHR:
    case spv::Op::OpTypeEvent:
    case spv::Op::OpTypeDeviceEvent:
    case spv::Op::OpTypeReserveId:
    case spv::Op::OpTypeQueue:
    case spv::Op::OpTypePipe:
      return true;
    default:
      return false;
  }
}

}  // namespace passes
}  // namespace spirv_conv
