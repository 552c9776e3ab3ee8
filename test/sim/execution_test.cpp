// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Instruction semantics, memory, built-ins, barriers and atomics. Every
// expected value is worked out by hand in the comment beside it.

#include <algorithm>
#include <numeric>

#include "sim/sim_test_util.h"

namespace spirv_conv {
namespace test {
namespace {

using sim::Model;

TEST(SimExecution, ArithmeticConversionsAndGlsl) {
  const char* glsl = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
  uint i = gl_LocalInvocationIndex;
  int s = int(i) - 2;                   // -2 -1 0 1
  o[i * 8 + 0] = uint(s / 2 + 10);      // -1 0 0 0 -> 9 10 10 10 (truncating division)
  o[i * 8 + 1] = uint(s % 2 + 10);      // OpSMod (sign of the divisor): 0 1 0 1 -> 10 11 10 11
  o[i * 8 + 2] = uint(abs(s));          // 2 1 0 1
  o[i * 8 + 3] = uint(float(i) * 1.5);  // 0 1 3 4
  o[i * 8 + 4] = uint(sqrt(float(i * i * 4)));  // 2i
  o[i * 8 + 5] = (0xF0u >> i) & 0xFu;   // 0 8 12 14
  o[i * 8 + 6] = findMSB(1u << (i + 3)); // i + 3
  o[i * 8 + 7] = uint(clamp(s, -1, 0) + 5); // 4 4 5 5
})";
  const std::vector<uint32_t> expected = {9,  10, 2, 0, 0, 0,  3, 4, 10, 11, 1, 1, 2, 8,  4, 4,
                                          10, 10, 0, 3, 4, 12, 5, 5, 10, 11, 1, 4, 6, 14, 6, 5};
  EXPECT_EQ(RunGlsl(glsl, {Zeros(0, 32)}, Options(Model::kMaximal)), expected);
}

TEST(SimExecution, CompositesMatricesAndFunctions) {
  const char* glsl = R"(#version 450
layout(local_size_x = 2) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
struct S { uvec2 a; uint b[3]; };
uint f(S s, uint k) { return s.a.y * 100 + s.b[k]; }
void main() {
  uint i = gl_LocalInvocationIndex;
  S s = S(uvec2(1, 2 + i), uint[3](7, 8, 9));
  o[i * 4 + 0] = f(s, i + 1);                   // (2+i)*100 + (8|9): 208, 309
  mat2 m = mat2(1, 2, 3, 4);                    // columns (1,2) and (3,4)
  vec2 v = m * vec2(1, float(i));               // (1 + 3i, 2 + 4i)
  o[i * 4 + 1] = uint(v.x * 10 + v.y);          // 12, 46
  uvec4 w = uvec4(s.a, s.b[0], s.b[2]).wzyx;    // (9, 7, 2+i, 1)
  o[i * 4 + 2] = w.x * 1000 + w.y * 100 + w.z * 10 + w.w;  // 9721, 9731
  o[i * 4 + 3] = uint(dot(vec3(1, 2, 3), vec3(i)));        // 6i
})";
  EXPECT_EQ(RunGlsl(glsl, {Zeros(0, 8)}, Options(Model::kMaximal)),
            (std::vector<uint32_t>{208, 12, 9721, 0, 309, 46, 9731, 6}));
}

TEST(SimExecution, BuiltinsWithPartialSubgroups) {
  // 3x2 workgroups of 5x1: subgroups of 4 -> lanes 0..3 then a partial one of 1.
  const char* glsl = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : enable
layout(local_size_x = 5) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
  uint g = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 15;
  o[g] = gl_WorkGroupID.y * 1000 + gl_SubgroupID * 100 + gl_SubgroupInvocationID * 10 +
         gl_NumSubgroups;
})";
  std::vector<uint32_t> expected;
  for (uint32_t y = 0; y < 2; ++y) {
    for (uint32_t x = 0; x < 15; ++x) {
      const uint32_t local = x % 5;
      expected.push_back(y * 1000 + (local / 4) * 100 + (local % 4) * 10 + 2);
    }
  }
  EXPECT_EQ(RunGlsl(glsl, {Zeros(0, 30)}, Options(Model::kMaximal, 4, {3, 2, 1})), expected);
}

TEST(SimExecution, BarrierAndSharedMemoryReduction) {
  // 16 invocations in 4 subgroups of 4; a tree reduction of 1..16 through shared memory.
  const char* glsl = R"(#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
shared uint s[16];
void main() {
  uint i = gl_LocalInvocationIndex;
  s[i] = i + 1;
  barrier();
  for (uint stride = 8; stride > 0; stride /= 2) {
    if (i < stride) s[i] += s[i + stride];
    barrier();
  }
  o[i] = s[0];
})";
  // Σ 1..16 = 136, seen by every invocation after the last barrier.
  for (Model model : {Model::kMaximal, Model::kIpdom, Model::kAdversarial}) {
    EXPECT_EQ(RunGlsl(glsl, {Zeros(0, 16)}, Options(model, 4)), std::vector<uint32_t>(16, 136))
        << sim::ModelName(model);
  }
}

TEST(SimExecution, AtomicCounterHandsOutEveryValueOnce) {
  const char* glsl = R"(#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Counter { uint counter; uint olds[]; };
void main() {
  olds[gl_GlobalInvocationID.x] = atomicAdd(counter, 1);
})";
  // 3 workgroups of 16: the counter ends at 48 and the old values are 0..47, each once.
  const std::vector<uint32_t> words =
      RunGlsl(glsl, {Zeros(0, 49)}, Options(Model::kMaximal, 8, {3, 1, 1}));
  ASSERT_EQ(words.size(), 49u);
  EXPECT_EQ(words[0], 48u);
  std::vector<uint32_t> olds(words.begin() + 1, words.end()), all(48);
  std::sort(olds.begin(), olds.end());
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(olds, all);
}

TEST(SimExecution, OutOfBoundsAccessIsAnError) {
  const char* glsl = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() { o[gl_LocalInvocationIndex * 4] = 1; }
)";
  // 8 words: invocation 2 writes word 8, past the end.
  Expected<sim::RunResult> r =
      RunBinary(MustLoad("oob.comp", glsl), {Zeros(0, 8)}, Options(Model::kMaximal));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::kFindings);
  EXPECT_NE(r.error().message.find(
                "out-of-bounds access: 4 bytes at offset 32 of buffer 0:0[0] (32 bytes)"),
            std::string::npos)
      << r.error().message;
}

TEST(SimExecution, UnsupportedInstructionNamesItAndItsBlock) {
  const char* glsl = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() { o[2] = uint(packDouble2x32(uvec2(o[0], o[1]))); }
)";
  // GLSL.std.450 PackDouble2x32 (59) is not supported (OpUMulExtended, used here
  // before, now is).
  Expected<sim::RunResult> r =
      RunBinary(MustLoad("pack.comp", glsl), {Zeros(0, 4)}, Options(Model::kMaximal));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::kBadInput);
  EXPECT_NE(r.error().message.find("unsupported GLSL.std.450 instruction 59 (OpExtInst"),
            std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("in function main, block %"), std::string::npos);
}

// The simulator has no images: loading one is refused as unsupported, not
// read from memory that was never laid out (a regression test: it crashed
// on storage images of the spirv-cross corpus).
TEST(SimExecution, StorageImageReadsTheDefaultCheckerboardAndChecksBounds) {
  // No image given: the default 64x64 checkerboard of 4-texel squares
  // (docs/simulator.md). Texel (10, 10): 10/4 + 10/4 = 4, even, so black;
  // texel (4, 0): 1 + 0, odd, so white. Texel (64, 0) is outside: a fault.
  const char* glsl = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { vec4 black; vec4 white; };
layout(set = 0, binding = 1) buffer In { int x; };
layout(rgba8, set = 0, binding = 2) uniform readonly image2D image;
void main() {
  black = imageLoad(image, ivec2(10));
  white = imageLoad(image, ivec2(4, 0));
  if (x > 0) black = imageLoad(image, ivec2(x, 0));
}
)";
  Expected<sim::RunResult> r =
      RunBinary(MustLoad("image.comp", glsl), {Zeros(0, 8), Zeros(1, 1)}, Options(Model::kMaximal));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ValuesOf<float>(*r, 0), (std::vector<float>{0, 0, 0, 1, 1, 1, 1, 1}));
  r = RunBinary(MustLoad("image.comp", glsl), {Zeros(0, 8), Words(1, {64})},
                Options(Model::kMaximal));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::kFindings);
  EXPECT_NE(r.error().message.find("out-of-bounds texel (64, 0) of a 64x64 image level"),
            std::string::npos)
      << r.error().message;
}

TEST(SimExecution, SubgroupRotateReadsTheLaneDeltaAhead) {
  // SPV_KHR_subgroup_rotate: lane l reads lane (l + 3) mod 8; with ClusterSize
  // 4, lane ((l + 3) mod 4) + 4 * (l / 4) of its cluster.
  const char* spvasm = R"(OpCapability Shader
OpCapability GroupNonUniform
OpCapability GroupNonUniformRotateKHR
OpExtension "SPV_KHR_subgroup_rotate"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid %out
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %lid BuiltIn SubgroupLocalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Out 0 Offset 0
OpDecorate %Out Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%arr = OpTypeRuntimeArray %uint
%Out = OpTypeStruct %arr
%ptr_out = OpTypePointer StorageBuffer %Out
%out = OpVariable %ptr_out StorageBuffer
%ptr_in = OpTypePointer Input %uint
%lid = OpVariable %ptr_in Input
%ptr_u = OpTypePointer StorageBuffer %uint
%c0 = OpConstant %uint 0
%c3 = OpConstant %uint 3
%c4 = OpConstant %uint 4
%c8 = OpConstant %uint 8
%main = OpFunction %void None %fn
%entry = OpLabel
%id = OpLoad %uint %lid
%r = OpGroupNonUniformRotateKHR %uint %c3 %id %c3
%rc = OpGroupNonUniformRotateKHR %uint %c3 %id %c3 %c4
%p = OpAccessChain %ptr_u %out %c0 %id
OpStore %p %r
%i2 = OpIAdd %uint %id %c8
%p2 = OpAccessChain %ptr_u %out %c0 %i2
OpStore %p2 %rc
OpReturn
OpFunctionEnd
)";
  Expected<sim::RunResult> r =
      RunBinary(MustLoad("rotate.spvasm", spvasm), {Zeros(0, 16)}, Options(Model::kMaximal));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(WordsOf(*r, 0),
            (std::vector<uint32_t>{3, 4, 5, 6, 7, 0, 1, 2, 3, 0, 1, 2, 7, 4, 5, 6}));
}

TEST(SimExecution, DivergentBarrierIsAnError) {
  const char* glsl = R"(#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() { if (gl_LocalInvocationIndex < 2) barrier(); o[0] = 1; }
)";
  Expected<sim::RunResult> r =
      RunBinary(MustLoad("barrier.comp", glsl), {Zeros(0, 1)}, Options(Model::kMaximal));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::kFindings);
  EXPECT_NE(r.error().message.find("barrier not reached by every invocation"), std::string::npos)
      << r.error().message;
}

TEST(SimExecution, InstructionLimit) {
  const char* glsl = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() { while (o[0] == 0) { o[1]++; } }
)";
  sim::RunOptions options = Options(Model::kMaximal);
  options.max_instructions = 1000;
  Expected<sim::RunResult> r = RunBinary(MustLoad("spin.comp", glsl), {Zeros(0, 2)}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("instruction limit of 1000 exceeded"), std::string::npos);
}

}  // namespace
}  // namespace test
}  // namespace spirv_conv
