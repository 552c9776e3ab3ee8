// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "analysis/uniformity_sources.h"

#include <algorithm>
#include <set>

#include "analysis/convergence_classes.h"

namespace spirv_conv {
namespace analysis {
namespace {

using spv::Op;
constexpr Uniformity kU = Uniformity::kUniform;
constexpr Uniformity kS = Uniformity::kSubgroup;
constexpr Uniformity kQ = Uniformity::kQuad;
constexpr Uniformity kD = Uniformity::kDivergent;

InstructionRule Follow() { return {Rule::kFollow, kU, ""}; }
InstructionRule Fixed(Uniformity level, const char* note) { return {Rule::kFixed, level, note}; }
InstructionRule Collective(Uniformity level, const char* note) {
  return {Rule::kCollective, level, note};
}

bool IsPureOpcode(Op op) {
  switch (op) {
    case Op::OpCopyObject:
    case Op::OpCopyLogical:
    case Op::OpSNegate:
    case Op::OpFNegate:
    case Op::OpIAdd:
    case Op::OpFAdd:
    case Op::OpISub:
    case Op::OpFSub:
    case Op::OpIMul:
    case Op::OpFMul:
    case Op::OpUDiv:
    case Op::OpSDiv:
    case Op::OpFDiv:
    case Op::OpUMod:
    case Op::OpSRem:
    case Op::OpSMod:
    case Op::OpFRem:
    case Op::OpFMod:
    case Op::OpVectorTimesScalar:
    case Op::OpMatrixTimesScalar:
    case Op::OpVectorTimesMatrix:
    case Op::OpMatrixTimesVector:
    case Op::OpMatrixTimesMatrix:
    case Op::OpOuterProduct:
    case Op::OpDot:
    case Op::OpIAddCarry:
    case Op::OpISubBorrow:
    case Op::OpUMulExtended:
    case Op::OpSMulExtended:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpShiftLeftLogical:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpBitwiseAnd:
    case Op::OpNot:
    case Op::OpBitFieldInsert:
    case Op::OpBitFieldSExtract:
    case Op::OpBitFieldUExtract:
    case Op::OpBitReverse:
    case Op::OpBitCount:
    case Op::OpAny:
    case Op::OpAll:
    case Op::OpIsNan:
    case Op::OpIsInf:
    case Op::OpIsFinite:
    case Op::OpIsNormal:
    case Op::OpSignBitSet:
    case Op::OpLessOrGreater:
    case Op::OpOrdered:
    case Op::OpUnordered:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
    case Op::OpLogicalOr:
    case Op::OpLogicalAnd:
    case Op::OpLogicalNot:
    case Op::OpSelect:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpUGreaterThan:
    case Op::OpSGreaterThan:
    case Op::OpUGreaterThanEqual:
    case Op::OpSGreaterThanEqual:
    case Op::OpULessThan:
    case Op::OpSLessThan:
    case Op::OpULessThanEqual:
    case Op::OpSLessThanEqual:
    case Op::OpFOrdEqual:
    case Op::OpFUnordEqual:
    case Op::OpFOrdNotEqual:
    case Op::OpFUnordNotEqual:
    case Op::OpFOrdLessThan:
    case Op::OpFUnordLessThan:
    case Op::OpFOrdGreaterThan:
    case Op::OpFUnordGreaterThan:
    case Op::OpFOrdLessThanEqual:
    case Op::OpFUnordLessThanEqual:
    case Op::OpFOrdGreaterThanEqual:
    case Op::OpFUnordGreaterThanEqual:
    case Op::OpConvertFToU:
    case Op::OpConvertFToS:
    case Op::OpConvertSToF:
    case Op::OpConvertUToF:
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpFConvert:
    case Op::OpQuantizeToF16:
    case Op::OpConvertPtrToU:
    case Op::OpConvertUToPtr:
    case Op::OpSatConvertSToU:
    case Op::OpSatConvertUToS:
    case Op::OpBitcast:
    case Op::OpPtrCastToGeneric:
    case Op::OpGenericCastToPtr:
    case Op::OpVectorExtractDynamic:
    case Op::OpVectorInsertDynamic:
    case Op::OpVectorShuffle:
    case Op::OpCompositeConstruct:
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpTranspose:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
    case Op::OpArrayLength:
    case Op::OpSampledImage:
    case Op::OpImage:
    case Op::OpImageTexelPointer:
    // Sampling reads immutable data; implicit LOD depends on the quad's
    // coordinates, which are uniform whenever the operands are.
    case Op::OpImageSampleImplicitLod:
    case Op::OpImageSampleExplicitLod:
    case Op::OpImageSampleDrefImplicitLod:
    case Op::OpImageSampleDrefExplicitLod:
    case Op::OpImageSampleProjImplicitLod:
    case Op::OpImageSampleProjExplicitLod:
    case Op::OpImageSampleProjDrefImplicitLod:
    case Op::OpImageSampleProjDrefExplicitLod:
    case Op::OpImageFetch:
    case Op::OpImageGather:
    case Op::OpImageDrefGather:
    case Op::OpImageSparseSampleImplicitLod:
    case Op::OpImageSparseSampleExplicitLod:
    case Op::OpImageSparseSampleDrefImplicitLod:
    case Op::OpImageSparseSampleDrefExplicitLod:
    case Op::OpImageSparseFetch:
    case Op::OpImageSparseGather:
    case Op::OpImageSparseDrefGather:
    case Op::OpImageSparseTexelsResident:
    case Op::OpImageQueryFormat:
    case Op::OpImageQueryOrder:
    case Op::OpImageQuerySizeLod:
    case Op::OpImageQuerySize:
    case Op::OpImageQueryLod:
    case Op::OpImageQueryLevels:
    case Op::OpImageQuerySamples:
    case Op::OpGroupNonUniformBallotBitExtract:
    case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB:
      return true;
    default:
      // A derivative of a quad-uniform value is zero.
      return IsExplicitDerivative(op);
  }
}

// GroupOperation of a group arithmetic instruction (in operand 1).
InstructionRule ReductionOrScan(const spvtools::opt::Instruction& inst, const ModuleIndex& index) {
  const Uniformity scope = ScopeLevel(inst.GetSingleWordInOperand(0), index);
  switch (static_cast<spv::GroupOperation>(inst.GetSingleWordInOperand(1))) {
    case spv::GroupOperation::Reduce:
      return Fixed(scope, "a reduction over the active invocations of its scope");
    case spv::GroupOperation::ClusteredReduce: {
      // Clusters of a multiple of 4 consecutive invocations contain whole quads.
      uint64_t size = 0;
      if (scope == kS && inst.NumInOperands() > 3 &&
          index.IntegerConstant(inst.GetSingleWordInOperand(3), &size) && size % 4 == 0) {
        return Fixed(kQ, "a clustered reduction over whole quads");
      }
      return Fixed(kD, "a clustered reduction: one result per cluster");
    }
    default:
      return Fixed(kD, "a scan: each invocation sees a different prefix");
  }
}

// Whether image value |image| has an OpTypeImage type with Dim SubpassData.
bool IsSubpassImage(const ModuleIndex& index, uint32_t image) {
  const auto* value = index.Def(image);
  const auto* type = value != nullptr ? index.Def(value->type_id()) : nullptr;
  return type != nullptr && type->opcode() == Op::OpTypeImage &&
         static_cast<spv::Dim>(type->GetSingleWordInOperand(1)) == spv::Dim::SubpassData;
}

InstructionRule ExtInst(const spvtools::opt::Instruction& inst, const ModuleIndex& index) {
  const auto* set = index.Def(inst.GetSingleWordInOperand(0));
  const std::string name = set != nullptr ? set->GetInOperand(0).AsString() : "";
  const uint32_t number = inst.GetSingleWordInOperand(1);
  if (name == "GLSL.std.450") {
    // InterpolateAtCentroid/Sample/Offset read per-invocation inputs.
    if (number >= 76 && number <= 78)
      return Fixed(kD, "interpolation at a per-invocation position");
    return Follow();
  }
  if (name == "OpenCL.std") {
    // vload*/vstore*/printf/prefetch touch memory; shuffle/shuffle2 are pure.
    if (number >= 171 && number <= 185 && number != 182 && number != 183) {
      return Fixed(kD, "an OpenCL.std instruction that accesses memory");
    }
    return Follow();
  }
  if (name.rfind("NonSemantic.", 0) == 0) return {Rule::kNoValue, kU, ""};
  return Fixed(kD, "an extended instruction the analysis does not model");
}

}  // namespace

uint32_t ModelBit(spv::ExecutionModel model) {
  switch (model) {
    case spv::ExecutionModel::GLCompute:
    case spv::ExecutionModel::TaskNV:
    case spv::ExecutionModel::MeshNV:
    case spv::ExecutionModel::TaskEXT:
    case spv::ExecutionModel::MeshEXT:
      return kModelCompute;
    case spv::ExecutionModel::Kernel:
      return kModelKernel;
    case spv::ExecutionModel::Fragment:
      return kModelFragment;
    case spv::ExecutionModel::Vertex:
    case spv::ExecutionModel::TessellationControl:
    case spv::ExecutionModel::TessellationEvaluation:
    case spv::ExecutionModel::Geometry:
      return kModelVertexLike;
    case spv::ExecutionModel::RayGenerationKHR:
      return kModelRayGeneration;
    default:
      return kModelRayTracing;
  }
}

Uniformity ScopeLevel(uint32_t scope_id, const ModuleIndex& index) {
  uint64_t scope = 0;
  if (!index.IntegerConstant(scope_id, &scope)) return kD;
  switch (static_cast<spv::Scope>(scope)) {
    case spv::Scope::Subgroup:
      return kS;
    // Workgroup, device and wider scopes span the invocation group of a
    // compute dispatch or kernel (and are not allowed in graphics stages).
    case spv::Scope::Workgroup:
    case spv::Scope::Device:
    case spv::Scope::CrossDevice:
    case spv::Scope::QueueFamily:
      return kU;
    default:
      return kD;
  }
}

Uniformity BuiltInLevel(spv::BuiltIn builtin, uint32_t models, const char** note) {
  using B = spv::BuiltIn;
  const bool only_dispatch = (models & ~(kModelCompute | kModelKernel)) == 0;
  switch (builtin) {
    case B::WorkgroupId:
    case B::NumWorkgroups:
    case B::WorkgroupSize:
    case B::GlobalSize:
    case B::EnqueuedWorkgroupSize:
    case B::GlobalOffset:
    case B::WorkDim:
    case B::NumEnqueuedSubgroups:
      if (only_dispatch) {
        *note = "the same for the whole workgroup";
        return kU;
      }
      break;
    case B::SubgroupSize:
    case B::SubgroupMaxSize:
      *note = "fixed for the pipeline";
      return kU;
    case B::NumSubgroups:
      if (only_dispatch) {
        *note = "the same for the whole workgroup";
        return kU;
      }
      break;
    case B::SubgroupId:
      *note = "the same within a subgroup, different between subgroups";
      return kS;
    case B::DrawIndex:
    case B::BaseVertex:
    case B::BaseInstance:
      *note = "dynamically uniform within a draw";
      return kU;
    // Per primitive, and a quad never spans primitives (helpers belong to
    // the quad's primitive): quad-uniform in a fragment shader.
    case B::FrontFacing:
    case B::PrimitiveId:
    case B::Layer:
    case B::ViewportIndex:
    case B::ViewIndex:
      if (models == kModelFragment) {
        *note = "the same for every fragment of a primitive, and a quad never spans primitives";
        return kQ;
      }
      break;
    default:
      break;
  }
  *note = "varies per invocation";
  return kD;
}

InstructionRule ClassifyInstruction(const spvtools::opt::Instruction& inst,
                                    const ModuleIndex& index) {
  return ClassifyInstruction(inst.opcode(), inst, index);
}

InstructionRule ClassifyInstruction(Op op, const spvtools::opt::Instruction& inst,
                                    const ModuleIndex& index) {
  if (IsPureOpcode(op)) return Follow();
  switch (op) {
    case Op::OpPhi:
      return {Rule::kPhi, kU, ""};
    case Op::OpImageRead:
    case Op::OpImageSparseRead:
      // A subpass read's coordinate is an offset from the fragment's own
      // position (SPIR-V 3.8, Dim SubpassData): each fragment reads its own.
      if (IsSubpassImage(index, inst.GetSingleWordInOperand(0))) {
        return Fixed(kD, "an input attachment read at the fragment's own position");
      }
      return {Rule::kLoad, kU, ""};
    case Op::OpLoad:
      return {Rule::kLoad, kU, ""};
    case Op::OpFunctionCall:
      return {Rule::kCall, kU, ""};
    case Op::OpFunctionParameter:
      return {Rule::kParameter, kU, ""};
    case Op::OpVariable:
      return Fixed(kU, "a variable's address names the same variable in every invocation");
    case Op::OpUndef:
      return Fixed(kU, "an undefined value (the implementation may pick one for all)");
    case Op::OpExtInst:
      return ExtInst(inst, index);
    case Op::OpGroupNonUniformElect:
      return Fixed(kD, "true in exactly one invocation");
    case Op::OpGroupNonUniformAll:
    case Op::OpGroupNonUniformAny:
    case Op::OpGroupNonUniformAllEqual:
    case Op::OpGroupNonUniformBroadcast:
    case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpGroupAll:
    case Op::OpGroupAny:
    case Op::OpGroupBroadcast:
      return Collective(ScopeLevel(inst.GetSingleWordInOperand(0), index),
                        "the same in every active invocation of its scope");
    case Op::OpSubgroupAllKHR:
    case Op::OpSubgroupAnyKHR:
    case Op::OpSubgroupAllEqualKHR:
    case Op::OpSubgroupFirstInvocationKHR:
    case Op::OpSubgroupReadInvocationKHR:
      return Collective(kS, "the same in every active invocation of the subgroup");
    case Op::OpGroupNonUniformBallot:
      return Fixed(ScopeLevel(inst.GetSingleWordInOperand(0), index),
                   "a ballot: the same mask in every active invocation of its scope");
    case Op::OpSubgroupBallotKHR:
      return Fixed(kS, "a ballot: the same mask in every active invocation of the subgroup");
    case Op::OpGroupNonUniformBallotBitCount:
      return ReductionOrScan(inst, index);
    case Op::OpGroupNonUniformQuadBroadcast:
      return Collective(kQ, "the same in every invocation of the quad");
    case Op::OpGroupNonUniformQuadAllKHR:
    case Op::OpGroupNonUniformQuadAnyKHR:
      return Collective(kQ, "the same in every active invocation of the quad");
    // True in helper invocations only, and it changes when an invocation is
    // demoted (OpDemoteToHelperInvocation): never uniform, not even within
    // the quad.
    case Op::OpIsHelperInvocationEXT:
      return Fixed(kD, "whether this invocation is a helper (true after a demote)");
    case Op::OpReadClockKHR:
      return ScopeLevel(inst.GetSingleWordInOperand(0), index) == kS
                 ? Fixed(kS, "a subgroup-scope clock")
                 : Fixed(kD, "a clock read at a scope wider than the subgroup");
    default:
      break;
  }
  // The AMD reductions are left to the fallback below: read as divergent.
  if (const GroupArithmetic arithmetic = GroupArithmeticOf(op);
      arithmetic.op != GroupArithmetic::kNone && arithmetic.family != GroupArithmetic::kAmd) {
    return ReductionOrScan(inst, index);
  }
  if (spvOpcodeIsAtomicOp(op)) return Fixed(kD, "an atomic: each invocation sees its own value");
  if (!inst.HasResultId() || IsDebugOpcode(op)) return {Rule::kNoValue, kU, ""};
  return Fixed(kD, "an instruction the analysis does not model");
}

namespace {

// The struct (or other type) a variable holds, through arrays.
const spvtools::opt::Instruction* PointeeElement(const ModuleIndex& index,
                                                 const spvtools::opt::Instruction& variable) {
  const auto* pointer = index.Def(variable.type_id());
  if (pointer == nullptr || pointer->opcode() != spv::Op::OpTypePointer) return nullptr;
  const auto* type = index.Def(pointer->GetSingleWordInOperand(1));
  while (type != nullptr && (type->opcode() == spv::Op::OpTypeArray ||
                             type->opcode() == spv::Op::OpTypeRuntimeArray)) {
    type = index.Def(type->GetSingleWordInOperand(0));
  }
  return type;
}

}  // namespace

Uniformity DecoratedLevel(const ModuleIndex& index, uint32_t id) {
  Uniformity level = kD;
  for (const spvtools::opt::Instruction* d : index.Decorations(id)) {
    if (d->opcode() != Op::OpDecorate && d->opcode() != Op::OpDecorateId) continue;
    switch (static_cast<spv::Decoration>(d->GetSingleWordInOperand(1))) {
      case spv::Decoration::Uniform:
        level = kU;
        break;
      case spv::Decoration::UniformId:
        level = std::min(level, ScopeLevel(d->GetSingleWordInOperand(2), index));
        break;
      default:
        break;
    }
  }
  return level;
}

bool IsBufferBlock(const ModuleIndex& index, const spvtools::opt::Instruction& variable) {
  const auto* type = PointeeElement(index, variable);
  return type != nullptr && index.HasDecoration(type->result_id(), spv::Decoration::BufferBlock);
}

namespace {

// Whether |variable| is decorated with one of |decorations|, or holds a
// struct every member of which is.
bool VariableOrEveryMember(const ModuleIndex& index, const spvtools::opt::Instruction& variable,
                           std::initializer_list<spv::Decoration> decorations) {
  for (spv::Decoration d : decorations) {
    if (index.HasDecoration(variable.result_id(), d)) return true;
  }
  const auto* type = PointeeElement(index, variable);
  if (type == nullptr || type->opcode() != spv::Op::OpTypeStruct) return false;
  std::set<uint32_t> members;
  for (const auto* d : index.Decorations(type->result_id())) {
    if (d->opcode() != spv::Op::OpMemberDecorate) continue;
    const auto decoration = static_cast<spv::Decoration>(d->GetSingleWordInOperand(2));
    if (std::find(decorations.begin(), decorations.end(), decoration) != decorations.end()) {
      members.insert(d->GetSingleWordInOperand(1));
    }
  }
  return members.size() == type->NumInOperands();
}

}  // namespace

bool IsReadOnly(const ModuleIndex& index, const spvtools::opt::Instruction& variable) {
  return VariableOrEveryMember(index, variable, {spv::Decoration::NonWritable});
}

bool IsPerPrimitive(const ModuleIndex& index, const spvtools::opt::Instruction& variable) {
  return VariableOrEveryMember(index, variable,
                               {spv::Decoration::Flat, spv::Decoration::PerPrimitiveEXT});
}

bool IsStorageImageType(const spvtools::opt::Instruction& image) {
  // OpTypeImage in-operands: sampled type, Dim, Depth, Arrayed, MS, Sampled, ...
  return image.GetSingleWordInOperand(5) != 1;
}

bool IsStorageImage(const ModuleIndex& index, const spvtools::opt::Instruction& variable) {
  const auto* type = PointeeElement(index, variable);
  return type != nullptr && type->opcode() == spv::Op::OpTypeImage && IsStorageImageType(*type);
}

bool IsImmutable(const ModuleIndex& index, const spvtools::opt::Instruction& variable) {
  if (variable.opcode() != spv::Op::OpVariable) return false;
  switch (static_cast<spv::StorageClass>(variable.GetSingleWordInOperand(0))) {
    case spv::StorageClass::UniformConstant:
      return !IsStorageImage(index, variable) || IsReadOnly(index, variable);
    case spv::StorageClass::PushConstant:
      return true;
    case spv::StorageClass::Input:
      // OpDemoteToHelperInvocation changes HelperInvocation mid-invocation.
      return !index.HasDecoration(variable.result_id(), spv::Decoration::BuiltIn,
                                  uint32_t(spv::BuiltIn::HelperInvocation));
    case spv::StorageClass::Uniform:
      return !IsBufferBlock(index, variable) || IsReadOnly(index, variable);
    case spv::StorageClass::StorageBuffer:
    case spv::StorageClass::PhysicalStorageBuffer:
      return IsReadOnly(index, variable);
    default:
      return false;
  }
}

}  // namespace analysis
}  // namespace spirv_conv
