// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// ModuleIndex's call graph: the calls of the function bodies as (caller,
// callee) pairs in module order, and the functions that end an invocation
// themselves. The uniformity analysis closes "may end the invocation" over
// these calls, so a kill in a helper makes its callers' post-dominance see an
// extra exit.

#include "analysis/module_index.h"

#include <utility>
#include <vector>

#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

// main calls helper twice and kill once; helper calls kill; kill ends the
// invocation in one of its two blocks; unused calls nothing.
const char* kCalls = R"(; Version: 1.0
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%void = OpTypeVoid
%bool = OpTypeBool
%fn = OpTypeFunction %void
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%m0 = OpLabel
%r0 = OpFunctionCall %void %helper
%r1 = OpFunctionCall %void %kill
OpBranch %m1
%m1 = OpLabel
%r2 = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %fn
%h0 = OpLabel
%r3 = OpFunctionCall %void %kill
OpReturn
OpFunctionEnd
%kill = OpFunction %void None %fn
%k0 = OpLabel
OpSelectionMerge %k2 None
OpBranchConditional %true %k1 %k2
%k1 = OpLabel
OpKill
%k2 = OpLabel
OpReturn
OpFunctionEnd
%unused = OpFunction %void None %fn
%u0 = OpLabel
OpReturn
OpFunctionEnd
)";

TEST(ModuleIndex, CallsAndKillsOfTheFunctionBodies) {
  const SpirvBinary binary = test::MustAssemble(kCalls);
  const auto context = test::MustBuildContext(binary);
  ASSERT_NE(context, nullptr);
  const analysis::ModuleIndex index(context.get());
  std::vector<uint32_t> functions;  // main, helper, kill, unused
  for (const auto& function : *context->module()) functions.push_back(function.result_id());
  ASSERT_EQ(functions.size(), 4u);
  const uint32_t main = functions[0], helper = functions[1], kill = functions[2];
  const std::vector<std::pair<uint32_t, uint32_t>> calls = {
      {main, helper}, {main, kill}, {main, helper}, {helper, kill}};
  EXPECT_EQ(index.Calls(), calls);
  EXPECT_EQ(index.KillingFunctions(), std::vector<uint32_t>{kill});
}

}  // namespace
}  // namespace spirv_conv
