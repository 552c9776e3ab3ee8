// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The examples of LLVM's "Convergence and Uniformity"
// (llvm/docs/ConvergenceAndUniformity.rst, "the document" below) as SPIR-V
// Kernel modules, with the verdicts the document gives: which blocks are
// m-converged, which phis and values are divergent, where temporal divergence
// appears. Kernel parameters are uniform; the invocation id (BuiltIn
// LocalInvocationId) is divergent. Irreducible CFGs are legal in Kernels.
//
// spirv-conv's cycle DFS takes a block's successors in the order its
// terminator lists them, so the first target of Entry's branch decides which
// entry of an irreducible cycle becomes its header.
//
// Every expectation is derived from the document's reasoning (quoted), never
// from running the analysis. Where spirv-conv is by design more precise than
// the document's conservative rule "the output is divergent if the static
// instance is not m-converged", namely for values computed only from uniform
// values defined outside the cycle (the same in every dynamic instance), the
// test expects uniform and says so.

#include "gtest/gtest.h"
#include "test/analysis/uniformity_test_fixture.h"

namespace spirv_conv {
namespace {

using namespace ::spirv_conv::test;  // NOLINT: the shared fixture

// ---------------------------------------------------------------------------
// Natural loop (the document, "Maximal Convergence"): the threads of the table
//   Thread 1: Entry H1 B1 L1 H3    L3          Exit
//   Thread 2: Entry H2    L2 H4 B2 L4 H5 B3 L5 Exit
// take the divergent branch in H differently and leave through the divergent
// branch in L after different numbers of iterations.
//
//        Entry
//          |
//   +----> H ---+        H: i = phi(0, i.next)   branch on i < tid
//   |      |    |
//   |      B    |        B: b.val = i + n
//   |      |    |
//   |      L <--+        L: l.phi = phi(b.val, i)   branch on i.next < tid
//   +------+
//          |
//        Exit            uses i.next (temporal) and inv (invariant)
TEST(UniformitySeed, NaturalLoop) {
  const Kernel m("natural_loop", R"(
OpName %h_cond "h.cond"
OpName %b_val "b.val"
OpName %l_phi "l.phi"
OpName %i_next "i.next"
OpName %l_cond "l.cond"
OpName %inv_use "inv.use"
%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
OpBranch %H
%H = OpLabel
%i = OpPhi %uint %uint_0 %Entry %i_next %L
%h_cond = OpULessThan %bool %i %tid
OpBranchConditional %h_cond %B %L
%B = OpLabel
%b_val = OpIAdd %uint %i %n
OpBranch %L
%L = OpLabel
%l_phi = OpPhi %uint %b_val %B %i %H
%i_next = OpIAdd %uint %i %uint_1
%inv = OpIAdd %uint %n %uint_1
%l_cond = OpULessThan %bool %i_next %tid
OpBranchConditional %l_cond %H %Exit
%Exit = OpLabel
%count = OpIAdd %uint %i_next %uint_1
%inv_use = OpIAdd %uint %inv %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // One natural loop: H is its only entry. Its exit (in L) is divergent:
  // thread 1 leaves after L3, thread 2 after L5.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H", {"H"}, 1, /*assumed_divergent=*/kUniform, /*divergent_exit=*/kDivergent);
  EXPECT_EQ(m.CycleBlocks("H"), (Names{"B", "H", "L"}));
  // Both conditions compare with the invocation id.
  m.ExpectBranches(kDivergent, {"H", "L"});
  m.ExpectBranches(kUniform, {"Entry", "B"});
  // "H1 and H2 are converged", "H3 and H4 are converged": the header
  // reconverges the threads of one iteration, and i counts iterations.
  m.ExpectValues(kUniform, {"i", "i.next"});
  // B computes from uniform values; only some threads run it, but those agree.
  m.ExpectValues(kUniform, {"b.val"});
  // "L1 and L2 are converged": L joins the divergent branch in H, and the
  // threads that ran B bring b.val, the others i.
  m.ExpectValues(kDivergent, {"l.phi"});
  m.ExpectFirstStep("l.phi", UniformityStep::Kind::kJoin, "H");
  m.ExpectExplainedBySource("l.phi");
  // uniformity.h: a source that is memory names the variable it reads;
  // here the chain ends at the load of the LocalInvocationId built-in.
  const std::vector<UniformityStep> steps = m.info().ExplainValue(m.Id("l.phi"));
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(m.Name(steps.back().cause), "lid") << "the source step names the built-in";
  // Temporal divergence: i.next is uniform where it is defined, but Exit
  // receives it from the last iteration of each thread (L3 vs L5).
  m.ExpectUse(kDivergent, "count", 0);
  m.ExpectValues(kDivergent, {"count"});
  m.ExpectFirstStep("count", UniformityStep::Kind::kTemporal, "i.next");
  m.ExpectExplainedBySource("count");
  // inv = n + 1 is the same in every iteration: leaving on different
  // iterations cannot make its use divergent (spirv-conv's invariant values).
  m.ExpectValues(kUniform, {"inv", "inv.use"});
  m.ExpectUse(kUniform, "inv.use", 0);
  m.ExpectUniformUnexplained("inv.use");
  // "B1 and B2 are not converged": only threads taking the edge run B.
  // H5, B3 and L5 run in thread 2 only: the loop's blocks are not executed
  // by all threads together once one has left. Exit is top level and
  // post-dominates Entry: every thread runs it, converged.
  m.ExpectFlow(kDivergent, {"B", "H", "L"});
  m.ExpectFlow(kUniform, {"Entry", "Exit"});
}

// ---------------------------------------------------------------------------
// Two nested irreducible cycles with headers R and S; Entry and Q have
// divergent branches (the document, "Dependence on Cycle Headers", the table
// with three threads: T1 Entry P Q S P Q R S Exit, T2 Entry P Q R S Exit, T3
// Entry R S Exit).
//
//        Entry (div)
//        /      \        Entry lists R first, so the DFS reaches R
//       P        R <--+  first: the outer cycle {R, S, P, Q} has header R,
//       |        |    |  entries R and P; the inner {S, P, Q} (without R)
//       Q (div) -+    |  has header S, entries S and P.
//       |  \          |
//       |   +---------+  Q -> R
//       v   v
//  P <--S <-R
//       |
//     Exit
TEST(UniformitySeed, BothDivergedNestedIrreducibleCycles) {
  const Kernel m("both_diverged_nested", R"(
OpName %e_cond "e.cond"
OpName %p_phi "p.phi"
OpName %p_inv "p.inv"
OpName %q_cond "q.cond"
OpName %r_phi "r.phi"
OpName %s_phi "s.phi"
OpName %s_cond "s.cond"
OpName %exit_val "exit.val"
OpName %exit_inv "exit.inv"
%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%e_cond = OpULessThan %bool %tid %uint_2
OpBranchConditional %e_cond %R %P
%P = OpLabel
%p_phi = OpPhi %uint %n %Entry %s_phi %S
%p_inv = OpIAdd %uint %n %uint_1
OpBranch %Q
%Q = OpLabel
%q_cond = OpULessThan %bool %p_phi %tid
OpBranchConditional %q_cond %S %R
%R = OpLabel
%r_phi = OpPhi %uint %uint_0 %Entry %p_inv %Q
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %r_phi %R %p_phi %Q
%s_cond = OpULessThan %bool %n %uint_10
OpBranchConditional %s_cond %P %Exit
%Exit = OpLabel
%exit_val = OpIAdd %uint %s_phi %uint_1
%exit_inv = OpIAdd %uint %n %uint_2
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // The hierarchy of the document's figure: R outer, S inner, both irreducible.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("R", {"R", "P"}, 1, /*assumed_divergent=*/kDivergent, kUnchecked);
  m.ExpectCycle("S", {"S", "P"}, 2, kUnchecked, kUnchecked);
  EXPECT_EQ(m.CycleBlocks("R"), (Names{"P", "Q", "R", "S"}));
  EXPECT_EQ(m.CycleBlocks("S"), (Names{"P", "Q", "S"}));
  m.ExpectBranches(kDivergent, {"Entry", "Q"});
  // Diverged paths from Entry reach the outer cycle at two entries (P and
  // R): "P2 and P3 are not converged due to S1", "S1 and S3 are not
  // converged due to R2". No node of the cycle is m-converged, so its phis
  // are divergent.
  m.ExpectValues(kDivergent, {"p.phi", "r.phi", "s.phi", "q.cond", "exit.val"});
  m.ExpectExplainedBySource("s.phi");
  // p.inv = n + 1 is computed from uniform values only: uniform although
  // P is not m-converged (spirv-conv's invariant values; LLVM would taint it).
  m.ExpectValues(kUniform, {"p.inv", "exit.inv"});
  // Every block of the cycle runs in divergent control flow; Exit is top
  // level and post-dominates Entry ("all threads converge" at Exit).
  m.ExpectFlow(kDivergent, {"P", "Q", "R", "S"});
  m.ExpectFlow(kUniform, {"Entry", "Exit"});
}

// ---------------------------------------------------------------------------
// The closed path P -> Q -> R -> S with a divergent branch Q and its join S
// (the document, "Divergent Branch inside a Cycle" and "Diverged Entry
// Criterion"). Entry's branch is uniform; R is a second entry of the cycle
// and lies on the diverged path Q -> R -> S.
//
//      Entry (uniform)
//      /    \
//     P      |
//     |      v
//     Q ---> R          Q: branch on p.phi < tid (divergent)
//     |      |
//     +-> S <+          S: s.phi = phi(r.val, p.inv): the join
//        / \           (branch on s.next = s.phi + 1 < n)
//   (to P)  Exit
//
// The same CFG twice: with Entry listing P first the DFS makes P the header
// of the single cycle {P, Q, R, S}; listing R first makes R the outer header
// and S the header of the child cycle {S, P, Q}. m-convergence must not
// depend on that choice.
constexpr char kClosedPathBody[] = R"(
%P = OpLabel
%p_phi = OpPhi %uint %uint_0 %Entry %s_next %S
%p_inv = OpIAdd %uint %n %uint_1
OpBranch %Q
%Q = OpLabel
%q_cond = OpULessThan %bool %p_phi %tid
OpBranchConditional %q_cond %R %S
%R = OpLabel
%r_phi = OpPhi %uint %uint_7 %Entry %p_inv %Q
%r_val = OpIAdd %uint %r_phi %uint_1
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %r_val %R %p_inv %Q
%s_next = OpIAdd %uint %s_phi %uint_1
%s_cond = OpULessThan %bool %s_next %n
OpBranchConditional %s_cond %P %Exit
%Exit = OpLabel
%exit_use = OpIAdd %uint %s_next %uint_1
OpReturn
OpFunctionEnd
)";

constexpr char kClosedPathNames[] = R"(
OpName %e_uni "e.uni"
OpName %p_phi "p.phi"
OpName %p_inv "p.inv"
OpName %q_cond "q.cond"
OpName %r_phi "r.phi"
OpName %r_val "r.val"
OpName %s_phi "s.phi"
OpName %s_next "s.next"
OpName %s_cond "s.cond"
OpName %exit_use "exit.use"
%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%e_uni = OpULessThan %bool %n %uint_5
)";

// The verdicts the document gives for the closed path with the diverged entry
// R, whatever the header.
void ExpectDivergedEntryVerdicts(const Kernel& m) {
  m.ExpectBranches(kDivergent, {"Q"});
  m.ExpectBranches(kUniform, {"Entry"});
  // "If a diverged entry R exists, then in some cycle hierarchy R is the
  // header of the smallest cycle containing the closed path" and "S2 is not
  // converged with S1 due to R1": S is not m-converged, and neither is any
  // node of the cycle (simplified criterion: neither Q nor the header
  // strictly dominates the join S, in either hierarchy).
  m.ExpectValues(kDivergent, {"p.phi", "r.phi", "r.val", "s.phi", "s.next", "exit.use"});
  m.ExpectExplainedBySource("s.phi");
  // n + 1 does not depend on the iteration or on the path: uniform
  // (spirv-conv's invariant values; LLVM would taint it).
  m.ExpectValues(kUniform, {"p.inv", "e.uni"});
  m.ExpectFlow(kDivergent, {"P", "Q", "R", "S"});
  // Exit is top level and post-dominates Entry.
  m.ExpectFlow(kUniform, {"Entry", "Exit"});
}

TEST(UniformitySeed, DivergentBranchInIrreducibleCycleWithHeaderP) {
  const Kernel m(
      "closed_path_header_p",
      std::string(kClosedPathNames) + "OpBranchConditional %e_uni %P %R\n" + kClosedPathBody);
  ASSERT_TRUE(m.ok());
  // "an implementation that detects a single cycle C with header P".
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("P", {"P", "R"}, 1, /*assumed_divergent=*/kDivergent, kUnchecked);
  EXPECT_EQ(m.CycleBlocks("P"), (Names{"P", "Q", "R", "S"}));
  ExpectDivergedEntryVerdicts(m);
}

TEST(UniformitySeed, DivergentBranchInIrreducibleCycleWithHeadersRAndS) {
  const Kernel m(
      "closed_path_header_r",
      std::string(kClosedPathNames) + "OpBranchConditional %e_uni %R %P\n" + kClosedPathBody);
  ASSERT_TRUE(m.ok());
  // "an implementation that detects two nested cycles with headers R and S":
  // the child cycle C' = {S, P, Q} in C - R contains both Q and S.
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("R", {"R", "P"}, 1, /*assumed_divergent=*/kDivergent, kUnchecked);
  m.ExpectCycle("S", {"S", "P"}, 2, kUnchecked, kUnchecked);
  EXPECT_EQ(m.CycleBlocks("S"), (Names{"P", "Q", "S"}));
  ExpectDivergedEntryVerdicts(m);
}

// ---------------------------------------------------------------------------
// The same closed path when R is not an entry (the document: "If R does not
// exist ... Threads that diverge at Q execute converged dynamic instances of
// S ... reconverge at S in the same iteration of C").
//
//     Entry
//       |
//   +-> P            P: p.phi = phi(0, p.next)   (an iteration counter)
//   |   |
//   |   Q ---> R     Q: branch on p.phi < tid (divergent)
//   |   |      |
//   |   +-> S <+     S: s.phi = phi(r.val, p.inv): the join
//   +------/ \
//           Exit     S branches on p.next < n (uniform)
TEST(UniformitySeed, ClosedPathWithoutDivergedEntryIsMConverged) {
  const Kernel m("closed_path_no_entry_r", R"(
OpName %p_phi "p.phi"
OpName %p_inv "p.inv"
OpName %q_cond "q.cond"
OpName %r_val "r.val"
OpName %s_phi "s.phi"
OpName %p_next "p.next"
OpName %s_cond "s.cond"
OpName %exit_use "exit.use"
%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
OpBranch %P
%P = OpLabel
%p_phi = OpPhi %uint %uint_0 %Entry %p_next %S
%p_inv = OpIAdd %uint %n %uint_1
OpBranch %Q
%Q = OpLabel
%q_cond = OpULessThan %bool %p_phi %tid
OpBranchConditional %q_cond %R %S
%R = OpLabel
%r_val = OpIAdd %uint %p_inv %uint_1
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %r_val %R %p_inv %Q
%p_next = OpIAdd %uint %p_phi %uint_1
%s_cond = OpULessThan %bool %p_next %n
OpBranchConditional %s_cond %P %Exit
%Exit = OpLabel
%exit_use = OpIAdd %uint %p_next %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // A natural loop: P is the only entry ("A reducible cycle trivially
  // satisfies the above conditions"). Its exit in S is uniform: every thread
  // reaches S in each iteration.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("P", {"P"}, 1, /*assumed_divergent=*/kUniform, /*divergent_exit=*/kUniform);
  m.ExpectBranches(kDivergent, {"Q"});
  m.ExpectBranches(kUniform, {"Entry", "P", "R", "S"});
  // S joins the divergent branch in Q within one iteration: the threads that
  // went through R bring r.val, the others p.inv.
  m.ExpectValues(kDivergent, {"s.phi"});
  m.ExpectFirstStep("s.phi", UniformityStep::Kind::kJoin, "Q");
  m.ExpectExplainedBySource("s.phi");
  // Everything else is m-converged and computed from uniform values; no
  // thread leaves early, so the use of p.next after the loop is uniform too.
  m.ExpectValues(kUniform, {"p.phi", "p.inv", "r.val", "p.next", "s.cond", "exit.use"});
  m.ExpectUse(kUniform, "exit.use", 0);
  // Only R is skipped by some threads; S post-dominates Q and reconverges.
  m.ExpectFlow(kDivergent, {"R"});
  m.ExpectFlow(kUniform, {"Entry", "P", "Q", "S", "Exit"});
}

// ---------------------------------------------------------------------------
// Diverged paths reaching a cycle (the document: "a divergent branch in Entry
// instead of Q ... when diverged paths reach different entries of an
// irreducible cycle from outside the cycle, the static analysis
// conservatively reports every node in the cycle as not m-converged").
//
//      Entry (div)
//      /    \
//     P      |
//     |      v
//     Q ---> R          Q: branch on n < 3 (uniform)
//     |      |
//     +-> S <+
//        / \
//   (to P)  Exit
//
// Both hierarchies of the document's figure: P the header, or R the header.
constexpr char kDivergedOutsideNames[] = R"(
OpName %e_div "e.div"
OpName %p_phi "p.phi"
OpName %p_inv "p.inv"
OpName %q_uni "q.uni"
OpName %r_phi "r.phi"
OpName %s_phi "s.phi"
OpName %s_inv "s.inv"
OpName %s_uni "s.uni"
OpName %exit_use "exit.use"
OpName %exit_inv "exit.inv"
%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%e_div = OpULessThan %bool %tid %uint_5
)";

constexpr char kDivergedOutsideBody[] = R"(
%P = OpLabel
%p_phi = OpPhi %uint %uint_0 %Entry %s_phi %S
%p_inv = OpIAdd %uint %n %uint_1
OpBranch %Q
%Q = OpLabel
%q_uni = OpULessThan %bool %n %uint_3
OpBranchConditional %q_uni %R %S
%R = OpLabel
%r_phi = OpPhi %uint %uint_7 %Entry %p_inv %Q
OpBranch %S
%S = OpLabel
%s_phi = OpPhi %uint %r_phi %R %p_phi %Q
%s_inv = OpIAdd %uint %n %uint_2
%s_uni = OpULessThan %bool %n %uint_10
OpBranchConditional %s_uni %P %Exit
%Exit = OpLabel
%exit_use = OpIAdd %uint %s_phi %uint_1
%exit_inv = OpIAdd %uint %s_inv %uint_1
OpReturn
OpFunctionEnd
)";

void ExpectDivergedOutsideVerdicts(const Kernel& m) {
  m.ExpectBranches(kDivergent, {"Entry"});
  // Thread 1 enters at P, thread 2 at R: which of their instances converge
  // depends on whether P or R is the header, so no node of the cycle is
  // m-converged and its phis are divergent.
  m.ExpectValues(kDivergent, {"p.phi", "r.phi", "s.phi", "exit.use"});
  m.ExpectExplainedBySource("p.phi");
  // Values computed from uniform values defined outside the cycle stay
  // uniform, at their definition and after the cycle (spirv-conv's invariant
  // values; LLVM would taint them).
  m.ExpectValues(kUniform, {"p.inv", "q.uni", "s.inv", "s.uni", "exit.inv"});
  m.ExpectUse(kUniform, "exit.inv", 0);
  m.ExpectFlow(kDivergent, {"P", "Q", "R", "S"});
  m.ExpectFlow(kUniform, {"Entry", "Exit"});
}

TEST(UniformitySeed, DivergedPathsReachingCycleWithHeaderP) {
  const Kernel m("diverged_outside_header_p", std::string(kDivergedOutsideNames) +
                                                  "OpBranchConditional %e_div %P %R\n" +
                                                  kDivergedOutsideBody);
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("P", {"P", "R"}, 1, /*assumed_divergent=*/kDivergent, kUnchecked);
  ExpectDivergedOutsideVerdicts(m);
}

TEST(UniformitySeed, DivergedPathsReachingCycleWithHeaderR) {
  const Kernel m("diverged_outside_header_r", std::string(kDivergedOutsideNames) +
                                                  "OpBranchConditional %e_div %R %P\n" +
                                                  kDivergedOutsideBody);
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.Cycles().size(), 2u);
  m.ExpectCycle("R", {"R", "P"}, 1, /*assumed_divergent=*/kDivergent, kUnchecked);
  m.ExpectCycle("S", {"S", "P"}, 2, kUnchecked, kUnchecked);
  ExpectDivergedOutsideVerdicts(m);
}

// ---------------------------------------------------------------------------
// Reducible cycle (the document: "When diverged paths reach the subgraph C from
// outside, their convergence is always determined by the same header H").
//
//       Entry (div)
//       /    \
//      A      B
//       \    /
//    +-> H <+        H: h.phi = phi(a.val, b.val, h.next)
//    |   |
//    +-- L           L: branch on n < 10 (uniform)
//        |
//       Exit
TEST(UniformitySeed, ReducibleCycleReachedByDivergedPaths) {
  const Kernel m("reducible_cycle", R"(
OpName %e_div "e.div"
OpName %a_val "a.val"
OpName %b_val "b.val"
OpName %h_phi "h.phi"
OpName %h_inv "h.inv"
OpName %h_next "h.next"
OpName %l_val "l.val"
OpName %l_uni "l.uni"
OpName %exit_inv "exit.inv"
OpName %exit_div "exit.div"
%f = OpFunction %void None %fn1
%n = OpFunctionParameter %uint
%Entry = OpLabel
%tid_v = OpLoad %v3ulong %lid
%tid_l = OpCompositeExtract %ulong %tid_v 0
%tid = OpUConvert %uint %tid_l
%e_div = OpULessThan %bool %tid %uint_5
OpBranchConditional %e_div %A %B
%A = OpLabel
%a_val = OpIAdd %uint %n %uint_1
OpBranch %H
%B = OpLabel
%b_val = OpIAdd %uint %n %uint_2
OpBranch %H
%H = OpLabel
%h_phi = OpPhi %uint %a_val %A %b_val %B %h_next %L
%h_inv = OpIAdd %uint %n %uint_3
OpBranch %L
%L = OpLabel
%h_next = OpIAdd %uint %h_phi %uint_1
%l_val = OpIAdd %uint %h_inv %n
%l_uni = OpULessThan %bool %n %uint_10
OpBranchConditional %l_uni %H %Exit
%Exit = OpLabel
%exit_inv = OpIAdd %uint %l_val %uint_1
%exit_div = OpIAdd %uint %h_next %uint_1
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m.ok());
  // A natural loop: nothing can enter it but through H, so it is
  // m-converged, and its only exit is uniform.
  ASSERT_EQ(m.Cycles().size(), 1u);
  m.ExpectCycle("H", {"H"}, 1, /*assumed_divergent=*/kUniform, /*divergent_exit=*/kUniform);
  m.ExpectBranches(kDivergent, {"Entry"});
  m.ExpectBranches(kUniform, {"A", "B", "H", "L"});
  // H joins the divergent branch in Entry: threads from A and B bring
  // different values into the first iteration.
  m.ExpectValues(kDivergent, {"h.phi", "h.next", "exit.div"});
  m.ExpectFirstStep("h.phi", UniformityStep::Kind::kJoin, "Entry");
  m.ExpectExplainedBySource("exit.div");
  m.ExpectValues(kUniform, {"a.val", "b.val", "h.inv", "l.val", "l.uni", "exit.inv"});
  m.ExpectUse(kUniform, "exit.inv", 0);
  // A and B run for some threads only; H reconverges them ("determined by
  // the same header H") and the loop is left by all threads together.
  m.ExpectFlow(kDivergent, {"A", "B"});
  m.ExpectFlow(kUniform, {"Entry", "H", "L", "Exit"});
}

}  // namespace
}  // namespace spirv_conv
