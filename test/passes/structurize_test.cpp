// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// structurize (docs/structurize.md) on hand-written unstructured compute
// shaders: every output passes spirv-val (StructurizeBinary validates it),
// and runs in the SIMT simulator to the same buffer as the input run under
// post-dominator reconvergence (the only model for unstructured code), on
// two subgroups of 8. Each case also checks a few output words computed by
// hand from the input program, so a run that is wrong in both modules fails.

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "passes/control_flow_test_util.h"
#include "sim/sim_test_util.h"
#include "source/opt/constants.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/load.h"
#include "spirv_conv/pipeline.h"

namespace spirv_conv {
namespace {

using test::CountBlocks;
using test::ForEachInstruction;
constexpr const char* kPrefix = test::kControlFlowPrefix;

using Outcome = test::TransformOutcome;

// The case literals of the (first) OpSwitch of |binary|, in operand order.
std::vector<uint32_t> SwitchLiterals(const SpirvBinary& binary) {
  std::vector<uint32_t> literals;
  ForEachInstruction(binary, [&](spv::Op op, const std::vector<uint32_t>& operands) {
    if (op != spv::Op::OpSwitch || !literals.empty()) return;
    for (size_t k = 2; k < operands.size(); k += 2) literals.push_back(operands[k]);
  });
  return literals;
}

// The blocks of |body| itself, after kPrefix.
size_t CountInputBlocks(const std::string& body) {
  return CountBlocks(test::MustLoad("case.spvasm", std::string(kPrefix) + body));
}

// Structurizes |body| (after |prefix|), checks the output against the input
// on the simulator and returns it.
Outcome Structurize(const std::string& body, const std::string& prefix = kPrefix) {
  return test::RunStructurize(prefix + body);
}

// Structurize(|body|), expecting the output to have the input's blocks: no
// guard, dispatch or Flow block added.
Outcome StructurizeKeepingBlocks(const std::string& body) {
  Outcome outcome = Structurize(body);
  EXPECT_EQ(CountBlocks(outcome.output), CountInputBlocks(body)) << "blocks added";
  return outcome;
}

// Source locations, as SPIRV-Tools' IR loader attaches them: every
// instruction carries the OpLine or DebugLine in effect before it.
using Location = std::pair<uint32_t, uint32_t>;  // (OpString or DebugSource, line)

// |inst|'s location; line 0 when it has none (or OpNoLine, DebugNoLine).
Location LocationOf(spvtools::opt::IRContext& context, const spvtools::opt::Instruction& inst) {
  if (inst.dbg_line_insts().empty() || !inst.dbg_line_insts().back().IsLine()) return {0, 0};
  const spvtools::opt::Instruction& line = inst.dbg_line_insts().back();
  if (line.opcode() == spv::Op::OpLine) {
    return {line.GetSingleWordInOperand(0), line.GetSingleWordInOperand(1)};
  }
  // DebugLine: set, instruction, Source, Line Start (a constant id), ...
  const auto* start =
      context.get_constant_mgr()->FindDeclaredConstant(line.GetSingleWordInOperand(3));
  return {line.GetSingleWordInOperand(2), start != nullptr ? start->GetU32() : 0};
}

struct Locations {
  std::set<Location> all;  // of the instructions of function bodies
  // The terminator's line of each block the structurizer added (label id at
  // or above the input's id bound), in layout order.
  std::vector<std::pair<uint32_t, uint32_t>> new_blocks;  // (label, line)
  // The line of each store of the last block (0: none).
  std::vector<uint32_t> last_block_stores;
};

Locations LocationsOf(const SpirvBinary& binary, uint32_t input_bound) {
  Locations result;
  auto context = BuildIrContext(binary);
  EXPECT_TRUE(context.ok());
  if (!context.ok()) return result;
  for (spvtools::opt::Function& function : *(*context)->module()) {
    for (spvtools::opt::BasicBlock& block : function) {
      block.ForEachInst([&](spvtools::opt::Instruction* inst) {
        const Location location = LocationOf(**context, *inst);
        if (location.second != 0) result.all.insert(location);
      });
      if (block.id() >= input_bound) {
        result.new_blocks.emplace_back(block.id(),
                                       LocationOf(**context, *block.terminator()).second);
      }
      result.last_block_stores.clear();
      for (const spvtools::opt::Instruction& inst : block) {
        if (inst.opcode() == spv::Op::OpStore)
          result.last_block_stores.push_back(LocationOf(**context, inst).second);
      }
    }
  }
  return result;
}

// Blocks A and B form a cycle entered at both: irreducible.
//   even tid -> A, odd -> B; A: i+1, acc*3, to B while i < 5;
//   B: i+2, acc+7, to A while i < tid.
TEST(StructurizeTest, IrreducibleCycleBecomesReducible) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%odd = OpBitwiseAnd %uint %tid %u1
%even = OpIEqual %bool %odd %u0
OpBranchConditional %even %A %B
%A = OpLabel
%ia = OpPhi %uint %u0 %entry %ib2 %B
%acc_a = OpPhi %uint %tid %entry %acc_b2 %B
%ia2 = OpIAdd %uint %ia %u1
%acc_a2 = OpIMul %uint %acc_a %u3
%da = OpULessThan %bool %ia2 %u5
OpBranchConditional %da %B %exit
%B = OpLabel
%ib = OpPhi %uint %u0 %entry %ia2 %A
%acc_b = OpPhi %uint %tid %entry %acc_a2 %A
%ib2 = OpIAdd %uint %ib %u2
%acc_b2 = OpIAdd %uint %acc_b %u7
%db = OpULessThan %bool %ib2 %tid
OpBranchConditional %db %A %exit
%exit = OpLabel
%r = OpPhi %uint %acc_a2 %A %acc_b2 %B
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)");
  EXPECT_EQ(o.stats.irreducible_cycles, 1u);
  ASSERT_EQ(o.words.size(), 64u);
  // tid 0: A (i 1, acc 0) -> B (i 3, acc 7), 3 < 0 fails: 7.
  EXPECT_EQ(o.words[0], 7u);
  // tid 1: B (i 2, acc 8), 2 < 1 fails: 8.
  EXPECT_EQ(o.words[1], 8u);
  // tid 3: B (2, 10) -> A (3, 30) -> B (5, 37), 5 < 3 fails: 37.
  EXPECT_EQ(o.words[3], 37u);
}

// A loop left at two places, with a value from inside it used after it
// (temporal divergence): exitA when the running sum passes tid, exitB after
// 10 iterations.
TEST(StructurizeTest, LoopWithTwoExitsLeavesThroughOneMerge) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
OpBranch %H
%H = OpLabel
%i = OpPhi %uint %u0 %entry %i2 %latch
%s = OpPhi %uint %u0 %entry %s2 %latch
%i2 = OpIAdd %uint %i %u1
%s2 = OpIAdd %uint %s %i
%over = OpUGreaterThan %bool %s2 %tid
OpBranchConditional %over %exitA %mid
%mid = OpLabel
%ten = OpIEqual %bool %i2 %u10
OpBranchConditional %ten %exitB %latch
%latch = OpLabel
OpBranch %H
%exitA = OpLabel
%ra = OpIMul %uint %s2 %u100
OpBranch %join
%exitB = OpLabel
OpBranch %join
%join = OpLabel
%r = OpPhi %uint %ra %exitA %i2 %exitB
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)");
  ASSERT_EQ(o.words.size(), 64u);
  // Sums after i2 = 1, 2, 3, ...: 0, 1, 3, 6, 10, 15, 21.
  EXPECT_EQ(o.words[0], 100u);    // 1 > 0
  EXPECT_EQ(o.words[5], 600u);    // 6 > 5
  EXPECT_EQ(o.words[15], 2100u);  // 21 > 15
}

// A branch out of two nested loops at once (goto found).
TEST(StructurizeTest, BreakOutOfTwoLoops) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
OpBranch %OH
%OH = OpLabel
%i = OpPhi %uint %u0 %entry %i2 %OL
OpBranch %IH
%IH = OpLabel
%j = OpPhi %uint %u0 %OH %j2 %IL
%j2 = OpIAdd %uint %j %u1
%i4 = OpIMul %uint %i %u4
%k = OpIAdd %uint %i4 %j2
%hit = OpIEqual %bool %k %tid
OpBranchConditional %hit %found %IL
%IL = OpLabel
%more = OpULessThan %bool %j2 %u4
OpBranchConditional %more %IH %OL
%OL = OpLabel
%i2 = OpIAdd %uint %i %u1
%again = OpULessThan %bool %i2 %u3
OpBranchConditional %again %OH %notfound
%found = OpLabel
%rf = OpIMul %uint %k %u10
OpBranch %end
%notfound = OpLabel
OpBranch %end
%end = OpLabel
%r = OpPhi %uint %rf %found %u999 %notfound
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)");
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[0], 999u);   // k runs over 1..12
  EXPECT_EQ(o.words[5], 50u);    // i 1, j2 1
  EXPECT_EQ(o.words[12], 120u);  // i 2, j2 4
  EXPECT_EQ(o.words[13], 999u);
}

// `if (even && tid < 8) r = 1; else r = 2;` without merges: Y is reached
// from two nested selections, so one branch to it leaves two constructs
// and goes through a cascade.
TEST(StructurizeTest, ShortCircuitBranchCascades) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%odd = OpBitwiseAnd %uint %tid %u1
%even = OpIEqual %bool %odd %u0
OpBranchConditional %even %x2 %Y
%x2 = OpLabel
%low = OpULessThan %bool %tid %u8
OpBranchConditional %low %X %Y
%X = OpLabel
OpBranch %M
%Y = OpLabel
OpBranch %M
%M = OpLabel
%r = OpPhi %uint %u1 %X %u2 %Y
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)");
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[0], 1u);
  EXPECT_EQ(o.words[1], 2u);
  EXPECT_EQ(o.words[6], 1u);
  EXPECT_EQ(o.words[10], 2u);
}

// Early returns from nested ifs inside a loop; every invocation writes
// before it returns.
TEST(StructurizeTest, EarlyReturnsInsideALoop) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpBranch %H
%H = OpLabel
%i = OpPhi %uint %u0 %entry %i2 %latch
%i2 = OpIAdd %uint %i %u1
%big = OpUGreaterThan %bool %i2 %u3
OpBranchConditional %big %check %latch
%check = OpLabel
%eq = OpIEqual %bool %i2 %tid
OpBranchConditional %eq %ret1 %latch2
%ret1 = OpLabel
OpStore %p %i2
OpReturn
%latch2 = OpLabel
%stop = OpUGreaterThan %bool %i2 %u10
OpBranchConditional %stop %ret2 %latch
%ret2 = OpLabel
OpStore %p %u999
OpReturn
%latch = OpLabel
OpBranch %H
OpFunctionEnd
)");
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[2], 999u);  // i2 never equals 2 after passing 3
  EXPECT_EQ(o.words[4], 4u);
  EXPECT_EQ(o.words[10], 10u);
  EXPECT_EQ(o.words[11], 11u);   // i2 = 11 is compared with tid before the stop test
  EXPECT_EQ(o.words[12], 999u);  // i2 = 11 > 10 stops the loop first
}

// A switch whose case falls through into the default: native fall-through
// too (the default comes first in the OpSwitch, so no order to fix), no
// block added.
TEST(StructurizeTest, SwitchWithFallThrough) {
  const std::string body = R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%sel = OpBitwiseAnd %uint %tid %u3
OpSwitch %sel %dflt 0 %c0 1 %c1
%c0 = OpLabel
%v0 = OpIAdd %uint %tid %u100
OpBranch %dflt
%c1 = OpLabel
OpBranch %end
%dflt = OpLabel
%d = OpPhi %uint %u7 %entry %v0 %c0
%vd = OpIMul %uint %d %u2
OpBranch %end
%end = OpLabel
%r = OpPhi %uint %u1 %c1 %vd %dflt
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)";
  const Outcome o = StructurizeKeepingBlocks(body);
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[0], 200u);  // case 0 falls through: (0 + 100) * 2
  EXPECT_EQ(o.words[1], 1u);
  EXPECT_EQ(o.words[2], 14u);  // default: 7 * 2
  EXPECT_EQ(o.words[4], 208u);
}

// `case 0: v += 100; case 1: v *= 2; break;` — case 0 falls through into
// case 1, which SPIR-V expresses natively: case 1 stays a case of the switch
// (no guard, no extra block; before, case 1 became the switch's merge and
// the breaks of the other cases went through a guard), and the OpSwitch
// lists case 1's target right after case 0's, although the input named it
// first (the validator's fall-through order rule).
TEST(StructurizeTest, SwitchFallThroughIntoACaseStaysNative) {
  const std::string body = R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%sel = OpBitwiseAnd %uint %tid %u3
OpSwitch %sel %dflt 1 %c1 0 %c0 2 %c2
%c0 = OpLabel
%v0 = OpIAdd %uint %tid %u100
OpBranch %c1
%c1 = OpLabel
%v1in = OpPhi %uint %tid %entry %v0 %c0
%v1 = OpIMul %uint %v1in %u2
OpBranch %end
%c2 = OpLabel
OpBranch %end
%dflt = OpLabel
%vd = OpIAdd %uint %tid %u7
OpBranch %end
%end = OpLabel
%r = OpPhi %uint %v1 %c1 %u999 %c2 %vd %dflt
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)";
  const Outcome o = StructurizeKeepingBlocks(body);
  // The OpSwitch's literals, in operand order: case 0 before case 1.
  EXPECT_EQ(SwitchLiterals(o.output), (std::vector<uint32_t>{0, 1, 2}));
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[0], 200u);  // case 0 falls through: (0 + 100) * 2
  EXPECT_EQ(o.words[1], 2u);    // case 1: 1 * 2
  EXPECT_EQ(o.words[2], 999u);  // case 2
  EXPECT_EQ(o.words[3], 10u);   // default: 3 + 7
  EXPECT_EQ(o.words[4], 208u);  // (4 + 100) * 2
  EXPECT_EQ(o.words[5], 10u);   // 5 * 2
}

// Fall-through after a case's `if` (`case 0: if (c) v += 100; /*falls
// through*/ case 1: v *= 2;`): the branch into case 1 is the last block of
// case 0's construct, at its top level, so it stays a native fall-through:
// no block added, case 1 listed right after case 0.
TEST(StructurizeTest, SwitchFallThroughAfterAnIf) {
  const std::string body = R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%sel = OpBitwiseAnd %uint %tid %u1
%bit = OpBitwiseAnd %uint %tid %u4
%c = OpIEqual %bool %bit %u0
OpSwitch %sel %dflt 1 %c1 0 %c0
%c0 = OpLabel
OpBranchConditional %c %then %m0
%then = OpLabel
%v0 = OpIAdd %uint %tid %u100
OpBranch %m0
%m0 = OpLabel
%vm = OpPhi %uint %tid %c0 %v0 %then
OpBranch %c1
%c1 = OpLabel
%v1in = OpPhi %uint %tid %entry %vm %m0
%v1 = OpIMul %uint %v1in %u2
OpBranch %end
%dflt = OpLabel
OpBranch %end
%end = OpLabel
%r = OpPhi %uint %v1 %c1 %u7 %dflt
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)";
  const Outcome o = StructurizeKeepingBlocks(body);
  EXPECT_EQ(SwitchLiterals(o.output), (std::vector<uint32_t>{0, 1}));
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[0], 200u);  // case 0, bit 4 clear: (0 + 100) * 2
  EXPECT_EQ(o.words[1], 2u);    // case 1: 1 * 2
  EXPECT_EQ(o.words[4], 8u);    // case 0, bit 4 set: 4 * 2
  EXPECT_EQ(o.words[5], 10u);   // case 1: 5 * 2
  EXPECT_EQ(o.words[8], 216u);  // (8 + 100) * 2
}

// A diamond and a loop that only lack their merge instructions keep their
// blocks: nothing to predicate where control flow was already structured.
TEST(StructurizeTest, StructuredShapeWithoutMergesKeepsItsBlocks) {
  const std::string body = R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%odd = OpBitwiseAnd %uint %tid %u1
%even = OpIEqual %bool %odd %u0
OpBranchConditional %even %then %else
%then = OpLabel
%a = OpIAdd %uint %tid %u5
OpBranch %join
%else = OpLabel
%b = OpIMul %uint %tid %u3
OpBranch %join
%join = OpLabel
%v = OpPhi %uint %a %then %b %else
OpBranch %H
%H = OpLabel
%i = OpPhi %uint %u0 %join %i2 %body
%acc = OpPhi %uint %v %join %acc2 %body
%go = OpULessThan %bool %i %tid
OpBranchConditional %go %body %exit
%body = OpLabel
%acc2 = OpIAdd %uint %acc %i
%i2 = OpIAdd %uint %i %u1
OpBranch %H
%exit = OpLabel
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %acc
OpReturn
OpFunctionEnd
)";
  const Outcome o = StructurizeKeepingBlocks(body);
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[2], 8u);   // 2 + 5, + 0 + 1
  EXPECT_EQ(o.words[3], 12u);  // 3 * 3, + 0 + 1 + 2
}

// An early exit from an `if` inside the else arm, whose rest is empty (the
// empty block glslang leaves after an inner if):
//
//   entry --> A ----------> J --> X        tid < 8:        out = tid + 100
//     \                    ^     ^        tid >= 8, odd:  out = 7
//      F --(odd)--> R ------|-----'        tid >= 8, even: out = tid + 100
//        \                 |
//         `-(even)-> E -----'   (E: nothing but OpBranch J)
//
// R's branch to X leaves F's selection and the entry's: it sets the cascade
// and passes F's guard, whose "go on" side is E, which goes where the
// cascade goes (the entry's merge) at once. Step 7 makes that guard a plain
// branch and deletes E. Output: entry, A, F, R, F's merge, the entry's
// merge (J's guard), J, X: 8 blocks (the input's 7 - E + 2 merges).
TEST(StructurizeTest, GuardWhoseSidesMeetAtOnceBecomesABranch) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%low = OpULessThan %bool %tid %u8
OpBranchConditional %low %A %F
%A = OpLabel
OpBranch %J
%F = OpLabel
%bit = OpBitwiseAnd %uint %tid %u1
%odd = OpIEqual %bool %bit %u1
OpBranchConditional %odd %R %E
%R = OpLabel
OpBranch %X
%E = OpLabel
OpBranch %J
%J = OpLabel
%v = OpIAdd %uint %tid %u100
OpBranch %X
%X = OpLabel
%r = OpPhi %uint %u7 %R %v %J
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)");
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[3], 103u);
  EXPECT_EQ(o.words[9], 7u);
  EXPECT_EQ(o.words[10], 110u);
  EXPECT_EQ(o.stats.guards_removed, 1u);
  EXPECT_EQ(CountBlocks(o.output), 8u);
  EXPECT_EQ(test::DeadValues(o.output), 0u);  // the guard's test went with it
}

// Early returns from nested ifs that all end in one exit block (what
// --reconverge makes of them), with OpLine on every statement as glslang -g
// writes it: the returns at lines 13, 18 and 22 become cascades through
// guard blocks, and each guard carries the line of the return it carries
// out. No line of the input is lost, none is invented.
TEST(StructurizeTest, DebugLinesFollowTheBranchesTheyStandFor) {
  std::string prefix = kPrefix;
  prefix.insert(prefix.find("OpDecorate %lid"), "%src = OpString \"returns.comp\"\n");
  const std::string body = R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpLine %src 7 0
%tid = OpLoad %uint %lid
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpLine %src 9 0
%m3 = OpUMod %uint %tid %u3
%c1 = OpIEqual %bool %m3 %u0
OpBranchConditional %c1 %A %E
%A = OpLabel
OpLine %src 10 0
%x5 = OpIMul %uint %tid %u5
OpLine %src 11 0
%m2 = OpUMod %uint %tid %u2
%c2 = OpIEqual %bool %m2 %u0
OpBranchConditional %c2 %R1 %B
%R1 = OpLabel
OpLine %src 12 0
%v1 = OpIAdd %uint %x5 %u1
OpLine %src 13 0
OpBranch %exit
%B = OpLabel
OpLine %src 15 0
%x8 = OpIAdd %uint %x5 %u3
OpLine %src 16 0
%m5 = OpUMod %uint %tid %u5
%c3 = OpIEqual %bool %m5 %u0
OpBranchConditional %c3 %R2 %J
%R2 = OpLabel
OpLine %src 17 0
%v2 = OpIAdd %uint %x8 %u2
OpLine %src 18 0
OpBranch %exit
%E = OpLabel
OpLine %src 20 0
%m7 = OpUMod %uint %tid %u7
%c4 = OpIEqual %bool %m7 %u1
OpBranchConditional %c4 %R3 %J
%R3 = OpLabel
OpLine %src 21 0
%v3 = OpIMul %uint %tid %u10
OpLine %src 22 0
OpBranch %exit
%J = OpLabel
%xj = OpPhi %uint %x8 %B %tid %E
OpLine %src 24 0
%v4 = OpIAdd %uint %xj %u100
OpBranch %exit
%exit = OpLabel
%v = OpPhi %uint %v1 %R1 %v2 %R2 %v3 %R3 %v4 %J
OpLine %src 25 0
OpStore %p %v
OpReturn
OpFunctionEnd
)";
  const Outcome o = Structurize(body, prefix);
  ASSERT_EQ(o.words.size(), 64u);
  EXPECT_EQ(o.words[0], 1u);    // A, R1: 0 * 5 + 1
  EXPECT_EQ(o.words[1], 10u);   // E, R3: 1 * 10
  EXPECT_EQ(o.words[2], 102u);  // E, J: 2 + 100
  EXPECT_EQ(o.words[3], 118u);  // A, B, J: 3 * 5 + 3 + 100
  EXPECT_EQ(o.words[15], 80u);  // A, B, R2: 15 * 5 + 3 + 2

  const SpirvBinary input = test::MustLoad("case.spvasm", prefix + body);
  const Locations before = LocationsOf(input, input.words[3]);
  const Locations after = LocationsOf(o.output, input.words[3]);
  EXPECT_EQ(before.all, after.all);
  // Two guards. The entry's selection (merge J) is laid out with its arms E
  // then A. A's arms R1 and B make a selection whose merge is B, reached
  // from R1 only through a guard: R1's return (line 13) stores the exit and
  // branches to it. That cascade goes on to the entry's merge, which also
  // gets the ones of R3 (line 22, E is emitted first) and R2 (line 18); its
  // guard tests for J's normal arrivals and carries the first one's line.
  std::vector<uint32_t> guard_lines;
  for (const auto& [label, line] : after.new_blocks) guard_lines.push_back(line);
  EXPECT_EQ(guard_lines, (std::vector<uint32_t>{13, 22}));
}

// shaders/reconverge/nested_returns.comp compiled by glslang with -g (in
// process) and with -gVS (NonSemantic.Shader.DebugInfo.100, by
// glslangValidator when it is installed), through --reconverge: the output
// validates (ReconvergeBinary checks it) and computes what the input does,
// the structurizer's guard blocks carry the lines of the returns they carry
// out, and the output has no line the input lacks.
TEST(StructurizeTest, GlslangDebugInfoSurvivesReconverge) {
  const std::string source =
      std::string(SPIRV_CONV_TEST_DATA_DIR) + "/../../shaders/reconverge/nested_returns.comp";
  auto check = [](const SpirvBinary& input, const char* form) {
    SCOPED_TRACE(form);
    Expected<SpirvBinary> output = ReconvergeBinary(input, ValidatorFlags(), false);
    ASSERT_TRUE(output) << output.error().message;
    const sim::Buffer out = test::Zeros(0, 64);
    Expected<sim::RunResult> before =
        test::RunBinary(input, {out}, test::Options(sim::Model::kMaximal));
    Expected<sim::RunResult> after =
        test::RunBinary(*output, {out}, test::Options(sim::Model::kMaximal));
    ASSERT_TRUE(before && after);
    EXPECT_EQ(test::WordsOf(*before, 0), test::WordsOf(*after, 0));
    const Locations in = LocationsOf(input, input.words[3]);
    const Locations out_locations = LocationsOf(*output, input.words[3]);
    for (const Location& location : out_locations.all)
      EXPECT_TRUE(in.all.count(location)) << location.second;
    std::vector<uint32_t> lines;
    for (const auto& [label, line] : out_locations.new_blocks) lines.push_back(line);
    // The guards after `else if (i % 7u == 1u)` (its return at line 22),
    // `if (i % 2u == 0u)` (13) and `if (i % 5u == 0u)` (18), then the outer
    // if's merge (first reached by the cascade of line 22); last the exit
    // block --reconverge adds for the returns, whose OpReturn stands in for
    // the first return of the function's block order (line 13).
    EXPECT_EQ(lines, (std::vector<uint32_t>{22, 13, 18, 22, 13}));
    // The store --reconverge sinks into that exit block stands for the
    // stores of lines 12, 17, 21 and 24: it gets no line rather than the
    // first one's.
    EXPECT_EQ(out_locations.last_block_stores, (std::vector<uint32_t>{0}));
  };
  LoadOptions with_lines;
  with_lines.source.debug_info = true;
  Expected<SpirvBinary> g = LoadSpirv(source, with_lines);
  ASSERT_TRUE(g) << g.error().message;
  check(*g, "-g");

  const std::string spv = ::testing::TempDir() + "nested_returns_gVS.spv";
  const std::string command = "glslangValidator -V --target-env vulkan1.2 -gVS -o '" + spv + "' '" +
                              source + "' >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) GTEST_SKIP() << "glslangValidator -gVS unavailable";
  Expected<SpirvBinary> gvs = LoadSpirv(spv, LoadOptions());
  std::remove(spv.c_str());
  ASSERT_TRUE(gvs) << gvs.error().message;
  check(*gvs, "-gVS");
}

// Input that breaks other rules than the structured ones is refused.
TEST(StructurizeTest, OtherValidationErrorsAreRefused) {
  Expected<SpirvBinary> input = LoadSpirvFromBytes("bad.spvasm", std::string(kPrefix) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIAdd %bool %u1 %u2
OpReturn
OpFunctionEnd
)",
                                                   LoadOptions());
  ASSERT_TRUE(input);
  Expected<SpirvBinary> output = StructurizeBinary(*input, ValidatorFlags(), false);
  ASSERT_FALSE(output);
  EXPECT_EQ(output.error().code, ExitCode::kBadInput);
  EXPECT_NE(output.error().message.find("bad.spvasm"), std::string::npos) << output.error().message;
}

// --- Node splitting of irreducible cycles (node_split.h) ---

// The ring A <-> B entered at both, as above, but B is tiny: after DemoteSsa
// it holds a load, an add, a store and its branch (5 with the label), less
// than a dispatch block (2 + 4 entering edges + 3 per entry = 12). The edge
// entry -> B gets a copy B' of B, which branches to A: A is the only entry.
// Blocks: entry, B', A, B, exit; the loop A (header, merge exit) <- B
// (continue target) needs no block of its own, and entry's selection merges
// at A. A dispatch block instead would give the same input 7 blocks.
//   A: ia = 3 * i + 1, to B while ia < 100; B: i = j + 2.
//   even tid: A first with i = tid; odd tid: B first with j = tid.
TEST(StructurizeTest, IrreducibleCycleCopiesATinyEntry) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%odd = OpBitwiseAnd %uint %tid %u1
%even = OpIEqual %bool %odd %u0
OpBranchConditional %even %A %B
%A = OpLabel
%i = OpPhi %uint %tid %entry %ib %B
%i3 = OpIMul %uint %i %u3
%ia = OpIAdd %uint %i3 %u1
%more = OpULessThan %bool %ia %u100
OpBranchConditional %more %B %exit
%B = OpLabel
%j = OpPhi %uint %tid %entry %ia %A
%ib = OpIAdd %uint %j %u2
OpBranch %A
%exit = OpLabel
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %ia
OpReturn
OpFunctionEnd
)");
  EXPECT_EQ(o.stats.irreducible_cycles, 1u);
  EXPECT_EQ(CountBlocks(o.output), 5u);
  ASSERT_EQ(o.words.size(), 64u);
  // ia runs 3 * tid + 1 (even) or 3 * (tid + 2) + 1 (odd), then 3 * ia + 7.
  EXPECT_EQ(o.words[0], 118u);   // 1, 10, 37, 118
  EXPECT_EQ(o.words[1], 118u);   // 10, 37, 118
  EXPECT_EQ(o.words[2], 280u);   // 7, 28, 91, 280
  EXPECT_EQ(o.words[3], 172u);   // 16, 55, 172
  EXPECT_EQ(o.words[4], 145u);   // 13, 46, 145
  EXPECT_EQ(o.words[15], 163u);  // 52, 163
}

// The same ring with entries too large to copy: A and B each cost more than
// the dispatch block (14 and 13 against 12), so the cycle gets one, as
// without node splitting: entry, a loop header holding the selector's phi,
// the dispatch, A, B, a continue target, exit.
TEST(StructurizeTest, IrreducibleCycleWithLargeEntriesKeepsTheDispatch) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%odd = OpBitwiseAnd %uint %tid %u1
%even = OpIEqual %bool %odd %u0
OpBranchConditional %even %A %B
%A = OpLabel
%i = OpPhi %uint %tid %entry %ib %B
%a1 = OpIAdd %uint %i %u1
%a2 = OpIAdd %uint %a1 %i
%a3 = OpIAdd %uint %a2 %i
%a4 = OpISub %uint %a3 %u0
%a5 = OpIMul %uint %a4 %u1
%a6 = OpIAdd %uint %a5 %u0
%a7 = OpBitwiseOr %uint %a6 %u0
%ia = OpBitwiseXor %uint %a7 %u0
%more = OpULessThan %bool %ia %u100
OpBranchConditional %more %B %exit
%B = OpLabel
%j = OpPhi %uint %tid %entry %ia %A
%b1 = OpIAdd %uint %j %u1
%b2 = OpIAdd %uint %b1 %u1
%b3 = OpIMul %uint %b2 %u1
%b4 = OpIAdd %uint %b3 %u0
%b5 = OpBitwiseOr %uint %b4 %u0
%b6 = OpBitwiseXor %uint %b5 %u0
%b7 = OpISub %uint %b6 %u0
%b8 = OpIMul %uint %b7 %u1
%ib = OpBitwiseOr %uint %b8 %u0
OpBranch %A
%exit = OpLabel
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %ia
OpReturn
OpFunctionEnd
)");
  EXPECT_EQ(o.stats.irreducible_cycles, 1u);
  EXPECT_EQ(CountBlocks(o.output), 7u);
  ASSERT_EQ(o.words.size(), 64u);
  // The computation of the tiny-entry case, spelled out longer.
  EXPECT_EQ(o.words[0], 118u);
  EXPECT_EQ(o.words[3], 172u);
  EXPECT_EQ(o.words[4], 145u);
}

// A tiny entry that holds a barrier is not copied: the copy would run it
// with other invocations than the original. B (a load, the barrier, an add,
// a store, its branch: 6) would be copied without the barrier; A is too
// large (14, ia = i + 1 spelled out long). The dispatch is kept: 7 blocks as
// above. Every invocation takes the same path (A first, B between the
// iterations), so the barrier is reached in uniform control flow, before
// and after.
TEST(StructurizeTest, IrreducibleCycleWithABarrierEntryKeepsTheDispatch) {
  const Outcome o = Structurize(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%tid = OpLoad %uint %lid
%first = OpULessThan %bool %u1 %u2
OpBranchConditional %first %A %B
%A = OpLabel
%i = OpPhi %uint %u0 %entry %ib %B
%a1 = OpIAdd %uint %i %u1
%a2 = OpISub %uint %a1 %u0
%a3 = OpIMul %uint %a2 %u1
%a4 = OpIAdd %uint %a3 %u0
%a5 = OpBitwiseOr %uint %a4 %u0
%a6 = OpBitwiseXor %uint %a5 %u0
%a7 = OpIMul %uint %a6 %u1
%ia = OpISub %uint %a7 %u0
%more = OpULessThan %bool %ia %u5
OpBranchConditional %more %B %exit
%B = OpLabel
%j = OpPhi %uint %u0 %entry %ia %A
OpControlBarrier %u2 %u2 %u0
%ib = OpIAdd %uint %j %u1
OpBranch %A
%exit = OpLabel
%r = OpIAdd %uint %ia %tid
%p = OpAccessChain %ptr_sb_uint %out %u0 %tid
OpStore %p %r
OpReturn
OpFunctionEnd
)");
  EXPECT_EQ(o.stats.irreducible_cycles, 1u);
  EXPECT_EQ(CountBlocks(o.output), 7u);
  ASSERT_EQ(o.words.size(), 64u);
  // ia: 1, (B) 3, (B) 5: out = 5 + tid.
  EXPECT_EQ(o.words[0], 5u);
  EXPECT_EQ(o.words[9], 14u);
}

// A phi of a buffer reference whose struct holds one (OpTypeForwardPointer):
// structurizing goes out of SSA through a Function variable, whose pointer
// type is declared without SPIRV-Tools' type manager, which recursed without
// end on the type (a crash on the spirv-cross corpus). The output
// must validate; the simulator has no physical pointers, so this case is
// checked by validation alone.
TEST(StructurizeTest, PhiOfARecursiveBufferReference) {
  const std::string module = R"(OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main" %root %wgid
OpExecutionMode %main LocalSize 1 1 1
OpMemberDecorate %node 0 Offset 0
OpMemberDecorate %node 1 Offset 8
OpDecorate %node Block
OpMemberDecorate %roots 0 Offset 0
OpMemberDecorate %roots 1 Offset 8
OpDecorate %roots Block
OpDecorate %root DescriptorSet 0
OpDecorate %root Binding 0
OpDecorate %wgid BuiltIn WorkgroupId
%void = OpTypeVoid
%fn = OpTypeFunction %void
OpTypeForwardPointer %node_ptr PhysicalStorageBuffer
%int = OpTypeInt 32 1
%node = OpTypeStruct %int %node_ptr
%node_ptr = OpTypePointer PhysicalStorageBuffer %node
%roots = OpTypeStruct %node_ptr %node_ptr
%roots_ptr = OpTypePointer StorageBuffer %roots
%root = OpVariable %roots_ptr StorageBuffer
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_20 = OpConstant %int 20
%head_ptr = OpTypePointer StorageBuffer %node_ptr
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%in_v3uint = OpTypePointer Input %v3uint
%wgid = OpVariable %in_v3uint Input
%uint_0 = OpConstant %uint 0
%uint_4 = OpConstant %uint 4
%in_uint = OpTypePointer Input %uint
%bool = OpTypeBool
%value_ptr = OpTypePointer PhysicalStorageBuffer %int
%main = OpFunction %void None %fn
%entry = OpLabel
%head1_ptr = OpAccessChain %head_ptr %root %int_0
%head1 = OpLoad %node_ptr %head1_ptr
%x_ptr = OpAccessChain %in_uint %wgid %uint_0
%x = OpLoad %uint %x_ptr
%low = OpULessThan %bool %x %uint_4
OpSelectionMerge %join None
OpBranchConditional %low %then %join
%then = OpLabel
%head2_ptr = OpAccessChain %head_ptr %root %int_1
%head2 = OpLoad %node_ptr %head2_ptr
OpBranch %join
%join = OpLabel
%n = OpPhi %node_ptr %head1 %entry %head2 %then
%value = OpAccessChain %value_ptr %n %int_0
OpStore %value %int_20 Aligned 16
OpReturn
OpFunctionEnd
)";
  const SpirvBinary input = test::MustLoad("recursive.spvasm", module);
  Expected<SpirvBinary> output = StructurizeBinary(input, ValidatorFlags(), false);
  ASSERT_TRUE(output.ok()) << output.error().message;  // validated by StructurizeBinary
  EXPECT_EQ(test::CountOpcode(*output, spv::Op::OpTypeForwardPointer), 1u);
}

// Pointers that cross blocks under SPV_KHR_variable_pointers (the shape of
// spirv-cross' variable-pointers-2.asm.comp): two pointer phis in a
// loop header, loaded through in the body, advanced in the continue target.
// Structurizing goes out of SSA through Function variables, which may hold
// such pointers; the variables stay (SPIRV-Tools 2023.1's SSA rewriter would
// take a store through a loaded pointer for a store to the variable). Both
// transforms must accept it, not refuse it as "a pointer or opaque value
// used outside its block". The simulator has no variable pointers:
// validation, and the stores through the pointers are still there.
TEST(StructurizeTest, VariablePointersCrossingBlocksAreKeptInVariables) {
  const std::string module = R"(; Version: 1.3
OpCapability Shader
OpCapability VariablePointers
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %rta ArrayStride 4
OpMemberDecorate %S 0 Offset 0
OpDecorate %S Block
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
OpDecorate %int_ptr ArrayStride 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%in_v3uint = OpTypePointer Input %v3uint
%lid = OpVariable %in_v3uint Input
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%rta = OpTypeRuntimeArray %int
%S = OpTypeStruct %rta
%S_ptr = OpTypePointer StorageBuffer %S
%a = OpVariable %S_ptr StorageBuffer
%b = OpVariable %S_ptr StorageBuffer
%int_ptr = OpTypePointer StorageBuffer %int
%bool = OpTypeBool
%main = OpFunction %void None %fn
%entry = OpLabel
%pa = OpAccessChain %int_ptr %a %uint_0 %uint_0
%pb = OpAccessChain %int_ptr %b %uint_0 %uint_0
OpBranch %header
%header = OpLabel
%p = OpPhi %int_ptr %pa %entry %p_next %continue
%q = OpPhi %int_ptr %pb %entry %q_next %continue
%x = OpLoad %int %p
%y = OpLoad %int %q
%differ = OpINotEqual %bool %x %y
OpLoopMerge %merge %continue None
OpBranchConditional %differ %body %merge
%body = OpLabel
%sum = OpIAdd %int %x %y
OpStore %p %sum
OpStore %q %sum
OpBranch %continue
%continue = OpLabel
%p_next = OpPtrAccessChain %int_ptr %p %uint_1
%q_next = OpPtrAccessChain %int_ptr %q %uint_1
OpBranch %header
%merge = OpLabel
OpReturn
OpFunctionEnd
)";
  const SpirvBinary input = test::MustLoad("variable_pointers.spvasm", module);
  // Validated by StructurizeBinary and ReconvergeBinary.
  Expected<SpirvBinary> output = StructurizeBinary(input, ValidatorFlags(), false);
  ASSERT_TRUE(output.ok()) << output.error().message;
  // The two stores through %p and %q, and the pointers' variables are stored
  // to: in the entry, the header (for the body) and the continue target.
  size_t stores_of_sum = 0;
  ForEachInstruction(*output, [&](spv::Op opcode, const std::vector<uint32_t>& operands) {
    if (opcode == spv::Op::OpStore && operands.size() == 2) ++stores_of_sum;
  });
  EXPECT_GE(stores_of_sum, 2u + 6u);
  Expected<SpirvBinary> reconverged = ReconvergeBinary(input, ValidatorFlags(), false);
  ASSERT_TRUE(reconverged.ok()) << reconverged.error().message;
}

// An acceleration structure converted from a 64-bit address in one block and
// used in another (spirv-cross' ray-query-force-temporary-rtas.asm.comp): the
// conversion is recomputed where it is used, from the address's variable.
TEST(StructurizeTest, AccelerationStructureFromAnAddressIsRecomputed) {
  const std::string module = R"(; Version: 1.4
OpCapability Shader
OpCapability Int64
OpCapability RayQueryKHR
OpExtension "SPV_KHR_ray_query"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %pc
OpExecutionMode %main LocalSize 1 1 1
OpMemberDecorate %PC 0 Offset 0
OpDecorate %PC Block
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%PC = OpTypeStruct %ulong
%PC_ptr = OpTypePointer PushConstant %PC
%pc = OpVariable %PC_ptr PushConstant
%ulong_ptr = OpTypePointer PushConstant %ulong
%as = OpTypeAccelerationStructureKHR
%rq_type = OpTypeRayQueryKHR
%rq_ptr = OpTypePointer Function %rq_type
%uint_0 = OpConstant %uint 0
%uint_255 = OpConstant %uint 255
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%dir = OpConstantComposite %v3float %float_0 %float_0 %float_1
%origin = OpConstantComposite %v3float %float_0 %float_0 %float_0
%main = OpFunction %void None %fn
%entry = OpLabel
%rq = OpVariable %rq_ptr Function
OpBranch %convert
%convert = OpLabel
%address_ptr = OpAccessChain %ulong_ptr %pc %uint_0
%address = OpLoad %ulong %address_ptr
%handle = OpConvertUToAccelerationStructureKHR %as %address
OpBranch %use
%use = OpLabel
OpRayQueryInitializeKHR %rq %handle %uint_0 %uint_255 %origin %float_0 %dir %float_1
OpReturn
OpFunctionEnd
)";
  const SpirvBinary input = test::MustLoad("ray_query.spvasm", module);
  Expected<SpirvBinary> output = StructurizeBinary(input, ValidatorFlags(), false);
  ASSERT_TRUE(output.ok()) << output.error().message;  // validated by StructurizeBinary
  EXPECT_GE(test::CountOpcode(*output, spv::Op::OpConvertUToAccelerationStructureKHR), 1u);
}

}  // namespace
}  // namespace spirv_conv
