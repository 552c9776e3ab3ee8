// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Regression tests: extended integer arithmetic (OpIAddCarry, OpISubBorrow,
// OpUMulExtended, OpSMulExtended), the GLSL.std.450 functions with matrix or
// two-part results (Determinant, MatrixInverse, Modf, ModfStruct, Frexp,
// FrexpStruct) and 64-bit integer constants. Every expected value is worked
// out by hand in the comment beside it.

#include <cstring>

#include "sim/sim_test_util.h"

namespace spirv_conv {
namespace test {
namespace {

using sim::Model;

std::vector<float> AsFloats(const std::vector<uint32_t>& words) {
  std::vector<float> floats(words.size());
  std::memcpy(floats.data(), words.data(), words.size() * 4);
  return floats;
}

TEST(SimExtended, CarryBorrowAndExtendedMultiplication) {
  const char* glsl = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer In { uint a, b, c, d; };
void main() {
  uint hi, lo, carry, borrow;
  umulExtended(a, b, hi, lo);       // 0xFFFFFFFF * 2 = 0x1_FFFFFFFE
  o[0] = hi; o[1] = lo;             // 1, 0xFFFFFFFE
  int shi, slo;
  imulExtended(int(c), int(d), shi, slo);  // -3 * 2^30 = -0xC0000000 = 0xFFFFFFFF_40000000
  o[2] = uint(shi); o[3] = uint(slo);      // 0xFFFFFFFF, 0x40000000
  o[4] = uaddCarry(a, b, carry);    // 0xFFFFFFFF + 2 = 0x1_00000001
  o[5] = carry;                     // 1, 1
  o[6] = usubBorrow(b, a, borrow);  // 2 - 0xFFFFFFFF = 3 mod 2^32, borrowed
  o[7] = borrow;                    // 3, 1
  o[8] = usubBorrow(a, b, borrow);  // 0xFFFFFFFD, no borrow
  o[9] = borrow;
  uvec2 vhi, vlo;                   // vectors: the struct's members are uvec2
  umulExtended(uvec2(a, 0x10000u), uvec2(b, 0x10000u), vhi, vlo);  // x as above; y = 2^32
  o[10] = vhi.x; o[11] = vlo.x; o[12] = vhi.y; o[13] = vlo.y;      // 1, 0xFFFFFFFE, 1, 0
})";
  const std::vector<uint32_t> expected = {1, 0xFFFFFFFE, 0xFFFFFFFF, 0x40000000, 1,          1, 3,
                                          1, 0xFFFFFFFD, 0,          1,          0xFFFFFFFE, 1, 0};
  EXPECT_EQ(RunGlsl(glsl, {Zeros(0, 14), Words(1, {0xFFFFFFFF, 2, 0xFFFFFFFD, 0x40000000})},
                    Options(Model::kMaximal)),
            expected);
}

TEST(SimExtended, DeterminantAndInverse) {
  // Entries come from the input buffer (in[k] = k), so nothing is folded.
  const char* glsl = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { float o[]; };
layout(set = 0, binding = 1) buffer In { float k[]; };
void main() {
  float one = k[1], two = k[2], three = k[3], four = k[4], five = k[5], six = k[6], z = k[0];
  // Columns (3,1) and (4,2): [[3,4],[1,2]], det 3*2 - 4*1 = 2.
  o[0] = determinant(mat2(three, one, four, two));
  // Columns (1,2,3), (0,1,4), (5,6,0): the transpose of A = [[1,2,3],[0,1,4],[5,6,0]],
  // det A = 1*(0-24) - 2*(0-20) + 3*(0-5) = 1.
  mat3 m = mat3(one, two, three, z, one, four, five, six, z);
  o[1] = determinant(m);
  // Block diagonal [[2,1],[1,1]] (det 1) and [[3,1],[1,2]] (det 5): det 5.
  o[2] = determinant(mat4(two, one, z, z, one, one, z, z, z, z, three, one, z, z, one, two));
  // inverse(A^T) = (A^-1)^T, so column j of inverse(m) is row j of
  // A^-1 = [[-24,18,5],[20,-15,-4],[-5,4,1]] (A * A^-1 = I, checked row by column).
  mat3 inv = inverse(m);
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) o[3 + c * 3 + r] = inv[c][r];
  }
  // [[3,4],[1,2]]^-1 = [[2,-4],[-1,3]] / 2 = [[1,-2],[-0.5,1.5]]; columns (1,-0.5), (-2,1.5).
  mat2 inv2 = inverse(mat2(three, one, four, two));
  o[12] = inv2[0][0]; o[13] = inv2[0][1]; o[14] = inv2[1][0]; o[15] = inv2[1][1];
})";
  std::vector<uint32_t> in(8);
  for (uint32_t i = 0; i < in.size(); ++i) {
    const float f = static_cast<float>(i);
    std::memcpy(&in[i], &f, 4);
  }
  const std::vector<float> expected = {2,  1,  5, -24, 18, 5,    20, -15,
                                       -4, -5, 4, 1,   1,  -0.5, -2, 1.5};
  EXPECT_EQ(AsFloats(RunGlsl(glsl, {Zeros(0, 16), Words(1, in)}, Options(Model::kMaximal))),
            expected);
}

TEST(SimExtended, ModfAndFrexpFromGlsl) {
  // glslang emits Modf with a pointer and FrexpStruct.
  const char* glsl = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { float o[]; };
layout(set = 0, binding = 1) buffer In { float x[]; };
void main() {
  float whole;
  o[0] = modf(x[0], whole);  // -2.75: fraction -0.75, whole -2 (both with the sign of x)
  o[1] = whole;
  vec2 wholes;
  vec2 fracts = modf(vec2(x[1], x[2]), wholes);  // 5.5 -> 0.5, 5; 3.0 -> 0, 3
  o[2] = fracts.x; o[3] = wholes.x; o[4] = fracts.y; o[5] = wholes.y;
  int e;
  o[6] = frexp(x[3], e);   // 12 = 0.75 * 2^4
  o[7] = float(e);
  ivec2 es;
  vec2 ms = frexp(vec2(x[4], x[5]), es);  // -0.375 = -0.75 * 2^-1; 0 -> 0, 0
  o[8] = ms.x; o[9] = float(es.x); o[10] = ms.y; o[11] = float(es.y);
})";
  std::vector<uint32_t> in(6);
  const float inputs[6] = {-2.75f, 5.5f, 3.0f, 12.0f, -0.375f, 0.0f};
  std::memcpy(in.data(), inputs, sizeof inputs);
  const std::vector<float> expected = {-0.75, -2, 0.5, 5, 0, 3, 0.75, 4, -0.75, -1, 0, 0};
  EXPECT_EQ(AsFloats(RunGlsl(glsl, {Zeros(0, 12), Words(1, in)}, Options(Model::kMaximal))),
            expected);
}

TEST(SimExtended, ModfStructAndFrexpWithAPointer) {
  // The forms glslang does not emit: ModfStruct (a struct result) and Frexp
  // (the exponent stored through a pointer), on x = in[0].
  const char* assembly = R"(
               OpCapability Shader
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %out %in
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %arr ArrayStride 4
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %Buf Block
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
               OpDecorate %in DescriptorSet 0
               OpDecorate %in Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
        %int = OpTypeInt 32 1
       %uint = OpTypeInt 32 0
        %arr = OpTypeRuntimeArray %uint
        %Buf = OpTypeStruct %arr
    %ptr_buf = OpTypePointer StorageBuffer %Buf
   %ptr_uint = OpTypePointer StorageBuffer %uint
    %ptr_int = OpTypePointer Function %int
    %ModfRes = OpTypeStruct %float %float
        %out = OpVariable %ptr_buf StorageBuffer
         %in = OpVariable %ptr_buf StorageBuffer
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
      %int_2 = OpConstant %int 2
      %int_3 = OpConstant %int 3
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %exp = OpVariable %ptr_int Function
      %px = OpAccessChain %ptr_uint %in %int_0 %int_0
     %xbits = OpLoad %uint %px
          %x = OpBitcast %float %xbits
         %ms = OpExtInst %ModfRes %1 ModfStruct %x
      %fract = OpCompositeExtract %float %ms 0
      %whole = OpCompositeExtract %float %ms 1
       %mant = OpExtInst %float %1 Frexp %x %exp
          %e = OpLoad %int %exp
         %o0 = OpAccessChain %ptr_uint %out %int_0 %int_0
         %o1 = OpAccessChain %ptr_uint %out %int_0 %int_1
         %o2 = OpAccessChain %ptr_uint %out %int_0 %int_2
         %o3 = OpAccessChain %ptr_uint %out %int_0 %int_3
         %b0 = OpBitcast %uint %fract
         %b1 = OpBitcast %uint %whole
         %b2 = OpBitcast %uint %mant
         %b3 = OpBitcast %uint %e
               OpStore %o0 %b0
               OpStore %o1 %b1
               OpStore %o2 %b2
               OpStore %o3 %b3
               OpReturn
               OpFunctionEnd
)";
  // x = -6.5: modf -> fraction -0.5, whole -6; frexp -> -0.8125 * 2^3
  // (0.8125 * 8 = 6.5), the exponent 3 stored through %exp.
  const float x = -6.5f;
  uint32_t x_bits;
  std::memcpy(&x_bits, &x, 4);
  Expected<sim::RunResult> result =
      RunBinary(MustLoad("parts.spvasm", assembly), {Zeros(0, 4), Words(1, {x_bits})},
                Options(Model::kMaximal));
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::vector<uint32_t> words = WordsOf(*result, 0);
  ASSERT_EQ(words.size(), 4u);
  EXPECT_EQ(AsFloats({words[0], words[1], words[2]}), (std::vector<float>{-0.5, -6, -0.8125}));
  EXPECT_EQ(words[3], 3u);
}

// Regression: a 64-bit OpConstant is one operand of two words; the decoder
// read a second in-operand that does not exist and crashed.
TEST(SimExtended, SixtyFourBitConstantsAndArithmetic) {
  const char* glsl = R"(#version 450
#extension GL_ARB_gpu_shader_int64 : enable
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint r[]; };
void main() {
  uint64_t a = uint64_t(r[0]) + 3ul;                  // 5 + 3 = 8
  r[1] = uint(a);
  uint64_t m = uint64_t(r[0]) * 0x100000001ul;        // 5 * (2^32 + 1) = 0x5_00000005
  r[2] = uint(m); r[3] = uint(m >> 32);               // 5, 5
  uint64_t c = uint64_t(r[0]) ^ 0x123456789ABCDEF0ul; // the constant's high word counts
  r[4] = uint(c); r[5] = uint(c >> 32);               // 0x9ABCDEF5, 0x12345678
  int64_t s = int64_t(int(r[0])) * -3l;               // -15 = 0xFFFFFFFF_FFFFFFF1
  r[6] = uint(s); r[7] = uint(s >> 32);               // 0xFFFFFFF1, 0xFFFFFFFF
  // 2^60 + 2^36 + 1 to float (24-bit significand, ulp 2^37 at 2^60): just above
  // the halfway point 2^60 + 2^36, so it rounds up to 2^60 + 2^37 =
  // 2^60 * (1 + 2^-23): exponent 60 + 127 = 187, mantissa 1: 0x5D800001.
  // (Through double it would round twice, to the tie and then to even: 2^60.)
  uint64_t big = (uint64_t(r[8]) << 32) | uint64_t(r[9]);
  r[10] = floatBitsToUint(float(big));
})";
  std::vector<uint32_t> in(11, 0);
  in[0] = 5;
  in[8] = 0x10000010;  // 2^60 + 2^36 = 0x10000010_00000000
  in[9] = 1;
  const std::vector<uint32_t> expected = {
      5, 8, 5, 5, 0x9ABCDEF5, 0x12345678, 0xFFFFFFF1, 0xFFFFFFFF, 0x10000010, 1, 0x5D800001};
  EXPECT_EQ(RunGlsl(glsl, {Words(0, in)}, Options(Model::kMaximal)), expected);
}

// GLSL.std.450 Ldexp takes an exponent of any integer width: x * 2^exp.
// Both exponents below are far below -126 (and -1022), where the spec lets
// the result flush to zero: -1.0 * 2^(-(2^32) + 5) is -0.0, 1.5 *
// 2^(-(2^33) + 2) is +0.0, for float and double, scalar and vector. An
// exponent cut to 32 bits would give -1.0 * 2^5 = -32.0 and 1.5 * 2^2 = 6.0.
// (The other GLSL.std.450 and OpenCL.std integer operands are 32-bit by
// their specs, or read at their own width: FindILsb/FindSMsb/FindUMsb,
// OpenCL's ldexp and pown take 32-bit ints; SAbs, SMin, ... use IntMap.)
TEST(SimExtended, LdexpWithA64BitExponent) {
  const char* module = R"(; Version: 1.0
OpCapability Shader
OpCapability Int64
OpCapability Float64
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %runtime ArrayStride 4
OpMemberDecorate %Out 0 Offset 0
OpDecorate %Out BufferBlock
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
OpMemberDecorate %In 0 Offset 0
OpMemberDecorate %In 1 Offset 4
OpMemberDecorate %In 2 Offset 8
OpMemberDecorate %In 3 Offset 16
OpMemberDecorate %In 4 Offset 24
OpDecorate %In BufferBlock
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%long = OpTypeInt 64 1
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%v2float = OpTypeVector %float 2
%v2long = OpTypeVector %long 2
%v2uint = OpTypeVector %uint 2
%runtime = OpTypeRuntimeArray %uint
%Out = OpTypeStruct %runtime
%In = OpTypeStruct %float %float %double %long %long
%p_out = OpTypePointer Uniform %Out
%p_in = OpTypePointer Uniform %In
%p_uint = OpTypePointer Uniform %uint
%p_float = OpTypePointer Uniform %float
%p_double = OpTypePointer Uniform %double
%p_long = OpTypePointer Uniform %long
%out = OpVariable %p_out Uniform
%in = OpVariable %p_in Uniform
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i2 = OpConstant %int 2
%i3 = OpConstant %int 3
%i4 = OpConstant %int 4
%i5 = OpConstant %int 5
%main = OpFunction %void None %fn
%entry = OpLabel
%pa = OpAccessChain %p_float %in %i0
%a = OpLoad %float %pa
%pb = OpAccessChain %p_float %in %i1
%b = OpLoad %float %pb
%pc = OpAccessChain %p_double %in %i2
%c = OpLoad %double %pc
%pe0 = OpAccessChain %p_long %in %i3
%e0 = OpLoad %long %pe0
%pe1 = OpAccessChain %p_long %in %i4
%e1 = OpLoad %long %pe1
%ra = OpExtInst %float %glsl Ldexp %a %e0
%rb = OpExtInst %float %glsl Ldexp %b %e1
%rc = OpExtInst %double %glsl Ldexp %c %e0
%va = OpCompositeConstruct %v2float %a %b
%ve = OpCompositeConstruct %v2long %e0 %e1
%rv = OpExtInst %v2float %glsl Ldexp %va %ve
%wa = OpBitcast %uint %ra
%wb = OpBitcast %uint %rb
%wc = OpBitcast %v2uint %rc
%wc0 = OpCompositeExtract %uint %wc 0
%wc1 = OpCompositeExtract %uint %wc 1
%wv = OpBitcast %v2uint %rv
%wv0 = OpCompositeExtract %uint %wv 0
%wv1 = OpCompositeExtract %uint %wv 1
%o0 = OpAccessChain %p_uint %out %i0 %i0
OpStore %o0 %wa
%o1 = OpAccessChain %p_uint %out %i0 %i1
OpStore %o1 %wb
%o2 = OpAccessChain %p_uint %out %i0 %i2
OpStore %o2 %wc0
%o3 = OpAccessChain %p_uint %out %i0 %i3
OpStore %o3 %wc1
%o4 = OpAccessChain %p_uint %out %i0 %i4
OpStore %o4 %wv0
%o5 = OpAccessChain %p_uint %out %i0 %i5
OpStore %o5 %wv1
OpReturn
OpFunctionEnd
)";
  // a = -1.0f, b = 1.5f, c = -1.0, e0 = -(2^32) + 5, e1 = -(2^33) + 2.
  const std::vector<uint32_t> in = {0xBF800000, 0x3FC00000, 0x00000000, 0xBFF00000,
                                    0x00000005, 0xFFFFFFFF, 0x00000002, 0xFFFFFFFE};
  Expected<sim::RunResult> result = RunBinary(
      MustLoad("ldexp.spvasm", module), {Zeros(0, 6), Words(1, in)}, Options(Model::kMaximal));
  ASSERT_TRUE(result.ok()) << result.error().message;
  const std::vector<uint32_t> expected = {0x80000000, 0x00000000, 0x00000000,
                                          0x80000000, 0x80000000, 0x00000000};
  EXPECT_EQ(WordsOf(*result, 0), expected);
}

// SPV_KHR_float_controls: a compute module declaring |mode| for 32-bit
// floats, its entry block |body|.
std::string FloatControlsModule(const std::string& mode, const std::string& body) {
  // buf: 32-bit words, read and written through bitcasts (moves, which keep
  // every bit under any float control).
  return R"(; Version: 1.4
OpCapability Shader
OpCapability )" +
         mode + R"(
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpExecutionMode %main )" +
         mode + R"( 32
OpDecorate %words ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%words = OpTypeRuntimeArray %int
%Buf = OpTypeStruct %words
%p_buf = OpTypePointer StorageBuffer %Buf
%p_int = OpTypePointer StorageBuffer %int
%buf = OpVariable %p_buf StorageBuffer
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i2 = OpConstant %int 2
%i3 = OpConstant %int 3
%i4 = OpConstant %int 4
%i5 = OpConstant %int 5
%half = OpConstant %float 0.5
%zero = OpConstant %float 0
%main = OpFunction %void None %fn
%entry = OpLabel
)" + body +
         R"(OpReturn
OpFunctionEnd
)";
}

// Run with each denormal mode: buf[0] = x; buf[1] = x * 0.5 (arithmetic),
// buf[2] = x + 0.0, buf[3] = a copy of x (never flushed: Vulkan's rules for
// instructions that only move values).
constexpr char kDenormalBody[] = R"(%px = OpAccessChain %p_int %buf %i0 %i0
%xi = OpLoad %int %px
%x = OpBitcast %float %xi
%prod = OpFMul %float %x %half
%sum = OpFAdd %float %x %zero
%copy = OpCopyObject %float %x
%p1 = OpAccessChain %p_int %buf %i0 %i1
%prodi = OpBitcast %int %prod
OpStore %p1 %prodi
%p2 = OpAccessChain %p_int %buf %i0 %i2
%sumi = OpBitcast %int %sum
OpStore %p2 %sumi
%p3 = OpAccessChain %p_int %buf %i0 %i3
%copyi = OpBitcast %int %copy
OpStore %p3 %copyi
)";

std::vector<uint32_t> RunFloatControls(const std::string& mode, uint32_t x) {
  Expected<sim::RunResult> result =
      RunBinary(MustLoad("controls.spvasm", FloatControlsModule(mode, kDenormalBody)),
                {Words(0, {x, 0, 0, 0})}, Options(Model::kMaximal));
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
  return result.ok() ? WordsOf(*result, 0) : std::vector<uint32_t>();
}

TEST(SimExtended, FloatControlsFlushOrPreserveDenormals) {
  // 2^-126 (0x00800000, the smallest normal) * 0.5 = 2^-127, a denormal
  // (0x00400000); flushed: +0.0. The input stays normal, so x + 0.0 is x.
  EXPECT_EQ(RunFloatControls("DenormFlushToZero", 0x00800000),
            (std::vector<uint32_t>{0x00800000, 0x00000000, 0x00800000, 0x00800000}));
  EXPECT_EQ(RunFloatControls("DenormPreserve", 0x00800000),
            (std::vector<uint32_t>{0x00800000, 0x00400000, 0x00800000, 0x00800000}));
  // A denormal input -2^-149 (0x80000001): flushed to -0.0 (0x80000000) as
  // an operand, so -0.0 * 0.5 = -0.0 and -0.0 + 0.0 = +0.0; the copy keeps
  // its bits. Preserved: -2^-150 rounds to even, -0.0; the sum is x.
  EXPECT_EQ(RunFloatControls("DenormFlushToZero", 0x80000001),
            (std::vector<uint32_t>{0x80000001, 0x80000000, 0x00000000, 0x80000001}));
  EXPECT_EQ(RunFloatControls("DenormPreserve", 0x80000001),
            (std::vector<uint32_t>{0x80000001, 0x80000000, 0x80000001, 0x80000001}));
}

TEST(SimExtended, FloatControlsThatAreTheDefaultRun) {
  // RTE and SignedZeroInfNanPreserve are what the simulator's IEEE
  // arithmetic does: -0.0 + 0.0 is +0.0 under round to nearest.
  EXPECT_EQ(RunFloatControls("RoundingModeRTE", 0x80000000),
            (std::vector<uint32_t>{0x80000000, 0x80000000, 0x00000000, 0x80000000}));
  EXPECT_EQ(RunFloatControls("SignedZeroInfNanPreserve", 0x7F800000),
            (std::vector<uint32_t>{0x7F800000, 0x7F800000, 0x7F800000, 0x7F800000}));
}

TEST(SimExtended, RoundingTowardZeroTruncatesTheExactResult) {
  // RoundingModeRTZ 32: buf = {x, y, k, ...}; buf[3] = x + y, buf[4] = x * y,
  // buf[5] = float(k). The exact results, truncated:
  //   1 + (-2^-60) = 1 - 2^-60, below 1: the float below 1, 1 - 2^-24
  //     (0x3F7FFFFF; rounding the double 1.0 instead would give 0x3F800000);
  //   pi_f * pi_f = 9.8696040... between 0x411DE9E6 and 0x411DE9E7 (nearest);
  //   16777219 = 2^24 + 3 lies between floats 2^24 + 2 (0x4B800001) and 2^24 + 4
  //     (nearest even: 0x4B800002).
  const std::string module =
      FloatControlsModule("RoundingModeRTZ", R"(%px = OpAccessChain %p_int %buf %i0 %i0
%xi = OpLoad %int %px
%x = OpBitcast %float %xi
%py = OpAccessChain %p_int %buf %i0 %i1
%yi = OpLoad %int %py
%y = OpBitcast %float %yi
%pk = OpAccessChain %p_int %buf %i0 %i2
%k = OpLoad %int %pk
%sum = OpFAdd %float %x %y
%prod = OpFMul %float %x %x
%conv = OpConvertSToF %float %k
%p3 = OpAccessChain %p_int %buf %i0 %i3
%sumi = OpBitcast %int %sum
OpStore %p3 %sumi
%p4 = OpAccessChain %p_int %buf %i0 %i4
%prodi = OpBitcast %int %prod
OpStore %p4 %prodi
%p5 = OpAccessChain %p_int %buf %i0 %i5
%convi = OpBitcast %int %conv
OpStore %p5 %convi
)");
  auto run = [&](uint32_t x, uint32_t y) {
    Expected<sim::RunResult> result =
        RunBinary(MustLoad("rtz.spvasm", module), {Words(0, {x, y, 16777219, 0, 0, 0})},
                  Options(Model::kMaximal));
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
    return result.ok() ? WordsOf(*result, 0) : std::vector<uint32_t>();
  };
  const std::vector<uint32_t> one = run(0x3F800000, 0xA1800000);  // 1.0, -2^-60
  ASSERT_EQ(one.size(), 6u);
  EXPECT_EQ(one[3], 0x3F7FFFFFu);
  EXPECT_EQ(one[5], 0x4B800001u);
  const std::vector<uint32_t> pi = run(0x40490FDB, 0x21800000);  // pi, +2^-60: 1 + tiny
  ASSERT_EQ(pi.size(), 6u);
  EXPECT_EQ(pi[4], 0x411DE9E6u);
  EXPECT_EQ(pi[3], 0x40490FDBu);  // pi + 2^-60 truncates to pi
}

}  // namespace
}  // namespace test
}  // namespace spirv_conv
