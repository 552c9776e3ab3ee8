// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The IR bridge: building the optimizer IR and emitting it again gives the
// input back word for word (the corpus harness checks the same on ~300 shaders).

#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/pipeline.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace {

void ExpectRoundTrip(const SpirvBinary& binary) {
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context = BuildIrContext(binary);
  ASSERT_TRUE(context.ok()) << context.error().message;
  EXPECT_EQ(EmitBinary(**context), binary.words);
}

TEST(RoundTrip, Assembly) { ExpectRoundTrip(test::MustAssemble(test::MinimalCompute())); }

TEST(RoundTrip, GlslWithDebugLines) {
  LoadOptions options;
  options.source.debug_info = true;
  Expected<SpirvBinary> binary = LoadSpirvFromBytes("loop.frag", R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform U { int n; };
void main() {
  vec4 sum = vec4(0);
  for (int i = 0; i < n; ++i) {
    if (uv.x > 0.5) continue;
    sum += texture(tex, uv * float(i));
  }
  color = sum;
}
)",
                                                    options);
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  ExpectRoundTrip(*binary);
}

TEST(RoundTrip, KernelModule) { ExpectRoundTrip(test::MustAssemble(test::MinimalKernel())); }

TEST(Pipeline, InvalidInputIsBadInputUnlessSkippedThenTheOutputGateRefuses) {
  const SpirvBinary invalid = test::MustAssemble(test::kInvalidEntryPoint);
  Expected<std::vector<uint32_t>> checked = RunPipeline(invalid, PipelineOptions());
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.error().code, ExitCode::kBadInput);

  PipelineOptions skip;
  skip.skip_input_validation = true;
  Expected<std::vector<uint32_t>> unchecked = RunPipeline(invalid, skip);
  ASSERT_FALSE(unchecked.ok());
  EXPECT_EQ(unchecked.error().code, ExitCode::kInvalidOutput);
}

}  // namespace
}  // namespace spirv_conv
