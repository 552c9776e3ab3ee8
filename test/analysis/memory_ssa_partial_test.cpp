// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Function variables that are also read and written through access chains
// (glslang -O0 code writing `L.xyz = ...` or `a[i] = ...`) get the virtual
// SSA form too: a whole store is a strong definition, a store through an
// access chain a weak one (the previous content with a part replaced, as
// divergent as the previous content, the stored value and the chain's
// indices), and every load reads the definition that reaches it. Variables
// whose address escapes (a call argument, a pointer stored to memory) stay
// flow-insensitive.
//
// SPIR-V Kernel modules: kernel parameters (%n) are uniform, the invocation
// id (%x, from BuiltIn LocalInvocationId) is divergent. Every expectation is
// reasoned from what each invocation stores and reads, not taken from the
// analysis. Where the analysis is conservative by design (one level per
// variable, not per component) no expectation is written.

#include "gtest/gtest.h"
#include "test/analysis/uniformity_test_fixture.h"

namespace spirv_conv {
namespace {

using namespace ::spirv_conv::test;  // NOLINT: the shared fixture

// Types and constants the tests add after the fixture's.
constexpr char kTypes[] = R"(%v4uint = OpTypeVector %uint 4
%uint_4 = OpConstant %uint 4
%ptr_Function_uint = OpTypePointer Function %uint
%ptr_Function_v4uint = OpTypePointer Function %v4uint
%arr2 = OpTypeArray %v4uint %uint_2
%ptr_Function_arr2 = OpTypePointer Function %arr2
%ptr_Function_ptr = OpTypePointer Function %ptr_Function_uint
%fn_ptr = OpTypeFunction %void %ptr_Function_v4uint
)";

// The invocation id as a uint, %x, at the top of the entry block.
constexpr char kInvocationId[] = R"(%x_v = OpLoad %v3ulong %lid
%x_l = OpCompositeExtract %ulong %x_v 0
%x = OpUConvert %uint %x_l
)";

std::string Module(const std::string& names, const std::string& body) {
  return names + kTypes + body;
}

// ---------------------------------------------------------------------------
// (1) forward_lights.frag reduced. Every iteration first assigns the whole
// vector L a uniform value, then reads L.w through an access chain and
// skips the rest of the iteration on it; later a divergent branch flips L.x
// (a partial store in divergent control flow).
//
//   for (i = 0; i < n; ++i) {            Header
//     L = (i, n, i, n);                  Body: whole store, uniform
//     if (L.w == 0) continue;            Body: partial load, uniform branch
//     if (x < L.w) L.x = -L.w;           Work: divergent branch, Flip
//     flipped = L;                       Flipped: join of that branch
//   }
//
// L.w in Body reads the value just stored by every invocation: uniform,
// however L was changed in the previous iteration. After the flip L is
// divergent (only some invocations flipped). At the top of the next
// iteration (Header, before the new assignment) L still holds what the
// previous iteration left: divergent.
TEST(MemorySsaPartial, WholeStoreThenPartialReadIgnoresLaterDivergentPartialStore) {
  const Kernel m("forward_lights", Module(R"(OpName %n "n"
OpName %w_flip "w.flip"
OpName %w_after "w.after"
)",
                                          std::string(R"(%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%L = OpVariable %ptr_Function_v4uint Function
)") + kInvocationId + R"(OpBranch %Header
%Header = OpLabel
%i = OpPhi %uint %uint_0 %Entry %i_next %Latch
%pw_header = OpAccessChain %ptr_Function_uint %L %uint_3
%carried = OpLoad %uint %pw_header
%loop = OpULessThan %bool %i %n
OpLoopMerge %Exit %Latch None
OpBranchConditional %loop %Body %Exit
%Body = OpLabel
%u = OpCompositeConstruct %v4uint %i %n %i %n
OpStore %L %u
%pw = OpAccessChain %ptr_Function_uint %L %uint_3
%w = OpLoad %uint %pw
%skip = OpIEqual %bool %w %uint_0
OpSelectionMerge %Work None
OpBranchConditional %skip %Skip %Work
%Skip = OpLabel
OpBranch %Latch
%Work = OpLabel
%face = OpULessThan %bool %x %w
OpSelectionMerge %Flipped None
OpBranchConditional %face %Flip %Flipped
%Flip = OpLabel
%pw_flip = OpAccessChain %ptr_Function_uint %L %uint_3
%w_flip = OpLoad %uint %pw_flip
%neg = OpSNegate %uint %w_flip
%px = OpAccessChain %ptr_Function_uint %L %uint_0
OpStore %px %neg
OpBranch %Flipped
%Flipped = OpLabel
%flipped = OpLoad %v4uint %L
%pw_after = OpAccessChain %ptr_Function_uint %L %uint_3
%w_after = OpLoad %uint %pw_after
OpBranch %Latch
%Latch = OpLabel
%i_next = OpIAdd %uint %i %uint_1
OpBranch %Header
%Exit = OpLabel
OpReturn
OpFunctionEnd
)"));
  ASSERT_TRUE(m.ok());
  // L.w right after the uniform whole store, and the `continue` on it.
  m.ExpectValues(kUniform, {"w"});
  m.ExpectBranches(kUniform, {"Header", "Body"});
  m.ExpectFlow(kUniform, {"Body", "Work", "Flipped", "Latch"});
  // Inside the flip every invocation there reads the same uniform L.w.
  m.ExpectValues(kUniform, {"w.flip"});
  m.ExpectBranches(kDivergent, {"Work"});
  m.ExpectFlow(kDivergent, {"Flip"});
  // After the join L is flipped in some invocations only (whole-variable
  // granularity makes L.w divergent there too, so w.after is not checked).
  m.ExpectValues(kDivergent, {"flipped"});
  // The previous iteration's L, read before the new assignment.
  m.ExpectValues(kDivergent, {"carried"});
}

// ---------------------------------------------------------------------------
// (2) A partial store of a divergent value, straight-line code:
//   V = (n, n, n, n); a = V[1];  V[2] = x;  all = V; c = V[2];
// and through a divergent index: W = (n, n, n, n); W[x & 3] = n; wall = W;
// and a divergent index on the read side: U = (0, 1, 2, 3); U[x & 3] differs
// between invocations while U[1] does not. Nested chains into an array of
// vectors: A[1][0] = x makes A divergent; A[0] read before it is uniform.
// A uniform partial store does not make a divergent variable uniform:
// X = (x, x, x, x); X[0] = n; X and X[1] stay divergent.
TEST(MemorySsaPartial, DivergentPartialStoreMakesLaterLoadsDivergent) {
  const Kernel m("partial_store", Module(R"(OpName %n "n"
OpName %u_one "u.one"
OpName %u_dyn "u.dyn"
OpName %pudyn "pu.dyn"
OpName %a_before "a.before"
OpName %a_all "a.all"
OpName %a_elem "a.elem"
OpName %x_all "x.all"
OpName %x_one "x.one"
)",
                                         std::string(R"(%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%V = OpVariable %ptr_Function_v4uint Function
%W = OpVariable %ptr_Function_v4uint Function
%U = OpVariable %ptr_Function_v4uint Function
%A = OpVariable %ptr_Function_arr2 Function
%X = OpVariable %ptr_Function_v4uint Function
)") + kInvocationId + R"(%u = OpCompositeConstruct %v4uint %n %n %n %n
OpStore %V %u
%p1 = OpAccessChain %ptr_Function_uint %V %uint_1
%before = OpLoad %uint %p1
%p2 = OpAccessChain %ptr_Function_uint %V %uint_2
OpStore %p2 %x
%all = OpLoad %v4uint %V
%again = OpLoad %uint %p2
OpStore %W %u
%lane = OpBitwiseAnd %uint %x %uint_3
%pdyn = OpAccessChain %ptr_Function_uint %W %lane
OpStore %pdyn %n
%wall = OpLoad %v4uint %W
%c = OpCompositeConstruct %v4uint %uint_0 %uint_1 %uint_2 %uint_3
OpStore %U %c
%pu1 = OpAccessChain %ptr_Function_uint %U %uint_1
%u_one = OpLoad %uint %pu1
%pudyn = OpInBoundsAccessChain %ptr_Function_uint %U %lane
%u_dyn = OpLoad %uint %pudyn
%arr = OpCompositeConstruct %arr2 %u %c
OpStore %A %arr
%pa0 = OpAccessChain %ptr_Function_v4uint %A %uint_0
%a_before = OpLoad %v4uint %pa0
%pa1 = OpAccessChain %ptr_Function_v4uint %A %uint_1
%pa10 = OpAccessChain %ptr_Function_uint %pa1 %uint_0
OpStore %pa10 %x
%a_all = OpLoad %arr2 %A
%a_elem = OpLoad %uint %pa10
%xs = OpCompositeConstruct %v4uint %x %x %x %x
OpStore %X %xs
%px0 = OpAccessChain %ptr_Function_uint %X %uint_0
OpStore %px0 %n
%x_all = OpLoad %v4uint %X
%px1 = OpAccessChain %ptr_Function_uint %X %uint_1
%x_one = OpLoad %uint %px1
OpReturn
OpFunctionEnd
)"));
  ASSERT_TRUE(m.ok());
  // Reads before the divergent store see the uniform whole store.
  m.ExpectValues(kUniform, {"before", "u.one", "a.before"});
  // V[2] now holds each invocation's own id.
  m.ExpectValues(kDivergent, {"all", "again"});
  // Each invocation replaced a different element of W.
  m.ExpectValues(kDivergent, {"wall"});
  // Uniform content, read at a divergent index.
  m.ExpectValues(kDivergent, {"u.dyn"});
  // ... and explained by the address (its index), not by memory.
  m.ExpectFirstStep("u.dyn", UniformityStep::Kind::kOperand, "pu.dyn");
  m.ExpectExplainedBySource("u.dyn");
  // A[1][0] holds each invocation's id.
  m.ExpectValues(kDivergent, {"a.all", "a.elem"});
  // A partial store of a uniform value is a weak update: X[1..3] still hold
  // each invocation's id.
  m.ExpectValues(kDivergent, {"x.all", "x.one"});
}

// ---------------------------------------------------------------------------
// (3) A partial store of a uniform value under divergent control flow:
//   V = (n, n, n, n);
//   if (x < n) { in.then = V[0]; V[0] = 7; in.then.after = V; }
//   joined = V;          // 7 in some invocations, n in others
//   V = (n, n, n, n);  fresh = V[0];   // a strong definition again
TEST(MemorySsaPartial, PartialStoreUnderDivergentControlFlowDivergesAtTheJoin) {
  const Kernel m("partial_store_in_branch", Module(R"(OpName %n "n"
OpName %in_then "in.then"
OpName %in_then_after "in.then.after"
OpName %joined_x "joined.x"
)",
                                                   std::string(R"(%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%V = OpVariable %ptr_Function_v4uint Function
)") + kInvocationId + R"(%u = OpCompositeConstruct %v4uint %n %n %n %n
OpStore %V %u
%c = OpULessThan %bool %x %n
OpBranchConditional %c %Then %Merge
%Then = OpLabel
%p0 = OpAccessChain %ptr_Function_uint %V %uint_0
%in_then = OpLoad %uint %p0
OpStore %p0 %uint_7
%in_then_after = OpLoad %v4uint %V
OpBranch %Merge
%Merge = OpLabel
%joined = OpLoad %v4uint %V
%p0m = OpAccessChain %ptr_Function_uint %V %uint_0
%joined_x = OpLoad %uint %p0m
OpStore %V %u
%fresh = OpLoad %uint %p0m
OpReturn
OpFunctionEnd
)"));
  ASSERT_TRUE(m.ok());
  m.ExpectBranches(kDivergent, {"Entry"});
  m.ExpectFlow(kDivergent, {"Then"});
  // The invocations in Then all read n and all store 7.
  m.ExpectValues(kUniform, {"in.then", "in.then.after"});
  // After the join V[0] is 7 or n depending on the invocation.
  m.ExpectValues(kDivergent, {"joined", "joined.x"});
  // The whole store after the join defines V anew.
  m.ExpectValues(kUniform, {"fresh"});
}

// ---------------------------------------------------------------------------
// (3b) The same through a divergent break: V[0] = 7 only in the invocations
// that leave the loop early (i < n, x == i), the others leave through the
// header with V[0] still n. After the loop V differs between invocations;
// inside the Break block the invocations there all stored 7.
TEST(MemorySsaPartial, PartialStoreBeforeDivergentBreakDivergesAfterTheLoop) {
  const Kernel m("partial_store_break", Module(R"(OpName %n "n"
OpName %in_break "in.break"
)",
                                               std::string(R"(%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%V = OpVariable %ptr_Function_v4uint Function
)") + kInvocationId + R"(%u = OpCompositeConstruct %v4uint %n %n %n %n
OpStore %V %u
%p0 = OpAccessChain %ptr_Function_uint %V %uint_0
OpBranch %Header
%Header = OpLabel
%i = OpPhi %uint %uint_0 %Entry %i_next %Latch
%loop = OpULessThan %bool %i %n
OpBranchConditional %loop %Body %Exit
%Body = OpLabel
%hit = OpIEqual %bool %x %i
OpBranchConditional %hit %Break %Latch
%Break = OpLabel
OpStore %p0 %uint_7
%in_break = OpLoad %v4uint %V
OpBranch %Exit
%Latch = OpLabel
%i_next = OpIAdd %uint %i %uint_1
OpBranch %Header
%Exit = OpLabel
%after = OpLoad %uint %p0
OpReturn
OpFunctionEnd
)"));
  ASSERT_TRUE(m.ok());
  m.ExpectBranches(kDivergent, {"Body"});
  m.ExpectBranches(kUniform, {"Header"});
  m.ExpectValues(kUniform, {"in.break"});
  m.ExpectValues(kDivergent, {"after"});
}

// ---------------------------------------------------------------------------
// (4) Escaping addresses stay flow-insensitive. V is passed to %g, which
// stores the invocation id through an access chain into it: V[0] is
// divergent after the call. P's element pointer is stored into a Function
// variable of pointer type and written through the loaded copy (a pointer
// the analysis cannot trace): P is divergent after that write. Neither may
// be promoted (the uniform whole stores must not hide the writes).
TEST(MemorySsaPartial, EscapingVariablesStayConservative) {
  const Kernel m("escape", Module(R"(OpName %n "n"
OpName %after_call "after.call"
OpName %after_write "after.write"
)",
                                  std::string(R"(%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%V = OpVariable %ptr_Function_v4uint Function
%P = OpVariable %ptr_Function_v4uint Function
%Q = OpVariable %ptr_Function_ptr Function
)") + kInvocationId + R"(%u = OpCompositeConstruct %v4uint %n %n %n %n
OpStore %V %u
%call = OpFunctionCall %void %g %V
%pv = OpAccessChain %ptr_Function_uint %V %uint_0
%after_call = OpLoad %uint %pv
OpStore %P %u
%pp = OpAccessChain %ptr_Function_uint %P %uint_1
OpStore %Q %pp
%q = OpLoad %ptr_Function_uint %Q
OpStore %q %x
%after_write = OpLoad %uint %pp
OpReturn
OpFunctionEnd
%g = OpFunction %void None %fn_ptr
%param = OpFunctionParameter %ptr_Function_v4uint
%GEntry = OpLabel
%y_v = OpLoad %v3ulong %lid
%y_l = OpCompositeExtract %ulong %y_v 0
%y = OpUConvert %uint %y_l
%pg = OpAccessChain %ptr_Function_uint %param %uint_0
OpStore %pg %y
OpReturn
OpFunctionEnd
)"));
  ASSERT_TRUE(m.ok());
  m.ExpectValues(kDivergent, {"after.call", "after.write"});
}

// ---------------------------------------------------------------------------
// (5) A loop-carried partial update with uniform values:
//   V = (0, 0, 0, 0);
//   for (i = 0; V[0] < n; ++i) { V[0] = V[0] + i; V[i & 3] = i; }
//   res = V; res0 = V[0];
//   V[1] = x; late = V;
// Every invocation runs the same iterations and stores the same values, so
// the loop condition and everything read from V before the divergent store
// after the loop are uniform.
TEST(MemorySsaPartial, LoopCarriedUniformPartialUpdateStaysUniform) {
  const Kernel m("loop_carried", Module(R"(OpName %n "n"
)",
                                        std::string(R"(%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%V = OpVariable %ptr_Function_v4uint Function
)") + kInvocationId + R"(%zero = OpCompositeConstruct %v4uint %uint_0 %uint_0 %uint_0 %uint_0
OpStore %V %zero
OpBranch %Header
%Header = OpLabel
%i = OpPhi %uint %uint_0 %Entry %i_next %Body
%p0 = OpAccessChain %ptr_Function_uint %V %uint_0
%cur = OpLoad %uint %p0
%loop = OpULessThan %bool %cur %n
OpLoopMerge %Exit %Body None
OpBranchConditional %loop %Body %Exit
%Body = OpLabel
%old = OpLoad %uint %p0
%sum = OpIAdd %uint %old %i
OpStore %p0 %sum
%lane = OpBitwiseAnd %uint %i %uint_3
%pl = OpAccessChain %ptr_Function_uint %V %lane
OpStore %pl %i
%i_next = OpIAdd %uint %i %uint_1
OpBranch %Header
%Exit = OpLabel
%res = OpLoad %v4uint %V
%res0 = OpLoad %uint %p0
%p1 = OpAccessChain %ptr_Function_uint %V %uint_1
OpStore %p1 %x
%late = OpLoad %v4uint %V
OpReturn
OpFunctionEnd
)"));
  ASSERT_TRUE(m.ok());
  m.ExpectValues(kUniform, {"cur", "old", "res", "res0"});
  m.ExpectBranches(kUniform, {"Header"});
  m.ExpectFlow(kUniform, {"Body", "Exit"});
  m.ExpectValues(kDivergent, {"late"});
}

// ---------------------------------------------------------------------------
// (6) A partial store in a loop that invocations leave on different
// iterations: V[0] = i in the header, leave when i >= x. After the loop V[0]
// is the iteration each invocation left on: divergent (temporal divergence
// through the virtual insert), although every store in the loop stores a
// uniform value in its iteration.
TEST(MemorySsaPartial, PartialStoreInLoopWithDivergentExitIsTemporallyDivergent) {
  const Kernel m("temporal", Module(R"(OpName %n "n"
OpName %in_loop "in.loop"
)",
                                    std::string(R"(%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%V = OpVariable %ptr_Function_v4uint Function
)") + kInvocationId + R"(%u = OpCompositeConstruct %v4uint %n %n %n %n
OpStore %V %u
OpBranch %Header
%Header = OpLabel
%i = OpPhi %uint %uint_0 %Entry %i_next %Latch
%p0 = OpAccessChain %ptr_Function_uint %V %uint_0
OpStore %p0 %i
%in_loop = OpLoad %uint %p0
%stay = OpULessThan %bool %i %x
OpBranchConditional %stay %Latch %Exit
%Latch = OpLabel
%i_next = OpIAdd %uint %i %uint_1
OpBranch %Header
%Exit = OpLabel
%out = OpLoad %uint %p0
OpReturn
OpFunctionEnd
)"));
  ASSERT_TRUE(m.ok());
  m.ExpectBranches(kDivergent, {"Header"});
  // Inside an iteration the converged invocations all stored the same i.
  m.ExpectValues(kUniform, {"in.loop"});
  m.ExpectValues(kDivergent, {"out"});
}

}  // namespace
}  // namespace spirv_conv
