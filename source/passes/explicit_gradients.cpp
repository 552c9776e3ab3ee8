// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "passes/explicit_gradients.h"

#include <utility>
#include <vector>

#include "source/opt/type_manager.h"

namespace spirv_conv {
namespace passes {

using spvtools::opt::Instruction;
using spvtools::opt::InstructionBuilder;
using spvtools::opt::IRContext;
using spvtools::opt::Operand;

namespace {

constexpr uint32_t kGlslExp2 = 29;  // GLSL.std.450 Exp2

spv::Op ExplicitForm(spv::Op op) {
  switch (op) {
    case spv::Op::OpImageSampleImplicitLod:
      return spv::Op::OpImageSampleExplicitLod;
    case spv::Op::OpImageSampleDrefImplicitLod:
      return spv::Op::OpImageSampleDrefExplicitLod;
    case spv::Op::OpImageSampleProjImplicitLod:
      return spv::Op::OpImageSampleProjExplicitLod;
    case spv::Op::OpImageSampleProjDrefImplicitLod:
      return spv::Op::OpImageSampleProjDrefExplicitLod;
    case spv::Op::OpImageSparseSampleImplicitLod:
      return spv::Op::OpImageSparseSampleExplicitLod;
    case spv::Op::OpImageSparseSampleDrefImplicitLod:
      return spv::Op::OpImageSparseSampleDrefExplicitLod;
    case spv::Op::OpImageSparseSampleProjImplicitLod:
      return spv::Op::OpImageSparseSampleProjExplicitLod;
    case spv::Op::OpImageSparseSampleProjDrefImplicitLod:
      return spv::Op::OpImageSparseSampleProjDrefExplicitLod;
    default:
      return spv::Op::OpNop;
  }
}

bool IsProjective(spv::Op op) {
  return op == spv::Op::OpImageSampleProjImplicitLod ||
         op == spv::Op::OpImageSampleProjDrefImplicitLod ||
         op == spv::Op::OpImageSparseSampleProjImplicitLod ||
         op == spv::Op::OpImageSparseSampleProjDrefImplicitLod;
}

bool HasDref(spv::Op op) {
  return op == spv::Op::OpImageSampleDrefImplicitLod ||
         op == spv::Op::OpImageSampleProjDrefImplicitLod ||
         op == spv::Op::OpImageSparseSampleDrefImplicitLod ||
         op == spv::Op::OpImageSparseSampleProjDrefImplicitLod;
}

// The in-operand of the image operands mask.
uint32_t MaskOperand(spv::Op op) { return HasDref(op) ? 3 : 2; }

// The number of coordinates a gradient has for the image of |sample|:
// 1 (1D), 2 (2D, Rect), 3 (3D, Cube); 0 when the image is not sampled.
uint32_t GradientComponents(IRContext* context, const Instruction& sample) {
  auto* def_use = context->get_def_use_mgr();
  const Instruction* sampled_image = def_use->GetDef(sample.GetSingleWordInOperand(0));
  const Instruction* type = sampled_image ? def_use->GetDef(sampled_image->type_id()) : nullptr;
  if (type == nullptr || type->opcode() != spv::Op::OpTypeSampledImage) return 0;
  const Instruction* image = def_use->GetDef(type->GetSingleWordInOperand(0));
  if (image == nullptr || image->opcode() != spv::Op::OpTypeImage) return 0;
  switch (static_cast<spv::Dim>(image->GetSingleWordInOperand(1))) {
    case spv::Dim::Dim1D:
      return 1;
    case spv::Dim::Dim2D:
    case spv::Dim::Rect:
      return 2;
    case spv::Dim::Dim3D:
    case spv::Dim::Cube:
      return 3;
    default:
      return 0;
  }
}

// The coordinate's component type and count.
struct Coordinate {
  uint32_t id = 0;
  uint32_t component_type = 0;
  uint32_t count = 0;
};

Coordinate CoordinateOf(IRContext* context, const Instruction& sample) {
  auto* def_use = context->get_def_use_mgr();
  Coordinate coordinate;
  coordinate.id = sample.GetSingleWordInOperand(1);
  const Instruction* type = def_use->GetDef(def_use->GetDef(coordinate.id)->type_id());
  if (type->opcode() == spv::Op::OpTypeVector) {
    coordinate.component_type = type->GetSingleWordInOperand(0);
    coordinate.count = type->GetSingleWordInOperand(1);
  } else {
    coordinate.component_type = type->result_id();
    coordinate.count = 1;
  }
  return coordinate;
}

bool IsFloat32(IRContext* context, uint32_t type_id) {
  const Instruction* type = context->get_def_use_mgr()->GetDef(type_id);
  return type != nullptr && type->opcode() == spv::Op::OpTypeFloat &&
         type->GetSingleWordInOperand(0) == 32;
}

uint32_t VectorType(IRContext* context, uint32_t component_type, uint32_t count) {
  if (count == 1) return component_type;
  auto* types = context->get_type_mgr();
  spvtools::opt::analysis::Vector vector(types->GetType(component_type), count);
  return types->GetTypeInstruction(&vector);
}

// Components [0, count) of |coordinate|.
uint32_t Prefix(IRContext* context, const Coordinate& coordinate, uint32_t count,
                InstructionBuilder* builder) {
  if (count == coordinate.count) return coordinate.id;
  if (count == 1) {
    return builder->AddCompositeExtract(coordinate.component_type, coordinate.id, {0})->result_id();
  }
  std::vector<uint32_t> components;
  for (uint32_t c = 0; c < count; ++c) components.push_back(c);
  return builder
      ->AddVectorShuffle(VectorType(context, coordinate.component_type, count), coordinate.id,
                         coordinate.id, components)
      ->result_id();
}

uint32_t Glsl450(IRContext* context) {
  uint32_t id = context->get_feature_mgr()->GetExtInstImportId_GLSLstd450();
  if (id == 0) {
    context->AddExtInstImport("GLSL.std.450");
    id = context->get_feature_mgr()->GetExtInstImportId_GLSLstd450();
  }
  return id;
}

}  // namespace

bool HasExplicitGradientForm(spv::Op op) { return ExplicitForm(op) != spv::Op::OpNop; }

std::string GradientProblem(IRContext* context, const Instruction& sample) {
  const uint32_t components = GradientComponents(context, sample);
  if (components == 0) return "its image is not a sampled 1D, 2D, 3D, Cube or Rect image";
  const Coordinate coordinate = CoordinateOf(context, sample);
  if (!IsFloat32(context, coordinate.component_type)) {
    return "its coordinate is not a 32-bit float vector (OpDPdx takes only those)";
  }
  const uint32_t needed = components + (IsProjective(sample.opcode()) ? 1 : 0);
  if (coordinate.count < needed) return "its coordinate has fewer components than the image";
  return "";
}

Gradients EmitGradients(IRContext* context, const Instruction& sample,
                        InstructionBuilder* builder) {
  const spv::Op op = sample.opcode();
  const uint32_t components = GradientComponents(context, sample);
  const Coordinate coordinate = CoordinateOf(context, sample);
  const uint32_t type = VectorType(context, coordinate.component_type, components);

  uint32_t point = Prefix(context, coordinate, components, builder);
  if (IsProjective(op)) {
    // The projected coordinate (u/q, v/q, ...): q follows the used components.
    const uint32_t q =
        builder->AddCompositeExtract(coordinate.component_type, coordinate.id, {components})
            ->result_id();
    uint32_t divisor = q;
    if (components > 1) {
      divisor =
          builder->AddCompositeConstruct(type, std::vector<uint32_t>(components, q))->result_id();
    }
    point = builder->AddBinaryOp(type, spv::Op::OpFDiv, point, divisor)->result_id();
  }
  Gradients gradients;
  gradients.dx = builder->AddUnaryOp(type, spv::Op::OpDPdx, point)->result_id();
  gradients.dy = builder->AddUnaryOp(type, spv::Op::OpDPdy, point)->result_id();

  const uint32_t mask_operand = MaskOperand(op);
  if (sample.NumInOperands() > mask_operand &&
      (sample.GetSingleWordInOperand(mask_operand) &
       static_cast<uint32_t>(spv::ImageOperandsMask::Bias)) != 0) {
    // Bias is the first operand after the mask (lowest bit first).
    const uint32_t bias = sample.GetSingleWordInOperand(mask_operand + 1);
    const uint32_t bias_type = context->get_def_use_mgr()->GetDef(bias)->type_id();
    const uint32_t scale =
        builder->AddNaryExtendedInstruction(bias_type, Glsl450(context), kGlslExp2, {bias})
            ->result_id();
    const spv::Op multiply = components == 1 ? spv::Op::OpFMul : spv::Op::OpVectorTimesScalar;
    gradients.dx = builder->AddBinaryOp(type, multiply, gradients.dx, scale)->result_id();
    gradients.dy = builder->AddBinaryOp(type, multiply, gradients.dy, scale)->result_id();
  }
  return gradients;
}

void UseExplicitGradients(Instruction* sample, const Gradients& gradients) {
  const spv::Op op = sample->opcode();
  const uint32_t mask_operand = MaskOperand(op);
  const uint32_t bias_bit = static_cast<uint32_t>(spv::ImageOperandsMask::Bias);
  const uint32_t grad_bit = static_cast<uint32_t>(spv::ImageOperandsMask::Grad);

  Instruction::OperandList operands;
  for (uint32_t i = 0; i < mask_operand; ++i) operands.push_back(sample->GetInOperand(i));
  uint32_t mask = 0;
  uint32_t rest = sample->NumInOperands();
  if (sample->NumInOperands() > mask_operand) {
    mask = sample->GetSingleWordInOperand(mask_operand);
    rest = mask_operand + 1 + ((mask & bias_bit) != 0 ? 1 : 0);  // Bias lives in the gradients
  }
  operands.push_back(Operand(SPV_OPERAND_TYPE_OPTIONAL_IMAGE, {(mask & ~bias_bit) | grad_bit}));
  // Grad's operands come before every operand of a higher bit (only Bias and
  // Lod, which an implicit sample cannot have, are lower).
  operands.push_back(Operand(SPV_OPERAND_TYPE_ID, {gradients.dx}));
  operands.push_back(Operand(SPV_OPERAND_TYPE_ID, {gradients.dy}));
  for (uint32_t i = rest; i < sample->NumInOperands(); ++i) {
    operands.push_back(sample->GetInOperand(i));
  }
  sample->SetOpcode(ExplicitForm(op));
  sample->SetInOperands(std::move(operands));
}

}  // namespace passes
}  // namespace spirv_conv
