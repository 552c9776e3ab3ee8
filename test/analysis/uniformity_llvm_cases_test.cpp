// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Ports of the instructive cases of LLVM's UniformityAnalysis tests
// (llvm/test/Analysis/UniformityAnalysis/{AMDGPU,AMDGPU/irreducible,NVPTX})
// to SPIR-V Kernel modules, one kernel per LLVM function, blocks and values
// named as in LLVM by their ids (the fixture gives each id its OpName;
// LLVM's `%cond.uni` is `%cond_uni`, SPIR-V assembly ids being
// [A-Za-z0-9_]+).
//
// The port:
// - Kernel arguments (uniform) are OpFunctionParameters of type uint; an i1
//   kernel argument is a uint compared with 0. The arguments of LLVM's
//   non-kernel functions are divergent there; the port derives each from the
//   invocation id ("arg.tid").
// - llvm.amdgcn.workitem.id.x and llvm.nvvm.read.ptx.sreg.tid.x are an
//   OpLoad of the Input variable decorated BuiltIn LocalInvocationId, an
//   OpCompositeExtract and an OpUConvert to uint: divergent.
// - LLVM's cycle DFS visits a block's successors last first; spirv-conv's
//   visits them in the order the terminator lists them. So every
//   OpBranchConditional lists LLVM's false target first (the condition is
//   kept: only its uniformity matters) and every OpSwitch its cases in
//   reverse. Both analyses then choose the same headers, and the cycle
//   hierarchies quoted from LLVM apply unchanged.
// - A block comes after its dominators (SPIR-V's rule); `ret` becomes
//   OpReturn.
//
// Expectations come from the upstream CHECK lines ("CHECK") or, where those
// say nothing, from the full output of LLVM 19's print<uniformity> ("LLVM
// 19") and the reasoning of "Convergence and Uniformity". A test states them
// with the fixture's Expect* calls or, on the line of a value or branch, as
// `; EXPECT: divergent (CHECK)`, which the fixture checks too. Deliberate
// differences, each said where it applies:
// - LLVM marks every definition in a cycle that is not m-converged
//   divergent. spirv-conv keeps a value computed only from uniform values
//   defined outside the cycle (`add %b, 1`) uniform: it is the same in every
//   dynamic instance.
// - LLVM 19 misses joins (issue #137277) and constant exit phis on divergent
//   exits (PR #216296): the ports expect the correct, divergent verdicts.
// ControlFlowLevel has no LLVM counterpart: a block is divergent when it
// runs in a cycle that is not m-converged, depends on a divergent branch
// (it does not post-dominate it), or belongs to a cycle some threads leave
// earlier than others; a block that all threads reach after reconverging is
// uniform.

#include "gtest/gtest.h"
#include "test/analysis/uniformity_test_fixture.h"

namespace spirv_conv {
namespace {

using namespace ::spirv_conv::test;  // NOLINT: the shared fixture
// ===========================================================================
// irreducible/diverged-entry-basic.ll
// ===========================================================================

// entry -> P, R (uniform); P -> Q; Q -> S, R (divergent); R -> S;
// S -> exit, P (uniform).
//
//    entry
//    /   \          Q's divergent branch joins at S (Q -> S, Q -> R -> S),
//   P     R <-+     and R, an entry of the cycle, lies on the diverged path.
//   |     |   |     LLVM hierarchy: entries(R P) S Q, child entries(S P) Q.
//   Q ----+---+
//   |     v
//   +---> S --> exit
//   ^-----+ (S -> P)
TEST(UniformityLlvmDivergedEntryBasic, DivergentCycle1) {
  const Kernel m("divergent_cycle_1", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
OpBranchConditional %cond_uni %R %P
%P = OpLabel
%pp_phi = OpPhi %uint %a %entry %b %S
%pp = OpIAdd %uint %b %uint_1
OpBranch %Q
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_div %R %S
%R = OpLabel
%rr = OpIAdd %uint %b %uint_1
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %qq %Q %rr %R
%ss = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %P %exit
%exit = OpLabel
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK: CYCLES ASSUMED DIVERGENT: depth=1: entries(R P) S Q; CHECK: CYCLES
  // WITH DIVERGENT EXIT: both depth=1 entries(R P) and depth=2 entries(S P).
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("R", {"R", "P"}, 1, kDivergent, kDivergent);
  m.ExpectCycle("S", {"S", "P"}, 2, kUnchecked, kDivergent);
  m.ExpectBranches(kDivergent, {"Q"});
  // CHECK: DIVERGENT: %pp.phi, %s.phi (the cycle is not m-converged).
  m.ExpectValues(kDivergent, {"pp_phi", "s_phi", "cond_div"});
  m.ExpectExplainedBySource("s_phi");
  // LLVM taints every def of the cycle; %b + 1 is the same in every
  // instance: uniform by design in spirv-conv.
  m.ExpectValues(kUniform, {"pp", "qq", "rr", "ss"});
  // LLVM 19: %ee and %cond.uni are uniform (outside the cycle).
  m.ExpectValues(kUniform, {"ee", "cond_uni"});
  m.ExpectFlow(kDivergent, {"P", "Q", "R", "S"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

// entry -> P, T (uniform); P -> Q; Q -> S, R (divergent); R -> S;
// S -> exit, T; T -> P. The join S is dominated by the branch Q.
//
//   entry -> P, T;  T -> P;  P -> Q -> {S, R};  R -> S;  S -> {exit, T}
TEST(UniformityLlvmDivergedEntryBasic, UniformCycle1) {
  const Kernel m("uniform_cycle_1", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
OpBranchConditional %cond_uni %T %P
%P = OpLabel
%pp_phi = OpPhi %uint %a %entry %b %T
%pp = OpIAdd %uint %b %uint_1
OpBranch %Q
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_div %R %S
%R = OpLabel
%rr = OpIAdd %uint %b %uint_1
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %qq %Q %rr %R
%ss = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %T %exit
%T = OpLabel
%tt = OpIAdd %uint %b %uint_1
OpBranch %P
%exit = OpLabel
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK-NOT: CYCLES ASSUMED DIVERGENT / CYCLES WITH DIVERGENT EXIT: Q
  // strictly dominates its join S (R is entered only from Q).
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("T", {"T", "P"}, 1, kUniform, kUniform);
  m.ExpectBranches(kDivergent, {"Q"});
  m.ExpectBranches(kUniform, {"entry", "S"});
  // CHECK-NOT: DIVERGENT: %pp.phi; CHECK: DIVERGENT: %s.phi.
  m.ExpectValues(kDivergent, {"s_phi"});
  m.ExpectFirstStep("s_phi", UniformityStep::Kind::kJoin, "Q");
  m.ExpectValues(kUniform, {"pp_phi", "pp", "qq", "rr", "ss", "tt", "ee"});
  // Only R depends on Q's branch; S post-dominates Q and no thread leaves.
  m.ExpectFlow(kDivergent, {"R"});
  m.ExpectFlow(kUniform, {"entry", "P", "Q", "S", "T", "exit"});
}

// ===========================================================================
// irreducible/diverged-entry-headers.ll: one CFG, two headers.
//   entry -> P, T;  P -> R, Q (uniform);  Q -> S, R (divergent);  R -> S;
//   S -> exit, T;  T -> P
// ===========================================================================

TEST(UniformityLlvmDivergedEntryHeaders, THeader) {
  const Kernel m("t_header", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
%a_div = OpIAdd %uint %tid %a
OpBranchConditional %cond_uni %T %P
%P = OpLabel
%pp_phi = OpPhi %uint %a %entry %b %T
%pp = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %Q %R
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_div %R %S
%R = OpLabel
%rr = OpIAdd %uint %b %uint_1
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %qq %Q %rr %R
%ss = OpIAdd %uint %pp_phi %uint_1
OpBranchConditional %cond_uni %T %exit
%T = OpLabel
%tt_phi = OpPhi %uint %ss %S %a %entry
%tt = OpIAdd %uint %b %uint_1
OpBranch %P
%exit = OpLabel
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // "The cycle has a header (T) that does not dominate the join" (and Q
  // does not dominate S either: P -> R -> S). CHECK: CYCLES ASSUMED
  // DIVERGENT: depth=1: entries(T P) Q R S.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("T", {"T", "P"}, 1, kDivergent, kUnchecked);
  // CHECK: DIVERGENT: %pp.phi, %s.phi, %ss (= %pp.phi + 1), %tt.phi.
  m.ExpectValues(kDivergent, {"pp_phi", "s_phi", "ss", "tt_phi", "a_div"});
  m.ExpectExplainedBySource("tt_phi");
  // %b + 1 inside the cycle: uniform by design (LLVM 19 taints them).
  m.ExpectValues(kUniform, {"pp", "qq", "rr", "tt", "ee", "cond_uni"});
  m.ExpectFlow(kDivergent, {"P", "Q", "R", "S", "T"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

TEST(UniformityLlvmDivergedEntryHeaders, PHeader) {
  const Kernel m("p_header", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
OpBranchConditional %cond_uni %P %T
%P = OpLabel
%pp_phi = OpPhi %uint %a %entry %b %T
%pp = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %Q %R
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_div %R %S
%R = OpLabel
%rr = OpIAdd %uint %b %uint_1
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %qq %Q %rr %R
%ss = OpIAdd %uint %pp_phi %uint_1
OpBranchConditional %cond_uni %T %exit
%T = OpLabel
%tt_phi = OpPhi %uint %ss %S %a %entry
%tt = OpIAdd %uint %b %uint_1
OpBranch %P
%exit = OpLabel
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // "The cycle has a header (P) that dominates the join, hence the cycle is
  // reported as converged." CHECK-NOT: CYCLES ASSUMED DIVERGENT.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("P", {"P", "T"}, 1, kUniform, kUniform);
  // CHECK: DIVERGENT: %s.phi; CHECK-NOT: %pp.phi, %ss, %tt.phi.
  m.ExpectValues(kDivergent, {"s_phi"});
  m.ExpectValues(kUniform, {"pp_phi", "ss", "tt_phi", "pp", "qq", "rr", "tt", "ee"});
  // R runs for the threads leaving Q towards it (or all of them, from P);
  // S post-dominates Q and the cycle is left uniformly.
  m.ExpectFlow(kDivergent, {"R"});
  m.ExpectFlow(kUniform, {"entry", "P", "Q", "S", "T", "exit"});
}

// ===========================================================================
// irreducible/diverged-entry-headers-nested.ll: one CFG, four hierarchies.
//   entry -> A, B;  A -> B;  B -> C, D;  C -> P, T;  T -> P;
//   P -> R, Q (uniform);  Q -> S, R (divergent);  R -> S;  S -> D, T;
//   D -> exit, A
// The outer cycle {A, B, C, D, P, Q, R, S, T} has entries A and B; the
// inner {P, Q, R, S, T} has entries P and T. The join of Q is S.
// (The stored upstream file spells headers_b_p like headers_a_p; this port
// gives it the B header its name and comment describe.)
// ===========================================================================

TEST(UniformityLlvmDivergedEntryHeadersNested, HeadersBP) {
  const Kernel m("headers_b_p", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
%a_div = OpIAdd %uint %tid %a
OpBranchConditional %cond_uni %B %A
%A = OpLabel
OpBranch %B
%B = OpLabel
OpBranchConditional %cond_uni %D %C
%C = OpLabel
OpBranchConditional %cond_uni %P %T
%P = OpLabel
%pp_phi = OpPhi %uint %a %C %b %T
%pp = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %Q %R
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_div %R %S
%R = OpLabel
%rr = OpIAdd %uint %b %uint_1
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %qq %Q %rr %R
%ss = OpIAdd %uint %pp_phi %uint_1
OpBranchConditional %cond_uni %T %D
%D = OpLabel
OpBranchConditional %cond_uni %A %exit
%T = OpLabel
%tt_phi = OpPhi %uint %ss %S %a %C
%tt = OpIAdd %uint %b %uint_1
OpBranch %P
%exit = OpLabel
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // "The inner cycle has a header (P) that dominates the join, hence both
  // cycles are reported as converged." CHECK-NOT: CYCLES ASSUMED DIVERGENT,
  // CHECK-NOT: CYCLES WITH DIVERGENT EXIT: the threads that diverge at Q
  // reconverge at S in the same iteration of both cycles and leave together
  // (LLVM 19 flags the B-headed outer cycle's exit anyway).
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("B", {"B", "A"}, 1, kUniform, kUniform);
  m.ExpectCycle("P", {"P", "T"}, 2, kUniform, kUniform);
  m.ExpectValues(kDivergent, {"s_phi"});
  m.ExpectValues(kUniform, {"pp_phi", "ss", "tt_phi", "pp", "qq", "rr", "tt", "ee"});
  m.ExpectFlow(kDivergent, {"R"});
  m.ExpectFlow(kUniform, {"entry", "A", "B", "C", "D", "P", "Q", "S", "T", "exit"});
}

TEST(UniformityLlvmDivergedEntryHeadersNested, HeadersAP) {
  const Kernel m("headers_a_p", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
%a_div = OpIAdd %uint %tid %a
OpBranchConditional %cond_uni %A %B
%A = OpLabel
OpBranch %B
%B = OpLabel
OpBranchConditional %cond_uni %D %C
%C = OpLabel
OpBranchConditional %cond_uni %P %T
%P = OpLabel
%pp_phi = OpPhi %uint %a %C %b %T
%pp = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %Q %R
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_div %R %S
%R = OpLabel
%rr = OpIAdd %uint %b %uint_1
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %qq %Q %rr %R
%ss = OpIAdd %uint %pp_phi %uint_1
OpBranchConditional %cond_uni %T %D
%D = OpLabel
OpBranchConditional %cond_uni %A %exit
%T = OpLabel
%tt_phi = OpPhi %uint %ss %S %a %C
%tt = OpIAdd %uint %b %uint_1
OpBranch %P
%exit = OpLabel
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // "Same as previous, but the outer cycle has a different header (A)."
  // CHECK-NOT: CYCLES ASSUMED DIVERGENT / CYCLES WITH DIVERGENT EXIT.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("A", {"A", "B"}, 1, kUniform, kUniform);
  m.ExpectCycle("P", {"P", "T"}, 2, kUniform, kUniform);
  m.ExpectValues(kDivergent, {"s_phi"});
  m.ExpectValues(kUniform, {"pp_phi", "ss", "tt_phi", "pp", "qq", "rr", "tt", "ee"});
  m.ExpectFlow(kDivergent, {"R"});
  m.ExpectFlow(kUniform, {"entry", "A", "B", "C", "D", "P", "Q", "S", "T", "exit"});
}

TEST(UniformityLlvmDivergedEntryHeadersNested, HeadersBT) {
  const Kernel m("headers_b_t", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
%a_div = OpIAdd %uint %tid %a
OpBranchConditional %cond_uni %B %A
%A = OpLabel
OpBranch %B
%B = OpLabel
OpBranchConditional %cond_uni %D %C
%C = OpLabel
OpBranchConditional %cond_uni %T %P
%P = OpLabel
%pp_phi = OpPhi %uint %a %C %b %T
%pp = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %Q %R
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_div %R %S
%R = OpLabel
%rr = OpIAdd %uint %b %uint_1
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %qq %Q %rr %R
%ss = OpIAdd %uint %pp_phi %uint_1
OpBranchConditional %cond_uni %T %D
%D = OpLabel
OpBranchConditional %cond_uni %A %exit
%T = OpLabel
%tt_phi = OpPhi %uint %ss %S %a %C
%tt = OpIAdd %uint %b %uint_1
OpBranch %P
%exit = OpLabel
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // "The inner cycle has a header (T) that does not dominate the join. The
  // outer cycle has a header (B) that dominates the join. Hence only the
  // inner cycle is reported as diverged." (LLVM 19: depth=2 entries(T P)
  // assumed divergent.)
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("B", {"B", "A"}, 1, kUniform, kUnchecked);
  m.ExpectCycle("T", {"T", "P"}, 2, kDivergent, kUnchecked);
  m.ExpectValues(kDivergent, {"pp_phi", "s_phi", "ss", "tt_phi"});
  m.ExpectExplainedBySource("pp_phi");
  // %b + 1: uniform by design (LLVM 19 taints them).
  m.ExpectValues(kUniform, {"pp", "qq", "rr", "tt", "ee"});
  m.ExpectFlow(kDivergent, {"P", "Q", "R", "S", "T"});
  // D is outside the inner cycle and post-dominates Q; only B heads a cycle
  // containing it, and the threads reach it in the same iteration of B.
  m.ExpectFlow(kUniform, {"entry", "A", "B", "C", "D", "exit"});
}

TEST(UniformityLlvmDivergedEntryHeadersNested, HeadersAT) {
  const Kernel m("headers_a_t", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
%a_div = OpIAdd %uint %tid %a
OpBranchConditional %cond_uni %A %B
%A = OpLabel
OpBranch %B
%B = OpLabel
OpBranchConditional %cond_uni %D %C
%C = OpLabel
OpBranchConditional %cond_uni %T %P
%P = OpLabel
%pp_phi = OpPhi %uint %a %C %b %T
%pp = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %Q %R
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_div %R %S
%R = OpLabel
%rr = OpIAdd %uint %b %uint_1
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %qq %Q %rr %R
%ss = OpIAdd %uint %pp_phi %uint_1
OpBranchConditional %cond_uni %T %D
%D = OpLabel
OpBranchConditional %cond_uni %A %exit
%T = OpLabel
%tt_phi = OpPhi %uint %ss %S %a %C
%tt = OpIAdd %uint %b %uint_1
OpBranch %P
%exit = OpLabel
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // "The cycles have headers (A and T) that do not dominate the join. Hence
  // the outermost cycle is reported as diverged." CHECK: CYCLES ASSUMED
  // DIVERGENT: depth=1: entries(A B) ...; CHECK-NOT: CYCLES WITH DIVERGENT
  // EXIT (Q -> S and Q -> R -> S do not pass A: same iteration of A).
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("A", {"A", "B"}, 1, kDivergent, kUniform);
  m.ExpectCycle("T", {"T", "P"}, 2, kUnchecked, kUnchecked);
  m.ExpectValues(kDivergent, {"pp_phi", "s_phi", "ss", "tt_phi"});
  m.ExpectValues(kUniform, {"pp", "qq", "rr", "tt", "ee"});
  m.ExpectFlow(kDivergent, {"A", "B", "C", "D", "P", "Q", "R", "S", "T"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

// ===========================================================================
// irreducible/exit-divergence.ll
// ===========================================================================

// entry -> T, P (uniform); P -> Q; Q -> T, exit (divergent); T -> P.
//
//   entry --> P --> Q --> exit      The only divergent branch leaves the
//     \       ^     |               cycle: no join inside, but threads
//      +----> T <---+               leave on different iterations.
TEST(UniformityLlvmExitDivergence, Basic) {
  const Kernel m("basic", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
OpBranchConditional %cond_uni %P %T
%P = OpLabel
%pp_phi_1 = OpPhi %uint %a %entry %b %T
%pp_phi_2 = OpPhi %uint %a %entry %tt_phi %T
%pp = OpIAdd %uint %b %uint_1
OpBranch %Q
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
%qq_div_1 = OpIAdd %uint %pp_phi_2 %uint_1
%qq_div_2 = OpIAdd %uint %pp_phi_2 %uint_1
OpBranchConditional %cond_div %exit %T
%T = OpLabel
%tt_phi = OpPhi %uint %qq %Q %a %entry
%tt = OpIAdd %uint %b %uint_1
OpBranch %P
%exit = OpLabel
%ee_1 = OpIAdd %uint %pp_phi_1 %uint_1
%xx_2 = OpIAdd %uint %pp_phi_2 %uint_1
%ee_3 = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK-NOT: CYCLES ASSUMED DIVERGENT; CHECK: CYCLES WITH DIVERGENT EXIT:
  // depth=1: entries(P T) Q.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("P", {"P", "T"}, 1, kUniform, kDivergent);
  m.ExpectBranches(kDivergent, {"Q"});
  // LLVM 19: every def of the cycle is uniform.
  m.ExpectValues(kUniform,
                 {"pp_phi_1", "pp_phi_2", "pp", "qq", "qq_div_1", "qq_div_2", "tt_phi", "tt"});
  // CHECK: DIVERGENT: %ee.1, %xx.2 (temporal); CHECK-NOT: %ee.3.
  m.ExpectUse(kDivergent, "ee_1", 0);
  m.ExpectUse(kDivergent, "xx_2", 0);
  m.ExpectUse(kUniform, "ee_3", 0);
  m.ExpectValues(kDivergent, {"ee_1", "xx_2"});
  m.ExpectValues(kUniform, {"ee_3"});
  m.ExpectFirstStep("ee_1", UniformityStep::Kind::kTemporal, "pp_phi_1");
  m.ExpectExplainedBySource("ee_1");
  // Later iterations run for the threads still inside.
  m.ExpectFlow(kDivergent, {"P", "Q", "T"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

// entry -> H; H -> T, P (uniform); P -> Q; Q -> R, exit (divergent);
// R -> T, H (uniform); T -> P. H heads a natural loop around the
// irreducible cycle entries(P T) Q R.
TEST(UniformityLlvmExitDivergence, OuterReducible) {
  const Kernel m("outer_reducible", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
OpBranch %H
%H = OpLabel
OpBranchConditional %cond_uni %P %T
%P = OpLabel
%pp_phi_1 = OpPhi %uint %a %H %b %T
%pp_phi_2 = OpPhi %uint %a %H %tt_phi %T
%pp = OpIAdd %uint %b %uint_1
OpBranch %Q
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
%qq_div_1 = OpIAdd %uint %pp_phi_2 %uint_1
%qq_div_2 = OpIAdd %uint %pp_phi_2 %uint_1
OpBranchConditional %cond_div %exit %R
%R = OpLabel
OpBranchConditional %cond_uni %H %T
%T = OpLabel
%tt_phi = OpPhi %uint %qq %R %a %H
%tt = OpIAdd %uint %b %uint_1
OpBranch %P
%exit = OpLabel
%ee_1 = OpIAdd %uint %pp_phi_1 %uint_1
%xx_2 = OpIAdd %uint %pp_phi_2 %uint_1
%ee_3 = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK-NOT: CYCLES ASSUMED DIVERGENT; CHECK: CYCLES WITH DIVERGENT EXIT:
  // depth=1: entries(H) P Q R T. The exit Q -> exit leaves both cycles, and
  // the threads that stay go on through R, so the inner cycle is left
  // through two exits as well.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("H", {"H"}, 1, kUniform, kDivergent);
  m.ExpectCycle("P", {"P", "T"}, 2, kUniform, kDivergent);
  m.ExpectValues(kUniform,
                 {"pp_phi_1", "pp_phi_2", "pp", "qq", "qq_div_1", "qq_div_2", "tt_phi", "tt"});
  // CHECK: DIVERGENT: %ee.1, %xx.2; CHECK-NOT: %ee.3.
  m.ExpectUse(kDivergent, "ee_1", 0);
  m.ExpectUse(kDivergent, "xx_2", 0);
  m.ExpectValues(kDivergent, {"ee_1", "xx_2"});
  m.ExpectValues(kUniform, {"ee_3"});
  m.ExpectFlow(kDivergent, {"H", "P", "Q", "R", "T"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

//      entry(div)
//      |   \
//      H -> B          "This has a divergent cycle due to the external
//      ^   /|          divergent branch, but there are no divergent exits.
//      \--C |          Hence a use at X is not divergent unless the def
//          \|          itself is divergent."
//           X
TEST(UniformityLlvmExitDivergence, NoDivergentExit) {
  const Kernel m("no_divergent_exit", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %div_cond %H %B
%H = OpLabel
%div_merge_h = OpPhi %uint %uint_0 %entry %b %C
OpBranch %B
%B = OpLabel
%div_merge_b = OpPhi %uint %a %H %uint_1 %entry
%bb = OpIAdd %uint %a %uint_1
OpBranchConditional %uni_cond %C %X
%C = OpLabel
%cc = OpIAdd %uint %a %uint_1
OpBranchConditional %uni_cond %H %X
%X = OpLabel
%uni_merge_x = OpPhi %uint %bb %B %cc %C
%div_merge_x = OpPhi %uint %div_merge_b %B %cc %C
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK: CYCLES ASSUMED DIVERGENT: depth=1: entries(H B) C. (LLVM's
  // CHECK-NOT: CYCLES WITH DIVERGENT EXIT means no divergent branch leaves
  // the cycle; counting iterations by the header H, the threads entering at
  // B leave one H earlier, so divergent_exit is not pinned down here. What
  // LLVM means by it is checked below: a use at X is not divergent unless
  // the def itself is divergent.)
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H", {"H", "B"}, 1, kDivergent, kUnchecked);
  // CHECK-NOT: DIVERGENT: br i1 %uni.cond (in B and in C).
  m.ExpectBranches(kDivergent, {"entry"});
  m.ExpectBranches(kUniform, {"B", "C"});
  // CHECK: DIVERGENT: %div.merge.h, %div.merge.b, %div.merge.x.
  m.ExpectValues(kDivergent, {"div_merge_h", "div_merge_b", "div_merge_x"});
  // %bb and %cc are %a + 1 (LLVM taints them; uniform by design), so the
  // phi of the two at X, behind uniform branches and no divergent exit, is
  // uniform too (LLVM's CHECK: DIVERGENT: %uni.merge.x follows from the
  // taint only).
  m.ExpectValues(kUniform, {"bb", "cc", "uni_merge_x", "uni_cond"});
  m.ExpectFlow(kDivergent, {"H", "B", "C"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

// ===========================================================================
// irreducible/branch-outside.ll
// ===========================================================================

// entry -> T, P (divergent); P -> Q; Q -> T, exit (uniform); T -> P.
// Diverged paths from entry reach both entries of the cycle {P, Q, T}.
TEST(UniformityLlvmBranchOutside, Basic) {
  const Kernel m("basic", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
OpBranchConditional %cond_div %P %T
%P = OpLabel
%pp_phi = OpPhi %uint %a %entry %b %T
%pp = OpIAdd %uint %b %uint_1
OpBranch %Q
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
%qq_div = OpIAdd %uint %pp_phi %uint_1
OpBranchConditional %cond_uni %exit %T
%T = OpLabel
%t_phi = OpPhi %uint %qq %Q %a %entry
%tt = OpIAdd %uint %b %uint_1
OpBranch %P
%exit = OpLabel
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK: CYCLES ASSUMED DIVERGENT: depth=1: entries(P T) Q.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("P", {"P", "T"}, 1, kDivergent, kUnchecked);
  m.ExpectBranches(kDivergent, {"entry"});
  // CHECK: DIVERGENT: %pp.phi, %qq.div, %t.phi.
  m.ExpectValues(kDivergent, {"pp_phi", "qq_div", "t_phi"});
  m.ExpectExplainedBySource("qq_div");
  // CHECK: DIVERGENT: %pp, %qq, %tt (all %b + 1): uniform by design.
  m.ExpectValues(kUniform, {"pp", "qq", "tt"});
  // CHECK-NOT: DIVERGENT: %ee.
  m.ExpectValues(kUniform, {"ee"});
  m.ExpectFlow(kDivergent, {"P", "Q", "T"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

// entry -> T, P (divergent); P -> B, Q; Q -> T, exit; A -> B; B -> C;
// C -> Q, A; T -> A, P (all uniform but entry's).
TEST(UniformityLlvmBranchOutside, Nested) {
  const Kernel m("nested", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
OpBranchConditional %cond_div %P %T
%P = OpLabel
%pp_phi = OpPhi %uint %a %entry %b %T
%pp = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %Q %B
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %exit %T
%A = OpLabel
%aa = OpIAdd %uint %b %uint_1
OpBranch %B
%B = OpLabel
%bb = OpIAdd %uint %b %uint_1
OpBranch %C
%C = OpLabel
%cc = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %A %Q
%T = OpLabel
%t_phi = OpPhi %uint %qq %Q %a %entry
%tt = OpIAdd %uint %b %uint_1
OpBranchConditional %cond_uni %P %A
%exit = OpLabel
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK: CYCLES ASSUMED DIVERGENT: depth=1: entries(P T) Q A B C.
  m.ExpectCycle("P", {"P", "T"}, 1, kDivergent, kUnchecked);
  EXPECT_EQ(m.CycleBlocks("P"), (Names{"A", "B", "C", "P", "Q", "T"}));
  m.ExpectValues(kDivergent, {"pp_phi", "t_phi"});
  // LLVM 19 taints every %b + 1 of the cycle: uniform by design.
  m.ExpectValues(kUniform, {"pp", "qq", "aa", "bb", "cc", "tt", "ee"});
  m.ExpectFlow(kDivergent, {"P", "Q", "A", "B", "C", "T"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

// A non-kernel function (its arguments are divergent): entry -> P, Q (on
// %c1); P -> Q, R (false); Q -> R; R -> Q, B (false); B -> C, D (false);
// D -> B; C -> R, exit (false). "It is important that Q is recognized as
// the header of the outermost cycle." LLVM: entries(Q R) C B D, with
// children entries(R) C B D and entries(B) D.
TEST(UniformityLlvmBranchOutside, IrreducibleOuterCycle) {
  const Kernel m("irreducible_outer_cycle", R"(
%f = OpFunction %void None %fn0
%entry = OpLabel
%arg_tid_v = OpLoad %v3ulong %lid
%arg_tid_l = OpCompositeExtract %ulong %arg_tid_v 0
%arg_tid = OpUConvert %uint %arg_tid_l
%c1 = OpULessThan %bool %arg_tid %uint_1
%c2 = OpULessThan %bool %arg_tid %uint_2
%c3 = OpULessThan %bool %arg_tid %uint_3
OpBranchConditional %c1 %Q %P
%P = OpLabel
OpBranchConditional %false %R %Q
%Q = OpLabel
OpBranch %R
%R = OpLabel
OpBranchConditional %false %B %Q
%B = OpLabel
OpBranchConditional %false %D %C
%D = OpLabel
OpBranch %B
%C = OpLabel
OpBranchConditional %false %exit %R
%exit = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK: CYCLES ASSUMED DIVERGENT: depth=1: entries(Q R) C B D.
  ASSERT_EQ(m.Cycles().size(), 3u);
  m.ExpectCycle("Q", {"Q", "R"}, 1, kDivergent, kUnchecked);
  m.ExpectCycle("R", {"R"}, 2, kUnchecked, kUnchecked);
  m.ExpectCycle("B", {"B"}, 3, kUnchecked, kUnchecked);
  m.ExpectBranches(kDivergent, {"entry"});
  // Constant conditions decide uniformly.
  m.ExpectBranches(kUniform, {"P", "R", "B", "C"});
  m.ExpectFlow(kDivergent, {"P", "Q", "R", "B", "C", "D"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

// ===========================================================================
// irreducible/hidden-post-dom.ll
// ===========================================================================

//          entry
//        /      \
//      E2<------E1
//       | \     ^^
//       |  \  /  |
//       |   v/   |
//       |   A    |        A branches divergently to E1 and B; B joins
//       |  /     |        A -> B and A -> E1 -> E2 -> B.
//       | /      |
//       vv       |
//       B------->C
//                |
//                X
TEST(UniformityLlvmHiddenPostDom, CycleInnerIpd) {
  const Kernel m("cycle_inner_ipd", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
%uni_cond1 = OpSLessThan %bool %a %uint_2
%uni_cond2 = OpSLessThan %bool %a %uint_10
OpBranchConditional %uni_cond %E1 %E2
%E1 = OpLabel
OpBranch %E2
%E2 = OpLabel
OpBranchConditional %uni_cond1 %B %A
%A = OpLabel
OpBranchConditional %div_cond %B %E1
%B = OpLabel
%div_merge = OpPhi %uint %uint_0 %A %b %E2
OpBranch %C
%C = OpLabel
OpBranchConditional %uni_cond2 %X %E1
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // Neither A nor the header E1 dominates the join B. LLVM 19: assumed
  // divergent and divergent exit, entries(E1 E2) A C B.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("E1", {"E1", "E2"}, 1, kDivergent, kDivergent);
  // CHECK: DIVERGENT: %tid, %div.cond, %div.merge.
  m.ExpectValues(kDivergent, {"tid", "div_cond", "div_merge"});
  m.ExpectValues(kUniform, {"uni_cond", "uni_cond1", "uni_cond2"});
  m.ExpectBranches(kDivergent, {"A"});
  m.ExpectFlow(kDivergent, {"E1", "E2", "A", "B", "C"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

// ===========================================================================
// irreducible/irreducible-1.ll
// ===========================================================================

// "This test contains an unstructured loop."
//           +-------------- entry ----------------+
//           |                                     |
//           V                                     V
// i1 = phi(0, i3)                            i2 = phi(0, i3)
//     j1 = i1 + 1 ---> i3 = phi(j1, j2) <--- j2 = i2 + 2
//           ^                 |                   ^
//           |                 V                   |
//           +-------- switch (tid / i3) ----------+
//                             |
//                             V
//                        if (i3 == 5) // divergent
// A non-kernel function: %entry_cond is divergent (derived from the
// invocation id in this port).
TEST(UniformityLlvmIrreducible1, UnstructuredLoop) {
  const Kernel m("unstructured_loop", R"(
%f = OpFunction %void None %fn0
%entry = OpLabel
%arg_tid_v = OpLoad %v3ulong %lid
%arg_tid_l = OpCompositeExtract %ulong %arg_tid_v 0
%arg_tid = OpUConvert %uint %arg_tid_l
%entry_cond = OpULessThan %bool %arg_tid %uint_1
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
OpBranchConditional %entry_cond %loop_entry_2 %loop_entry_1
%loop_entry_1 = OpLabel
%i1 = OpPhi %uint %uint_0 %entry %i3 %loop_latch
%j1 = OpIAdd %uint %i1 %uint_1
OpBranch %loop_body
%loop_entry_2 = OpLabel
%i2 = OpPhi %uint %uint_0 %entry %i3 %loop_latch
%j2 = OpIAdd %uint %i2 %uint_2
OpBranch %loop_body
%loop_body = OpLabel
%i3 = OpPhi %uint %j1 %loop_entry_1 %j2 %loop_entry_2
OpBranch %loop_latch
%loop_latch = OpLabel
%div = OpSDiv %uint %tid %i3
OpSwitch %div %branch 2 %loop_entry_2 1 %loop_entry_1
%branch = OpLabel
%cmp = OpIEqual %bool %i3 %uint_5
OpBranchConditional %cmp %else %then
%then = OpLabel
OpReturn
%else = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // LLVM 19: assumed divergent and divergent exit, entries(loop_entry_2
  // loop_entry_1) loop_body loop_latch.
  m.ExpectCycle("loop_entry_2", {"loop_entry_2", "loop_entry_1"}, 1, kDivergent, kDivergent);
  // CHECK: DIVERGENT: %entry_cond, %i1, %i2, %i3, %cmp, br i1 %cmp.
  m.ExpectValues(kDivergent, {"entry_cond", "i1", "i2", "i3", "j1", "j2", "div", "cmp"});
  m.ExpectExplainedBySource("cmp");
  m.ExpectBranches(kDivergent, {"entry", "loop_latch", "branch"});
  m.ExpectFlow(kDivergent,
               {"loop_entry_1", "loop_entry_2", "loop_body", "loop_latch", "then", "else"});
  // branch is top level and post-dominates entry.
  m.ExpectFlow(kUniform, {"entry", "branch"});
}

// ===========================================================================
// irreducible/irreducible-2.ll
// ===========================================================================

//      entry(div)
//      /   \
//     H <-> B
//           |
//           X
TEST(UniformityLlvmIrreducible2, CycleDivergeEnter) {
  const Kernel m("cycle_diverge_enter", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %div_cond %H %B
%H = OpLabel
%div_merge_h = OpPhi %uint %uint_0 %entry %b %B
OpBranch %B
%B = OpLabel
%div_merge_b = OpPhi %uint %a %H %uint_1 %entry
%div_cond_b = OpSGreaterThan %bool %div_merge_b %uint_0
%div_b_inc = OpIAdd %uint %b %uint_1
OpBranchConditional %div_cond %H %X
%X = OpLabel
%div_use = OpIAdd %uint %div_merge_b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // Diverged paths enter at H and at B. LLVM 19: entries(H B) assumed
  // divergent, with a divergent exit (B's branch is divergent).
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H", {"H", "B"}, 1, kDivergent, kDivergent);
  m.ExpectBranches(kDivergent, {"entry", "B"});
  // CHECK: DIVERGENT: %div.merge.h, %div.merge.b, %div.use.
  m.ExpectValues(kDivergent, {"div_merge_h", "div_merge_b", "div_cond_b", "div_use"});
  m.ExpectExplainedBySource("div_use");
  // CHECK-NOT: DIVERGENT: %uni.; %div.b.inc = %b + 1 is tainted by LLVM,
  // uniform by design.
  m.ExpectValues(kUniform, {"uni_cond", "div_b_inc"});
  m.ExpectFlow(kDivergent, {"H", "B"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

//      entry
//      /   \
//     H <-> B(div)
//           |
//           X
TEST(UniformityLlvmIrreducible2, CycleDivergeExit) {
  const Kernel m("cycle_diverge_exit", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %uni_cond %H %B
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %entry %b %B
OpBranch %B
%B = OpLabel
%uni_merge_b = OpPhi %uint %a %H %uint_1 %entry
%uni_cond_b = OpSGreaterThan %bool %uni_merge_b %uint_0
%uni_b_inc = OpIAdd %uint %b %uint_1
OpBranchConditional %div_cond %H %X
%X = OpLabel
%div_use = OpIAdd %uint %uni_merge_b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // The divergent branch only leaves the cycle: not assumed divergent
  // (LLVM 19), but a divergent exit.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H", {"H", "B"}, 1, kUniform, kDivergent);
  // CHECK-NOT: DIVERGENT: %uni. (before the first CHECK).
  m.ExpectValues(kUniform, {"uni_cond", "uni_merge_h", "uni_merge_b", "uni_cond_b", "uni_b_inc"});
  // CHECK: DIVERGENT: %div.use = add %uni.merge.b, 1 (temporal).
  m.ExpectUse(kDivergent, "div_use", 0);
  m.ExpectValues(kDivergent, {"div_use"});
  m.ExpectFirstStep("div_use", UniformityStep::Kind::kTemporal, "uni_merge_b");
  m.ExpectFlow(kDivergent, {"H", "B"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

// "threads enter the cycle from C would take C->D->H, at the point of H,
// diverged threads may continue looping in cycle(H-B-D) ..."
//      entry--\
//       |     |
//  ---> H(div)|
//  |   / \    /
//  |  B   C<--
//  ^   \ /
//  \----D
//       |
//       X
TEST(UniformityLlvmIrreducible2, CycleReentrance) {
  const Kernel m("cycle_reentrance", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %uni_cond %C %H
%H = OpLabel
%div_merge_h = OpPhi %uint %uint_0 %entry %b %D
OpBranchConditional %div_cond %C %B
%B = OpLabel
%div_inc_b = OpIAdd %uint %div_merge_h %uint_1
OpBranch %D
%C = OpLabel
%div_merge_c = OpPhi %uint %uint_0 %entry %div_merge_h %H
%div_inc_c = OpIAdd %uint %div_merge_c %uint_2
OpBranch %D
%D = OpLabel
%div_merge_d = OpPhi %uint %div_inc_b %B %div_inc_c %C
OpBranchConditional %uni_cond %H %X
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // The join D of H is dominated neither by H nor by the header C. LLVM 19:
  // entries(C H) D B assumed divergent; child entries(D H) B.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("C", {"C", "H"}, 1, kDivergent, kUnchecked);
  m.ExpectCycle("D", {"D", "H"}, 2, kUnchecked, kUnchecked);
  // CHECK: DIVERGENT: %div.inc.b, %div.inc.c, %div.merge.d; LLVM 19 also
  // %div.merge.h and %div.merge.c.
  m.ExpectValues(kDivergent,
                 {"div_merge_h", "div_inc_b", "div_merge_c", "div_inc_c", "div_merge_d"});
  m.ExpectExplainedBySource("div_merge_d");
  m.ExpectValues(kUniform, {"uni_cond"});
  // LLVM 19: only H's branch is divergent.
  m.ExpectBranches(kDivergent, {"H"});
  m.ExpectBranches(kUniform, {"entry", "D"});
  m.ExpectFlow(kDivergent, {"H", "B", "C", "D"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

// The same CFG with entry's targets swapped: H is the header. "just make
// sure we are doing uniform analysis correctly under different dfs order."
TEST(UniformityLlvmIrreducible2, CycleReentrance2) {
  const Kernel m("cycle_reentrance2", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %uni_cond %H %C
%H = OpLabel
%div_merge_h = OpPhi %uint %uint_0 %entry %b %D
OpBranchConditional %div_cond %C %B
%B = OpLabel
%div_inc_b = OpIAdd %uint %div_merge_h %uint_1
OpBranch %D
%C = OpLabel
%div_merge_c = OpPhi %uint %uint_0 %entry %div_merge_h %H
%div_inc_c = OpIAdd %uint %div_merge_c %uint_2
OpBranch %D
%D = OpLabel
%div_merge_d = OpPhi %uint %div_inc_b %B %div_inc_c %C
OpBranchConditional %uni_cond %H %X
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // LLVM 19: entries(H C) D B assumed divergent (H does not dominate D).
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H", {"H", "C"}, 1, kDivergent, kUnchecked);
  m.ExpectValues(kDivergent,
                 {"div_merge_h", "div_inc_b", "div_merge_c", "div_inc_c", "div_merge_d"});
  m.ExpectValues(kUniform, {"uni_cond"});
  m.ExpectFlow(kDivergent, {"H", "B", "C", "D"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

// "the join-node D is dominated by diverge point H2"
//      entry
//       | |
//  --> H1 |
//  |     \|
//  |      H2(div)
//  |     / \
//  |    B   C
//  ^     \ /
//  \------D
//         |
//         X
TEST(UniformityLlvmIrreducible2, CycleJoinDominatedByDiverge) {
  const Kernel m("cycle_join_dominated_by_diverge",
                 R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %uni_cond %H2 %H1
%H1 = OpLabel
%uni_merge_h1 = OpPhi %uint %uint_0 %entry %b %D
OpBranch %H2
%H2 = OpLabel
%uni_merge_h2 = OpPhi %uint %uint_0 %entry %b %H1
OpBranchConditional %div_cond %C %B
%B = OpLabel
%uni_inc_b = OpIAdd %uint %uni_merge_h2 %uint_1
OpBranch %D
%C = OpLabel
%uni_inc_c = OpIAdd %uint %uni_merge_h2 %uint_2
OpBranch %D
%D = OpLabel
%div_merge_d = OpPhi %uint %uni_inc_b %B %uni_inc_c %C
OpBranchConditional %uni_cond %H1 %X
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // H2 strictly dominates D: m-converged (LLVM 19: no assumed-divergent
  // cycle). Threads reconverge at D and leave together.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H2", {"H2", "H1"}, 1, kUniform, kUniform);
  // CHECK: DIVERGENT: %div.merge.d; CHECK-NOT: DIVERGENT: %uni. before it.
  m.ExpectValues(kDivergent, {"div_merge_d"});
  m.ExpectFirstStep("div_merge_d", UniformityStep::Kind::kJoin, "H2");
  m.ExpectValues(kUniform, {"uni_merge_h1", "uni_merge_h2", "uni_inc_b", "uni_inc_c"});
  m.ExpectFlow(kDivergent, {"B", "C"});
  m.ExpectFlow(kUniform, {"entry", "H1", "H2", "D", "X"});
}

// "the join-node D is dominated by cycle entry H2"
//      entry
//       | |
//  --> H1 |
//  |     \|
//  |      H2 -----
//  |      |      |
//  |      A(div) |
//  |     / \     v
//  |    B   C   /
//  ^     \ /   /
//  \------D <-/
//         |
//         X
TEST(UniformityLlvmIrreducible2, CycleJoinDominatedByEntry) {
  const Kernel m("cycle_join_dominated_by_entry",
                 R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %uni_cond %H2 %H1
%H1 = OpLabel
%uni_merge_h1 = OpPhi %uint %uint_0 %entry %b %D
OpBranch %H2
%H2 = OpLabel
%uni_merge_h2 = OpPhi %uint %uint_0 %entry %b %H1
OpBranchConditional %uni_cond %D %A
%A = OpLabel
OpBranchConditional %div_cond %C %B
%B = OpLabel
%uni_inc_b = OpIAdd %uint %uni_merge_h2 %uint_1
OpBranch %D
%C = OpLabel
%uni_inc_c = OpIAdd %uint %uni_merge_h2 %uint_2
OpBranch %D
%D = OpLabel
%div_merge_d = OpPhi %uint %uni_inc_b %B %uni_inc_c %C %uni_merge_h2 %H2
OpBranchConditional %uni_cond %H1 %X
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // A does not dominate D (H2 -> D), but the header H2 does: m-converged.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H2", {"H2", "H1"}, 1, kUniform, kUniform);
  m.ExpectValues(kDivergent, {"div_merge_d"});
  m.ExpectValues(kUniform, {"uni_merge_h1", "uni_merge_h2", "uni_inc_b", "uni_inc_c"});
  m.ExpectFlow(kDivergent, {"B", "C"});
  m.ExpectFlow(kUniform, {"entry", "H1", "H2", "A", "D", "X"});
}

// "join node D is not dominated by divergence starting block C, and also
// not dominated by any entries(H/C)"
//      entry
//       |  |
//  ---> H  |
//  |   / \ v
//  |  B<--C(div)
//  ^   \ /
//  \----D
//       |
//       X
TEST(UniformityLlvmIrreducible2, CycleJoinNotDominated) {
  const Kernel m("cycle_join_not_dominated", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %uni_cond %H %C
%H = OpLabel
%div_merge_h = OpPhi %uint %uint_0 %entry %b %D
OpBranchConditional %uni_cond %C %B
%B = OpLabel
%div_merge_b = OpPhi %uint %uint_0 %H %b %C
%div_inc_b = OpIAdd %uint %div_merge_b %uint_1
OpBranch %D
%C = OpLabel
%div_merge_c = OpPhi %uint %uint_0 %entry %div_merge_h %H
%div_inc_c = OpIAdd %uint %div_merge_c %uint_2
OpBranchConditional %div_cond %B %D
%D = OpLabel
%div_merge_d = OpPhi %uint %div_inc_b %B %div_inc_c %C
OpBranchConditional %uni_cond %H %X
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // LLVM 19: entries(H C) D B assumed divergent.
  m.ExpectCycle("H", {"H", "C"}, 1, kDivergent, kUnchecked);
  // CHECK: DIVERGENT: %div.inc.b, %div.inc.c, %div.merge.d (and LLVM 19
  // the three other phis).
  m.ExpectValues(kDivergent, {"div_merge_h", "div_merge_b", "div_inc_b", "div_merge_c", "div_inc_c",
                              "div_merge_d"});
  m.ExpectValues(kUniform, {"uni_cond"});
  m.ExpectFlow(kDivergent, {"H", "B", "C", "D"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

// The same CFG, C reached first: C heads the cycle.
TEST(UniformityLlvmIrreducible2, CycleJoinNotDominated2) {
  const Kernel m("cycle_join_not_dominated2", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %uni_cond %C %H
%H = OpLabel
%div_merge_h = OpPhi %uint %uint_0 %entry %b %D
OpBranchConditional %uni_cond %C %B
%B = OpLabel
%div_merge_b = OpPhi %uint %uint_0 %H %b %C
%div_inc_b = OpIAdd %uint %div_merge_b %uint_1
OpBranch %D
%C = OpLabel
%div_merge_c = OpPhi %uint %uint_0 %entry %div_merge_h %H
%div_inc_c = OpIAdd %uint %div_merge_c %uint_2
OpBranchConditional %div_cond %B %D
%D = OpLabel
%div_merge_d = OpPhi %uint %div_inc_b %B %div_inc_c %C
OpBranchConditional %uni_cond %H %X
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // LLVM 19: entries(C H) B D assumed divergent.
  m.ExpectCycle("C", {"C", "H"}, 1, kDivergent, kUnchecked);
  m.ExpectValues(kDivergent, {"div_merge_h", "div_merge_b", "div_inc_b", "div_merge_c", "div_inc_c",
                              "div_merge_d"});
  m.ExpectValues(kUniform, {"uni_cond"});
  m.ExpectFlow(kDivergent, {"H", "B", "C", "D"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

// entry -> H; H -> B; B -> C, H (divergent); C -> X, H (uniform). A natural
// loop with two back edges that carry the same value.
TEST(UniformityLlvmIrreducible2, NaturalLoopTwoBackedges) {
  const Kernel m("natural_loop_two_backedges", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranch %H
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %entry %uni_inc %B %uni_inc %C
%uni_inc = OpIAdd %uint %uni_merge_h %uint_1
OpBranch %B
%B = OpLabel
OpBranchConditional %div_cond %H %C
%C = OpLabel
OpBranchConditional %uni_cond %H %X
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // LLVM 19: entries(H) B C has a divergent exit (C -> X runs only for the
  // threads that took B -> C).
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H", {"H"}, 1, kUniform, kDivergent);
  m.ExpectBranches(kDivergent, {"B"});
  m.ExpectBranches(kUniform, {"C"});
  // "FIXME: the uni.merge.h can be viewed as uniform." B's paths B -> H and
  // B -> C -> H reconverge at the header in the next iteration and both
  // bring %uni.inc of the same converged instance: the phi rule of
  // "Convergence and Uniformity" ("both instances choose the same output
  // from converged dynamic instances") makes it uniform. LLVM 19 reports
  // both divergent.
  m.ExpectValues(kUniform, {"uni_merge_h", "uni_inc"});
  // C post-dominates B, but threads that took B -> C may have left: the
  // next iteration runs without them.
  m.ExpectFlow(kDivergent, {"H", "B", "C"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

// entry -> H; H -> B, D (uniform); B -> C, H (divergent); C -> H;
// D -> B, X (uniform). No divergent exit.
TEST(UniformityLlvmIrreducible2, NaturalLoopTwoBackedges2) {
  const Kernel m("natural_loop_two_backedges2", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranch %H
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %entry %uni_inc %B %uni_inc %C
%uni_inc = OpIAdd %uint %uni_merge_h %uint_1
OpBranchConditional %uni_cond %D %B
%B = OpLabel
OpBranchConditional %div_cond %H %C
%C = OpLabel
OpBranch %H
%D = OpLabel
OpBranchConditional %uni_cond %X %B
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // Both paths of B's branch return to H; the exit in D is reached by all
  // threads of an iteration together (LLVM 19: no divergent exit).
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H", {"H"}, 1, kUniform, kUniform);
  // "FIXME: the uni.merge.h can be viewed as uniform" (as above).
  m.ExpectValues(kUniform, {"uni_merge_h", "uni_inc"});
  m.ExpectFlow(kDivergent, {"C"});
  m.ExpectFlow(kUniform, {"entry", "H", "B", "D", "X"});
}

//   entry(div)
//       |   \
//   --> H1   |
//  /    |    |
//  | -> H2   |
//  | |  |    /
//  | \--B <--
//  ^    |
//  \----C
//       |
//       X
TEST(UniformityLlvmIrreducible2, CycleEnterNested) {
  const Kernel m("cycle_enter_nested", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %div_cond %H1 %B
%H1 = OpLabel
%div_merge_h1 = OpPhi %uint %uint_1 %entry %b %C
OpBranch %H2
%H2 = OpLabel
%div_merge_h2 = OpPhi %uint %uint_2 %B %a %H1
OpBranch %B
%B = OpLabel
%div_merge_b = OpPhi %uint %uint_0 %entry %a %H2
OpBranchConditional %uni_cond %H2 %C
%C = OpLabel
OpBranchConditional %uni_cond %H1 %X
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // Diverged paths reach the outer cycle at H1 and B. LLVM 19: entries(H1
  // B) C H2 assumed divergent.
  m.ExpectCycle("H1", {"H1", "B"}, 1, kDivergent, kUnchecked);
  // CHECK: DIVERGENT: %div.merge.h1, %div.merge.h2, %div.merge.b.
  m.ExpectValues(kDivergent, {"div_merge_h1", "div_merge_h2", "div_merge_b"});
  m.ExpectValues(kUniform, {"uni_cond"});
  m.ExpectFlow(kDivergent, {"H1", "H2", "B", "C"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

//          entry
//        /      \
//       E1-> A-> E2
//       ^    |    \
//       |    E3-> E4
//       |    ^   /
//       |     \ /
//       C <----B
//       |
//       X
TEST(UniformityLlvmIrreducible2, CycleInnerExitEnter) {
  const Kernel m("cycle_inner_exit_enter", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %uni_cond %E1 %E2
%E1 = OpLabel
%div_merge_e1 = OpPhi %uint %uint_1 %entry %b %C
OpBranch %A
%A = OpLabel
OpBranchConditional %uni_cond %E3 %E2
%E2 = OpLabel
%div_merge_e2 = OpPhi %uint %uint_2 %entry %a %A
OpBranch %E4
%E3 = OpLabel
%div_merge_e3 = OpPhi %uint %uint_0 %A %b %B
OpBranch %E4
%E4 = OpLabel
%div_merge_e4 = OpPhi %uint %uint_0 %E2 %a %E3
OpBranch %B
%B = OpLabel
OpBranchConditional %div_cond %E3 %C
%C = OpLabel
OpBranchConditional %uni_cond %E1 %X
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // B's paths B -> E3 and B -> C -> E1 -> A -> E3 join at E3 (and at E4),
  // which neither B nor the header E1 dominates (entry -> E2 -> E4 -> B).
  // LLVM 19: entries(E1 E2) ... assumed divergent; child entries(E3 E4) B.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("E1", {"E1", "E2"}, 1, kDivergent, kUnchecked);
  m.ExpectCycle("E3", {"E3", "E4"}, 2, kUnchecked, kUnchecked);
  // CHECK: DIVERGENT: %div.merge.e1 .. %div.merge.e4.
  m.ExpectValues(kDivergent, {"div_merge_e1", "div_merge_e2", "div_merge_e3", "div_merge_e4"});
  m.ExpectFlow(kDivergent, {"E1", "A", "E2", "E3", "E4", "B", "C"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

// The same CFG, E2 reached first. LLVM 19: entries(E2 E1), child
// entries(E4 E1).
TEST(UniformityLlvmIrreducible2, CycleInnerExitEnter2) {
  const Kernel m("cycle_inner_exit_enter2", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpSLessThan %bool %tid %uint_0
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %uni_cond %E2 %E1
%E1 = OpLabel
%div_merge_e1 = OpPhi %uint %uint_1 %entry %b %C
OpBranch %A
%A = OpLabel
OpBranchConditional %uni_cond %E3 %E2
%E2 = OpLabel
%div_merge_e2 = OpPhi %uint %uint_2 %entry %a %A
OpBranch %E4
%E3 = OpLabel
%div_merge_e3 = OpPhi %uint %uint_0 %A %b %B
OpBranch %E4
%E4 = OpLabel
%div_merge_e4 = OpPhi %uint %uint_0 %E2 %a %E3
OpBranch %B
%B = OpLabel
OpBranchConditional %div_cond %E3 %C
%C = OpLabel
OpBranchConditional %uni_cond %E1 %X
%X = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("E2", {"E2", "E1"}, 1, kDivergent, kUnchecked);
  m.ExpectCycle("E4", {"E4", "E1"}, 2, kUnchecked, kUnchecked);
  m.ExpectValues(kDivergent, {"div_merge_e1", "div_merge_e2", "div_merge_e3", "div_merge_e4"});
  m.ExpectFlow(kDivergent, {"E1", "A", "E2", "E3", "E4", "B", "C"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

// ===========================================================================
// irreducible/reducible-headers.ll
// ===========================================================================

//                         Entry
//                           |
//                           v
//                  -------->H---------
//                  |        |        |
//                  |        v        |
//                  |    --->T----    |
//                  |    |       |    |
//                  |    |       V    |
//                  S<---R       P <---
//                  ^    ^       |
//                  |    |  Div  |
//                  |    --- Q <--
//                  |        |
//                  |        v
//                  -------- U
//                           |
//                           v
//                          Exit
// "P is always executed convergently -- either by threads that reconverged
// at header H, or by threads that are still executing the inner cycle."
TEST(UniformityLlvmReducibleHeaders, NestedIrreducible) {
  const Kernel m("nested_irreducible", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
OpBranch %H
%H = OpLabel
OpBranchConditional %cond_uni %P %T
%P = OpLabel
%pp_phi = OpPhi %uint %a %H %b %T
%pp = OpIAdd %uint %b %uint_1
OpBranch %Q
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
%qq_uni = OpIAdd %uint %pp_phi %uint_1
OpBranchConditional %cond_div %U %R
%R = OpLabel
OpBranchConditional %cond_uni %T %S
%T = OpLabel
%tt_phi = OpPhi %uint %qq %R %a %H
%tt = OpIAdd %uint %b %uint_1
OpBranch %P
%S = OpLabel
%ss_phi = OpPhi %uint %qq_uni %U %a %R
%ss = OpIAdd %uint %b %uint_1
OpBranch %H
%U = OpLabel
OpBranchConditional %cond_uni %exit %S
%exit = OpLabel
%ee_div = OpIAdd %uint %qq_uni %uint_1
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK-NOT: CYCLES ASSUMED DIVERGENT; CHECK: CYCLES WITH DIVERGENT EXIT:
  // depth=2: entries(P T) Q R and depth=1: entries(H) U S P Q R T.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("H", {"H"}, 1, kUniform, kDivergent);
  m.ExpectCycle("P", {"P", "T"}, 2, kUniform, kDivergent);
  m.ExpectBranches(kDivergent, {"Q"});
  // CHECK-NOT: DIVERGENT: %pp.phi, %pp, %qq, %qq.uni, %tt.phi, %tt, %ss.
  m.ExpectValues(kUniform, {"pp_phi", "pp", "qq", "qq_uni", "tt_phi", "tt", "ss"});
  // CHECK: DIVERGENT: %ss.phi (joins Q -> U -> S and Q -> R -> S).
  m.ExpectValues(kDivergent, {"ss_phi"});
  // CHECK: DIVERGENT: %ee.div = %qq.uni + 1 (temporal); CHECK-NOT: %ee.
  m.ExpectUse(kDivergent, "ee_div", 0);
  m.ExpectValues(kDivergent, {"ee_div"});
  m.ExpectValues(kUniform, {"ee"});
  // U post-dominates Q, but the threads on Q -> R -> S -> H start the next
  // iteration of H without those that left through Q -> U -> exit.
  m.ExpectFlow(kDivergent, {"H", "T", "P", "Q", "R", "S", "U"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

//                         Entry
//                           |
//                           v
//               -->-------->H---------
//               |  ^        |        |
//               |  |        v        V
//               |  R<-------T-->U--->P
//               |          Div       |
//               ----------- Q <-------
//                           |
//                           v
//                          Exit
// "P is always executed convergently ... any PHI at P should not be marked
// divergent."
TEST(UniformityLlvmReducibleHeaders, HeaderLabel1) {
  const Kernel m("header_label_1", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
OpBranch %H
%H = OpLabel
OpBranchConditional %cond_uni %P %T
%P = OpLabel
%pp_phi = OpPhi %uint %a %H %b %U
%pp = OpIAdd %uint %b %uint_1
OpBranch %Q
%Q = OpLabel
%qq = OpIAdd %uint %b %uint_1
%qq_uni = OpIAdd %uint %pp_phi %uint_1
OpBranchConditional %cond_uni %H %exit
%T = OpLabel
OpBranchConditional %cond_div %U %R
%R = OpLabel
OpBranch %H
%U = OpLabel
OpBranch %P
%exit = OpLabel
%ee_div = OpIAdd %uint %qq_uni %uint_1
%ee = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK-NOT: CYCLES ASSUMED DIVERGENT; CHECK: CYCLES WITH DIVERGENT EXIT:
  // depth=1: entries(H) P Q T U R.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H", {"H"}, 1, kUniform, kDivergent);
  m.ExpectBranches(kDivergent, {"T"});
  // CHECK-NOT: DIVERGENT: %pp.phi, %pp, %qq, %qq.uni.
  m.ExpectValues(kUniform, {"pp_phi", "pp", "qq", "qq_uni"});
  // CHECK: DIVERGENT: %ee.div (temporal); CHECK-NOT: %ee.
  m.ExpectUse(kDivergent, "ee_div", 0);
  m.ExpectValues(kDivergent, {"ee_div"});
  m.ExpectValues(kUniform, {"ee"});
  // P and Q post-dominate T, but the threads on T -> R -> H start the next
  // iteration without those that left through Q -> exit.
  m.ExpectFlow(kDivergent, {"H", "T", "R", "U", "P", "Q"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

//        entry
//            |
//        --> H1
//        |   | \
//        |   | H2(div)
//        |   \ / \
//        |    B   C
//        ^     \ /
//        \------D
//               |
//               X
// "B is always executed convergently ... any PHI at B should not be marked
// divergent."
TEST(UniformityLlvmReducibleHeaders, HeaderLabel2) {
  const Kernel m("header_label_2", R"(
%f = OpFunction %void None %fn3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%entry = OpLabel
%cond_uni = OpSLessThan %bool %a %uint_0
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_div = OpSLessThan %bool %tid %uint_0
OpBranch %H1
%H1 = OpLabel
OpBranchConditional %cond_uni %H2 %B
%H2 = OpLabel
OpBranchConditional %cond_div %C %B
%B = OpLabel
%bb_phi = OpPhi %uint %a %H1 %b %H2
OpBranch %D
%C = OpLabel
OpBranch %D
%D = OpLabel
%dd_phi = OpPhi %uint %a %B %b %C
OpBranchConditional %cond_uni %H1 %exit
%exit = OpLabel
%ee_1 = OpIAdd %uint %dd_phi %uint_1
%ee_2 = OpIAdd %uint %b %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK-NOT: CYCLES ASSUMED DIVERGENT / CYCLES WITH DIVERGENT EXIT.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H1", {"H1"}, 1, kUniform, kUniform);
  // CHECK-NOT: DIVERGENT: %bb.phi (B is not a join of H2: one path from H2);
  // CHECK: DIVERGENT: %dd.phi (H2 -> B -> D, H2 -> C -> D).
  m.ExpectValues(kUniform, {"bb_phi", "ee_2"});
  m.ExpectValues(kDivergent, {"dd_phi", "ee_1"});
  // B runs for all threads (from H1) or for those taking H2 -> B.
  m.ExpectFlow(kDivergent, {"B", "C"});
  m.ExpectFlow(kUniform, {"entry", "H1", "H2", "D", "exit"});
}

// ===========================================================================
// irreducible/reducible-subgraph.ll (a regression for an assertion: "the
// cycle (bb.3 <-> bb.4) is reducible, but the header is not the join block
// bb.4 of the divergent terminator block bb.5"). A non-kernel function: its
// three conditions are divergent. No block returns.
//   entry -> bb.1, bb.2;  bb.1 -> bb.3;  bb.3 -> bb.5, bb.4;  bb.4 -> bb.3;
//   bb.5 -> bb.6, bb.7;  bb.6 -> bb.2;  bb.7 -> bb.8;  bb.8 -> bb.3;
//   bb.2 -> bb.8
// ===========================================================================

TEST(UniformityLlvmReducibleSubgraph, UniformityAnalysisCrash) {
  const Kernel m("uniformity_analysis_crash", R"(
%f = OpFunction %void None %fn0
%entry = OpLabel
%arg_tid_v = OpLoad %v3ulong %lid
%arg_tid_l = OpCompositeExtract %ulong %arg_tid_v 0
%arg_tid = OpUConvert %uint %arg_tid_l
%v_0 = OpULessThan %bool %arg_tid %uint_1
%v_1 = OpULessThan %bool %arg_tid %uint_2
%v_2 = OpULessThan %bool %arg_tid %uint_3
OpBranchConditional %v_0 %bb_2 %bb_1
%bb_1 = OpLabel
OpBranch %bb_3
%bb_3 = OpLabel
OpBranchConditional %v_1 %bb_4 %bb_5
%bb_4 = OpLabel
OpBranch %bb_3
%bb_5 = OpLabel
OpBranchConditional %v_2 %bb_7 %bb_6
%bb_6 = OpLabel
OpBranch %bb_2
%bb_7 = OpLabel
OpBranch %bb_8
%bb_8 = OpLabel
OpBranch %bb_3
%bb_2 = OpLabel
OpBranch %bb_8
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // LLVM 19: depth=1 entries(bb.2 bb.3) assumed divergent (entry's diverged
  // paths reach bb.3 through bb.1 and bb.2 directly); children entries(bb.8
  // bb.3) and entries(bb.3) bb.4.
  ASSERT_EQ(m.Cycles().size(), 3u);
  m.ExpectCycle("bb_2", {"bb_2", "bb_3"}, 1, kDivergent, kUnchecked);
  m.ExpectCycle("bb_8", {"bb_8", "bb_3"}, 2, kUnchecked, kUnchecked);
  m.ExpectCycle("bb_3", {"bb_3"}, 3, kUnchecked, kUnchecked);
  m.ExpectBranches(kDivergent, {"entry", "bb_3", "bb_5"});
  m.ExpectFlow(kDivergent, {"bb_1", "bb_2", "bb_3", "bb_4", "bb_5", "bb_6", "bb_7", "bb_8"});
  m.ExpectFlow(kUniform, {"entry"});
}

// ===========================================================================
// temporal_diverge.ll
// ===========================================================================

// "temporal-divergent use of value carried by divergent loop"
//   entry -> H;  H -> X, H (divergent)
TEST(UniformityLlvmTemporalDiverge, TemporalDiverge) {
  const Kernel m("temporal_diverge", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%uni_cond = OpSLessThan %bool %a %uint_0                   ; EXPECT: uniform (CHECK-NOT)
OpBranch %H
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %entry %uni_inc %H       ; EXPECT: uniform (CHECK-NOT)
%uni_inc = OpIAdd %uint %uni_merge_h %uint_1                ; EXPECT: uniform (CHECK-NOT)
%div_exitx = OpSLessThan %bool %tid %uint_0                 ; EXPECT: divergent (CHECK)
OpBranchConditional %div_exitx %H %X                        ; EXPECT: divergent (CHECK)
%X = OpLabel
%div_user = OpIAdd %uint %uni_inc %uint_5                   ; EXPECT: divergent (LLVM 19)
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H", {"H"}, 1, kUniform, kDivergent);
  // %div.user = %uni.inc + 5: %uni.inc is uniform at its definition,
  // divergent where X uses it.
  m.ExpectUse(kDivergent, "div_user", 0);
  m.ExpectFirstStep("div_user", UniformityStep::Kind::kTemporal, "uni_inc");
  m.ExpectExplainedBySource("div_user");
  m.ExpectFlow(kDivergent, {"H"});
  m.ExpectFlow(kUniform, {"entry", "X"});
}

// "temporal-divergent use of value carried by divergent loop inside a
// top-level loop"
//   entry -> G;  G -> H;  H -> X, H (divergent);  X -> G, Y (uniform)
TEST(UniformityLlvmTemporalDiverge, TemporalDivergeInloop) {
  const Kernel m("temporal_diverge_inloop", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranch %G
%G = OpLabel
OpBranch %H
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %G %uni_inc %H
%uni_inc = OpIAdd %uint %uni_merge_h %uint_1
%div_exitx = OpSLessThan %bool %tid %uint_0
OpBranchConditional %div_exitx %H %X
%X = OpLabel
%div_user = OpIAdd %uint %uni_inc %uint_5
OpBranchConditional %uni_cond %Y %G
%Y = OpLabel
%div_alsouser = OpIAdd %uint %uni_inc %uint_5
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // LLVM 19: only the inner loop (depth=2 entries(H)) has a divergent exit;
  // the threads reconverge at X and leave G together.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("G", {"G"}, 1, kUniform, kUniform);
  m.ExpectCycle("H", {"H"}, 2, kUniform, kDivergent);
  m.ExpectValues(kDivergent, {"div_exitx"});
  m.ExpectValues(kUniform, {"uni_cond", "uni_merge_h", "uni_inc"});
  // LLVM 19: DIVERGENT: %div.user, %div.alsouser (both outside H).
  m.ExpectUse(kDivergent, "div_user", 0);
  m.ExpectUse(kDivergent, "div_alsouser", 0);
  m.ExpectValues(kDivergent, {"div_user", "div_alsouser"});
  m.ExpectFlow(kDivergent, {"H"});
  m.ExpectFlow(kUniform, {"entry", "G", "X", "Y"});
}

// "temporal-uniform use of a valud, definition and users are carried by a
// surrounding divergent loop"
//   entry -> G;  G -> H;  H -> X, H (uniform);  X -> G, Y (divergent)
TEST(UniformityLlvmTemporalDiverge, TemporalUniformIndivloop) {
  const Kernel m("temporal_uniform_indivloop", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranch %G
%G = OpLabel
OpBranch %H
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %G %uni_inc %H
%uni_inc = OpIAdd %uint %uni_merge_h %uint_1
OpBranchConditional %uni_cond %H %X
%X = OpLabel
%uni_user = OpIAdd %uint %uni_inc %uint_5
%div_exity = OpSLessThan %bool %tid %uint_0
OpBranchConditional %div_exity %Y %G
%Y = OpLabel
%div_alsouser = OpIAdd %uint %uni_inc %uint_5
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // LLVM 19: depth=1 entries(G) X H has a divergent exit.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("G", {"G"}, 1, kUniform, kDivergent);
  m.ExpectCycle("H", {"H"}, 2, kUniform, kUniform);
  // CHECK: DIVERGENT: %div.exity, br i1 %div.exity, %div.alsouser.
  m.ExpectValues(kDivergent, {"div_exity"});
  m.ExpectBranches(kDivergent, {"X"});
  m.ExpectBranches(kUniform, {"H"});
  // CHECK-NOT: DIVERGENT: %uni. (%uni.user is used in X, inside G, and H
  // has a uniform exit).
  m.ExpectValues(kUniform, {"uni_cond", "uni_merge_h", "uni_inc", "uni_user"});
  m.ExpectUse(kUniform, "uni_user", 0);
  // Y is outside G, whose exit is divergent.
  m.ExpectUse(kDivergent, "div_alsouser", 0);
  m.ExpectValues(kDivergent, {"div_alsouser"});
  m.ExpectFlow(kDivergent, {"G", "H", "X"});
  m.ExpectFlow(kUniform, {"entry", "Y"});
}

// "temporal-divergent use of value carried by divergent loop, user is
// inside sibling loop"
//   entry -> H;  H -> X, H (divergent);  X -> G;  G -> G, Y (uniform)
TEST(UniformityLlvmTemporalDiverge, TemporalDivergeLoopuser) {
  const Kernel m("temporal_diverge_loopuser", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranch %H
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %entry %uni_inc %H
%uni_inc = OpIAdd %uint %uni_merge_h %uint_1
%div_exitx = OpSLessThan %bool %tid %uint_0
OpBranchConditional %div_exitx %H %X
%X = OpLabel
OpBranch %G
%G = OpLabel
%div_user = OpIAdd %uint %uni_inc %uint_5
OpBranchConditional %uni_cond %Y %G
%Y = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("H", {"H"}, 1, kUniform, kDivergent);
  m.ExpectCycle("G", {"G"}, 1, kUniform, kUniform);
  m.ExpectValues(kUniform, {"uni_cond", "uni_merge_h", "uni_inc"});
  // CHECK: DIVERGENT: %div.user (in G, outside H).
  m.ExpectUse(kDivergent, "div_user", 0);
  m.ExpectValues(kDivergent, {"div_user"});
  m.ExpectFlow(kDivergent, {"H"});
  m.ExpectFlow(kUniform, {"entry", "X", "G", "Y"});
}

// "temporal-divergent use of value carried by divergent loop, user is
// inside sibling loop, defs and use are carried by a uniform loop"
//   entry -> G;  G -> H;  H -> X, H (divergent);  X -> X, G (uniform);
//   Y is unreachable, so no block returns: G is an endless loop, whose
//   iterations end at its back edge X -> G (dominance.h). The threads
//   leaving H reconverge at X within the same iteration of G.
TEST(UniformityLlvmTemporalDiverge, TemporalDivergeLoopuserNested) {
  const Kernel m("temporal_diverge_loopuser_nested",
                 R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranch %G
%G = OpLabel
OpBranch %H
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %G %uni_inc %H
%uni_inc = OpIAdd %uint %uni_merge_h %uint_1
%div_exitx = OpSLessThan %bool %tid %uint_0
OpBranchConditional %div_exitx %H %X
%X = OpLabel
%div_user = OpIAdd %uint %uni_inc %uint_5
OpBranchConditional %uni_cond %G %X
%Y = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 3u);
  m.ExpectCycle("G", {"G"}, 1, kUniform, kUniform);
  m.ExpectCycle("H", {"H"}, 2, kUniform, kDivergent);
  m.ExpectCycle("X", {"X"}, 2, kUniform, kUniform);
  m.ExpectValues(kUniform, {"uni_cond", "uni_merge_h", "uni_inc"});
  // CHECK: DIVERGENT: %div.user (in X, outside H).
  m.ExpectUse(kDivergent, "div_user", 0);
  m.ExpectValues(kDivergent, {"div_user"});
  m.ExpectFlow(kDivergent, {"H"});
  m.ExpectFlow(kUniform, {"entry", "G", "X"});
}

// ===========================================================================
// hidden_diverge.ll
// ===========================================================================

//   entry -> B, C (divergent);  B -> C, merge (uniform);  C -> merge
// The join C (entry -> C, entry -> B -> C) hides the join at merge from an
// immediate post-dominator rule.
TEST(UniformityLlvmHiddenDiverge, HiddenDiverge) {
  const Kernel m("hidden_diverge", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_var = OpSLessThan %bool %tid %uint_0                  ; EXPECT: divergent (CHECK)
OpBranchConditional %cond_var %C %B                         ; EXPECT: divergent (CHECK)
%B = OpLabel
%cond_uni = OpSLessThan %bool %n %uint_0                    ; EXPECT: uniform
OpBranchConditional %cond_uni %merge %C                     ; EXPECT: uniform (CHECK-NOT)
%C = OpLabel
%phi_var_hidden = OpPhi %uint %uint_1 %entry %uint_2 %B     ; EXPECT: divergent (CHECK)
OpBranch %merge
%merge = OpLabel
%phi_ipd = OpPhi %uint %a %B %b %C                          ; EXPECT: divergent (CHECK)
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m.Cycles().empty());
  m.ExpectFirstStep("phi_ipd", UniformityStep::Kind::kJoin, "entry");
  m.ExpectExplainedBySource("phi_ipd");
  m.ExpectFlow(kDivergent, {"B", "C"});
  m.ExpectFlow(kUniform, {"entry", "merge"});
}

//   entry -> for.header;  for.header -> A, B (divergent);  A, B -> C;
//   C -> E, D (uniform);  D -> for.header, F (divergent);  E, F -> G
TEST(UniformityLlvmHiddenDiverge, HiddenLoopIpd) {
  const Kernel m("hidden_loop_ipd", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond_var = OpSLessThan %bool %tid %uint_0
%cond_uni = OpSLessThan %bool %n %uint_0
OpBranch %for_header
%for_header = OpLabel
OpBranchConditional %cond_var %B %A
%A = OpLabel
OpBranch %C
%B = OpLabel
OpBranch %C
%C = OpLabel
OpBranchConditional %cond_uni %D %E
%D = OpLabel
OpBranchConditional %cond_var %F %for_header
%E = OpLabel
%e_lcssa_uni = OpPhi %uint %uint_0 %C
OpBranch %G
%F = OpLabel
%f_lcssa_uni = OpPhi %uint %uint_1 %D
OpBranch %G
%G = OpLabel
%g_join_var = OpPhi %uint %e_lcssa_uni %E %f_lcssa_uni %F
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // LLVM 19: entries(for.header) with a divergent exit (D -> F).
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("for_header", {"for_header"}, 1, kUniform, kDivergent);
  // CHECK: DIVERGENT: %cond.var; CHECK-NOT: %cond.uni, %e.lcssa.uni,
  // %f.lcssa.uni; CHECK: DIVERGENT: %g.join.var (threads leave through E and
  // through F on different iterations).
  m.ExpectValues(kDivergent, {"cond_var", "g_join_var"});
  m.ExpectValues(kUniform, {"cond_uni", "e_lcssa_uni", "f_lcssa_uni"});
  m.ExpectBranches(kDivergent, {"for_header", "D"});
  m.ExpectBranches(kUniform, {"C"});
  m.ExpectFlow(kDivergent, {"for_header", "A", "B", "C", "D", "E", "F"});
  m.ExpectFlow(kUniform, {"entry", "G"});
}

// ===========================================================================
// hidden_loopdiverge.ll
// ===========================================================================

// "divergent loop (H<header><exiting to X>, B<exiting to Y>) the divergent
// join point in %exit is obscured by uniform control joining in %X"
//   entry -> X, H (uniform);  H -> X, B (divergent);  B -> Y, H (divergent);
//   X -> Y, exit (uniform);  Y -> exit
TEST(UniformityLlvmHiddenLoopDiverge, HiddenLoopDiverge) {
  const Kernel m("hidden_loop_diverge", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %uni_cond %H %X
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %entry %uni_inc %B
%div_exitx = OpSLessThan %bool %tid %uint_0
OpBranchConditional %div_exitx %B %X
%B = OpLabel
%uni_inc = OpIAdd %uint %uni_merge_h %uint_1
%div_exity = OpSGreaterThan %bool %tid %uint_0
OpBranchConditional %div_exity %H %Y
%X = OpLabel
%div_merge_x = OpPhi %uint %a %entry %uni_merge_h %H
OpBranchConditional %uni_cond %exit %Y
%Y = OpLabel
%div_merge_y = OpPhi %uint %uint_42 %X %b %B
OpBranch %exit
%exit = OpLabel
%div_merge_exit = OpPhi %uint %a %X %b %Y
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H", {"H"}, 1, kUniform, kDivergent);
  // CHECK: DIVERGENT: %div.exitx, %div.exity and their branches.
  m.ExpectValues(kDivergent, {"div_exitx", "div_exity"});
  m.ExpectBranches(kDivergent, {"H", "B"});
  // CHECK-NOT: DIVERGENT: %uni. (before the first CHECK); LLVM 19: %uni.inc.
  m.ExpectValues(kUniform, {"uni_cond", "uni_merge_h", "uni_inc"});
  // CHECK: DIVERGENT: %div.merge.x ("temporal divergent phi": its operand
  // %uni.merge.h comes from the loop), %div.merge.y, %div.merge.exit.
  m.ExpectUse(kDivergent, "div_merge_x", 2);
  m.ExpectValues(kDivergent, {"div_merge_x", "div_merge_y", "div_merge_exit"});
  m.ExpectFlow(kDivergent, {"H", "B", "X", "Y"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

// "the phi nodes in X and Y don't actually receive divergent values"
TEST(UniformityLlvmHiddenLoopDiverge, UnobservedLoopDiverge) {
  const Kernel m("unobserved_loop_diverge", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%uni_cond = OpSLessThan %bool %a %uint_0
OpBranchConditional %uni_cond %H %X
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %entry %uni_inc %B
%div_exitx = OpSLessThan %bool %tid %uint_0
OpBranchConditional %div_exitx %B %X
%B = OpLabel
%uni_inc = OpIAdd %uint %uni_merge_h %uint_1
%div_exity = OpSGreaterThan %bool %tid %uint_0
OpBranchConditional %div_exity %H %Y
%X = OpLabel
%uni_merge_x = OpPhi %uint %a %entry %b %H
OpBranch %exit
%Y = OpLabel
%uni_merge_y = OpPhi %uint %b %B
OpBranch %exit
%exit = OpLabel
%div_merge_exit = OpPhi %uint %a %X %b %Y
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  m.ExpectCycle("H", {"H"}, 1, kUniform, kDivergent);
  m.ExpectValues(kDivergent, {"div_exitx", "div_exity"});
  // CHECK-NOT: DIVERGENT: %uni.; X and Y receive %a and %b only, defined
  // outside the loop (LLVM 19: uniform).
  m.ExpectValues(kUniform, {"uni_cond", "uni_merge_h", "uni_inc", "uni_merge_x", "uni_merge_y"});
  // CHECK: DIVERGENT: %div.merge.exit (exit joins H -> X -> exit and
  // H -> B -> Y -> exit).
  m.ExpectValues(kDivergent, {"div_merge_exit"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

// "divergent loop (G<header>, L<exiting to D>) inside divergent loop
// (H<header>, B<exiting to X>, C<exiting to Y>, D, G, L)"
//   entry -> X, H;  H -> G, B;  B -> X, C;  C -> Y, D;  D -> H;
//   G -> C, L (divergent);  L -> D, G;  X -> Y, exit;  Y -> exit
TEST(UniformityLlvmHiddenLoopDiverge, HiddenNestedloopDiverge) {
  const Kernel m("hidden_nestedloop_diverge", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%uni_cond = OpSLessThan %bool %a %uint_0
%div_exitx = OpSLessThan %bool %tid %uint_0
OpBranchConditional %uni_cond %H %X
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %entry %uni_inc %D
OpBranchConditional %uni_cond %B %G
%B = OpLabel
OpBranchConditional %uni_cond %C %X
%C = OpLabel
OpBranchConditional %uni_cond %D %Y
%D = OpLabel
%uni_inc = OpIAdd %uint %uni_merge_h %uint_1
OpBranch %H
%G = OpLabel
OpBranchConditional %div_exitx %L %C
%L = OpLabel
OpBranchConditional %uni_cond %G %D
%X = OpLabel
%uni_merge_x = OpPhi %uint %a %entry %uni_merge_h %B
OpBranchConditional %uni_cond %exit %Y
%Y = OpLabel
%div_merge_y = OpPhi %uint %uint_42 %X %b %C
OpBranch %exit
%exit = OpLabel
%div_merge_exit = OpPhi %uint %a %X %b %Y
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // LLVM 19: both loops have a divergent exit.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("H", {"H"}, 1, kUniform, kDivergent);
  m.ExpectCycle("G", {"G"}, 2, kUniform, kDivergent);
  // CHECK: DIVERGENT: %div.exitx, br i1 %div.exitx.
  m.ExpectValues(kDivergent, {"div_exitx"});
  m.ExpectBranches(kDivergent, {"G"});
  m.ExpectBranches(kUniform, {"entry", "H", "B", "C", "L"});
  // CHECK-NOT: DIVERGENT: %uni.cond; LLVM 19: %uni.merge.h, %uni.inc uniform.
  // (%uni.merge.x is left out: the threads reaching X from B leave H
  // together, but a per-cycle divergent exit cannot tell.)
  m.ExpectValues(kUniform, {"uni_cond", "uni_merge_h", "uni_inc"});
  // CHECK: DIVERGENT: %div.merge.y (G -> C -> Y vs. G -> L -> D -> H -> B ->
  // X -> Y), %div.merge.exit.
  m.ExpectValues(kDivergent, {"div_merge_y", "div_merge_exit"});
  m.ExpectFlow(kDivergent, {"H", "B", "C", "D", "G", "L", "Y"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

// "divergent loop (G<header>, L<exiting to X>) in divergent loop (H<header>,
// B<exiting to C>, C, G, L) ... the inner exiting edge is exiting to
// top-level through the outer loop causing both to become divergent."
//   entry -> X, H;  H -> G, B;  B -> Y, C;  C -> H;  G -> X, L (divergent);
//   L -> C, G;  X -> Y
TEST(UniformityLlvmHiddenLoopDiverge, HiddenDoublebreakDiverge) {
  const Kernel m("hidden_doublebreak_diverge", R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%uni_cond = OpSLessThan %bool %a %uint_0
%div_exitx = OpSLessThan %bool %tid %uint_0
OpBranchConditional %uni_cond %H %X
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %entry %uni_inc %C
OpBranchConditional %uni_cond %B %G
%B = OpLabel
OpBranchConditional %uni_cond %C %Y
%C = OpLabel
%uni_inc = OpIAdd %uint %uni_merge_h %uint_1
OpBranch %H
%G = OpLabel
OpBranchConditional %div_exitx %L %X
%L = OpLabel
OpBranchConditional %uni_cond %G %C
%X = OpLabel
%div_merge_x = OpPhi %uint %a %entry %uni_merge_h %G
OpBranch %Y
%Y = OpLabel
%div_merge_y = OpPhi %uint %uint_42 %X %b %B
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("H", {"H"}, 1, kUniform, kDivergent);
  m.ExpectCycle("G", {"G"}, 2, kUniform, kDivergent);
  m.ExpectValues(kDivergent, {"div_exitx"});
  m.ExpectBranches(kDivergent, {"G"});
  m.ExpectValues(kUniform, {"uni_cond", "uni_merge_h", "uni_inc"});
  // CHECK: DIVERGENT: %div.merge.x ("temporal divergence"), %div.merge.y.
  m.ExpectUse(kDivergent, "div_merge_x", 2);
  m.ExpectValues(kDivergent, {"div_merge_x", "div_merge_y"});
  m.ExpectFlow(kDivergent, {"H", "B", "C", "G", "L", "X"});
  m.ExpectFlow(kUniform, {"entry", "Y"});
}

// "divergent loop (G<header>, L<exiting to D>) contained inside a uniform
// loop (H<header>, B, G, L , D<exiting to x>)"
//   entry -> X, H;  H -> G, B;  B -> D;  G -> B, L (divergent);  L -> G, D;
//   D -> X, H
TEST(UniformityLlvmHiddenLoopDiverge, HiddenContainedloopDiverge) {
  const Kernel m("hidden_containedloop_diverge",
                 R"(
%f = OpFunction %void None %fn3
%n = OpFunctionParameter %uint
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%uni_cond = OpSLessThan %bool %a %uint_0
%div_exitx = OpSLessThan %bool %tid %uint_0
OpBranchConditional %uni_cond %H %X
%H = OpLabel
%uni_merge_h = OpPhi %uint %uint_0 %entry %uni_inc_d %D
OpBranchConditional %uni_cond %B %G
%B = OpLabel
%div_merge_b = OpPhi %uint %uint_42 %H %uni_merge_g %G
OpBranch %D
%G = OpLabel
%uni_merge_g = OpPhi %uint %uint_123 %H %uni_inc_l %L
OpBranchConditional %div_exitx %L %B
%L = OpLabel
%uni_inc_l = OpIAdd %uint %uni_merge_g %uint_1
OpBranchConditional %uni_cond %D %G
%D = OpLabel
%uni_inc_d = OpIAdd %uint %uni_merge_h %uint_1
OpBranchConditional %uni_cond %H %X
%X = OpLabel
%uni_merge_x = OpPhi %uint %a %entry %uni_inc_d %D
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // LLVM 19: only depth=2 entries(G) L has a divergent exit: the threads
  // reconverge at D, inside H.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("H", {"H"}, 1, kUniform, kUniform);
  m.ExpectCycle("G", {"G"}, 2, kUniform, kDivergent);
  // CHECK: DIVERGENT: %div.exitx, %div.merge.b (%uni.merge.g from G, used
  // outside G), br i1 %div.exitx.
  m.ExpectValues(kDivergent, {"div_exitx", "div_merge_b"});
  m.ExpectUse(kDivergent, "div_merge_b", 2);
  m.ExpectBranches(kDivergent, {"G"});
  // CHECK-NOT: DIVERGENT: %uni.cond; LLVM 19: the other %uni. values.
  m.ExpectValues(kUniform, {"uni_cond", "uni_merge_h", "uni_merge_g", "uni_inc_l", "uni_inc_d",
                            "uni_merge_x"});
  m.ExpectUse(kUniform, "uni_merge_x", 2);
  m.ExpectFlow(kDivergent, {"G", "L", "B"});
  m.ExpectFlow(kUniform, {"entry", "H", "D", "X"});
}

// ===========================================================================
// join-at-loop-exit.ll, trivial-join-at-loop-exit.ll,
// propagate-loop-live-out.ll: Guard phis at loop exits.
// ===========================================================================

//   bb0 -> bb1;  bb1 -> bb2, bb3 (divergent);  bb2 -> bb3, bb1 (uniform);
//   bb3 -> bb4, bb5 (on %Guard.bb4);  bb4 -> bb5
TEST(UniformityLlvmJoinAtLoopExit, Test) {
  const Kernel m("test", R"(
%f = OpFunction %void None %fn0
%bb0 = OpLabel
%tid_x_v = OpLoad %v3ulong %lid
%tid_x_l = OpCompositeExtract %ulong %tid_x_v 0
%tid_x = OpUConvert %uint %tid_x_l
%i5 = OpIEqual %bool %tid_x %uint_m1
OpBranch %bb1
%bb1 = OpLabel
%lsr_iv = OpPhi %uint %uint_7 %bb0 %lsr_iv_next %bb2
OpBranchConditional %i5 %bb3 %bb2
%bb2 = OpLabel
%lsr_iv_next = OpIAdd %uint %lsr_iv %uint_m1
%i14 = OpIEqual %bool %lsr_iv_next %uint_0
OpBranchConditional %i14 %bb1 %bb3
%bb3 = OpLabel
%Guard_bb4 = OpPhi %bool %true %bb1 %false %bb2
OpBranchConditional %Guard_bb4 %bb5 %bb4
%bb4 = OpLabel
OpBranch %bb5
%bb5 = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("bb1", {"bb1"}, 1, kUniform, kDivergent);
  // CHECK: DIVERGENT: %Guard.bb4 = phi i1 [ true, %bb1 ], [ false, %bb2 ]
  // (threads leave through both exit edges), and its branch.
  m.ExpectValues(kDivergent, {"Guard_bb4", "i5"});
  m.ExpectBranches(kDivergent, {"bb1", "bb3"});
  // LLVM 19: the loop's own values are uniform.
  m.ExpectValues(kUniform, {"lsr_iv", "lsr_iv_next", "i14"});
  m.ExpectBranches(kUniform, {"bb2"});
  m.ExpectFlow(kDivergent, {"bb1", "bb2", "bb4"});
  m.ExpectFlow(kUniform, {"bb0", "bb3", "bb5"});
}

//   bb0 -> bb1, bb2 (uniform);  bb1 -> bb2, bb1 (divergent)
TEST(UniformityLlvmTrivialJoinAtLoopExit, Test2) {
  const Kernel m("test2", R"(
%f = OpFunction %void None %fn1
%uni_arg = OpFunctionParameter %uint
%bb0 = OpLabel
%uni = OpINotEqual %bool %uni_arg %uint_0
%tid_x_v = OpLoad %v3ulong %lid
%tid_x_l = OpCompositeExtract %ulong %tid_x_v 0
%tid_x = OpUConvert %uint %tid_x_l
%i5 = OpIEqual %bool %tid_x %uint_m1
OpBranchConditional %uni %bb2 %bb1
%bb1 = OpLabel
%lsr_iv = OpPhi %uint %uint_7 %bb0 %lsr_iv_next %bb1
%lsr_iv_next = OpIAdd %uint %lsr_iv %uint_m1
OpBranchConditional %i5 %bb1 %bb2
%bb2 = OpLabel
%Guard_bb2 = OpPhi %bool %true %bb1 %false %bb0
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("bb1", {"bb1"}, 1, kUniform, kDivergent);
  // CHECK-NOT: DIVERGENT: %Guard.bb2 = phi i1 [ true, %bb1 ], [ false, %bb0 ]:
  // the loop has one exit edge, and bb0's branch is uniform.
  m.ExpectValues(kUniform, {"Guard_bb2", "lsr_iv", "lsr_iv_next", "uni"});
  m.ExpectFlow(kDivergent, {"bb1"});
  m.ExpectFlow(kUniform, {"bb0", "bb2"});
}

//   bb0 -> bb1;  bb1 -> bb2, bb3 (divergent);  bb2 -> bb3;
//   bb3 -> bb4, bb1 (on %i3);  bb4 -> bb5, bb6 (on %i2);  bb5 -> bb6;
//   bb6 -> bb7, bb8 (on %.126.i355.i);  bb7 -> bb8
TEST(UniformityLlvmPropagateLoopLiveOut, KrnlGpuItsFitterKernel) {
  const Kernel m("_Z23krnl_GPUITSFitterKerneli",
                 R"(
%f = OpFunction %void None %fn0
%bb0 = OpLabel
%i4_v = OpLoad %v3ulong %lid
%i4_l = OpCompositeExtract %ulong %i4_v 0
%i4 = OpUConvert %uint %i4_l
%i5 = OpIEqual %bool %i4 %uint_m1
OpBranch %bb1
%bb1 = OpLabel
%lsr_iv = OpPhi %uint %i1 %bb3 %uint_7 %bb0
OpBranchConditional %i5 %bb3 %bb2
%bb2 = OpLabel
%lsr_iv_next = OpIAdd %uint %lsr_iv %uint_m1
%i14 = OpIEqual %bool %lsr_iv_next %uint_0
OpBranch %bb3
%bb3 = OpLabel
%i1 = OpPhi %uint %lsr_iv_next %bb2 %uint_0 %bb1
%i2 = OpPhi %bool %false %bb2 %true %bb1
%i3 = OpPhi %bool %i14 %bb2 %true %bb1
OpBranchConditional %i3 %bb1 %bb4
%bb4 = OpLabel
OpBranchConditional %i2 %bb6 %bb5
%bb5 = OpLabel
OpBranch %bb6
%bb6 = OpLabel
%v_126_i355_i = OpPhi %bool %false %bb5 %true %bb4
OpBranchConditional %v_126_i355_i %bb8 %bb7
%bb7 = OpLabel
OpBranch %bb8
%bb8 = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("bb1", {"bb1"}, 1, kUniform, kDivergent);
  // bb3 joins bb1's divergent branch: %i1, %i2, %i3 are divergent, and so
  // is everything they feed (LLVM 19), including the loop's exit branch.
  m.ExpectValues(kDivergent, {"i1", "i2", "i3", "lsr_iv", "lsr_iv_next", "i14"});
  m.ExpectBranches(kDivergent, {"bb1", "bb3", "bb4", "bb6"});
  // CHECK: DIVERGENT: %.126.i355.i = phi i1 [ false, %bb5 ], [ true, %bb4 ].
  m.ExpectValues(kDivergent, {"v_126_i355_i"});
  m.ExpectExplainedBySource("v_126_i355_i");
  m.ExpectFlow(kDivergent, {"bb1", "bb2", "bb3", "bb5", "bb7"});
  m.ExpectFlow(kUniform, {"bb0", "bb4", "bb6", "bb8"});
}

// ===========================================================================
// phi_div_branch.ll, phi_div_loop.ll, unstructured-branch.ll: joins that
// LLVM 19 misses (issue #137277, fixed by PR #139667); the CHECK lines and
// this port expect the correct, divergent verdicts.
// ===========================================================================

//      Entry (div.cond)
//      /   \
//     B0   B3
//     |    |
//     B1   B4
//     |    |
//     B2   B5
//      \  /
//       B6 (phi: divergent)      B6 -> B8, B7 (div.cond); B7 -> B8
TEST(UniformityLlvmPhiDivBranch, TestCtrlDivergence) {
  const Kernel m("test_ctrl_divergence", R"(
%f = OpFunction %void None %fn4
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%d = OpFunctionParameter %uint
%Entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpIEqual %bool %tid %uint_0
OpBranchConditional %div_cond %B0 %B3
%B0 = OpLabel
%a0 = OpIAdd %uint %a %uint_1
OpBranch %B1
%B1 = OpLabel
%b0 = OpIAdd %uint %b %uint_2
OpBranch %B2
%B2 = OpLabel
%c0 = OpIAdd %uint %c %uint_3
OpBranch %B6
%B3 = OpLabel
%a1 = OpIAdd %uint %a %uint_10
OpBranch %B4
%B4 = OpLabel
%b1 = OpIAdd %uint %b %uint_20
OpBranch %B5
%B5 = OpLabel
%c1 = OpIAdd %uint %c %uint_30
OpBranch %B6
%B6 = OpLabel
%div_a = OpPhi %uint %a0 %B2 %a1 %B5
%div_b = OpPhi %uint %b0 %B2 %b1 %B5
%div_c = OpPhi %uint %c0 %B2 %c1 %B5
OpBranchConditional %div_cond %B7 %B8
%B7 = OpLabel
%d1 = OpIAdd %uint %d %uint_1
OpBranch %B8
%B8 = OpLabel
%div_d = OpPhi %uint %d1 %B7 %d %B6
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m.Cycles().empty());
  // CHECK: DIVERGENT: %div.cond, br i1 %div.cond.
  m.ExpectValues(kDivergent, {"div_cond"});
  m.ExpectBranches(kDivergent, {"Entry", "B6"});
  // CHECK: DIVERGENT: %div_a, %div_b, %div_c (LLVM 19 misses them).
  m.ExpectValues(kDivergent, {"div_a", "div_b", "div_c"});
  m.ExpectFirstStep("div_a", UniformityStep::Kind::kJoin, "Entry");
  // LLVM 19: DIVERGENT: %div_d (B8 joins B6's branch).
  m.ExpectValues(kDivergent, {"div_d"});
  m.ExpectValues(kUniform, {"a0", "b0", "c0", "a1", "b1", "c1", "d1"});
  m.ExpectFlow(kDivergent, {"B0", "B1", "B2", "B3", "B4", "B5", "B7"});
  m.ExpectFlow(kUniform, {"Entry", "B6", "B8"});
}

//        B0 (div.cond)            Entry -> B3, B0 (uniform)
//      /   \
//  (L)B1   B4
//     |    |
//     B2   B5 (L)
//     |    |
//     B3   /
//      \  /
//      B6 (phi: divergent)        B6 -> B7, B8 (div.cond2); B7 -> B8
TEST(UniformityLlvmPhiDivLoop, TestLoopCtrlDivergence) {
  const Kernel m("test_loop_ctrl_divergence", R"(
%f = OpFunction %void None %fn4
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%d = OpFunctionParameter %uint
%Entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%uni_cond0 = OpIEqual %bool %d %uint_0
OpBranchConditional %uni_cond0 %B0 %B3
%B0 = OpLabel
%div_cond = OpIEqual %bool %tid %uint_0
OpBranchConditional %div_cond %B1 %B4
%B1 = OpLabel
%uni_a0 = OpPhi %uint %a %B0 %a0 %B1
%a0 = OpIAdd %uint %uni_a0 %uint_1
%uni_cond1 = OpSLessThan %bool %a0 %b
OpBranchConditional %uni_cond1 %B2 %B1
%B2 = OpLabel
%a1 = OpIAdd %uint %a0 %uint_10
OpBranch %B3
%B3 = OpLabel
%uni_a = OpPhi %uint %a1 %B2 %a %Entry
OpBranch %B6
%B4 = OpLabel
%a2 = OpIAdd %uint %a %uint_20
OpBranch %B5
%B5 = OpLabel
%uni_a3 = OpPhi %uint %a2 %B4 %uni_a3_ %B5
%uni_a3_ = OpIAdd %uint %uni_a3 %uint_1
%uni_cond2 = OpSLessThan %bool %uni_a3_ %c
OpBranchConditional %uni_cond2 %B6 %B5
%B6 = OpLabel
%div_a = OpPhi %uint %uni_a %B3 %uni_a3_ %B5
%div_cond2 = OpIEqual %bool %tid %uint_2
OpBranchConditional %div_cond2 %B8 %B7
%B7 = OpLabel
%c0 = OpIAdd %uint %div_a %uint_2
OpBranch %B8
%B8 = OpLabel
%ret = OpPhi %uint %c0 %B7 %uint_0 %B6
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // Two self loops with uniform exits.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("B1", {"B1"}, 1, kUniform, kUniform);
  m.ExpectCycle("B5", {"B5"}, 1, kUniform, kUniform);
  // CHECK: DIVERGENT: %tid, %div.cond.
  m.ExpectValues(kDivergent, {"tid", "div_cond"});
  m.ExpectBranches(kDivergent, {"B0", "B6"});
  m.ExpectBranches(kUniform, {"Entry", "B1", "B5"});
  // LLVM 19: the loops' values and %uni_a (B3 is not a join of B0: only
  // B0 -> B1 -> B2 -> B3 reaches it) are uniform.
  m.ExpectValues(kUniform, {"uni_cond0", "uni_a0", "a0", "uni_cond1", "a1", "uni_a", "a2", "uni_a3",
                            "uni_a3_", "uni_cond2"});
  // CHECK: DIVERGENT: %div_a (missed by LLVM 19); the test's comments: %c0
  // and %ret are divergent.
  m.ExpectValues(kDivergent, {"div_a", "div_cond2", "c0", "ret"});
  m.ExpectFirstStep("div_a", UniformityStep::Kind::kJoin, "B0");
  m.ExpectFlow(kDivergent, {"B1", "B2", "B3", "B4", "B5", "B7"});
  m.ExpectFlow(kUniform, {"Entry", "B0", "B6", "B8"});
}

//             Alpha (div.uni)
//              |   \
//             Entry \
//          (div.cond)\
//             /   \   \
//            B0   B3  |
//            |    |   |
//            B1   B4<-+
//            |    |
//            B2   B5
//          /  |    |
//         /   |   B501
//        /    |    |
//     B201->B202  B502
//             \  /
//              B6 (phi: divergent)
TEST(UniformityLlvmUnstructuredBranch, TestCtrlDivergence) {
  const Kernel m("test_ctrl_divergence", R"(
%f = OpFunction %void None %fn4
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%d = OpFunctionParameter %uint
%Alpha = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_uni = OpIEqual %bool %a %uint_0
OpBranchConditional %div_uni %B4 %Entry
%Entry = OpLabel
%div_cond = OpIEqual %bool %tid %uint_0
OpBranchConditional %div_cond %B0 %B3
%B0 = OpLabel
OpBranch %B1
%B1 = OpLabel
OpBranch %B2
%B2 = OpLabel
%a0 = OpIAdd %uint %a %uint_1
%b0 = OpIAdd %uint %b %uint_2
%c0 = OpIAdd %uint %c %uint_3
OpBranchConditional %div_uni %B202 %B201
%B201 = OpLabel
OpBranch %B202
%B202 = OpLabel
OpBranch %B6
%B3 = OpLabel
OpBranch %B4
%B4 = OpLabel
%a1 = OpIAdd %uint %a %uint_10
%b1 = OpIAdd %uint %b %uint_20
%c1 = OpIAdd %uint %c %uint_30
OpBranchConditional %div_uni %B501 %B5
%B5 = OpLabel
OpBranch %B501
%B501 = OpLabel
OpBranch %B502
%B502 = OpLabel
OpBranch %B6
%B6 = OpLabel
%div_a = OpPhi %uint %a0 %B202 %a1 %B502
%div_b = OpPhi %uint %b0 %B202 %b1 %B502
%div_c = OpPhi %uint %c0 %B202 %c1 %B502
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m.Cycles().empty());
  // CHECK: DIVERGENT: %div.cond, br i1 %div.cond.
  m.ExpectValues(kDivergent, {"div_cond"});
  m.ExpectBranches(kDivergent, {"Entry"});
  m.ExpectBranches(kUniform, {"Alpha", "B2", "B4"});
  // CHECK: DIVERGENT: %div_a, %div_b, %div_c (LLVM 19 misses them).
  m.ExpectValues(kDivergent, {"div_a", "div_b", "div_c"});
  m.ExpectFirstStep("div_a", UniformityStep::Kind::kJoin, "Entry");
  m.ExpectValues(kUniform, {"div_uni", "a0", "b0", "c0", "a1", "b1", "c1"});
  // B4 runs for every thread when Alpha goes there, but only for Entry's
  // B3 side otherwise.
  m.ExpectFlow(kDivergent, {"B0", "B1", "B2", "B201", "B202", "B3", "B4", "B5", "B501", "B502"});
  m.ExpectFlow(kUniform, {"Alpha", "Entry", "B6"});
}

// ===========================================================================
// branch-after-join.ll
// ===========================================================================

//      Entry (div.cond)
//      /   \
//     B0   B3
//     |    |
//     B1   B4
//      \  /
//       B5 (phi: divergent)
//       |
//       B6  (div.uni)
//      /   \
//     B7   B9
//     |    |
//     B8   B10
//      \  /
//       B11 (phi: uniform)
TEST(UniformityLlvmBranchAfterJoin, TestCtrlDivergence) {
  const Kernel m("test_ctrl_divergence", R"(
%f = OpFunction %void None %fn4
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%d = OpFunctionParameter %uint
%Entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%div_cond = OpIEqual %bool %tid %uint_0
OpBranchConditional %div_cond %B0 %B3
%B0 = OpLabel
%a0 = OpIAdd %uint %a %uint_1
OpBranch %B1
%B1 = OpLabel
%b0 = OpIAdd %uint %b %uint_2
OpBranch %B5
%B3 = OpLabel
%a1 = OpIAdd %uint %a %uint_10
OpBranch %B4
%B4 = OpLabel
%b1 = OpIAdd %uint %b %uint_20
OpBranch %B5
%B5 = OpLabel
%div_a = OpPhi %uint %a0 %B1 %a1 %B4
%div_b = OpPhi %uint %b0 %B1 %b1 %B4
OpBranch %B6
%B6 = OpLabel
%uni_cond = OpIEqual %bool %c %uint_0
OpBranchConditional %uni_cond %B9 %B7
%B7 = OpLabel
%d1 = OpIAdd %uint %d %uint_1
OpBranch %B8
%B8 = OpLabel
OpBranch %B11
%B9 = OpLabel
%d2 = OpIAdd %uint %d %uint_3
OpBranch %B10
%B10 = OpLabel
OpBranch %B11
%B11 = OpLabel
%div_d = OpPhi %uint %d1 %B8 %d2 %B10
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m.Cycles().empty());
  m.ExpectBranches(kDivergent, {"Entry"});
  // CHECK: DIVERGENT: %div_a, %div_b.
  m.ExpectValues(kDivergent, {"div_cond", "div_a", "div_b"});
  // CHECK-NOT: DIVERGENT: %uni.cond, br in B6, %div_d: the threads
  // reconverged at B5, so B6's branch is uniform and B11 joins nothing
  // divergent.
  m.ExpectValues(kUniform, {"uni_cond", "div_d", "d1", "d2"});
  m.ExpectBranches(kUniform, {"B6"});
  m.ExpectFlow(kDivergent, {"B0", "B1", "B3", "B4"});
  m.ExpectFlow(kUniform, {"Entry", "B5", "B6", "B7", "B8", "B9", "B10", "B11"});
}

// ===========================================================================
// divergent-cycle-exit-phi.ll: exit phis with constant incoming values
// (LLVM 19 reports them all uniform; PR #216296 fixed the divergent ones,
// which this port expects divergent).
// ===========================================================================

// "Divergent exit: the exit phi selects a different constant along each
// in-cycle exit edge and threads leave divergently."
//   entry -> loop;  loop -> exit, body (uniform);  body -> exit, loop
//   (divergent);  exit: %acc = phi [1, body], [0, loop]
TEST(UniformityLlvmDivergentCycleExitPhi, DivergentCycleExitPhi) {
  const Kernel m("divergent_cycle_exit_phi", R"(
%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
OpBranch %loop
%loop = OpLabel
%iv = OpPhi %uint %uint_0 %entry %iv_next %body
%exit_cond = OpUGreaterThanEqual %bool %iv %n
OpBranchConditional %exit_cond %body %exit
%body = OpLabel
%div_cond = OpIEqual %bool %tid %uint_0
%iv_next = OpIAdd %uint %iv %uint_1
OpBranchConditional %div_cond %loop %exit
%exit = OpLabel
%acc = OpPhi %uint %uint_1 %body %uint_0 %loop
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("loop", {"loop"}, 1, kUniform, kDivergent);
  m.ExpectValues(kUniform, {"iv", "exit_cond", "iv_next"});
  m.ExpectValues(kDivergent, {"div_cond", "acc"});
  m.ExpectExplainedBySource("acc");
  m.ExpectFlow(kDivergent, {"loop", "body"});
  m.ExpectFlow(kUniform, {"entry", "exit"});
}

// "Uniform: both in-cycle exit edges carry the same value."
TEST(UniformityLlvmDivergentCycleExitPhi, UniformCycleExitPhi) {
  const Kernel m("uniform_cycle_exit_phi", R"(
%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
OpBranch %loop
%loop = OpLabel
%iv = OpPhi %uint %uint_0 %entry %iv_next %body
%exit_cond = OpUGreaterThanEqual %bool %iv %n
OpBranchConditional %exit_cond %body %exit
%body = OpLabel
%div_cond = OpIEqual %bool %tid %uint_0
%iv_next = OpIAdd %uint %iv %uint_1
OpBranchConditional %div_cond %loop %exit
%exit = OpLabel
%acc = OpPhi %uint %uint_7 %body %uint_7 %loop
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  m.ExpectCycle("loop", {"loop"}, 1, kUniform, kDivergent);
  // CHECK-NOT: DIVERGENT: %acc = phi [7, body], [7, loop].
  m.ExpectValues(kUniform, {"acc", "iv", "iv_next"});
}

// "Nested cycles: the divergent branch is in the inner cycle but the exit
// edge leaves both cycles at once."
//   outer.header -> inner.header, exit;  inner.header -> inner.body,
//   outer.latch;  inner.body -> exit, inner.header (divergent);
//   outer.latch -> outer.header
TEST(UniformityLlvmDivergentCycleExitPhi, NestedCycleExitPhi) {
  const Kernel m("nested_cycle_exit_phi", R"(
%f = OpFunction %void None %fn0
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
OpBranch %outer_header
%outer_header = OpLabel
%o = OpPhi %uint %uint_0 %entry %o_next %outer_latch
%o_cond = OpSLessThan %bool %o %uint_2
OpBranchConditional %o_cond %exit %inner_header
%inner_header = OpLabel
%i = OpPhi %uint %uint_0 %outer_header %i_next %inner_body
%i_cond = OpSLessThan %bool %i %uint_2
OpBranchConditional %i_cond %outer_latch %inner_body
%inner_body = OpLabel
%i_next = OpIAdd %uint %i %uint_1
%div_cond = OpIEqual %bool %tid %uint_0
OpBranchConditional %div_cond %inner_header %exit
%outer_latch = OpLabel
%o_next = OpIAdd %uint %o %uint_1
OpBranch %outer_header
%exit = OpLabel
%acc = OpPhi %uint %uint_1 %inner_body %uint_0 %outer_header
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("outer_header", {"outer_header"}, 1, kUniform, kDivergent);
  m.ExpectCycle("inner_header", {"inner_header"}, 2, kUniform, kDivergent);
  m.ExpectValues(kUniform, {"o", "o_cond", "i", "i_cond", "i_next", "o_next"});
  // %acc = phi [1, inner.body], [0, outer.header]: threads leave through
  // both edges.
  m.ExpectValues(kDivergent, {"acc"});
}

// "Uniform multi-predecessor exit reached only via uniform branches,
// alongside a separate divergent exit from the same cycle."
//   loop -> body, exit.uniform;  body -> exit.divergent, mid (divergent);
//   mid -> exit.uniform, loop (uniform)
TEST(UniformityLlvmDivergentCycleExitPhi, UniformMultiExitCyclePhi) {
  const Kernel m("uniform_multi_exit_cycle_phi",
                 R"(
%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
OpBranch %loop
%loop = OpLabel
%uni_cond = OpSLessThan %bool %n %uint_3
OpBranchConditional %uni_cond %exit_uniform %body
%body = OpLabel
%div_cond = OpIEqual %bool %tid %uint_0
OpBranchConditional %div_cond %mid %exit_divergent
%mid = OpLabel
%uni_cond2 = OpSGreaterThan %bool %n %uint_1
OpBranchConditional %uni_cond2 %loop %exit_uniform
%exit_divergent = OpLabel
OpReturn
%exit_uniform = OpLabel
%acc = OpPhi %uint %uint_0 %loop %uint_1 %mid
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  m.ExpectCycle("loop", {"loop"}, 1, kUniform, kDivergent);
  // CHECK-NOT: DIVERGENT: %acc: the threads that do not return in
  // exit.divergent all reach exit.uniform in the same iteration through the
  // same edge.
  m.ExpectValues(kUniform, {"acc", "uni_cond", "uni_cond2"});
  m.ExpectBranches(kDivergent, {"body"});
  m.ExpectBranches(kUniform, {"loop", "mid"});
  // Not every thread reaches exit.uniform, though.
  m.ExpectFlow(kDivergent, {"loop", "body", "mid", "exit_divergent", "exit_uniform"});
  m.ExpectFlow(kUniform, {"entry"});
}

// ===========================================================================
// NVPTX/non-header-join.ll, NVPTX/daorder.ll
// ===========================================================================

// A non-kernel function (%b divergent): entry -> if.then, if.end16;
// if.then -> for.cond1; for.cond1 -> for.body4, if.end16 (false);
// for.body4 -> for.cond1; if.end16 -> for.cond1. The divergent branch
// reaches the cycle at the non-header entry for.cond1.
TEST(UniformityLlvmNvptxNonHeaderJoin, Foo) {
  const Kernel m("foo", R"(
%f = OpFunction %void None %fn0
%entry = OpLabel
%arg_tid_v = OpLoad %v3ulong %lid
%arg_tid_l = OpCompositeExtract %ulong %arg_tid_v 0
%arg_tid = OpUConvert %uint %arg_tid_l
%b = OpULessThan %bool %arg_tid %uint_1
OpBranchConditional %b %if_end16 %if_then
%if_then = OpLabel
OpBranch %for_cond1
%for_cond1 = OpLabel
OpBranchConditional %false %if_end16 %for_body4
%for_body4 = OpLabel
OpBranch %for_cond1
%if_end16 = OpLabel
OpBranch %for_cond1
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // CHECK: CYCLES ASSUMED DIVERGENT: depth=1: entries(if.end16 for.cond1)
  // for.body4.
  m.ExpectCycle("if_end16", {"if_end16", "for_cond1"}, 1, kDivergent, kUnchecked);
  m.ExpectBranches(kDivergent, {"entry"});
  m.ExpectBranches(kUniform, {"for_cond1"});
  m.ExpectFlow(kDivergent, {"if_then", "for_cond1", "for_body4", "if_end16"});
  m.ExpectFlow(kUniform, {"entry"});
}

//   entry -> A, B (divergent);  A, B -> C;  C -> D;  D -> E;
//   E -> D, exit (uniform)
TEST(UniformityLlvmNvptxDaorder, Daorder) {
  const Kernel m("daorder", R"(
%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%cond = OpSLessThan %bool %tid %uint_0
OpBranchConditional %cond %B %A
%A = OpLabel
%defAtA = OpIAdd %uint %n %uint_1
OpBranch %C
%B = OpLabel
%defAtB = OpIAdd %uint %n %uint_2
OpBranch %C
%C = OpLabel
%defAtC = OpPhi %uint %defAtA %A %defAtB %B
OpBranch %D
%D = OpLabel
%i = OpPhi %uint %uint_0 %C %i_inc %E
OpBranch %E
%E = OpLabel
%i_inc = OpIAdd %uint %i %uint_1
%loopCnt = OpSLessThan %bool %i_inc %n
OpBranchConditional %loopCnt %exit %D
%exit = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("D", {"D"}, 1, kUniform, kUniform);
  // CHECK: DIVERGENT: %cond, br i1 %cond, %defAtC; CHECK-NOT: %defAtA,
  // %defAtB, %i, %loopCnt.
  m.ExpectValues(kDivergent, {"cond", "defAtC"});
  m.ExpectBranches(kDivergent, {"entry"});
  m.ExpectValues(kUniform, {"defAtA", "defAtB", "i", "i_inc", "loopCnt"});
  m.ExpectBranches(kUniform, {"E"});
  m.ExpectFlow(kDivergent, {"A", "B"});
  m.ExpectFlow(kUniform, {"entry", "C", "D", "E", "exit"});
}

}  // namespace
}  // namespace spirv_conv
