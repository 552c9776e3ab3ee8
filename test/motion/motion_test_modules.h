// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Module skeletons for the check-motion tests: a fragment shader (textures,
// a uniform buffer, a varying) and a compute shader (subgroup ballot), each
// with a function body to fill in. Values shared by every body:
//   fragment: %c (varying uv), %x (its x), %cond (x > 0.5: divergent),
//             %ucond (a uniform-buffer float > 0.5: uniform), %tex, %texs[4],
//             %i00 (ivec2(0)), %out;
//   compute:  %i (LocalInvocationIndex), %cond (i == 3), %other (i < 16),
//             %priv (a Private uvec4), %true, %uint_0, %uint_1.
// Body-local ids are numeric (%100...), kept by the assembler, so a pair
// that keeps an id models a pass that moves the instruction.

#ifndef TEST_MOTION_MOTION_TEST_MODULES_H_
#define TEST_MOTION_MOTION_TEST_MODULES_H_

#include <string>

namespace spirv_conv {
namespace test {

// A loop that invocation i leaves on iteration i & 3 through the break
// block %brk, whose ballot therefore runs once per iteration among the
// invocations leaving on it (SPV_KHR_maximal_reconvergence: a break block
// runs as if still diverged by iteration). |check| ends the block %chk
// (before the break test), e.g. glslang's `while (true)` test
// "OpBranchConditional %true %body %merge" or, once dead branches are gone,
// "OpBranch %body". |at_merge| goes into the merge block. For ComputeModule.
inline std::string BallotInBreakBlock(const std::string& check, const std::string& at_merge = "") {
  return R"(OpBranch %h
%h = OpLabel
%n = OpPhi %uint %uint_0 %entry %n1 %cont
OpLoopMerge %merge %cont None
OpBranch %chk
%chk = OpLabel
)" + check +
         R"(
%body = OpLabel
%lane = OpBitwiseAnd %uint %i %uint_3
%hit = OpIEqual %bool %n %lane
OpSelectionMerge %sm None
OpBranchConditional %hit %brk %sm
%brk = OpLabel
%100 = OpGroupNonUniformBallot %v4u %uint_3 %true
OpStore %priv %100
OpBranch %merge
%sm = OpLabel
OpBranch %cont
%cont = OpLabel
%n1 = OpIAdd %uint %n %uint_1
OpBranch %h
%merge = OpLabel
)" + at_merge +
         "OpReturn\n";
}

inline std::string FragmentModule(const std::string& body) {
  return R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %uv %out
OpExecutionMode %main OriginUpperLeft
OpDecorate %uv Location 0
OpDecorate %out Location 0
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 0
OpDecorate %texs DescriptorSet 0
OpDecorate %texs Binding 1
OpDecorate %ubo_t Block
OpMemberDecorate %ubo_t 0 Offset 0
OpDecorate %ubo DescriptorSet 0
OpDecorate %ubo Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%v2 = OpTypeVector %float 2
%v4 = OpTypeVector %float 4
%v2i = OpTypeVector %int 2
%bool = OpTypeBool
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%p_simg = OpTypePointer UniformConstant %simg
%tex = OpVariable %p_simg UniformConstant
%uint_4 = OpConstant %uint 4
%arr = OpTypeArray %simg %uint_4
%p_arr = OpTypePointer UniformConstant %arr
%texs = OpVariable %p_arr UniformConstant
%ubo_t = OpTypeStruct %float
%p_ubo = OpTypePointer Uniform %ubo_t
%ubo = OpVariable %p_ubo Uniform
%p_u_float = OpTypePointer Uniform %float
%p_in_v2 = OpTypePointer Input %v2
%uv = OpVariable %p_in_v2 Input
%p_out_v4 = OpTypePointer Output %v4
%out = OpVariable %p_out_v4 Output
%f0 = OpConstant %float 0
%f05 = OpConstant %float 0.5
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_2 = OpConstant %int 2
%i00 = OpConstantComposite %v2i %int_0 %int_0
%main = OpFunction %void None %fn
%entry = OpLabel
%c = OpLoad %v2 %uv
%x = OpCompositeExtract %float %c 0
%cond = OpFOrdGreaterThan %bool %x %f05
%up = OpAccessChain %p_u_float %ubo %int_0
%u = OpLoad %float %up
%ucond = OpFOrdGreaterThan %bool %u %f05
)" + body +
         "OpFunctionEnd\n";
}

inline std::string ComputeModule(const std::string& body) {
  return R"(; Version: 1.3
OpCapability Shader
OpCapability GroupNonUniformBallot
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %lid BuiltIn LocalInvocationIndex
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v4u = OpTypeVector %uint 4
%bool = OpTypeBool
%p_in_uint = OpTypePointer Input %uint
%lid = OpVariable %p_in_uint Input
%p_priv = OpTypePointer Private %v4u
%priv = OpVariable %p_priv Private
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_3 = OpConstant %uint 3
%uint_16 = OpConstant %uint 16
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %uint %lid
%other = OpULessThan %bool %i %uint_16
%cond = OpIEqual %bool %i %uint_3
)" + body +
         "OpFunctionEnd\n";
}

}  // namespace test
}  // namespace spirv_conv

#endif  // TEST_MOTION_MOTION_TEST_MODULES_H_
