// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// check-motion on hand-written BEFORE/AFTER pairs, one per rule and
// direction, several of them the examples of N. Hähnle, "Compiling shaders:
// dynamically uniform variables and 'convergent' intrinsics" ("Hähnle"
// below). Each verdict is argued in the comment above its test from the
// rules of docs/motion.md, not read off the checker.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/motion.h"
#include "spirv_conv/validate.h"
#include "test/motion/motion_test_modules.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

using test::ComputeModule;
using test::FragmentModule;

std::unique_ptr<spvtools::opt::IRContext> Build(const std::string& text) {
  const SpirvBinary binary = test::MustAssemble(text);
  const Status valid =
      ValidateSpirv(binary.words, binary.target_env, {}, "test", ExitCode::kFindings);
  EXPECT_TRUE(valid.ok()) << (valid.ok() ? "" : valid.error().message) << "\n" << text;
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context = BuildIrContext(binary);
  EXPECT_TRUE(context.ok());
  return context.ok() ? std::move(*context) : nullptr;
}

// The rule ids of the findings for |before| -> |after|.
std::vector<std::string> Check(const std::string& before, const std::string& after) {
  std::unique_ptr<spvtools::opt::IRContext> then = Build(before);
  std::unique_ptr<spvtools::opt::IRContext> now = Build(after);
  if (!then || !now) return {"<invalid module>"};
  Expected<std::vector<Finding>> findings = CheckMotion(*then, *now);
  EXPECT_TRUE(findings.ok());
  std::vector<std::string> rules;
  if (findings.ok()) {
    for (const Finding& finding : *findings) rules.push_back(finding.rule);
  }
  return rules;
}

using Rules = std::vector<std::string>;
const char* kGained = "motion-convergent-gained-divergence";
const char* kChanged = "motion-coconvergent-changed-divergence";
const char* kOperand = "motion-uniform-operand";
const char* kUnmatched = "motion-unmatched";

// texture() in uniform control flow, its result used in an `if` on a varying.
const char* kTextureBeforeIf = R"(%100 = OpLoad %simg %tex
%101 = OpImageSampleImplicitLod %v4 %100 %c
OpSelectionMerge %m None
OpBranchConditional %cond %a %m
%a = OpLabel
OpStore %out %101
OpBranch %m
%m = OpLabel
OpReturn
)";
// The same texture() inside the `if`.
const char* kTextureInIf = R"(OpSelectionMerge %m None
OpBranchConditional %cond %a %m
%a = OpLabel
%100 = OpLoad %simg %tex
%101 = OpImageSampleImplicitLod %v4 %100 %c
OpStore %out %101
OpBranch %m
%m = OpLabel
OpReturn
)";

// Sinking gains the divergent branch on %cond: the implicit derivatives are
// undefined where quad neighbours take the other path (Hähnle, example 1).
TEST(CheckMotion, SinkTextureIntoDivergentIfIsIllegal) {
  EXPECT_EQ(Check(FragmentModule(kTextureBeforeIf), FragmentModule(kTextureInIf)), Rules{kGained});
}

// Hoisting loses divergent control dependence: "the reverse transformation
// is allowed".
TEST(CheckMotion, HoistTextureOutOfDivergentIfIsLegal) {
  EXPECT_EQ(Check(FragmentModule(kTextureInIf), FragmentModule(kTextureBeforeIf)), Rules{});
}

// The same pairs renumbered (every body id moved by 200): the matcher must
// find the instructions structurally and reach the same verdicts.
std::string Renumbered(std::string body) {
  for (const char* id : {"%100", "%101"}) {
    const std::string to = std::string("%") + std::to_string(std::stoi(id + 1) + 200);
    for (size_t at = body.find(id); at != std::string::npos; at = body.find(id, at)) {
      body.replace(at, 4, to);
    }
  }
  return body;
}

TEST(CheckMotion, RenumberedSinkIsMatchedStructurallyAndIllegal) {
  EXPECT_EQ(Check(FragmentModule(kTextureBeforeIf), FragmentModule(Renumbered(kTextureInIf))),
            Rules{kGained});
}

TEST(CheckMotion, RenumberedHoistIsMatchedStructurallyAndLegal) {
  EXPECT_EQ(Check(FragmentModule(kTextureInIf), FragmentModule(Renumbered(kTextureBeforeIf))),
            Rules{});
}

// The texture() cloned into both arms of the divergent `if` (new ids): each
// clone gained the branch on %cond.
TEST(CheckMotion, CloneIntoBothArmsOfDivergentIfIsIllegal) {
  const char* cloned = R"(OpSelectionMerge %m None
OpBranchConditional %cond %a %b
%a = OpLabel
%200 = OpLoad %simg %tex
%201 = OpImageSampleImplicitLod %v4 %200 %c
OpStore %out %201
OpBranch %m
%b = OpLabel
%210 = OpLoad %simg %tex
%211 = OpImageSampleImplicitLod %v4 %210 %c
OpStore %out %211
OpBranch %m
%m = OpLabel
OpReturn
)";
  EXPECT_EQ(Check(FragmentModule(kTextureBeforeIf), FragmentModule(cloned)),
            (Rules{kGained, kGained}));
}

// Deleting a texture() whose result was dead removes a requirement; nothing
// to report.
TEST(CheckMotion, DeletingADeadTextureIsLegal) {
  const char* dead = R"(%100 = OpLoad %simg %tex
%101 = OpImageSampleImplicitLod %v4 %100 %c
OpReturn
)";
  EXPECT_EQ(Check(FragmentModule(dead), FragmentModule("OpReturn\n")), Rules{});
}

// A texture() that comes from nowhere cannot be checked: reported.
TEST(CheckMotion, ANewTextureIsUnmatched) {
  EXPECT_EQ(Check(FragmentModule("OpReturn\n"), FragmentModule(kTextureInIf)), Rules{kUnmatched});
}

// dFdx moved into an `if` on a uniform-buffer value: the branch is uniform,
// so no divergent control dependence is gained.
TEST(CheckMotion, DerivativeAcrossUniformBranchIsLegal) {
  const char* outside = R"(%100 = OpDPdx %float %x
OpSelectionMerge %m None
OpBranchConditional %ucond %a %m
%a = OpLabel
%101 = OpCompositeConstruct %v4 %100 %100 %100 %100
OpStore %out %101
OpBranch %m
%m = OpLabel
OpReturn
)";
  const char* inside = R"(OpSelectionMerge %m None
OpBranchConditional %ucond %a %m
%a = OpLabel
%100 = OpDPdx %float %x
%101 = OpCompositeConstruct %v4 %100 %100 %100 %100
OpStore %out %101
OpBranch %m
%m = OpLabel
OpReturn
)";
  EXPECT_EQ(Check(FragmentModule(outside), FragmentModule(inside)), Rules{});
  EXPECT_EQ(Check(FragmentModule(inside), FragmentModule(outside)), Rules{});
}

// ballot(cond) before `if (other)`, and inside it. A ballot returns the
// active invocations: moving it into or out of the divergent `if` changes
// its result (Hähnle, example 3), both ways.
const char* kBallotBeforeIf = R"(%100 = OpGroupNonUniformBallot %v4u %uint_3 %cond
OpSelectionMerge %m None
OpBranchConditional %other %a %m
%a = OpLabel
OpStore %priv %100
OpBranch %m
%m = OpLabel
OpReturn
)";
const char* kBallotInIf = R"(OpSelectionMerge %m None
OpBranchConditional %other %a %m
%a = OpLabel
%100 = OpGroupNonUniformBallot %v4u %uint_3 %cond
OpStore %priv %100
OpBranch %m
%m = OpLabel
OpReturn
)";

TEST(CheckMotion, HoistBallotOutOfDivergentIfIsIllegal) {
  EXPECT_EQ(Check(ComputeModule(kBallotInIf), ComputeModule(kBallotBeforeIf)), Rules{kChanged});
}

TEST(CheckMotion, SinkBallotIntoDivergentIfIsIllegal) {
  EXPECT_EQ(Check(ComputeModule(kBallotBeforeIf), ComputeModule(kBallotInIf)), Rules{kChanged});
}

// texelFetch(tex[1]) and texelFetch(tex[2]) in the arms of `if (cond)`, and
// one texelFetch(tex[cond ? 1 : 2]) (Hähnle, example 2).
const char* kFetchInArms = R"(OpSelectionMerge %m None
OpBranchConditional %cond %a %b
%a = OpLabel
%101 = OpAccessChain %p_simg %texs %int_1
%102 = OpLoad %simg %101
%103 = OpImage %img %102
%104 = OpImageFetch %v4 %103 %i00 Lod %int_0
OpBranch %m
%b = OpLabel
%111 = OpAccessChain %p_simg %texs %int_2
%112 = OpLoad %simg %111
%113 = OpImage %img %112
%114 = OpImageFetch %v4 %113 %i00 Lod %int_0
OpBranch %m
%m = OpLabel
%120 = OpPhi %v4 %104 %a %114 %b
OpStore %out %120
OpReturn
)";
const char* kFetchSelectIndex = R"(%130 = OpSelect %int %cond %int_1 %int_2
%101 = OpAccessChain %p_simg %texs %130
%102 = OpLoad %simg %101
%103 = OpImage %img %102
%104 = OpImageFetch %v4 %103 %i00 Lod %int_0
OpStore %out %104
OpReturn
)";

// The merged fetch's image is selected by the divergent %cond: both origins
// (tex[1], matched by id, and tex[2], merged) had a uniform image.
TEST(CheckMotion, MergeTexelFetchesIntoSelectIndexIsIllegal) {
  EXPECT_EQ(Check(FragmentModule(kFetchInArms), FragmentModule(kFetchSelectIndex)),
            (Rules{kOperand, kOperand}));
}

// Splitting makes each image uniform: "the reverse transformation is allowed".
TEST(CheckMotion, SplitSelectIndexIntoTexelFetchesIsLegal) {
  EXPECT_EQ(Check(FragmentModule(kFetchSelectIndex), FragmentModule(kFetchInArms)), Rules{});
}

// Folding glslang's `while (true)` test (the dead exit %chk -> %merge) leaves
// the break block %brk post-dominating the loop body, but its ballot still
// runs once per iteration among the invocations leaving on it, before and
// after: SPIR-V's loop construct, not the CFG's cycle, bounds the dynamic
// instance (SPV_KHR_maximal_reconvergence). Legal (spirv-opt
// --eliminate-dead-branches on glslang output; it was a false alarm while
// the analysis read the break block as reconverged).
TEST(CheckMotion, FoldingAConstantLoopExitKeepsTheBreakBlockDiverged) {
  EXPECT_EQ(Check(ComputeModule(test::BallotInBreakBlock("OpBranchConditional %true %body %merge")),
                  ComputeModule(test::BallotInBreakBlock("OpBranch %body"))),
            Rules{});
}

// The DXC #6222 pattern (spirv-opt --merge-blocks): the break block is
// melded into the loop merge, so the ballot runs once, among all
// invocations together, instead of once per iteration among those leaving
// on it. It lost the divergent exit branch: illegal.
TEST(CheckMotion, MeldingABreakBlockIntoTheLoopMergeIsIllegal) {
  const char* melded = R"(OpBranch %h
%h = OpLabel
%n = OpPhi %uint %uint_0 %entry %n1 %cont
OpLoopMerge %merge %cont None
OpBranch %body
%body = OpLabel
%lane = OpBitwiseAnd %uint %i %uint_3
%hit = OpIEqual %bool %n %lane
OpSelectionMerge %sm None
OpBranchConditional %hit %merge %sm
%sm = OpLabel
OpBranch %cont
%cont = OpLabel
%n1 = OpIAdd %uint %n %uint_1
OpBranch %h
%merge = OpLabel
%100 = OpGroupNonUniformBallot %v4u %uint_3 %true
OpStore %priv %100
OpReturn
)";
  EXPECT_EQ(Check(ComputeModule(test::BallotInBreakBlock("OpBranch %body")), ComputeModule(melded)),
            Rules{kChanged});
}

// A ballot in the divergent `if`, and an identical one in a function no
// entry point calls (an inlined callee left behind). Deleting the dead
// function (--eliminate-dead-functions) changes nothing that runs: legal,
// although the deleted ballot looks like one merged into the live one.
TEST(CheckMotion, DeletingAnUncalledFunctionIsLegal) {
  const std::string live = R"(OpSelectionMerge %m None
OpBranchConditional %cond %a %m
%a = OpLabel
%100 = OpGroupNonUniformBallot %v4u %uint_3 %true
OpStore %priv %100
OpBranch %m
%m = OpLabel
OpReturn
)";
  const std::string dead = R"(OpFunctionEnd
%dead = OpFunction %void None %fn
%dead_entry = OpLabel
%200 = OpGroupNonUniformBallot %v4u %uint_3 %true
OpStore %priv %200
OpReturn
)";
  EXPECT_EQ(Check(ComputeModule(live + dead), ComputeModule(live)), Rules{});
}

// An unchanged module is a legal transformation of itself.
TEST(CheckMotion, IdentityIsLegal) {
  for (const char* body : {kTextureBeforeIf, kTextureInIf, kFetchInArms, kFetchSelectIndex}) {
    EXPECT_EQ(Check(FragmentModule(body), FragmentModule(body)), Rules{}) << body;
  }
  for (const char* body : {kBallotBeforeIf, kBallotInIf}) {
    EXPECT_EQ(Check(ComputeModule(body), ComputeModule(body)), Rules{}) << body;
  }
}

// SPV_KHR_subgroup_rotate: "Delta must be dynamically uniform within
// Execution". Replacing a constant Delta by one selected on the invocation
// index (a select of two rotates' deltas, say) makes it divergent.
std::string RotateModule(const std::string& body) {
  std::string text = ComputeModule(body);
  const std::string capability = "OpCapability GroupNonUniformBallot\n";
  text.replace(
      text.find(capability), capability.size(),
      capability +
          "OpCapability GroupNonUniformRotateKHR\nOpExtension \"SPV_KHR_subgroup_rotate\"\n");
  return text;
}

TEST(CheckMotion, RotateDeltaMadeDivergentIsIllegal) {
  const std::string before = R"(%r = OpGroupNonUniformRotateKHR %uint %uint_3 %i %uint_1
OpReturn
)";
  const std::string after = R"(%d = OpSelect %uint %cond %uint_1 %uint_16
%r = OpGroupNonUniformRotateKHR %uint %uint_3 %i %d
OpReturn
)";
  EXPECT_EQ(Check(RotateModule(before), RotateModule(after)), Rules{kOperand});
  EXPECT_EQ(Check(RotateModule(after), RotateModule(before)), Rules{});
}

}  // namespace
}  // namespace spirv_conv
