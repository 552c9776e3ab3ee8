// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The rules on group operations in control flow that is not uniform at
// their scope (docs/rules/README.md, "Subgroup operations"). Expected
// verdicts come from SPIR-V 2.2.2: invocations "continue to execute the same
// dynamic instances as long as they follow the same control-flow path"
// (inside a divergent branch the tangle is the invocations that took it:
// subgroup-op-divergent-cf, a note), "the only reconvergence conditions are
// those described in the definition of uniform control flow", which needs
// control flow to be uniform on entry to the construct (a rejoin inside
// non-uniform control flow promises nothing: subgroup-op-after-rejoin, a
// warning, unless MaximallyReconvergesKHR promises it). A function's
// operations at its top level run with the invocations that called it
// together (subgroup-op-divergent-call when a call site is not uniform).
// Shuffles and broadcasts from a named invocation are undefined when it is
// inactive (subgroup-op-inactive-invocation), and the classic OpGroup*
// operations are undefined unless every invocation of the scope executes
// them (group-op-divergent-cf, an error).
//
// In the compute shaders below %low (LocalInvocationId.x < 4) and %odd
// (LocalInvocationId.x is odd) are divergent, %sg0 (SubgroupId == 0) is
// uniform within the subgroup, and a store to the Workgroup variable %shared
// is an effect that keeps a branch from being a select in disguise.

#include <regex>

#include "test/lint/lint_test_fixture.h"

namespace spirv_conv {
namespace {

using test::ExpectFindings;
using test::HasNote;
using test::LintShader;
using test::Shader;

constexpr char kDivergentCf[] = "subgroup-op-divergent-cf";
constexpr char kAfterRejoin[] = "subgroup-op-after-rejoin";
constexpr char kDivergentCall[] = "subgroup-op-divergent-call";
constexpr char kInactive[] = "subgroup-op-inactive-invocation";
constexpr char kGroupOp[] = "group-op-divergent-cf";

constexpr char kMaximalReconvergence[] = "OpExtension \"SPV_KHR_maximal_reconvergence\"\n";
constexpr char kMaximalReconvergenceMode[] = "OpExecutionMode %main MaximallyReconvergesKHR\n";

// %main runs |body| (which ends the function's last block) after the
// prelude; |variables| are Function variables at the top of its entry
// block; |helpers| are other functions.
Shader Compute(const std::string& body, const std::string& helpers = "",
               const std::string& variables = "") {
  Shader shader;
  shader.model = "GLCompute";
  shader.capabilities =
      "OpCapability GroupNonUniformBallot\nOpCapability GroupNonUniformArithmetic\n"
      "OpCapability GroupNonUniformShuffle\n";
  shader.globals =
      "%ptr_Workgroup_uint = OpTypePointer Workgroup %uint\n"
      "%ptr_Function_uint = OpTypePointer Function %uint\n"
      "%shared = OpVariable %ptr_Workgroup_uint Workgroup\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
)" + variables + R"(%id = OpLoad %v3uint %lid
%x = OpCompositeExtract %uint %id 0
%low = OpULessThan %bool %x %uint_4
%bit = OpBitwiseAnd %uint %x %uint_1
%odd = OpIEqual %bool %bit %uint_1
%sg = OpLoad %uint %sgid
%sg0 = OpIEqual %bool %sg %uint_0
)" + body + "OpFunctionEnd\n" +
                     helpers;
  // Every result of the functions by its own name, as findings show it.
  const std::regex result("%(\\w+) = ");
  for (auto it = std::sregex_iterator(shader.functions.begin(), shader.functions.end(), result);
       it != std::sregex_iterator(); ++it) {
    if ((*it)[1] != "main")
      shader.names += "OpName %" + (*it)[1].str() + " \"" + (*it)[1].str() + "\"\n";
  }
  return shader;
}

// `if (low) { <outer> }`, then the end of %main.
std::string InsideLow(const std::string& outer) {
  return R"(OpSelectionMerge %outer_merge None
OpBranchConditional %low %outer %outer_merge
%outer = OpLabel
)" + outer +
         R"(OpBranch %outer_merge
%outer_merge = OpLabel
%after = OpGroupNonUniformBallot %v4uint %uint_3 %true
OpReturn
)";
}

// `if (<condition>) { shared = x; }` ending in block %inner_merge.
std::string IfStore(const std::string& condition) {
  return "OpSelectionMerge %inner_merge None\nOpBranchConditional " + condition +
         " %inner %inner_merge\n%inner = OpLabel\nOpStore %shared %x\nOpBranch "
         "%inner_merge\n%inner_merge = OpLabel\n";
}

constexpr char kBallot[] = "%ballot = OpGroupNonUniformBallot %v4uint %uint_3 %true\n";

// A loop entered from block |from| and left through its merge %loop_merge
// after a per-invocation trip count (%x); the text continues in %loop_merge.
std::string CountingLoop(const std::string& from) {
  return R"(OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 )" +
         from + R"( %next %body
%more = OpULessThan %bool %i %x
OpLoopMerge %loop_merge %body None
OpBranchConditional %more %body %loop_merge
%body = OpLabel
%next = OpIAdd %uint %i %uint_1
OpBranch %header
%loop_merge = OpLabel
)";
}

// ---------------------------------------------------------------- divergent-cf

TEST(SubgroupOpRulesTest, BallotInsideADivergentBranchIsANote) {
  // The tangle is the invocations that took the branch; under the
  // subgroup-uniform branch the whole subgroup is active: no finding.
  const std::string body = R"(OpSelectionMerge %mid None
OpBranchConditional %low %lane_branch %mid
%lane_branch = OpLabel
%lane_ballot = OpGroupNonUniformBallot %v4uint %uint_3 %true
OpBranch %mid
%mid = OpLabel
OpSelectionMerge %end None
OpBranchConditional %sg0 %group_branch %end
%group_branch = OpLabel
%group_ballot = OpGroupNonUniformBallot %v4uint %uint_3 %true
OpBranch %end
%end = OpLabel
OpReturn
)";
  ExpectFindings(LintShader(Compute(body)),
                 {{kDivergentCf, Severity::kNote, "%lane_ballot = OpGroupNonUniformBallot"}});
}

TEST(SubgroupOpRulesTest, PureBallotFunctionsAreNotReported) {
  // BallotBitCount of a ballot value does not depend on the active set.
  const std::string body = kBallot + InsideLow(
                                         "%count = OpGroupNonUniformBallotBitCount %uint %uint_3 "
                                         "Reduce %ballot\n");
  ExpectFindings(LintShader(Compute(body)), {});
}

TEST(SubgroupOpRulesTest, InFragmentShaders) {
  Shader shader;
  shader.capabilities = "OpCapability GroupNonUniform\nOpCapability GroupNonUniformArithmetic\n";
  shader.names = "OpName %sum \"sum\"\n";
  shader.functions = R"(%main = OpFunction %void None %fn_void
%entry = OpLabel
%v = OpLoad %float %in_val
%all = OpGroupNonUniformFAdd %float %uint_3 Reduce %v
%cond = OpFOrdLessThan %bool %v %float_0_5
OpSelectionMerge %merge None
OpBranchConditional %cond %then %merge
%then = OpLabel
%sum = OpGroupNonUniformFAdd %float %uint_3 Reduce %v
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)";
  ExpectFindings(LintShader(shader),
                 {{kDivergentCf, Severity::kNote, "%sum = OpGroupNonUniformFAdd"}});
}

TEST(SubgroupOpRulesTest, AfterALoopEveryInvocationLeavesControlFlowIsUniform) {
  // A loop entered in uniform control flow, left on a per-invocation trip
  // count through its merge: control flow is uniform again after it.
  const std::string body = CountingLoop("%entry") + kBallot + "OpReturn\n";
  ExpectFindings(LintShader(Compute(body)), {});
}

// ---------------------------------------------------------------- after-rejoin

TEST(SubgroupOpRulesTest, RejoinInsideADivergentBranchIsAWarning) {
  const std::vector<Finding> findings = LintShader(Compute(InsideLow(IfStore("%odd") + kBallot)));
  ExpectFindings(findings,
                 {{kAfterRejoin, Severity::kWarning, "%ballot = OpGroupNonUniformBallot"}});
  if (findings.size() != 1) return;
  // The first note is the branch whose paths rejoined; the control flow follows.
  ASSERT_GE(findings[0].notes.size(), 2u);
  EXPECT_NE(findings[0].notes[0].message.find("take different paths at this branch"),
            std::string::npos);
  EXPECT_NE(findings[0].notes[0].location.instruction.find("OpBranchConditional %odd"),
            std::string::npos);
  EXPECT_TRUE(HasNote(findings[0], "the built-in LocalInvocationId")) << test::Describe(findings);
}

TEST(SubgroupOpRulesTest, RejoinInUniformControlFlowReconverges) {
  // "If control flow is uniform upon entry into a structured loop or
  // selection, and all invocations leave that loop or selection via the
  // header block's declared merge block, then control flow reconverges to
  // be uniform at that merge block."
  const std::string body = IfStore("%odd") + kBallot + "OpReturn\n";
  ExpectFindings(LintShader(Compute(body)), {});
}

TEST(SubgroupOpRulesTest, MaximalReconvergencePromisesTheRejoin) {
  // With MaximallyReconvergesKHR the invocations of the outer branch run the
  // ballot together again; inside a divergent branch the rule that would
  // remain (subgroup-op-divergent-cf) is quiet under the mode.
  Shader shader = Compute(InsideLow(IfStore("%odd") + kBallot));
  shader.capabilities += kMaximalReconvergence;
  shader.modes = kMaximalReconvergenceMode;
  ExpectFindings(LintShader(shader), {});
}

TEST(SubgroupOpRulesTest, LoopLeftOnDifferentIterationsIsARejoin) {
  const std::string outer = CountingLoop("%outer") + kBallot;
  const std::vector<Finding> findings = LintShader(Compute(InsideLow(outer)));
  ExpectFindings(findings,
                 {{kAfterRejoin, Severity::kWarning, "%ballot = OpGroupNonUniformBallot"}});
  if (findings.empty()) return;
  EXPECT_NE(findings[0].notes[0].message.find("leave this loop on different iterations"),
            std::string::npos)
      << test::Describe(findings);
}

TEST(SubgroupOpRulesTest, SelectionWithoutEffectsIsNotARejoin) {
  // `v = odd ? 1 : 0` written as a branch (glslang at -O0): a select.
  const std::string outer = R"(OpSelectionMerge %inner_merge None
OpBranchConditional %odd %inner %inner_merge
%inner = OpLabel
%twice = OpIMul %uint %x %uint_2
OpBranch %inner_merge
%inner_merge = OpLabel
%v = OpPhi %uint %twice %inner %uint_0 %outer
%sum = OpGroupNonUniformIAdd %uint %uint_3 Reduce %v
)";
  ExpectFindings(LintShader(Compute(InsideLow(outer))),
                 {{kDivergentCf, Severity::kNote, "%sum = OpGroupNonUniformIAdd"}});
}

TEST(SubgroupOpRulesTest, ElectThenAtomicIsNotARejoin) {
  const std::string outer = "%elect = OpGroupNonUniformElect %bool %uint_3\n" + IfStore("%elect") +
                            "%base = OpGroupNonUniformBroadcastFirst %uint %uint_3 %x\n";
  ExpectFindings(LintShader(Compute(InsideLow(outer))),
                 {{kDivergentCf, Severity::kNote, "%elect = OpGroupNonUniformElect"},
                  {kDivergentCf, Severity::kNote, "%base = OpGroupNonUniformBroadcastFirst"}});
}

TEST(SubgroupOpRulesTest, WaterfallTestIsNotARejoin) {
  // `if (subgroupBroadcastFirst(x) == x)`, in either operand order. The
  // broadcast itself is set-agnostic (it picks a value of one of the
  // invocations present, whichever they are): no finding.
  for (const char* compare :
       {"%eq = OpIEqual %bool %first %x\n", "%eq = OpINotEqual %bool %x %first\n"}) {
    const std::string outer = "%first = OpGroupNonUniformBroadcastFirst %uint %uint_3 %x\n" +
                              std::string(compare) + IfStore("%eq") + kBallot;
    ExpectFindings(LintShader(Compute(InsideLow(outer))),
                   {{kDivergentCf, Severity::kNote, "%ballot = OpGroupNonUniformBallot"}});
  }
}

// ------------------------------------------------ set-agnostic operations

TEST(SubgroupOpRulesTest, BallotOfWaterfallTestIsSetAgnostic) {
  // HLSL WaveMatch: `m = subgroupBallot(subgroupBroadcastFirst(x) == x)`,
  // the invocations present that hold the first one's value.
  const std::string outer =
      "%first = OpGroupNonUniformBroadcastFirst %uint %uint_3 %x\n"
      "%eq = OpIEqual %bool %x %first\n"
      "%match = OpGroupNonUniformBallot %v4uint %uint_3 %eq\n";
  ExpectFindings(LintShader(Compute(InsideLow(outer))), {});
}

TEST(SubgroupOpRulesTest, ScalarizedBoundAfterRejoinIsSetAgnostic) {
  // `subgroupBroadcastFirst(subgroupMin(x))` after a rejoin inside `if
  // (low)`: a bound of the value of every invocation present, whichever
  // they are. A broadcast sum is not: a partial set gives another number.
  const std::string outer = IfStore("%odd") +
                            "%min = OpGroupNonUniformUMin %uint %uint_3 Reduce %x\n"
                            "%bound = OpGroupNonUniformBroadcastFirst %uint %uint_3 %min\n"
                            "%sum = OpGroupNonUniformIAdd %uint %uint_3 Reduce %x\n"
                            "%total = OpGroupNonUniformBroadcastFirst %uint %uint_3 %sum\n";
  ExpectFindings(LintShader(Compute(InsideLow(outer))),
                 {{kAfterRejoin, Severity::kWarning, "%sum = OpGroupNonUniformIAdd"},
                  {kAfterRejoin, Severity::kWarning, "%total = OpGroupNonUniformBroadcastFirst"}});
}

TEST(SubgroupOpRulesTest, ReductionUsedOtherwiseIsNotSetAgnostic) {
  // The min is also used as it is: only its broadcast is recognised.
  const std::string outer = IfStore("%odd") +
                            "%min = OpGroupNonUniformUMin %uint %uint_3 Reduce %x\n"
                            "%bound = OpGroupNonUniformBroadcastFirst %uint %uint_3 %min\n"
                            "%use = OpIAdd %uint %min %uint_1\n";
  ExpectFindings(LintShader(Compute(InsideLow(outer))),
                 {{kAfterRejoin, Severity::kWarning, "%min = OpGroupNonUniformUMin"}});
}

// glslang -O0 keeps locals in Function variables: `uint k = x; uint f =
// subgroupBroadcastFirst(k); if (f == k)` loads both back.
std::string WaterfallThroughVariables(const std::string& extra_store) {
  return R"(OpStore %k %x
%k0 = OpLoad %uint %k
%first = OpGroupNonUniformBroadcastFirst %uint %uint_3 %k0
OpStore %f %first
)" + extra_store +
         R"(%f1 = OpLoad %uint %f
%k1 = OpLoad %uint %k
%eq = OpIEqual %bool %f1 %k1
)" + IfStore("%eq") +
         kBallot;
}

constexpr char kLocals[] =
    "%k = OpVariable %ptr_Function_uint Function\n%f = OpVariable %ptr_Function_uint Function\n";

TEST(SubgroupOpRulesTest, WaterfallTestThroughVariablesStoredOnce) {
  ExpectFindings(LintShader(Compute(InsideLow(WaterfallThroughVariables("")), "", kLocals)),
                 {{kDivergentCf, Severity::kNote, "%ballot = OpGroupNonUniformBallot"}});
}

TEST(SubgroupOpRulesTest, WaterfallTestThroughTwoLoadsOfAVariableStoredTwice) {
  // glslang -O0 reads a local twice in one block (`first ==
  // cluster_offset`, cluster_offset assigned on two paths before the loop):
  // no store between the loads, so they hold one value.
  const std::string body = R"(OpSelectionMerge %pick_merge None
OpBranchConditional %odd %pick %pick_merge
%pick = OpLabel
OpStore %k %uint_1
OpBranch %pick_merge
%pick_merge = OpLabel
%k0 = OpLoad %uint %k
%first = OpGroupNonUniformBroadcastFirst %uint %uint_3 %k0
%k1 = OpLoad %uint %k
%eq = OpIEqual %bool %first %k1
%match = OpGroupNonUniformBallot %v4uint %uint_3 %eq
)";
  ExpectFindings(LintShader(Compute(InsideLow("OpStore %k %x\n" + body), "", kLocals)), {});
}

TEST(SubgroupOpRulesTest, VariableStoredTwiceIsNotTraced) {
  // f may hold another value when it is compared: not recognised.
  ExpectFindings(
      LintShader(Compute(InsideLow(WaterfallThroughVariables("OpStore %f %x\n")), "", kLocals)),
      {{kDivergentCf, Severity::kNote, "%first = OpGroupNonUniformBroadcastFirst"},
       {kAfterRejoin, Severity::kWarning, "%ballot = OpGroupNonUniformBallot"}});
}

// ---------------------------------------------------------------- calls

constexpr char kHelper[] = R"(%helper = OpFunction %void None %fn_void
%helper_entry = OpLabel
%helper_ballot = OpGroupNonUniformBallot %v4uint %uint_3 %true
OpReturn
OpFunctionEnd
)";

TEST(SubgroupOpRulesTest, HelperCalledInDivergentControlFlow) {
  const std::vector<Finding> findings =
      LintShader(Compute(InsideLow("%call = OpFunctionCall %void %helper\n"), kHelper));
  ExpectFindings(
      findings, {{kDivergentCall, Severity::kWarning, "%helper_ballot = OpGroupNonUniformBallot"}});
  if (findings.size() != 1) return;
  EXPECT_NE(findings[0].message.find("called 'helper' together"), std::string::npos);
  EXPECT_TRUE(HasNote(findings[0], "'helper' is called from 'main'")) << test::Describe(findings);
}

TEST(SubgroupOpRulesTest, HelperCalledInUniformControlFlow) {
  ExpectFindings(LintShader(Compute("%call = OpFunctionCall %void %helper\nOpReturn\n", kHelper)),
                 {});
}

TEST(SubgroupOpRulesTest, DivergentCallStaysAWarningUnderMaximalReconvergence) {
  // The mode defines the tangle -- the invocations that made the call
  // together -- but not that the helper's author meant that subset.
  Shader shader = Compute(InsideLow("%call = OpFunctionCall %void %helper\n"), kHelper);
  shader.capabilities += kMaximalReconvergence;
  shader.modes = kMaximalReconvergenceMode;
  ExpectFindings(LintShader(shader), {{kDivergentCall, Severity::kWarning,
                                       "%helper_ballot = OpGroupNonUniformBallot"}});
}

TEST(SubgroupOpRulesTest, HelperCalledAfterARejoin) {
  const std::vector<Finding> findings = LintShader(
      Compute(InsideLow(IfStore("%odd") + "%call = OpFunctionCall %void %helper\n"), kHelper));
  ExpectFindings(findings,
                 {{kAfterRejoin, Severity::kWarning, "%helper_ballot = OpGroupNonUniformBallot"}});
  if (findings.empty()) return;
  EXPECT_NE(findings[0].notes[0].message.find("'main' calls it here"), std::string::npos);
  EXPECT_NE(findings[0].notes[0].location.instruction.find("OpFunctionCall"), std::string::npos);
}

// A helper whose own divergent branch rejoins before it returns.
constexpr char kRejoiningHelper[] = R"(%helper = OpFunction %void None %fn_void
%helper_entry = OpLabel
%hid = OpLoad %v3uint %lid
%hx = OpCompositeExtract %uint %hid 0
%hbit = OpBitwiseAnd %uint %hx %uint_1
%hodd = OpIEqual %bool %hbit %uint_1
OpSelectionMerge %helper_merge None
OpBranchConditional %hodd %helper_then %helper_merge
%helper_then = OpLabel
OpStore %shared %hx
OpBranch %helper_merge
%helper_merge = OpLabel
OpReturn
OpFunctionEnd
)";

TEST(SubgroupOpRulesTest, CodeAfterACallThatReturnsAfterARejoin) {
  // The same as the branch inlined: in the call's block and after it.
  const std::string outer = R"(%call = OpFunctionCall %void %helper
%ballot = OpGroupNonUniformBallot %v4uint %uint_3 %true
OpBranch %next_block
%next_block = OpLabel
%later = OpGroupNonUniformBallot %v4uint %uint_3 %true
)";
  const std::vector<Finding> findings = LintShader(Compute(InsideLow(outer), kRejoiningHelper));
  ExpectFindings(findings,
                 {{kAfterRejoin, Severity::kWarning, "%ballot = OpGroupNonUniformBallot"},
                  {kAfterRejoin, Severity::kWarning, "%later = OpGroupNonUniformBallot"}});
  if (findings.empty()) return;
  EXPECT_NE(findings[0].notes[0].message.find("'helper' returns after divergent paths rejoin"),
            std::string::npos)
      << test::Describe(findings);
}

TEST(SubgroupOpRulesTest, HelperRejoiningInUniformControlFlow) {
  // Called in uniform control flow, the helper's branch reconverges.
  ExpectFindings(LintShader(Compute(
                     "%call = OpFunctionCall %void %helper\n" + std::string(kBallot) + "OpReturn\n",
                     kRejoiningHelper)),
                 {});
}

// ---------------------------------------------------------------- inactive invocations

constexpr char kShuffle[] = "%shuffled = OpGroupNonUniformShuffle %uint %uint_3 %x %uint_0\n";

TEST(SubgroupOpRulesTest, ShuffleInsideADivergentBranch) {
  ExpectFindings(LintShader(Compute(InsideLow(kShuffle))),
                 {{kInactive, Severity::kWarning, "%shuffled = OpGroupNonUniformShuffle"}});
}

TEST(SubgroupOpRulesTest, ShuffleUnderASubgroupUniformBranch) {
  const std::string body =
      "OpSelectionMerge %end None\nOpBranchConditional %sg0 %then %end\n"
      "%then = OpLabel\n" +
      std::string(kShuffle) + "OpBranch %end\n%end = OpLabel\nOpReturn\n";
  ExpectFindings(LintShader(Compute(body)), {});
}

TEST(SubgroupOpRulesTest, InactiveInvocationStaysAWarningUnderMaximalReconvergence) {
  Shader shader = Compute(InsideLow(kShuffle));
  shader.capabilities += kMaximalReconvergence;
  shader.modes = kMaximalReconvergenceMode;
  ExpectFindings(LintShader(shader),
                 {{kInactive, Severity::kWarning, "%shuffled = OpGroupNonUniformShuffle"}});
}

// Which invocation a read names, evaluated per subgroup size and reader
// (named_invocations.h). %lane is SubgroupLocalInvocationId and %ge
// SubgroupGeMask; |condition|, computed from them at the top of %main,
// guards a read of %x from the invocation |named| names.
Shader LaneRead(const std::string& condition, const std::string& read) {
  Shader shader = Compute(condition + R"(OpSelectionMerge %end None
OpBranchConditional %cond %then %end
%then = OpLabel
)" + read + R"(OpBranch %end
%end = OpLabel
OpReturn
)");
  shader.interface = " %lane %ge";
  shader.annotations =
      "OpDecorate %lane BuiltIn SubgroupLocalInvocationId\nOpDecorate %ge BuiltIn SubgroupGeMask\n";
  shader.globals +=
      "%v4bool = OpTypeVector %bool 4\n%ptr_Input_v4uint = OpTypePointer Input %v4uint\n"
      "%lane = OpVariable %ptr_Input_uint Input\n"
      "%ge = OpVariable %ptr_Input_v4uint Input\n";
  return shader;
}

constexpr char kLaneIsZero[] = "%l = OpLoad %uint %lane\n%cond = OpIEqual %bool %l %uint_0\n";
// ballot(true) == gl_SubgroupGeMask: the active set is exactly the
// invocations from this one up, so invocation i passes only when every
// invocation below it is inactive.
constexpr char kActiveFromHere[] =
    "%g = OpLoad %v4uint %ge\n%active = OpGroupNonUniformBallot %v4uint %uint_3 %true\n"
    "%same = OpIEqual %v4bool %g %active\n%cond = OpAll %bool %same\n";
constexpr char kReadLane0[] = "%read = OpGroupNonUniformBroadcast %uint %uint_3 %x %uint_0\n";

// One subgroup-op-inactive-invocation warning at %read, with a note that
// contains |note| (none when empty: then no witness note at all).
void ExpectInactiveRead(const std::vector<Finding>& findings, const std::string& note) {
  ExpectFindings(findings, {{kInactive, Severity::kWarning, "%read = "}});
  ASSERT_EQ(findings.size(), 1u);
  if (note.empty()) {
    EXPECT_FALSE(HasNote(findings[0], "at subgroup size")) << test::Describe(findings);
  } else {
    EXPECT_TRUE(HasNote(findings[0], note)) << test::Describe(findings);
  }
}

TEST(SubgroupOpRulesTest, ReadOfTheReadersOwnInvocationIsSetAgnostic) {
  // Only invocation 0 passes `lane == 0`, and it reads itself: defined
  // whatever else is active. A shuffle by the reader's own id likewise.
  ExpectFindings(LintShader(LaneRead(kLaneIsZero, kReadLane0)), {});
  ExpectFindings(
      LintShader(LaneRead("%l = OpLoad %uint %lane\n%cond = OpULessThan %bool %l %uint_4\n",
                          "%read = OpGroupNonUniformShuffle %uint %uint_3 %x %l\n")),
      {});
}

TEST(SubgroupOpRulesTest, NamedInvocationOnTheOtherSideOfTheBranch) {
  // Invocation 0 reads invocation 1, which fails `lane == 0`; no inactive
  // invocation is needed, so the largest size is shown.
  ExpectInactiveRead(
      LintShader(
          LaneRead(kLaneIsZero, "%read = OpGroupNonUniformBroadcast %uint %uint_3 %x %uint_1\n")),
      "at subgroup size 128, invocation 0 can execute it while invocation 1, which it reads, "
      "takes the other side of this branch");
}

TEST(SubgroupOpRulesTest, NamedInvocationInactiveAtLaunch) {
  // Invocation 0 passes with every invocation active and reads itself;
  // invocation 1 passes when invocation 0 is inactive, which Vulkan allows
  // without full subgroups (SubgroupLocalInvocationId), and reads it.
  ExpectInactiveRead(LintShader(LaneRead(kActiveFromHere, kReadLane0)),
                     "at subgroup size 128, with invocation 0 inactive, invocation 1 can execute "
                     "it and reads invocation 0 (unless full subgroups are enabled");
}

TEST(SubgroupOpRulesTest, FullSubgroupsLaunchEveryInvocation) {
  // SPIR-V 1.6 with a local size X that every subgroup size up to 128
  // divides: full subgroups (Vulkan, SubgroupLocalInvocationId), so the
  // ballot of `true` holds every invocation and only invocation 0 passes.
  // With local size 64, a 128-wide subgroup need not be full.
  for (const char* local_size : {"128 1 1", "64 2 1"}) {
    Shader shader = LaneRead(kActiveFromHere, kReadLane0);
    shader.version = "1.6";
    shader.local_size = local_size;
    if (std::string(local_size) == "128 1 1") {
      ExpectFindings(LintShader(shader), {});
    } else {
      ExpectInactiveRead(LintShader(shader), "at subgroup size 128, with invocation 0 inactive");
    }
  }
}

TEST(SubgroupOpRulesTest, ArbBallotSubgroupsHaveAtMost64Invocations) {
  // Under `lane >= 64` invocation 64 reads invocation 0, which fails the
  // test: undefined in a 128-wide subgroup. SPV_KHR_shader_ballot carries
  // GL_ARB_shader_ballot, whose 64-bit masks leave no invocation 64: then
  // nothing reaches the read.
  const std::string condition =
      "%l = OpLoad %uint %lane\n%cond = OpUGreaterThanEqual %bool %l %uint_64\n";
  Shader khr = LaneRead(condition, kReadLane0);
  khr.globals += "%uint_64 = OpConstant %uint 64\n";
  ExpectInactiveRead(LintShader(khr), "at subgroup size 128, invocation 64 can execute it");
  Shader arb = LaneRead(condition, "%read = OpSubgroupReadInvocationKHR %uint %x %uint_0\n");
  arb.globals += "%uint_64 = OpConstant %uint 64\n";
  arb.capabilities += "OpCapability SubgroupBallotKHR\nOpExtension \"SPV_KHR_shader_ballot\"\n";
  ExpectFindings(LintShader(arb), {});
}

TEST(SubgroupOpRulesTest, PartnerOnTheSameSideIsNotShown) {
  // `(lane & 2) == 0` keeps lane ^ 1 on the same side, but nothing shows
  // the partner active: the warning stays, without a witness.
  ExpectInactiveRead(
      LintShader(LaneRead("%l = OpLoad %uint %lane\n%b2 = OpBitwiseAnd %uint %l %uint_2\n"
                          "%cond = OpIEqual %bool %b2 %uint_0\n",
                          "%read = OpGroupNonUniformShuffleXor %uint %uint_3 %x %uint_1\n")),
      "");
}

TEST(SubgroupOpRulesTest, ReadInALoopIsNotEvaluated) {
  // In a loop the ballot has one value per iteration and the evaluation
  // keeps one per instruction, so it proves nothing there: the warning
  // stays, though only invocation 0 can pass and it reads itself. (The
  // ballot itself runs after the loop's divergent latch rejoins.)
  Shader shader = LaneRead(kLaneIsZero, kReadLane0);
  const Shader loop = Compute(R"(%l = OpLoad %uint %lane
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %next %latch
%active = OpGroupNonUniformBallot %v4uint %uint_3 %true
%first = OpCompositeExtract %uint %active 0
%cond = OpIEqual %bool %first %l
OpLoopMerge %loop_merge %latch None
OpBranchConditional %cond %then %latch
%then = OpLabel
)" + std::string(kReadLane0) + R"(OpBranch %latch
%latch = OpLabel
%next = OpIAdd %uint %i %uint_1
%more = OpULessThan %bool %next %x
OpBranchConditional %more %header %loop_merge
%loop_merge = OpLabel
OpReturn
)");
  shader.functions = loop.functions;
  shader.names = loop.names;
  ExpectFindings(LintShader(shader),
                 {{kAfterRejoin, Severity::kWarning, "%active = OpGroupNonUniformBallot"},
                  {kInactive, Severity::kWarning, "%read = OpGroupNonUniformBroadcast"}});
}

// ---------------------------------------------------------------- classic group operations

TEST(SubgroupOpRulesTest, ClassicGroupOperationIsAnErrorEvenUnderMaximalReconvergence) {
  // OpGroupIAdd: "Behavior is undefined unless all invocations within
  // Execution execute the same dynamic instance of this instruction".
  // (Vulkan does not allow the Groups capability: not validated.)
  for (bool maximal : {false, true}) {
    Shader shader = Compute(InsideLow("%sum = OpGroupIAdd %uint %uint_3 Reduce %x\n"));
    shader.capabilities += "OpCapability Groups\n";
    if (maximal) {
      shader.capabilities += kMaximalReconvergence;
      shader.modes = kMaximalReconvergenceMode;
    }
    shader.validate = false;
    ExpectFindings(LintShader(shader), {{kGroupOp, Severity::kError, "%sum = OpGroupIAdd"}});
  }
}

}  // namespace
}  // namespace spirv_conv
