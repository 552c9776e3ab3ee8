// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Kernel (OpenCL) modules: parameters as buffers, built-ins of size_t width,
// physical pointers, local memory, OpenCL.std, subgroups, and unstructured
// (irreducible) control flow under ipdom. Every expected value is worked out
// by hand in the comment beside it.

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "sim/sim_test_util.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"

namespace spirv_conv {
namespace test {
namespace {

using sim::Model;

constexpr char kHeader64[] = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
)";

constexpr char kHeader64WithOpenClStd[] = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
%ocl = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
)";

Expected<sim::RunResult> RunKernel(const std::string& text, const std::vector<sim::Buffer>& inputs,
                                   const sim::RunOptions& options) {
  return RunBinary(MustLoad("kernel.spvasm", text), inputs, options);
}

// c[i] = a[i] + b[i] at the global invocation id, size_t of |bits| bits.
std::string AddKernel(int bits) {
  const std::string size_t_type = bits == 64 ? "%ulong" : "%uint";
  return std::string("OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n") +
         "OpMemoryModel Physical" + std::to_string(bits) + R"( OpenCL
OpEntryPoint Kernel %add "add" %gid_var
OpExecutionMode %add LocalSize 4 1 1
OpDecorate %gid_var BuiltIn GlobalInvocationId
OpDecorate %gid_var Constant
OpDecorate %gid_var Alignment 32
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3size = OpTypeVector )" +
         size_t_type + R"( 3
%ptr_in = OpTypePointer Input %v3size
%gptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %gptr %gptr %gptr
%gid_var = OpVariable %ptr_in Input
%add = OpFunction %void None %fn
%a = OpFunctionParameter %gptr
%b = OpFunctionParameter %gptr
%c = OpFunctionParameter %gptr
%entry = OpLabel
%gid = OpLoad %v3size %gid_var Aligned 32
%i = OpCompositeExtract )" +
         size_t_type + R"( %gid 0
%pa = OpInBoundsPtrAccessChain %gptr %a %i
%pb = OpInBoundsPtrAccessChain %gptr %b %i
%pc = OpInBoundsPtrAccessChain %gptr %c %i
%x = OpLoad %uint %pa Aligned 4
%y = OpLoad %uint %pb Aligned 4
%s = OpIAdd %uint %x %y
OpStore %pc %s Aligned 4
OpReturn
OpFunctionEnd
)";
}

TEST(SimKernel, AddsTwoGlobalArraysPhysical64AndPhysical32) {
  // 2 workgroups of 4: global ids 0..7; c[i] = (i + 1) + 10 (i + 1).
  const std::vector<uint32_t> expected = {11, 22, 33, 44, 55, 66, 77, 88};
  for (int bits : {64, 32}) {
    Expected<sim::RunResult> r =
        RunKernel(AddKernel(bits),
                  {Values<uint32_t>(0, {1, 2, 3, 4, 5, 6, 7, 8}),
                   Values<uint32_t>(1, {10, 20, 30, 40, 50, 60, 70, 80}), Zeros(2, 8)},
                  Options(Model::kIpdom, 4, {2, 1, 1}));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(ValuesOf<uint32_t>(*r, 2), expected) << bits;
    // The inputs are global buffers too, and come back unchanged.
    EXPECT_EQ(ValuesOf<uint32_t>(*r, 0), (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  }
}

TEST(SimKernel, ResourcesDescribeTheParameters) {
  const std::string text = std::string(kHeader64) + R"(OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%gptr = OpTypePointer CrossWorkgroup %uint
%lptr = OpTypePointer Workgroup %uint
%cptr = OpTypePointer UniformConstant %uint
%fn = OpTypeFunction %void %gptr %lptr %cptr %v3float %uint
%k = OpFunction %void None %fn
%p0 = OpFunctionParameter %gptr
%p1 = OpFunctionParameter %lptr
%p2 = OpFunctionParameter %cptr
%p3 = OpFunctionParameter %v3float
%p4 = OpFunctionParameter %uint
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  SpirvBinary binary = MustLoad("params.spvasm", text);
  auto context = BuildIrContext(binary);
  ASSERT_TRUE(context.ok()) << context.error().message;
  auto program = sim::Compile(**context, "k", "params.spvasm");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const std::vector<sim::ResourceInfo> info = sim::Resources(**program);
  ASSERT_EQ(info.size(), 5u);
  for (uint32_t i = 0; i < 5; ++i) {
    EXPECT_TRUE(info[i].kernel_argument);
    EXPECT_EQ(info[i].set, 0u);
    EXPECT_EQ(info[i].binding, i);
  }
  EXPECT_TRUE(info[0].storage && info[0].runtime_array && !info[0].local_memory);
  EXPECT_TRUE(!info[1].storage && info[1].local_memory);
  EXPECT_TRUE(!info[2].storage && info[2].runtime_array && !info[2].local_memory);
  EXPECT_EQ(info[3].size, 16u);  // a float3 is padded to a float4
  EXPECT_EQ(info[4].size, 4u);
  EXPECT_EQ(sim::LocalSize(**program), (std::array<uint32_t, 3>{1, 1, 1}));  // no LocalSize
}

TEST(SimKernel, ScalarAndVectorArguments) {
  const std::string text = std::string(kHeader64) + R"(OpEntryPoint Kernel %k "k" %gid_var
OpExecutionMode %k LocalSize 4 1 1
OpDecorate %gid_var BuiltIn GlobalInvocationId
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%v3ulong = OpTypeVector %ulong 3
%ptr_in = OpTypePointer Input %v3ulong
%gptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %gptr %uint %float %v2uint %uint
%ulong_1 = OpConstant %ulong 1
%ulong_2 = OpConstant %ulong 2
%ulong_3 = OpConstant %ulong 3
%gid_var = OpVariable %ptr_in Input
%k = OpFunction %void None %fn
%out = OpFunctionParameter %gptr
%n = OpFunctionParameter %uint
%f = OpFunctionParameter %float
%v = OpFunctionParameter %v2uint
%missing = OpFunctionParameter %uint
%entry = OpLabel
%gid = OpLoad %v3ulong %gid_var
%i = OpCompositeExtract %ulong %gid 0
%iu = OpUConvert %uint %i
%t0 = OpIMul %uint %n %iu
%fi = OpConvertUToF %float %iu
%fm = OpFMul %float %f %fi
%t1 = OpConvertFToU %uint %fm
%vx = OpCompositeExtract %uint %v 0
%vy = OpCompositeExtract %uint %v 1
%vyi = OpIMul %uint %vy %iu
%t2 = OpIAdd %uint %vx %vyi
%t3 = OpIAdd %uint %t2 %missing
%i3 = OpIMul %ulong %i %ulong_3
%p0 = OpPtrAccessChain %gptr %out %i3
%p1 = OpPtrAccessChain %gptr %p0 %ulong_1
%p2 = OpPtrAccessChain %gptr %p0 %ulong_2
OpStore %p0 %t0
OpStore %p1 %t1
OpStore %p2 %t3
OpReturn
OpFunctionEnd
)";
  // n = 7, f = 2.5, v = (100, 1000); |missing| has no buffer: 0.
  // Invocation i writes 7i, trunc(2.5 i) = 0 2 5 7, 100 + 1000 i.
  Expected<sim::RunResult> r =
      RunKernel(text,
                {Zeros(0, 12), Values<uint32_t>(1, {7}), Values<float>(2, {2.5f}),
                 Values<uint32_t>(3, {100, 1000})},
                Options(Model::kIpdom));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ValuesOf<uint32_t>(*r, 0),
            (std::vector<uint32_t>{0, 0, 100, 7, 2, 1100, 14, 5, 2100, 21, 7, 3100}));
  ASSERT_EQ(r->buffers.size(), 1u);  // only the global pointer comes back
}

TEST(SimKernel, PtrAccessChainWalksArraysAndStructs) {
  const std::string text = std::string(kHeader64) + R"(OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%S = OpTypeStruct %uint %ulong
%gptr = OpTypePointer CrossWorkgroup %uint
%gptr_long = OpTypePointer CrossWorkgroup %ulong
%gptr_S = OpTypePointer CrossWorkgroup %S
%fn = OpTypeFunction %void %gptr_S %gptr %gptr_long
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%ulong_1 = OpConstant %ulong 1
%ulong_2 = OpConstant %ulong 2
%ulong_3 = OpConstant %ulong 3
%ulong_7 = OpConstant %ulong 7
%ulong_m1 = OpConstant %ulong 0xFFFFFFFFFFFFFFFF
%k = OpFunction %void None %fn
%s = OpFunctionParameter %gptr_S
%data = OpFunctionParameter %gptr
%out = OpFunctionParameter %gptr_long
%entry = OpLabel
OpBranch %header
%header = OpLabel
%p = OpPhi %gptr %data %entry %next %body
%n = OpPhi %uint %uint_0 %entry %n1 %body
%sum = OpPhi %uint %uint_0 %entry %sum1 %body
%more = OpULessThan %bool %n %uint_4
OpBranchConditional %more %body %exit
%body = OpLabel
%v = OpLoad %uint %p
%sum1 = OpIAdd %uint %sum %v
%next = OpPtrAccessChain %gptr %p %ulong_2
%n1 = OpIAdd %uint %n %uint_1
OpBranch %header
%exit = OpLabel
%sum_long = OpUConvert %ulong %sum
OpStore %out %sum_long
%b1 = OpPtrAccessChain %gptr_long %s %ulong_1 %uint_1
%b1v = OpLoad %ulong %b1
%o1 = OpPtrAccessChain %gptr_long %out %ulong_1
OpStore %o1 %b1v
%a2 = OpInBoundsPtrAccessChain %gptr %s %ulong_2 %uint_0
%a2v = OpLoad %uint %a2
%a2l = OpUConvert %ulong %a2v
%o2 = OpPtrAccessChain %gptr_long %out %ulong_2
OpStore %o2 %a2l
%last = OpPtrAccessChain %gptr %data %ulong_7
%before = OpPtrAccessChain %gptr %last %ulong_m1
%bv = OpLoad %uint %before
%bl = OpUConvert %ulong %bv
%o3 = OpPtrAccessChain %gptr_long %out %ulong_3
OpStore %o3 %bl
OpReturn
OpFunctionEnd
)";
  // struct { uint a; ulong b; }: a at 0, b at 8 (natural alignment), 16 bytes.
  // s[i] = {10 + i, (i + 1) << 32 | i}, as 32-bit words: a, padding, b low, b high.
  const std::vector<uint32_t> s = {10, 0, 0, 1, 11, 0, 1, 2, 12, 0, 2, 3};
  // out[0] = data[0] + data[2] + data[4] + data[6] = 1 + 3 + 5 + 7 = 16;
  // out[1] = s[1].b = 2 << 32 | 1; out[2] = s[2].a = 12; out[3] = data[7 - 1] = 7.
  Expected<sim::RunResult> r =
      RunKernel(text,
                {Values<uint32_t>(0, s), Values<uint32_t>(1, {1, 2, 3, 4, 5, 6, 7, 8}),
                 Values<uint64_t>(2, {0, 0, 0, 0})},
                Options(Model::kIpdom));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ValuesOf<uint64_t>(*r, 2), (std::vector<uint64_t>{16, (2ull << 32) | 1, 12, 7}));
}

TEST(SimKernel, PointerIntegerRoundTripsAndGenericPointers) {
  const std::string text = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability GenericPointer
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%gptr = OpTypePointer CrossWorkgroup %uint
%gptr_long = OpTypePointer CrossWorkgroup %ulong
%fptr = OpTypePointer Function %uint
%genptr = OpTypePointer Generic %uint
%lptr = OpTypePointer Workgroup %uint
%fn = OpTypeFunction %void %gptr %gptr_long
%uint_77 = OpConstant %uint 77
%ulong_1 = OpConstant %ulong 1
%ulong_2 = OpConstant %ulong 2
%ulong_3 = OpConstant %ulong 3
%ulong_4 = OpConstant %ulong 4
%ulong_5 = OpConstant %ulong 5
%null = OpConstantNull %gptr
%k = OpFunction %void None %fn
%data = OpFunctionParameter %gptr
%out = OpFunctionParameter %gptr_long
%entry = OpLabel
%var = OpVariable %fptr Function
%p3 = OpPtrAccessChain %gptr %data %ulong_3
%a3 = OpConvertPtrToU %ulong %p3
%a4 = OpIAdd %ulong %a3 %ulong_4
%p4 = OpConvertUToPtr %gptr %a4
%v4 = OpLoad %uint %p4
%a0 = OpConvertPtrToU %ulong %data
%d = OpISub %ulong %a3 %a0
OpStore %out %d
%v4l = OpUConvert %ulong %v4
%o1 = OpPtrAccessChain %gptr_long %out %ulong_1
OpStore %o1 %v4l
%n = OpConvertPtrToU %ulong %null
%o2 = OpPtrAccessChain %gptr_long %out %ulong_2
OpStore %o2 %n
%fa = OpConvertPtrToU %ulong %var
%fp = OpConvertUToPtr %fptr %fa
OpStore %fp %uint_77
%fv = OpLoad %uint %var
%fvl = OpUConvert %ulong %fv
%o3 = OpPtrAccessChain %gptr_long %out %ulong_3
OpStore %o3 %fvl
%g = OpPtrCastToGeneric %genptr %p4
%back = OpGenericCastToPtr %gptr %g
%bv = OpLoad %uint %back
%bvl = OpUConvert %ulong %bv
%o4 = OpPtrAccessChain %gptr_long %out %ulong_4
OpStore %o4 %bvl
%wrong = OpGenericCastToPtr %lptr %g
%wa = OpConvertPtrToU %ulong %wrong
%o5 = OpPtrAccessChain %gptr_long %out %ulong_5
OpStore %o5 %wa
OpReturn
OpFunctionEnd
)";
  // &data[3] as an integer + 4 bytes is &data[4]: data[4] = 5; &data[3] - &data[0] = 12
  // bytes; null is 0; a Function variable written through its own address reads 77; a
  // generic pointer cast back to CrossWorkgroup is the same pointer (5), to Workgroup null.
  Expected<sim::RunResult> r = RunKernel(
      text,
      {Values<uint32_t>(0, {1, 2, 3, 4, 5, 6, 7, 8}), Values<uint64_t>(1, {9, 9, 9, 9, 9, 9})},
      Options(Model::kIpdom));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ValuesOf<uint64_t>(*r, 1), (std::vector<uint64_t>{12, 5, 0, 77, 5, 0}));
}

TEST(SimKernel, ConstantDataByvalAndPointersInMemoryPhysical32) {
  const std::string text = R"(OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %k "k" %table
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_5 = OpConstant %uint 5
%uint_7 = OpConstant %uint 7
%uint_11 = OpConstant %uint 11
%uint_13 = OpConstant %uint 13
%uint_100 = OpConstant %uint 100
%table_t = OpTypeArray %uint %uint_4
%S = OpTypeStruct %uint %uint
%gptr = OpTypePointer CrossWorkgroup %uint
%cptr = OpTypePointer UniformConstant %uint
%cptr_table = OpTypePointer UniformConstant %table_t
%sptr = OpTypePointer Function %S
%fptr = OpTypePointer Function %uint
%fptr_gptr = OpTypePointer Function %gptr
%fn = OpTypeFunction %void %gptr %sptr %uint
%table_init = OpConstantComposite %table_t %uint_5 %uint_7 %uint_11 %uint_13
%table = OpVariable %cptr_table UniformConstant %table_init
%k = OpFunction %void None %fn
%out = OpFunctionParameter %gptr
%s = OpFunctionParameter %sptr
%idx = OpFunctionParameter %uint
%entry = OpLabel
%pp = OpVariable %fptr_gptr Function
OpStore %pp %out
%p = OpLoad %gptr %pp
%tv = OpInBoundsAccessChain %cptr %table %idx
%v = OpLoad %uint %tv
OpStore %p %v
%sa_p = OpInBoundsAccessChain %fptr %s %uint_0
%sb_p = OpInBoundsAccessChain %fptr %s %uint_1
%sa = OpLoad %uint %sa_p
%sb = OpLoad %uint %sb_p
%sum = OpIAdd %uint %sa %sb
%a0 = OpConvertPtrToU %uint %p
%a1 = OpIAdd %uint %a0 %uint_4
%p1 = OpConvertUToPtr %gptr %a1
OpStore %p1 %sum
%p3 = OpPtrAccessChain %gptr %p %uint_3
%d = OpPtrDiff %uint %p3 %p
OpStore %sa_p %uint_100
%sa2 = OpLoad %uint %sa_p
%p2b = OpPtrAccessChain %gptr %p1 %uint_1
OpStore %p2b %d
OpStore %p3 %sa2
OpReturn
OpFunctionEnd
)";
  // out[0] = table[2] = 11 (constant data from its initializer); out[1] = s.a + s.b = 20 + 22
  // through out's 32-bit address + 4; out[2] = &out[3] - &out[0] in elements = 3 (OpPtrDiff);
  // the byval copy is the invocation's own: s.a written as 100 reads 100 (out[3]). The
  // pointer to out went through a Function variable (4 bytes, an address).
  Expected<sim::RunResult> r =
      RunKernel(text, {Zeros(0, 4), Values<uint32_t>(1, {20, 22}), Values<uint32_t>(2, {2})},
                Options(Model::kIpdom));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ValuesOf<uint32_t>(*r, 0), (std::vector<uint32_t>{11, 42, 3, 100}));
  ASSERT_EQ(r->buffers.size(), 1u);  // the byval struct is not read back
  EXPECT_EQ(r->buffers[0].binding, 0u);
}

TEST(SimKernel, LocalMemoryArgumentAndBarrierReduction) {
  // 8 invocations in 2 subgroups of 4, 2 workgroups. scratch[l] = l + 1 + 10 g, then a
  // tree reduction with strides 4, 2, 1 (structured, so every model runs it).
  const std::string text = std::string(kHeader64) + R"(OpEntryPoint Kernel %k "k" %lid_var %grp_var
OpExecutionMode %k LocalSize 8 1 1
OpDecorate %lid_var BuiltIn LocalInvocationId
OpDecorate %grp_var BuiltIn WorkgroupId
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%ptr_in = OpTypePointer Input %v3ulong
%gptr = OpTypePointer CrossWorkgroup %uint
%lptr = OpTypePointer Workgroup %uint
%fn = OpTypeFunction %void %gptr %lptr
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_10 = OpConstant %uint 10
%uint_sem = OpConstant %uint 0x110
%ulong_0 = OpConstant %ulong 0
%ulong_1 = OpConstant %ulong 1
%ulong_2 = OpConstant %ulong 2
%ulong_4 = OpConstant %ulong 4
%lid_var = OpVariable %ptr_in Input
%grp_var = OpVariable %ptr_in Input
%k = OpFunction %void None %fn
%out = OpFunctionParameter %gptr
%scratch = OpFunctionParameter %lptr
%entry = OpLabel
%lidv = OpLoad %v3ulong %lid_var
%lid = OpCompositeExtract %ulong %lidv 0
%grpv = OpLoad %v3ulong %grp_var
%grp = OpCompositeExtract %ulong %grpv 0
%l32 = OpUConvert %uint %lid
%g32 = OpUConvert %uint %grp
%g10 = OpIMul %uint %g32 %uint_10
%l1 = OpIAdd %uint %l32 %uint_1
%val = OpIAdd %uint %l1 %g10
%mine = OpPtrAccessChain %lptr %scratch %lid
OpStore %mine %val
OpControlBarrier %uint_2 %uint_2 %uint_sem
%c4 = OpULessThan %bool %lid %ulong_4
OpSelectionMerge %m4 None
OpBranchConditional %c4 %t4 %m4
%t4 = OpLabel
%x4 = OpLoad %uint %mine
%o4i = OpIAdd %ulong %lid %ulong_4
%o4 = OpPtrAccessChain %lptr %scratch %o4i
%y4 = OpLoad %uint %o4
%s4 = OpIAdd %uint %x4 %y4
OpStore %mine %s4
OpBranch %m4
%m4 = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_sem
%c2 = OpULessThan %bool %lid %ulong_2
OpSelectionMerge %m2 None
OpBranchConditional %c2 %t2 %m2
%t2 = OpLabel
%x2 = OpLoad %uint %mine
%o2i = OpIAdd %ulong %lid %ulong_2
%o2 = OpPtrAccessChain %lptr %scratch %o2i
%y2 = OpLoad %uint %o2
%s2 = OpIAdd %uint %x2 %y2
OpStore %mine %s2
OpBranch %m2
%m2 = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_sem
%c1 = OpULessThan %bool %lid %ulong_1
OpSelectionMerge %m1 None
OpBranchConditional %c1 %t1 %m1
%t1 = OpLabel
%x1 = OpLoad %uint %mine
%o1 = OpPtrAccessChain %lptr %scratch %ulong_1
%y1 = OpLoad %uint %o1
%s1 = OpIAdd %uint %x1 %y1
OpStore %scratch %s1
%dst = OpPtrAccessChain %gptr %out %grp
OpStore %dst %s1
OpBranch %m1
%m1 = OpLabel
OpReturn
OpFunctionEnd
)";
  // Workgroup 0: 1 + ... + 8 = 36; workgroup 1: 36 + 8 * 10 = 116 (its scratch starts
  // zeroed again: the 32 bytes of binding 1 are the size, not the contents).
  for (Model model : {Model::kMaximal, Model::kIpdom, Model::kAdversarial}) {
    Expected<sim::RunResult> r =
        RunKernel(text, {Zeros(0, 2), Values<uint32_t>(1, {5, 5, 5, 5, 5, 5, 5, 5})},
                  Options(model, 4, {2, 1, 1}));
    ASSERT_TRUE(r.ok()) << sim::ModelName(model) << ": " << r.error().message;
    EXPECT_EQ(ValuesOf<uint32_t>(*r, 0), (std::vector<uint32_t>{36, 116})) << sim::ModelName(model);
    EXPECT_EQ(r->buffers.size(), 1u);  // local memory is not read back
    EXPECT_EQ(r->stats.barriers, 6u);  // 3 per workgroup
  }
}

// Writes results %r0..%r<n-1> (uint) to out[0..n-1].
std::string StoreResults(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    const std::string k = std::to_string(i);
    text += "%p" + k + " = OpInBoundsPtrAccessChain %gptr %out %ulong_" + k + "\nOpStore %p" + k +
            " %r" + k + "\n";
  }
  return text;
}

std::string LongConstants(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    text += "%ulong_" + std::to_string(i) + " = OpConstant %ulong " + std::to_string(i) + "\n";
  }
  return text;
}

TEST(SimKernel, OpenClStdIntegerAndFloatFunctions) {
  const std::string text = std::string(kHeader64WithOpenClStd) + R"(OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v2uint = OpTypeVector %uint 2
%gptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %gptr
%m5 = OpConstant %uint 0xFFFFFFFB
%m7 = OpConstant %uint 0xFFFFFFF9
%m10 = OpConstant %uint 0xFFFFFFF6
%m20 = OpConstant %uint 0xFFFFFFEC
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%c3 = OpConstant %uint 3
%c4 = OpConstant %uint 4
%c5 = OpConstant %uint 5
%c7 = OpConstant %uint 7
%c8 = OpConstant %uint 8
%c10 = OpConstant %uint 10
%c20 = OpConstant %uint 20
%c50 = OpConstant %uint 50
%c32 = OpConstant %uint 0x20
%cmax = OpConstant %uint 0xFFFFFFFF
%cff00 = OpConstant %uint 0xFF00
%c0ff0 = OpConstant %uint 0x0FF0
%c00ff = OpConstant %uint 0x00FF
%cf0f0 = OpConstant %uint 0xF0F0
%chigh = OpConstant %uint 0x80000000
%chigh1 = OpConstant %uint 0x80000001
%cfff0 = OpConstant %uint 0xFFFFFFF0
%c7ff0 = OpConstant %uint 0x7FFFFFF0
%cm2 = OpConstant %uint 0xFFFFFFFE
%c4000 = OpConstant %uint 0x40000000
%c24 = OpConstant %uint 0x01000003
%f225 = OpConstant %float 2.25
%f1 = OpConstant %float 1
%f3 = OpConstant %float 3
%f5 = OpConstant %float 5
%fm15 = OpConstant %float -1.5
%v15 = OpConstantComposite %v2float %f1 %f5
%v33 = OpConstantComposite %v2float %f3 %f3
%u12 = OpConstantComposite %v2uint %c1 %c20
%u34 = OpConstantComposite %v2uint %c3 %c4
%usel = OpConstantComposite %v2uint %chigh %c0
)" + LongConstants(24) + R"(%k = OpFunction %void None %fn
%out = OpFunctionParameter %gptr
%entry = OpLabel
%r0 = OpExtInst %uint %ocl s_min %m5 %c3
%r1 = OpExtInst %uint %ocl u_max %c5 %cmax
%r2 = OpExtInst %uint %ocl s_clamp %m20 %m10 %c10
%r3 = OpExtInst %uint %ocl u_clamp %c50 %c10 %c20
%r4 = OpExtInst %uint %ocl popcount %cf0f0
%sq = OpExtInst %float %ocl sqrt %f225
%r5 = OpBitcast %uint %sq
%fm = OpExtInst %v2float %ocl fmax %v15 %v33
%fmx = OpCompositeExtract %float %fm 0
%fmy = OpCompositeExtract %float %fm 1
%r6 = OpBitcast %uint %fmx
%r7 = OpBitcast %uint %fmy
%r8 = OpExtInst %uint %ocl clz %c1
%r9 = OpExtInst %uint %ocl ctz %c8
%r10 = OpExtInst %uint %ocl rotate %chigh1 %c1
%r11 = OpExtInst %uint %ocl u_add_sat %cfff0 %c32
%r12 = OpExtInst %uint %ocl s_add_sat %c7ff0 %c32
%r13 = OpExtInst %uint %ocl u_mul_hi %chigh %c4
%r14 = OpExtInst %uint %ocl s_mul_hi %cm2 %c4000
%r15 = OpExtInst %uint %ocl u_mad24 %c24 %c5 %c7
%r16 = OpExtInst %uint %ocl select %c10 %c20 %c1
%r17 = OpExtInst %uint %ocl bitselect %cff00 %c0ff0 %c00ff
%r18 = OpExtInst %uint %ocl s_abs %m7
%fl = OpExtInst %float %ocl floor %fm15
%r19 = OpBitcast %uint %fl
%vs = OpExtInst %v2uint %ocl select %u12 %u34 %usel
%r20 = OpCompositeExtract %uint %vs 0
%r21 = OpCompositeExtract %uint %vs 1
%r22 = OpExtInst %uint %ocl u_min %c5 %c3
%r23 = OpExtInst %uint %ocl s_max %m5 %m7
)" + StoreResults(24) + R"(OpReturn
OpFunctionEnd
)";
  const std::vector<uint32_t> expected = {
      0xFFFFFFFB,  // s_min(-5, 3) = -5
      0xFFFFFFFF,  // u_max(5, 2^32 - 1)
      0xFFFFFFF6,  // s_clamp(-20, -10, 10) = -10
      20,          // u_clamp(50, 10, 20)
      8,           // popcount(0xF0F0)
      0x3FC00000,  // sqrt(2.25) = 1.5f
      0x40400000,  // fmax((1, 5), (3, 3)).x = 3.0f
      0x40A00000,  // fmax((1, 5), (3, 3)).y = 5.0f
      31,          // clz(1)
      3,           // ctz(8)
      3,           // rotate(0x80000001, 1): the top bit comes round to bit 0
      0xFFFFFFFF,  // u_add_sat(2^32 - 16, 32) saturates
      0x7FFFFFFF,  // s_add_sat(2^31 - 16, 32) saturates
      2,           // u_mul_hi(2^31, 4) = 2^33 >> 32
      0xFFFFFFFF,  // s_mul_hi(-2, 2^30) = -2^31 >> 32 = -1
      22,          // u_mad24(0x01000003, 5, 7): the low 24 bits, 3 * 5 + 7
      20,          // select(10, 20, 1): c != 0 picks b
      0xFFF0,      // bitselect(0xFF00, 0x0FF0, 0x00FF) = 0xFF00 | 0x00F0
      7,           // s_abs(-7)
      0xC0000000,  // floor(-1.5) = -2.0f
      3,           // select((1, 20), (3, 4), (0x80000000, 0)).x: the MSB is set, b
      20,          // .y: MSB clear, a
      3,           // u_min(5, 3)
      0xFFFFFFFB,  // s_max(-5, -7) = -5
  };
  Expected<sim::RunResult> r = RunKernel(text, {Zeros(0, 24)}, Options(Model::kIpdom));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ValuesOf<uint32_t>(*r, 0), expected);
}

// %p0..%p<n-1>: pointers to out[0..n-1] (uint), to write through or bitcast.
std::string OutPointers(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    const std::string k = std::to_string(i);
    text += "%p" + k + " = OpInBoundsPtrAccessChain %gptr %out %ulong_" + k + "\n";
  }
  return text;
}

// Stores %r<i> to %p<i> for the listed indices.
std::string StoreAt(const std::vector<int>& indices) {
  std::string text;
  for (int i : indices) text += "OpStore %p" + std::to_string(i) + " %r" + std::to_string(i) + "\n";
  return text;
}

TEST(SimKernel, OpenClStdFunctionsWritingThroughPointers) {
  // The second results go to Function variables (loaded back into %r<i>) or
  // straight into out[] through pointers into the buffer (%g<i>, or %p<i> for ints).
  const std::string text = std::string(kHeader64WithOpenClStd) + R"(OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v2uint = OpTypeVector %uint 2
%gptr = OpTypePointer CrossWorkgroup %uint
%gfptr = OpTypePointer CrossWorkgroup %float
%gv2fptr = OpTypePointer CrossWorkgroup %v2float
%gv2uptr = OpTypePointer CrossWorkgroup %v2uint
%ffptr = OpTypePointer Function %float
%fuptr = OpTypePointer Function %uint
%fn = OpTypeFunction %void %gptr
%fm1_25 = OpConstant %float -1.25
%ftiny = OpConstant %float -0x1p-30
%f2_5 = OpConstant %float 2.5
%fm0_125 = OpConstant %float -0.125
%fm3_75 = OpConstant %float -3.75
%fm0_5 = OpConstant %float -0.5
%fm12 = OpConstant %float -12
%f0_375 = OpConstant %float 0.375
%f0_5 = OpConstant %float 0.5
%f0 = OpConstant %float 0
%f1 = OpConstant %float 1
%fm1 = OpConstant %float -1
%f2 = OpConstant %float 2
%f3 = OpConstant %float 3
%fm3 = OpConstant %float -3
%f7 = OpConstant %float 7
%fm7 = OpConstant %float -7
%f10 = OpConstant %float 10
%f12 = OpConstant %float 12
%f1000_5 = OpConstant %float 1000.5
%u5 = OpConstant %uint 5
%vfract = OpConstantComposite %v2float %f2_5 %fm0_125
%vmodf = OpConstantComposite %v2float %f2_5 %fm0_5
%vfrexp = OpConstantComposite %v2float %f1 %f0_375
%vrx = OpConstantComposite %v2float %fm7 %f10
%vry = OpConstantComposite %v2float %f2 %fm3
)" + LongConstants(41) + R"(%k = OpFunction %void None %fn
%out = OpFunctionParameter %gptr
%entry = OpLabel
%floor_var = OpVariable %ffptr Function
%whole_var = OpVariable %ffptr Function
%quo_var = OpVariable %fuptr Function
%sign_var = OpVariable %fuptr Function
)" + OutPointers(41) + R"(%g1 = OpBitcast %gfptr %p1
%g6 = OpBitcast %gv2fptr %p6
%g12 = OpBitcast %gv2fptr %p12
%g18 = OpBitcast %gv2uptr %p18
%g21 = OpBitcast %gfptr %p21
%g28 = OpBitcast %gv2uptr %p28
%a0 = OpExtInst %float %ocl fract %fm1_25 %g1
%r0 = OpBitcast %uint %a0
%a2 = OpExtInst %float %ocl fract %ftiny %floor_var
%r2 = OpBitcast %uint %a2
%l3 = OpLoad %float %floor_var
%r3 = OpBitcast %uint %l3
%v4 = OpExtInst %v2float %ocl fract %vfract %g6
%a4 = OpCompositeExtract %float %v4 0
%a5 = OpCompositeExtract %float %v4 1
%r4 = OpBitcast %uint %a4
%r5 = OpBitcast %uint %a5
%a8 = OpExtInst %float %ocl modf %fm3_75 %whole_var
%r8 = OpBitcast %uint %a8
%l9 = OpLoad %float %whole_var
%r9 = OpBitcast %uint %l9
%v10 = OpExtInst %v2float %ocl modf %vmodf %g12
%a10 = OpCompositeExtract %float %v10 0
%a11 = OpCompositeExtract %float %v10 1
%r10 = OpBitcast %uint %a10
%r11 = OpBitcast %uint %a11
%a14 = OpExtInst %float %ocl frexp %fm12 %p15
%r14 = OpBitcast %uint %a14
%v16 = OpExtInst %v2float %ocl frexp %vfrexp %g18
%a16 = OpCompositeExtract %float %v16 0
%a17 = OpCompositeExtract %float %v16 1
%r16 = OpBitcast %uint %a16
%r17 = OpBitcast %uint %a17
%a20 = OpExtInst %float %ocl sincos %f0_5 %g21
%r20 = OpBitcast %uint %a20
%a22 = OpExtInst %float %ocl remquo %f7 %f2 %p23
%r22 = OpBitcast %uint %a22
%a24 = OpExtInst %float %ocl remquo %f1000_5 %f3 %quo_var
%r24 = OpBitcast %uint %a24
%r25 = OpLoad %uint %quo_var
%v26 = OpExtInst %v2float %ocl remquo %vrx %vry %g28
%a26 = OpCompositeExtract %float %v26 0
%a27 = OpCompositeExtract %float %v26 1
%r26 = OpBitcast %uint %a26
%r27 = OpBitcast %uint %a27
%a30 = OpExtInst %float %ocl lgamma_r %fm0_5 %p31
%r30 = OpBitcast %uint %a30
%a32 = OpExtInst %float %ocl lgamma_r %f3 %sign_var
%r32 = OpBitcast %uint %a32
%r33 = OpLoad %uint %sign_var
%r34 = OpExtInst %uint %ocl ilogb %f12
%r35 = OpExtInst %uint %ocl ilogb %f0
%r36 = OpExtInst %uint %ocl ilogb %f0_375
%a37 = OpExtInst %float %ocl nan %u5
%r37 = OpBitcast %uint %a37
%a38 = OpExtInst %float %ocl nextafter %f1 %f2
%r38 = OpBitcast %uint %a38
%a39 = OpExtInst %float %ocl nextafter %f0 %fm1
%r39 = OpBitcast %uint %a39
%a40 = OpExtInst %float %ocl nextafter %f1 %f0
%r40 = OpBitcast %uint %a40
)" + StoreAt({0,  2,  3,  4,  5,  8,  9,  10, 11, 14, 16, 17, 20, 22,
              24, 25, 26, 27, 30, 32, 33, 34, 35, 36, 37, 38, 39, 40}) +
                           R"(OpReturn
OpFunctionEnd
)";
  Expected<sim::RunResult> r = RunKernel(text, {Zeros(0, 41)}, Options(Model::kIpdom));
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::vector<uint32_t> words = ValuesOf<uint32_t>(*r, 0);
  const std::vector<float> floats = ValuesOf<float>(*r, 0);
  ASSERT_EQ(words.size(), 41u);
  // sin, cos and lgamma are transcendental: compared to the C library's within 4 ulps.
  EXPECT_FLOAT_EQ(floats[20], std::sin(0.5f));  // sincos(0.5): sin returned,
  EXPECT_FLOAT_EQ(floats[21], std::cos(0.5f));  // cos stored
  EXPECT_FLOAT_EQ(floats[30], static_cast<float>(std::log(2 * std::sqrt(M_PI))));  // below
  EXPECT_FLOAT_EQ(floats[32], std::log(2.0f));  // lgamma(3) = ln Γ(3) = ln 2
  words[20] = words[21] = words[30] = words[32] = 0;
  const std::vector<uint32_t> expected = {
      0x3F400000,  // fract(-1.25) = -1.25 - floor(-1.25) = -1.25 + 2 = 0.75
      0xC0000000,  // and floor(-1.25) = -2 stored into out[1] through a global float*
      0x3F7FFFFF,  // fract(-2^-30): 1 - 2^-30 would round to 1.0f; clamped to 0x1.fffffep-1
      0xBF800000,  // floor(-2^-30) = -1, stored into a Function variable
      0x3F000000,  // fract((2.5, -0.125)) = (0.5,
      0x3F600000,  //   0.875): -0.125 - (-1)
      0x40000000,  // floors (2,
      0xBF800000,  //   -1) stored as a float2
      0xBF400000,  // modf(-3.75): the fraction -0.75 (the sign of x)
      0xC0400000,  // and the integral part -3
      0x3F000000,  // modf((2.5, -0.5)) = (0.5,
      0xBF000000,  //   -0.5)
      0x40000000,  // integral parts (2,
      0x80000000,  //   -0.0: the sign of x) stored as a float2
      0xBF400000,  // frexp(-12) = -0.75, as -12 = -0.75 * 2^4
      4,           // and the exponent 4 stored through an int*
      0x3F000000,  // frexp((1, 0.375)): 1 = 0.5 * 2^1,
      0x3F400000,  //   0.375 = 0.75 * 2^-1
      1,           // exponents (1,
      0xFFFFFFFF,  //   -1) stored as an int2
      0,           // sincos (checked above)
      0,           // cos (checked above)
      0xBF800000,  // remquo(7, 2): 7 / 2 = 3.5 rounds to the even 4: 7 - 8 = -1
      4,           // and the quotient 4
      0xBFC00000,  // remquo(1000.5, 3): 333.5 rounds to 334: 1000.5 - 1002 = -1.5
      78,          // its 7 low bits: 334 - 256 = 78 (the C library may keep only 3: 6)
      0x3F800000,  // remquo((-7, 10), (2, -3)): -3.5 rounds to -4: -7 + 8 = 1;
      0x3F800000,  //   -3.33 rounds to -3: 10 - 9 = 1
      0xFFFFFFFC,  // quotients (-4,
      0xFFFFFFFD,  //   -3) with the sign of x / y, as an int2
      0,           // lgamma_r(-0.5) = ln |Γ(-0.5)| = ln(2 sqrt(pi)) (checked above)
      0xFFFFFFFF,  // Γ(-0.5) = -2 sqrt(pi) < 0: sign -1
      0,           // lgamma_r(3) (checked above)
      1,           // Γ(3) = 2 > 0: sign 1
      3,           // ilogb(12): 12 = 1.5 * 2^3
      0x80000000,  // ilogb(0) = FP_ILOGB0 = INT_MIN
      0xFFFFFFFE,  // ilogb(0.375): 0.375 = 1.5 * 2^-2
      0x7FC00005,  // nan(5): the quiet NaN with payload 5
      0x3F800001,  // nextafter(1, 2): one ulp up
      0x80000001,  // nextafter(0, -1): the smallest subnormal, negative
      0x3F7FFFFF,  // nextafter(1, 0): one ulp down
  };
  EXPECT_EQ(words, expected);
}

TEST(SimKernel, OpenClStdVloadVstoreAndHalfConversions) {
  // a: 12 floats 0..11; out: 26 floats; h: 8 halves; hout: 16 halves; off: vload4's offset.
  const std::string text = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Float16Buffer
%ocl = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%half = OpTypeFloat 16
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%gfptr = OpTypePointer CrossWorkgroup %float
%gv2fptr = OpTypePointer CrossWorkgroup %v2float
%gv3fptr = OpTypePointer CrossWorkgroup %v3float
%gv4fptr = OpTypePointer CrossWorkgroup %v4float
%ghptr = OpTypePointer CrossWorkgroup %half
%ffptr = OpTypePointer Function %float
%fv4ptr = OpTypePointer Function %v4float
%fn = OpTypeFunction %void %gfptr %gfptr %ghptr %ghptr %ulong
%f1 = OpConstant %float 1
%fm2 = OpConstant %float -2
%f0_5 = OpConstant %float 0.5
%f1_5 = OpConstant %float 1.5
%fm0_25 = OpConstant %float -0.25
%f10 = OpConstant %float 10
%f11 = OpConstant %float 11
%f12 = OpConstant %float 12
%f20 = OpConstant %float 20
%f21 = OpConstant %float 21
%third = OpConstant %float 0x1.555556p-2
%mthird = OpConstant %float -0x1.555556p-2
%f70000 = OpConstant %float 70000
)" + LongConstants(25) + R"(%k = OpFunction %void None %fn
%a = OpFunctionParameter %gfptr
%out = OpFunctionParameter %gfptr
%h = OpFunctionParameter %ghptr
%hout = OpFunctionParameter %ghptr
%off = OpFunctionParameter %ulong
%entry = OpLabel
%var = OpVariable %fv4ptr Function
%o0 = OpBitcast %gv4fptr %out
%p4 = OpInBoundsPtrAccessChain %gfptr %out %ulong_4
%o4 = OpBitcast %gv3fptr %p4
%p12 = OpInBoundsPtrAccessChain %gfptr %out %ulong_12
%o12 = OpBitcast %gv4fptr %p12
%p16 = OpInBoundsPtrAccessChain %gfptr %out %ulong_16
%p17 = OpInBoundsPtrAccessChain %gfptr %out %ulong_17
%o17 = OpBitcast %gv2fptr %p17
%p19 = OpInBoundsPtrAccessChain %gfptr %out %ulong_19
%o19 = OpBitcast %gv3fptr %p19
%p22 = OpInBoundsPtrAccessChain %gfptr %out %ulong_22
%o22 = OpBitcast %gv3fptr %p22
%l4 = OpExtInst %v4float %ocl vloadn %off %a 4
OpStore %o0 %l4
%l3 = OpExtInst %v3float %ocl vloadn %ulong_2 %a 3
OpStore %o4 %l3
%s3 = OpCompositeConstruct %v3float %f10 %f11 %f12
%x0 = OpExtInst %void %ocl vstoren %s3 %ulong_3 %out
%vp = OpBitcast %ffptr %var
%s2 = OpCompositeConstruct %v2float %f20 %f21
%x1 = OpExtInst %void %ocl vstoren %s2 %ulong_1 %vp
%vv = OpLoad %v4float %var
OpStore %o12 %vv
%h1 = OpExtInst %float %ocl vload_half %ulong_1 %h
OpStore %p16 %h1
%h2 = OpExtInst %v2float %ocl vload_halfn %ulong_1 %h 2
OpStore %o17 %h2
%h3 = OpExtInst %v3float %ocl vload_halfn %ulong_1 %h 3
OpStore %o19 %h3
%ha3 = OpExtInst %v3float %ocl vloada_halfn %ulong_1 %h 3
OpStore %o22 %ha3
%x2 = OpExtInst %void %ocl vstore_half %third %ulong_0 %hout
%x3 = OpExtInst %void %ocl vstore_half_r %third %ulong_1 %hout RTP
%x4 = OpExtInst %void %ocl vstore_half_r %mthird %ulong_2 %hout RTP
%x5 = OpExtInst %void %ocl vstore_half_r %mthird %ulong_3 %hout RTN
%x6 = OpExtInst %void %ocl vstore_half_r %f70000 %ulong_4 %hout RTZ
%x7 = OpExtInst %void %ocl vstore_half %f70000 %ulong_5 %hout
%d2 = OpCompositeConstruct %v2float %f1_5 %fm0_25
%x8 = OpExtInst %void %ocl vstore_halfn %d2 %ulong_3 %hout
%d3 = OpCompositeConstruct %v3float %f1 %fm2 %f0_5
%x9 = OpExtInst %void %ocl vstorea_halfn %d3 %ulong_2 %hout
%e2 = OpCompositeConstruct %v2float %third %mthird
%x10 = OpExtInst %void %ocl vstore_halfn_r %e2 %ulong_6 %hout RTZ
%g2 = OpCompositeConstruct %v2float %third %f70000
%x11 = OpExtInst %void %ocl vstorea_halfn_r %g2 %ulong_7 %hout RTP
OpReturn
OpFunctionEnd
)";
  std::vector<float> a(12);
  for (int i = 0; i < 12; ++i) a[i] = static_cast<float>(i);
  // 1, -2, 0x3555 = 1365 / 4096, 65504 (the largest half), 2^-24 (the smallest), 0.5, 3, -1.
  const std::vector<uint16_t> h = {0x3C00, 0xC000, 0x3555, 0x7BFF, 0x0001, 0x3800, 0x4200, 0xBC00};
  auto inputs = [&](uint64_t offset) {
    return std::vector<sim::Buffer>{
        Values<float>(0, a), Values<float>(1, std::vector<float>(26)), Values<uint16_t>(2, h),
        Values<uint16_t>(3, std::vector<uint16_t>(16)), Values<uint64_t>(4, {offset})};
  };
  Expected<sim::RunResult> r = RunKernel(text, inputs(1), Options(Model::kIpdom));
  ASSERT_TRUE(r.ok()) << r.error().message;
  // out[0..3]   vload4(1, a) = a[4 * 1 ..]
  // out[4..7]   vload3(2, a) = a[3 * 2 ..] (3 elements, not 4), stored as a float3
  // out[8..11]  vstore3((10, 11, 12), 3, out) writes out[3 * 3 ..]
  // out[12..15] vstore2((20, 21), 1, p) into a zero-filled Function float4, loaded back
  // out[16]     vload_half(1, h) = h[1]
  // out[17..18] vload_half2(1, h) = h[2], h[3]
  // out[19..21] vload_half3(1, h) = h[3 * 1 ..]
  // out[22..24] vloada_half3(1, h) = h[4 * 1 ..] (a half3 steps as a half4)
  // out[25]     untouched (a float3 store takes 16 bytes: room for it)
  const float tiny = std::ldexp(1.0f, -24);
  const std::vector<float> expected = {4,     5,     6,    7,    6,    7,    8,  0,  0,
                                       10,    11,    12,   0,    0,    20,   21, -2, 1365.0f / 4096,
                                       65504, 65504, tiny, 0.5f, tiny, 0.5f, 3,  0};
  EXPECT_EQ(ValuesOf<float>(*r, 1), expected);
  // 1/3 as a float is 0x1.555556p-2; in half units of 2^-12 that is 1365.33...
  const std::vector<uint16_t> expected_halves = {
      0x3555,          // vstore_half(1/3, 0): to nearest, 1365 = 0x555 (+ exponent 0x3400)
      0x3556,          // vstore_half_rtp(1/3, 1): up, 1366
      0xB555,          // vstore_half_rtp(-1/3, 2): towards +inf, the magnitude goes down
      0xB556,          // vstore_half_rtn(-1/3, 3): towards -inf, the magnitude goes up
      0x7BFF,          // vstore_half_rtz(70000, 4): the largest finite half, 65504
      0x7C00,          // vstore_half(70000, 5): beyond 65520 rounds to +inf
      0x3E00, 0xB400,  // vstore_half2((1.5, -0.25), 3): hout[6 ..]
      0x3C00, 0xC000,  // vstorea_half3((1, -2, 0.5), 2): hout[4 * 2 ..] (a half3 steps as 4)
      0x3800, 0,       //   0.5, and hout[11] untouched
      0x3555, 0xB555,  // vstore_half2_rtz((1/3, -1/3), 6): hout[12 ..], magnitudes down
      0x3556, 0x7C00,  // vstorea_half2_rtp((1/3, 70000), 7): hout[14 ..], up (to +inf)
  };
  EXPECT_EQ(ValuesOf<uint16_t>(*r, 3), expected_halves);
  // vload4(3, a) reads a[12..15] of 12 floats: out of bounds, the kernel's fault.
  r = RunKernel(text, inputs(3), Options(Model::kIpdom));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::kFindings);
  EXPECT_NE(r.error().message.find("out-of-bounds access: 4 bytes at offset 48"), std::string::npos)
      << r.error().message;
}

TEST(SimKernel, CopyMemorySizedBetweenGlobalAndFunctionMemory) {
  const std::string text = std::string(kHeader64) + R"(OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%ulong_1 = OpConstant %ulong 1
%ulong_2 = OpConstant %ulong 2
%ulong_4 = OpConstant %ulong 4
%ulong_12 = OpConstant %ulong 12
%arr4 = OpTypeArray %uint %ulong_4
%gptr = OpTypePointer CrossWorkgroup %uint
%farr = OpTypePointer Function %arr4
%fn = OpTypeFunction %void %gptr %gptr %uint
%k = OpFunction %void None %fn
%in = OpFunctionParameter %gptr
%out = OpFunctionParameter %gptr
%size = OpFunctionParameter %uint
%entry = OpLabel
%tmp = OpVariable %farr Function
%src = OpInBoundsPtrAccessChain %gptr %in %ulong_2
OpCopyMemorySized %tmp %src %ulong_12
%dst = OpInBoundsPtrAccessChain %gptr %out %ulong_1
OpCopyMemorySized %dst %tmp %size Aligned 4
OpReturn
OpFunctionEnd
)";
  auto inputs = [](uint32_t size) {
    return std::vector<sim::Buffer>{
        Values<uint32_t>(0, {0x11111111, 0x22222222, 0x33333333, 0x44444444, 0x55555555}),
        Values<uint32_t>(1, std::vector<uint32_t>(6, 0xAAAAAAAA)), Values<uint32_t>(2, {size})};
  };
  // 12 bytes of in[2..] into the (zero-filled) uint[4]: 0x33.., 0x44.., 0x55.., 0. Then
  // 14 bytes of it to out[1..]: three words and the low half of out[4] (little-endian).
  Expected<sim::RunResult> r = RunKernel(text, inputs(14), Options(Model::kIpdom));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ValuesOf<uint32_t>(*r, 1), (std::vector<uint32_t>{0xAAAAAAAA, 0x33333333, 0x44444444,
                                                              0x55555555, 0xAAAA0000, 0xAAAAAAAA}));
  // 20 bytes fit in out from out[1] (20 of 24 bytes) but not in the 16-byte variable.
  r = RunKernel(text, inputs(20), Options(Model::kIpdom));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::kFindings);
  EXPECT_NE(r.error().message.find("out-of-bounds access: 20 bytes at offset 0"), std::string::npos)
      << r.error().message;
}

TEST(SimKernel, SubgroupBallotAndBuiltinsWithAPartialSubgroup) {
  const std::string text = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability GroupNonUniform
OpCapability GroupNonUniformBallot
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %lid_var %sub_var %size_var %sgid_var %nsg_var
OpExecutionMode %k LocalSize 12 1 1
OpDecorate %lid_var BuiltIn LocalInvocationId
OpDecorate %sub_var BuiltIn SubgroupLocalInvocationId
OpDecorate %size_var BuiltIn SubgroupSize
OpDecorate %sgid_var BuiltIn SubgroupId
OpDecorate %nsg_var BuiltIn NumSubgroups
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%v4uint = OpTypeVector %uint 4
%ptr_in = OpTypePointer Input %v3ulong
%ptr_in_uint = OpTypePointer Input %uint
%gptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %gptr
%uint_3 = OpConstant %uint 3
%uint_100 = OpConstant %uint 100
%ulong_1 = OpConstant %ulong 1
%ulong_2 = OpConstant %ulong 2
%ulong_3 = OpConstant %ulong 3
%ulong_4 = OpConstant %ulong 4
%lid_var = OpVariable %ptr_in Input
%sub_var = OpVariable %ptr_in_uint Input
%size_var = OpVariable %ptr_in_uint Input
%sgid_var = OpVariable %ptr_in_uint Input
%nsg_var = OpVariable %ptr_in_uint Input
%k = OpFunction %void None %fn
%out = OpFunctionParameter %gptr
%entry = OpLabel
%lidv = OpLoad %v3ulong %lid_var
%lid = OpCompositeExtract %ulong %lidv 0
%bit = OpBitwiseAnd %ulong %lid %ulong_1
%odd = OpIEqual %bool %bit %ulong_1
%ballot = OpGroupNonUniformBallot %v4uint %uint_3 %odd
%r0 = OpCompositeExtract %uint %ballot 0
%r1 = OpLoad %uint %size_var
%r2 = OpLoad %uint %sub_var
%sgid = OpLoad %uint %sgid_var
%nsg = OpLoad %uint %nsg_var
%sg100 = OpIMul %uint %sgid %uint_100
%r3 = OpIAdd %uint %sg100 %nsg
%base = OpIMul %ulong %lid %ulong_4
%p0 = OpPtrAccessChain %gptr %out %base
%p1 = OpPtrAccessChain %gptr %p0 %ulong_1
%p2 = OpPtrAccessChain %gptr %p0 %ulong_2
%p3 = OpPtrAccessChain %gptr %p0 %ulong_3
OpStore %p0 %r0
OpStore %p1 %r1
OpStore %p2 %r2
OpStore %p3 %r3
OpReturn
OpFunctionEnd
)";
  // 12 invocations, subgroups of 8: lanes 0..7 then a partial subgroup of 4 (8..11).
  // Ballot of odd ids: 0xAA in the first, lanes 1 and 3 (0xA) in the second. OpenCL's
  // SubgroupSize is the subgroup's own size (8, then 4); SubgroupId * 100 + NumSubgroups.
  std::vector<uint32_t> expected;
  for (uint32_t i = 0; i < 12; ++i) {
    const bool first = i < 8;
    expected.insert(expected.end(),
                    {first ? 0xAAu : 0xAu, first ? 8u : 4u, i % 8, first ? 2u : 102u});
  }
  for (Model model : {Model::kMaximal, Model::kIpdom, Model::kAdversarial}) {
    Expected<sim::RunResult> r = RunKernel(text, {Zeros(0, 48)}, Options(model, 8));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(ValuesOf<uint32_t>(*r, 0), expected) << sim::ModelName(model);
  }
}

// Two blocks %A and %B in a cycle entered from both sides (an irreducible region):
// even invocations enter at %A, odd ones at %B; each step adds 1 (A) or 10 (B) and
// counts k = id / 2 + 1 down; the region is left from whichever block k reaches 0 in.
// At %exit (the post-dominator of every branch) a ballot sees who is there.
constexpr char kIrreducible[] = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability GroupNonUniform
OpCapability GroupNonUniformBallot
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %lid_var
OpExecutionMode %k LocalSize 8 1 1
OpDecorate %lid_var BuiltIn LocalInvocationId
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%v4uint = OpTypeVector %uint 4
%ptr_in = OpTypePointer Input %v3ulong
%gptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %gptr
%true = OpConstantTrue %bool
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_10 = OpConstant %uint 10
%ulong_1 = OpConstant %ulong 1
%ulong_2 = OpConstant %ulong 2
%ulong_3 = OpConstant %ulong 3
%lid_var = OpVariable %ptr_in Input
%k = OpFunction %void None %fn
%out = OpFunctionParameter %gptr
%entry = OpLabel
%lidv = OpLoad %v3ulong %lid_var
%lid = OpCompositeExtract %ulong %lidv 0
%id = OpUConvert %uint %lid
%half = OpUDiv %uint %id %uint_2
%k0 = OpIAdd %uint %half %uint_1
%bit = OpBitwiseAnd %uint %id %uint_1
%even = OpIEqual %bool %bit %uint_0
OpBranchConditional %even %A %B
%A = OpLabel
%xa = OpPhi %uint %uint_0 %entry %xb1 %B
%ka = OpPhi %uint %k0 %entry %kb1 %B
%xa1 = OpIAdd %uint %xa %uint_1
%ka1 = OpISub %uint %ka %uint_1
%doneA = OpIEqual %bool %ka1 %uint_0
OpBranchConditional %doneA %exit %B
%B = OpLabel
%xb = OpPhi %uint %uint_0 %entry %xa1 %A
%kb = OpPhi %uint %k0 %entry %ka1 %A
%xb1 = OpIAdd %uint %xb %uint_10
%kb1 = OpISub %uint %kb %uint_1
%doneB = OpIEqual %bool %kb1 %uint_0
OpBranchConditional %doneB %exit %A
%exit = OpLabel
%x = OpPhi %uint %xa1 %A %xb1 %B
%from = OpPhi %uint %uint_1 %A %uint_2 %B
%all = OpGroupNonUniformBallot %v4uint %uint_3 %true
%seen = OpCompositeExtract %uint %all 0
%base = OpIMul %ulong %lid %ulong_3
%p0 = OpPtrAccessChain %gptr %out %base
%p1 = OpPtrAccessChain %gptr %p0 %ulong_1
%p2 = OpPtrAccessChain %gptr %p0 %ulong_2
OpStore %p0 %x
OpStore %p1 %from
OpStore %p2 %seen
OpReturn
OpFunctionEnd
)";

TEST(SimKernel, IrreducibleLoopUnderIpdom) {
  // id: k0, the blocks run, x, exit block (1 = A, 2 = B)
  //  0: 1  A            1  A      1: 1  B          10  B
  //  2: 2  A B          11 B      3: 2  B A        11  A
  //  4: 3  A B A        12 A      5: 3  B A B      21  B
  //  6: 4  A B A B      22 B      7: 4  B A B A    22  A
  // ipdom reunites all 8 lanes at %exit: the ballot sees 0xFF everywhere.
  const uint32_t x[8] = {1, 10, 11, 11, 12, 21, 22, 22};
  const uint32_t from[8] = {1, 2, 2, 1, 1, 2, 2, 1};
  std::vector<uint32_t> expected;
  for (int i = 0; i < 8; ++i) expected.insert(expected.end(), {x[i], from[i], 0xFFu});
  Expected<sim::RunResult> r = RunKernel(kIrreducible, {Zeros(0, 24)}, Options(Model::kIpdom));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ValuesOf<uint32_t>(*r, 0), expected);

  // Adversarial promises no reconvergence after an unstructured branch: the same
  // values, the ballot whatever it saw (a non-empty subset holding the lane itself).
  for (uint64_t seed = 0; seed < 4; ++seed) {
    sim::RunOptions options = Options(Model::kAdversarial);
    options.seed = seed;
    r = RunKernel(kIrreducible, {Zeros(0, 24)}, options);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const std::vector<uint32_t> words = ValuesOf<uint32_t>(*r, 0);
    ASSERT_EQ(words.size(), 24u);
    for (uint32_t i = 0; i < 8; ++i) {
      EXPECT_EQ(words[i * 3], x[i]) << i;
      EXPECT_EQ(words[i * 3 + 1], from[i]) << i;
      EXPECT_TRUE((words[i * 3 + 2] >> i) & 1) << i;
    }
  }
}

TEST(SimKernel, MaximalRejectsUnstructuredDivergence) {
  Expected<sim::RunResult> r = RunKernel(kIrreducible, {Zeros(0, 24)}, Options(Model::kMaximal));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::kFindings);
  EXPECT_NE(r.error().message.find("divergent branch without a structured merge; the maximal "
                                   "model needs structured control flow (use --model ipdom)"),
            std::string::npos)
      << r.error().message;
}

TEST(SimKernel, UnsupportedPartsAreNamed) {
  // OpenCL.std shuffle: not supported, named by number (182).
  const std::string text = std::string(kHeader64WithOpenClStd) + R"(OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v2uint = OpTypeVector %uint 2
%gptr = OpTypePointer CrossWorkgroup %v2float
%fn = OpTypeFunction %void %gptr
%f1 = OpConstant %float 1.5
%u0 = OpConstant %uint 0
%v = OpConstantComposite %v2float %f1 %f1
%mask = OpConstantComposite %v2uint %u0 %u0
%k = OpFunction %void None %fn
%out = OpFunctionParameter %gptr
%entry = OpLabel
%r = OpExtInst %v2float %ocl shuffle %v %mask
OpStore %out %r
OpReturn
OpFunctionEnd
)";
  Expected<sim::RunResult> r = RunKernel(text, {Zeros(0, 2)}, Options(Model::kIpdom));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::kBadInput);
  EXPECT_NE(r.error().message.find("unsupported OpenCL.std instruction 182"), std::string::npos)
      << r.error().message;
  // A null pointer dereference is a fault of the kernel.
  const std::string null_text = std::string(kHeader64) + R"(OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%gptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %gptr
%null = OpConstantNull %gptr
%k = OpFunction %void None %fn
%out = OpFunctionParameter %gptr
%entry = OpLabel
%v = OpLoad %uint %null
OpStore %out %v
OpReturn
OpFunctionEnd
)";
  r = RunKernel(null_text, {Zeros(0, 1)}, Options(Model::kIpdom));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::kFindings);
  EXPECT_NE(r.error().message.find("access through a null pointer"), std::string::npos)
      << r.error().message;
  // A struct holding a pointer as a parameter: its bytes would have to be an address.
  const std::string holder = std::string(kHeader64) + R"(OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%gptr = OpTypePointer CrossWorkgroup %uint
%H = OpTypeStruct %gptr %uint
%fn = OpTypeFunction %void %H
%k = OpFunction %void None %fn
%h = OpFunctionParameter %H
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  r = RunKernel(holder, {}, Options(Model::kIpdom));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::kBadInput);
  EXPECT_NE(r.error().message.find("(binding 0): a struct or array holding pointers"),
            std::string::npos)
      << r.error().message;
}

// test/differential/gen_cfg.py's kernels (no stores; unstructured and irreducible CFGs),
// seeds 1..200 as one module of 200 entry points, each run with 16 invocations under
// ipdom: every run ends normally or at the instruction limit (a loop whose trip count
// the arguments make endless), never with another error.
TEST(SimKernel, GeneratedCfgsRunUnderIpdom) {
  const std::string script = std::string(SPIRV_CONV_SOURCE_DIR) + "/test/differential/gen_cfg.py";
  const std::string path = ::testing::TempDir() + "gen_cfg_1_200.spvasm";
  const std::string command =
      "python3 '" + script + "' --seed 1 --count 200 --spirv '" + path + "' 2>/dev/null";
  if (std::system(command.c_str()) != 0) GTEST_SKIP() << "python3 or gen_cfg.py unavailable";
  std::ifstream in(path);
  std::stringstream text;
  for (std::string line; std::getline(in, line);) {
    text << line << "\n";
    if (line.rfind("OpEntryPoint Kernel ", 0) == 0) {  // %fN "fN" %lid_var
      const std::string id = line.substr(20, line.find(' ', 20) - 20);
      text << "OpExecutionMode " << id << " LocalSize 16 1 1\n";
    }
  }
  std::remove(path.c_str());
  SpirvBinary binary = MustLoad("gen_cfg.spvasm", text.str());
  auto context = BuildIrContext(binary);
  ASSERT_TRUE(context.ok()) << context.error().message;
  sim::RunOptions options = Options(Model::kIpdom);
  options.max_instructions = 20000;
  int finished = 0, limited = 0;
  for (int seed = 1; seed <= 200; ++seed) {
    const std::string entry = "f" + std::to_string(seed);
    auto program = sim::Compile(**context, entry, "gen_cfg");
    ASSERT_TRUE(program.ok()) << entry << ": " << program.error().message;
    // a = 7, b = 3, n = 42 (n == 42 takes the generator's special branches).
    auto r = sim::Run(
        **program, {Values<uint32_t>(0, {7}), Values<uint32_t>(1, {3}), Values<uint32_t>(2, {42})},
        options);
    if (r.ok()) {
      ++finished;
    } else {
      ASSERT_NE(r.error().message.find("instruction limit"), std::string::npos)
          << entry << ": " << r.error().message;
      ++limited;
    }
  }
  EXPECT_EQ(finished + limited, 200);
  std::printf("gen_cfg seeds 1..200: %d finished, %d at the instruction limit\n", finished,
              limited);
}

}  // namespace
}  // namespace test
}  // namespace spirv_conv
