// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "spirv_conv/validate.h"

#include <regex>
#include <string>

#include "test/test_util.h"

namespace spirv_conv {
namespace {

TEST(Validate, AcceptsAValidModule) {
  const SpirvBinary binary = test::MustAssemble(test::MinimalCompute());
  EXPECT_TRUE(
      ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, {}, "ok.spv", ExitCode::kFindings).ok());
}

TEST(Validate, RejectionIsOneLineNamingFileEnvAndReason) {
  // OpEntryPoint names an id that is not a function: spirv-val rejects it.
  const SpirvBinary binary = test::MustAssemble(test::kInvalidEntryPoint);
  Status status =
      ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, {}, "bad.spv", ExitCode::kBadInput);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::kBadInput);
  EXPECT_EQ(status.error().message.rfind("bad.spv: invalid SPIR-V for vulkan1.0: ", 0), 0u)
      << status.error().message;
  EXPECT_EQ(status.error().message.find('\n'), std::string::npos);
}

TEST(Validate, RejectionNamesIdsAsSpirvValDoes) {
  // The verdict is found without the validator's friendly names (they are
  // slow to build on large modules); the message of a rejected module must
  // still name ids with them, as spirv-val prints it ('1[%notafunction]',
  // not '1[%1]').
  const SpirvBinary binary = test::MustAssemble(R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %notafunction "main"
OpName %notafunction "notafunction"
%void = OpTypeVoid
%int = OpTypeInt 32 1
%notafunction = OpConstant %int 1
)");
  Status status =
      ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, {}, "named.spv", ExitCode::kBadInput);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("'1[%notafunction]' is not a function"), std::string::npos)
      << status.error().message;
}

TEST(Validate, TheFailureCodeIsTheCallers) {
  const SpirvBinary binary = test::MustAssemble("; Version: 1.0\nOpCapability Shader\n");
  Status status =
      ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, {}, "x", ExitCode::kInvalidOutput);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::kInvalidOutput);
}

TEST(Validate, RelaxationFlagsReachTheValidator) {
  // A uniform block with a vec3 at offset 4: legal only under scalar layout
  // (VK_EXT_scalar_block_layout), rejected by the default std140 rules.
  const SpirvBinary binary = test::MustAssemble(test::UniformBlockModule(4));
  EXPECT_FALSE(ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, {}, "s", ExitCode::kFindings).ok());
  ValidatorFlags scalar;
  scalar.scalar_block_layout = true;
  EXPECT_TRUE(
      ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_0, scalar, "s", ExitCode::kFindings).ok());
}

// SPV_KHR_maximal_reconvergence (the grammar overlay lets SPIRV-Tools 2023.1
// parse the mode; its rules are spirv-conv's own, io/maximal_reconvergence.h).
// |mode| goes after LocalSize; |body| is main's code after its first label,
// with %c (a bool) and %zero (an int) in scope; |functions| follow main.
std::string MaximalModule(const std::string& mode, const std::string& body,
                          const std::string& functions = "") {
  const std::string text = body + functions;
  std::string names = "OpName %main \"main\"\n";
  for (const char* name : {"join", "f", "f_join"}) {
    if (text.find("%" + std::string(name) + " = ") != std::string::npos) {
      names += "OpName %" + std::string(name) + " \"" + name + "\"\n";
    }
  }
  return R"(; Version: 1.3
OpCapability Shader
OpExtension "SPV_KHR_maximal_reconvergence"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
)" + mode +
         "\n" + names + R"(%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%c = OpConstantTrue %bool
%zero = OpConstant %int 0
%main = OpFunction %void None %fn
%entry = OpLabel
)" + body +
         "OpFunctionEnd\n" + functions;
}

constexpr const char* kMode = "OpExecutionMode %main MaximallyReconvergesKHR";

// if (c) {} else {} with both arms meeting at %<p>join before the merge: valid
// structured SPIR-V, but %<p>join is a join the extension forbids. |p|
// prefixes the labels so that two functions can hold this code.
std::string JoinBeforeMerge(const std::string& p) {
  return "OpSelectionMerge %" + p + "m None\nOpBranchConditional %c %" + p + "a %" + p + "b\n%" +
         p + "a = OpLabel\nOpBranch %" + p + "join\n%" + p + "b = OpLabel\nOpBranch %" + p +
         "join\n%" + p + "join = OpLabel\nOpBranch %" + p + "m\n%" + p + "m = OpLabel\nOpReturn\n";
}

Status ValidateText(const std::string& text) {
  const SpirvBinary binary = test::MustAssemble(text);
  return ValidateSpirv(binary.words, SPV_ENV_VULKAN_1_1, {}, "m.spv", ExitCode::kBadInput);
}

TEST(ValidateMaximalReconvergence, TheModeParsesAndJoinsAtMergesAndLoopsAreValid) {
  // Joins at a selection merge, a loop header (back edge), a continue target
  // reached by two continues, and a loop merge reached by two breaks.
  const Status status = ValidateText(MaximalModule(kMode, R"(OpBranch %h
%h = OpLabel
OpLoopMerge %lm %cont None
OpBranch %body
%body = OpLabel
OpSelectionMerge %sm None
OpBranchConditional %c %t %f_
%t = OpLabel
OpBranchConditional %c %lm %cont
%f_ = OpLabel
OpBranchConditional %c %lm %sm
%sm = OpLabel
OpBranch %cont
%cont = OpLabel
OpBranch %h
%lm = OpLabel
OpReturn
)"));
  EXPECT_TRUE(status.ok()) << status.error().message;
}

TEST(ValidateMaximalReconvergence, AJoinThatIsNoMergeIsRejectedOnlyUnderTheMode) {
  EXPECT_TRUE(ValidateText(MaximalModule("", JoinBeforeMerge(""))).ok());
  const Status status = ValidateText(MaximalModule(kMode, JoinBeforeMerge("")));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ExitCode::kBadInput);
  const std::string& message = status.error().message;
  EXPECT_EQ(message.rfind("m.spv: invalid SPIR-V for vulkan1.1: in function %main", 0), 0u)
      << message;
  EXPECT_NE(message.find("block %join"), std::string::npos) << message;
  EXPECT_NE(message.find("2 predecessors"), std::string::npos) << message;
}

TEST(ValidateMaximalReconvergence, EqualTrueAndFalseLabelsAreRejected) {
  const std::string body = R"(OpSelectionMerge %m None
OpBranchConditional %c %m %m
%m = OpLabel
OpReturn
)";
  EXPECT_TRUE(ValidateText(MaximalModule("", body)).ok());
  const Status status = ValidateText(MaximalModule(kMode, body));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("True Label and False Label"), std::string::npos)
      << status.error().message;
}

TEST(ValidateMaximalReconvergence, SwitchTargetsMayJoinAndCalleesAreChecked) {
  // A case falling through to the default: the default is a switch target,
  // so its two predecessors are allowed. The callee %f has a join that is no
  // merge, and main executes it.
  const std::string callee =
      "%f = OpFunction %void None %fn\n%fe = OpLabel\n" + JoinBeforeMerge("f_") + "OpFunctionEnd\n";
  const std::string switch_code = R"(OpSelectionMerge %m None
OpSwitch %zero %d 1 %one
%one = OpLabel
OpBranch %d
%d = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
)";
  const Status with_call =
      ValidateText(MaximalModule(kMode, "%r = OpFunctionCall %void %f\n" + switch_code, callee));
  ASSERT_FALSE(with_call.ok());
  EXPECT_NE(with_call.error().message.find("in function %f"), std::string::npos)
      << with_call.error().message;
  EXPECT_NE(with_call.error().message.find("block %f_join"), std::string::npos)
      << with_call.error().message;
  // Not called, %f is not executed under the mode; main alone is valid.
  const Status alone = ValidateText(MaximalModule(kMode, switch_code, callee));
  EXPECT_TRUE(alone.ok()) << alone.error().message;
}

// SPV_KHR_quad_control (docs/cli.md#spv_khr_quad_control): the generic rules
// spirv-val applies from the overlay's grammar, and spirv-conv's own.
std::string QuadModule(const std::string& model, const std::string& modes, const std::string& code,
                       bool extension = true) {
  return std::string(
             "; Version: 1.3\nOpCapability Shader\nOpCapability GroupNonUniform\n"
             "OpCapability QuadControlKHR\n") +
         (extension ? "OpExtension \"SPV_KHR_quad_control\"\n" : "") +
         "OpMemoryModel Logical GLSL450\nOpEntryPoint " + model + " %main \"main\"\n" +
         (model == "Fragment" ? "OpExecutionMode %main OriginUpperLeft\n"
                              : "OpExecutionMode %main LocalSize 4 1 1\n") +
         modes + R"(%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%true = OpConstantTrue %bool
%one = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
)" + code +
         "OpReturn\nOpFunctionEnd\n";
}

TEST(ValidateQuadControl, TheModesAndVotesAreValid) {
  const Status status = ValidateText(QuadModule(
      "Fragment",
      "OpExecutionMode %main QuadDerivativesKHR\nOpExecutionMode %main RequireFullQuadsKHR\n",
      "%any = OpGroupNonUniformQuadAnyKHR %bool %true\n"
      "%all = OpGroupNonUniformQuadAllKHR %bool %any\n"));
  EXPECT_TRUE(status.ok()) << status.error().message;
  EXPECT_TRUE(
      ValidateText(QuadModule("GLCompute", "OpExecutionMode %main QuadDerivativesKHR\n", "")).ok());
}

TEST(ValidateQuadControl, TheCapabilityNeedsTheExtension) {
  const Status status = ValidateText(QuadModule("Fragment", "", "", /*extension=*/false));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("QuadControlKHR"), std::string::npos)
      << status.error().message;
}

TEST(ValidateQuadControl, FullQuadsOnlyInFragmentShaders) {
  const Status status =
      ValidateText(QuadModule("GLCompute", "OpExecutionMode %main RequireFullQuadsKHR\n", ""));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("RequireFullQuadsKHR, which SPV_KHR_quad_control allows "
                                        "only with the Fragment execution model"),
            std::string::npos)
      << status.error().message;
}

TEST(ValidateQuadControl, QuadDerivativesOnlyInFragmentAndCompute) {
  const std::string vertex = QuadModule("Vertex", "OpExecutionMode %main QuadDerivativesKHR\n", "");
  const Status status = ValidateText(
      std::regex_replace(vertex, std::regex("OpExecutionMode %main LocalSize 4 1 1\n"), ""));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("QuadDerivativesKHR"), std::string::npos)
      << status.error().message;
}

TEST(ValidateQuadControl, VotesTakeAndGiveBooleans) {
  const Status status =
      ValidateText(QuadModule("Fragment", "", "%any = OpGroupNonUniformQuadAnyKHR %bool %one\n"));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("Predicate must be a Boolean Type"), std::string::npos)
      << status.error().message;
}

}  // namespace
}  // namespace spirv_conv
