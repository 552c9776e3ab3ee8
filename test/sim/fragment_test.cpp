// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Fragment shaders in the simulator (docs/simulator.md, "Fragment shaders"):
// quads, helper invocations, derivatives, discard / terminate / demote,
// implicit-LOD sampling. Every expected value is worked out beside it from the
// Vulkan spec's definitions (pixel centres at +0.5, quads of 2x2 pixels,
// derivatives as differences of quad neighbours, λ = log2 ρ).

#include <cmath>

#include "sim/sim_test_util.h"

namespace spirv_conv {
namespace test {
namespace {

sim::RunOptions Frame(uint32_t width, uint32_t height, uint32_t subgroup_size = 8) {
  sim::RunOptions o = Options(sim::Model::kMaximal, subgroup_size);
  o.frame.width = width;
  o.frame.height = height;
  return o;
}

sim::RunResult MustRun(const std::string& glsl, const sim::RunOptions& options,
                       const std::vector<sim::Buffer>& inputs = {}) {
  Expected<sim::RunResult> result = RunBinary(MustLoad("test.frag", glsl), inputs, options);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
  return result.ok() ? std::move(result).value() : sim::RunResult();
}

const sim::Attachment& At(const sim::RunResult& r, int32_t location) {
  for (const sim::Attachment& a : r.attachments) {
    if (a.location == location) return a;
  }
  static const sim::Attachment kNone;
  ADD_FAILURE() << "no attachment at location " << location;
  return kNone;
}

// Component |c| of pixel (x, y).
double Pixel(const sim::Attachment& a, uint32_t x, uint32_t y, uint32_t c = 0) {
  return a.values[(static_cast<size_t>(y) * a.width + x) * a.components + c];
}

TEST(SimFragment, FragCoordIsThePixelCentreRowsTopFirst) {
  const auto r = MustRun(R"(#version 450
layout(location = 0) out vec4 o;
void main() { o = vec4(gl_FragCoord.xy, gl_FragCoord.zw); })",
                         Frame(3, 2));
  const sim::Attachment& a = At(r, 0);
  ASSERT_EQ(a.width, 3u);
  ASSERT_EQ(a.height, 2u);
  for (uint32_t y = 0; y < 2; ++y) {
    for (uint32_t x = 0; x < 3; ++x) {
      EXPECT_EQ(Pixel(a, x, y, 0), x + 0.5);
      EXPECT_EQ(Pixel(a, x, y, 1), y + 0.5);
      EXPECT_EQ(Pixel(a, x, y, 2), 0.0);  // the full-screen triangle's depth
      EXPECT_EQ(Pixel(a, x, y, 3), 1.0);  // 1/w
    }
  }
  // A 3-pixel-wide frame has quads at x = 0..1 and 2..3: pixel column 3 is
  // outside, so its two invocations are helpers.
  EXPECT_EQ(r.stats.invocations, 8u);
  EXPECT_EQ(r.stats.helper_invocations, 2u);
}

TEST(SimFragment, FineAndCoarseDerivativesDifferenceQuadNeighbours) {
  // f = x², g = x·y at the pixel centre. In the quad with top-left pixel
  // (X, Y): coarse d/dx uses the top row, f(X+1.5) - f(X+0.5) = 2X + 2, for
  // all four pixels; fine d/dx of g in row y is (X+1.5)(y+.5) - (X+.5)(y+.5)
  // = y + 0.5; fine d/dy of g in column x is x + 0.5; coarse d/dy of g uses
  // the left column: X + 0.5.
  const auto r = MustRun(R"(#version 450
layout(location = 0) out vec4 o;
void main() {
  float x = gl_FragCoord.x, y = gl_FragCoord.y;
  o = vec4(dFdxCoarse(x * x), dFdxFine(x * y), dFdyFine(x * y), dFdyCoarse(x * y));
})",
                         Frame(4, 4));
  const sim::Attachment& a = At(r, 0);
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      const double X = x & ~1u;
      EXPECT_EQ(Pixel(a, x, y, 0), 2 * X + 2) << x << "," << y;
      EXPECT_EQ(Pixel(a, x, y, 1), y + 0.5) << x << "," << y;
      EXPECT_EQ(Pixel(a, x, y, 2), x + 0.5) << x << "," << y;
      EXPECT_EQ(Pixel(a, x, y, 3), X + 0.5) << x << "," << y;
    }
  }
  EXPECT_TRUE(r.stats.undefined_derivatives.empty());
}

TEST(SimFragment, DefaultInputsAndPlanes) {
  // Default float input: (x + 0.5) / W, (y + 0.5) / H, (L + 1) / 4, 1; a flat
  // int input L * 4 + component. Location 2 is given as a plane: 1 + 2x - y.
  const char* glsl = R"(#version 450
layout(location = 0) in vec4 uv;
layout(location = 1) flat in ivec2 k;
layout(location = 2) in float p;
layout(location = 0) out vec4 o;
layout(location = 1) out ivec2 ok;
layout(location = 2) out float op;
void main() { o = uv; ok = k; op = p; })";
  sim::RunOptions options = Frame(4, 2);
  sim::Frame::Input plane;
  plane.location = 2;
  plane.plane[0] = {1, 2, -1};
  options.frame.inputs.push_back(plane);
  const auto r = MustRun(glsl, options);
  const sim::Attachment &a = At(r, 0), &b = At(r, 1), &c = At(r, 2);
  EXPECT_EQ(b.kind, sim::Attachment::Kind::kInt);
  for (uint32_t y = 0; y < 2; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      EXPECT_EQ(Pixel(a, x, y, 0), static_cast<float>((x + 0.5) / 4));
      EXPECT_EQ(Pixel(a, x, y, 1), static_cast<float>((y + 0.5) / 2));
      EXPECT_EQ(Pixel(a, x, y, 2), 0.25);
      EXPECT_EQ(Pixel(a, x, y, 3), 1.0);
      EXPECT_EQ(Pixel(b, x, y, 0), 4.0);
      EXPECT_EQ(Pixel(b, x, y, 1), 5.0);
      EXPECT_EQ(Pixel(c, x, y), 1 + 2 * (x + 0.5) - (y + 0.5));
    }
  }
}

TEST(SimFragment, UncoveredPixelsOfACoveredQuadAreHelpersWithoutSideEffects) {
  // Only pixel (0, 0) of the 2x2 frame is covered: the other three run as
  // helpers. They feed the derivative (dFdx(x) = 1 is defined), see
  // gl_HelperInvocation, and neither their atomics nor their outputs land.
  const char* glsl = R"(#version 450
layout(set = 0, binding = 0) buffer Counter { uint count; uint helpers_seen; };
layout(location = 0) out vec4 o;
void main() {
  float d = dFdx(gl_FragCoord.x);
  atomicAdd(count, 1u);
  if (gl_HelperInvocation) atomicAdd(helpers_seen, 1u);
  o = vec4(d, gl_HelperInvocation ? 1.0 : 0.0, 0.0, 1.0);
})";
  sim::RunOptions options = Frame(2, 2);
  options.frame.coverage = {1, 0, 0, 0};
  const auto r = MustRun(glsl, options, {Zeros(0, 2)});
  EXPECT_EQ(WordsOf(r, 0), (std::vector<uint32_t>{1, 0}));
  const sim::Attachment& a = At(r, 0);
  EXPECT_EQ(Pixel(a, 0, 0, 0), 1.0);
  EXPECT_EQ(Pixel(a, 0, 0, 1), 0.0);
  EXPECT_EQ(a.written, (std::vector<uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ(r.stats.helper_invocations, 3u);
  EXPECT_TRUE(r.stats.undefined_derivatives.empty());
}

TEST(SimFragment, AfterDiscardADerivativeInTheQuadIsUndefined) {
  // Pixel column 0 discards; the survivors' dFdx pairs (x = 0, 1) then lack
  // column 0, so both surviving lanes of each quad get an undefined value.
  const char* glsl = R"(#version 450
layout(location = 0) out vec4 o;
void main() {
  if (gl_FragCoord.x < 1.0) discard;
  o = vec4(dFdx(gl_FragCoord.x * 3.0));
})";
  const auto r = MustRun(glsl, Frame(2, 2));
  const sim::Attachment& a = At(r, 0);
  EXPECT_EQ(a.written, (std::vector<uint8_t>{0, 1, 0, 1}));
  ASSERT_EQ(r.stats.undefined_derivatives.size(), 1u);
  EXPECT_EQ(r.stats.undefined_derivatives[0].opcode, "DPdx");
  EXPECT_EQ(r.stats.undefined_derivatives[0].count, 2u);
  EXPECT_EQ(r.stats.terminated, 2u);
}

TEST(SimFragment, DemotedInvocationsKeepDerivativesDefinedButLeaveGroupOperations) {
  // With subgroups of one quad, pixel (0, 0) demotes. The quad still computes
  // dFdx(3x) = 3 everywhere; the demoted lane now reads gl_HelperInvocation
  // true; subgroupAdd(1) counts the three non-helpers (Vulkan: helpers are
  // inactive for non-quad group operations), and the demoted lane's store
  // has no effect.
  const char* glsl = R"(#version 450
#extension GL_EXT_demote_to_helper_invocation : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(set = 0, binding = 0) buffer Out { uint added[4]; uint helper[4]; };
layout(location = 0) out vec4 o;
void main() {
  uint i = uint(gl_FragCoord.y) * 2u + uint(gl_FragCoord.x);
  if (i == 0u) demote;
  float d = dFdx(gl_FragCoord.x * 3.0);
  uint n = subgroupAdd(1u);
  added[i] = n;
  helper[i] = gl_HelperInvocation ? 1u : 0u;
  o = vec4(d);
})";
  const auto r = MustRun(glsl, Frame(2, 2, 4), {Zeros(0, 8)});
  EXPECT_EQ(WordsOf(r, 0), (std::vector<uint32_t>{0, 3, 3, 3, 0, 0, 0, 0}));
  const sim::Attachment& a = At(r, 0);
  EXPECT_EQ(a.written, (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(Pixel(a, 1, 1), 3.0);
  EXPECT_TRUE(r.stats.undefined_derivatives.empty());
  EXPECT_EQ(r.stats.demoted, 1u);
}

TEST(SimFragment, TerminateInACalleeEndsTheInvocation) {
  const char* glsl = R"(#version 450
#extension GL_EXT_terminate_invocation : require
layout(location = 0) out vec4 o;
void check(float x) { if (x > 2.0) terminateInvocation; }
void main() {
  o = vec4(1.0);
  check(gl_FragCoord.x);
  o = vec4(2.0);
})";
  const auto r = MustRun(glsl, Frame(4, 1));
  const sim::Attachment& a = At(r, 0);
  EXPECT_EQ(a.written, (std::vector<uint8_t>{1, 1, 0, 0}));
  EXPECT_EQ(Pixel(a, 0, 0), 2.0);
  // Row 1 lies outside the 4x1 frame: its helpers at x = 2, 3 terminate too.
  EXPECT_EQ(r.stats.terminated, 4u);
}

// A 64x64 RGBA8 texture whose level l is solid red byte 32 l (0, 32, ..., 192).
sim::Image SolidLevels() {
  sim::Image image;
  image.width = image.height = 64;
  for (uint32_t l = 0; l < 7; ++l) {
    const uint32_t side = 64 >> l;
    const float red = std::round(l * 32.0f) / 255.0f;  // bytes 0, 32, ..., 192
    std::vector<float> texels;
    for (uint32_t t = 0; t < side * side; ++t) texels.insert(texels.end(), {red, 0, 0, 1});
    image.levels.push_back(texels);
  }
  return image;
}

TEST(SimFragment, ImplicitLodFollowsTheDerivatives) {
  // uv = (x / 16, y / 16) at the pixel centre: du/dx = 1/16, so on a 64-texel
  // level ρ = 64/16 = 4 and λ = 2; mipmap nearest gives level 2 (byte 64).
  // With uv scaled by 1.5 (written as a plane), ρ = 6, λ = log2 6 = 2.585;
  // mipmap linear blends levels 2 and 3 by 0.585: (1 - f) * 64 + f * 96.
  const char* glsl = R"(#version 450
layout(set = 0, binding = 0) uniform sampler2D nearest_mip;
layout(set = 0, binding = 1) uniform sampler2D linear_mip;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() { o = vec4(texture(nearest_mip, uv).r, texture(linear_mip, uv * 1.5).r, 0, 1); })";
  sim::RunOptions options = Frame(4, 4);
  sim::Frame::Input uv;
  uv.location = 0;
  uv.plane[0] = {0, 1.0 / 16, 0};
  uv.plane[1] = {0, 0, 1.0 / 16};
  options.frame.inputs.push_back(uv);
  sim::Image a = SolidLevels(), b = SolidLevels();
  b.binding = 1;
  b.sampler.mipmap = sim::Sampler::Filter::kLinear;
  options.images = {a, b};
  const auto r = MustRun(glsl, options);
  const double f = std::log2(6.0) - 2;
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      EXPECT_FLOAT_EQ(Pixel(At(r, 0), x, y, 0), 64 / 255.0);
      EXPECT_NEAR(Pixel(At(r, 0), x, y, 1), ((1 - f) * 64 + f * 96) / 255.0, 1e-6);
    }
  }
}

TEST(SimFragment, ImplicitLodAfterDiscardIsCountedUndefined) {
  const char* glsl = R"(#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
  if (gl_FragCoord.y > 1.0) discard;
  o = texture(tex, uv);
})";
  const auto r = MustRun(glsl, Frame(2, 2));
  ASSERT_EQ(r.stats.undefined_derivatives.size(), 1u);
  EXPECT_EQ(r.stats.undefined_derivatives[0].opcode, "ImageSampleImplicitLod");
  EXPECT_EQ(r.stats.undefined_derivatives[0].count, 2u);
}

TEST(SimFragment, DefaultTextureIsACheckerboardOfFourTexelSquares) {
  // texelFetch of level 0: texel (i, j) is white where (i/4 + j/4) is odd;
  // level 3 (8x8) is the average of 1-texel checkers: byte round(127.5) = 128.
  const char* glsl = R"(#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 o;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy) * 2;
  o = vec4(texelFetch(tex, p, 0).r, texelFetch(tex, p / 8, 3).r, textureQueryLevels(tex),
           textureSize(tex, 1).x);
})";
  const auto r = MustRun(glsl, Frame(8, 8));
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      const bool white = (((2 * x) >> 2) + ((2 * y) >> 2)) & 1;
      EXPECT_EQ(Pixel(At(r, 0), x, y, 0), white ? 1.0 : 0.0) << x << "," << y;
      EXPECT_FLOAT_EQ(Pixel(At(r, 0), x, y, 1), 128 / 255.0);
      EXPECT_EQ(Pixel(At(r, 0), x, y, 2), 7.0);   // 64, 32, ..., 1
      EXPECT_EQ(Pixel(At(r, 0), x, y, 3), 32.0);  // level 1
    }
  }
}

TEST(SimFragment, CubeDirectionsSelectTheirFace) {
  // The default cube's face k tints its black squares 32k/255; the centre of
  // each face (s = t = 0.5) is texel (32, 32), black: (32/4 + 32/4) is even.
  // Faces +x, -x, +y, -y, +z, -z are 0..5 (Vulkan's cube face selection).
  const char* glsl = R"(#version 450
layout(set = 0, binding = 0) uniform samplerCube cube;
layout(location = 0) out vec4 o;
void main() {
  const vec3 dirs[6] = vec3[](vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 1, 0), vec3(0, -1, 0),
                              vec3(0, 0, 1), vec3(0, 0, -1));
  o = vec4(textureLod(cube, dirs[int(gl_FragCoord.x)], 0.0).r);
})";
  const auto r = MustRun(glsl, Frame(6, 1));
  for (uint32_t face = 0; face < 6; ++face) {
    EXPECT_FLOAT_EQ(Pixel(At(r, 0), face, 0), 32.0f * face / 255.0f) << "face " << face;
  }
}

TEST(SimFragment, BilinearFilteringWeighsTheFourNearestTexels) {
  // A 2x1 texture (0 and 1) sampled with LOD 0 at u = 0.5 + 0.25 / 2: x = u*2
  // - 0.5 = 0.75 between texel 0 and 1, so 0.75 of texel 1 (clamp to edge).
  const char* glsl = R"(#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 o;
void main() { o = textureLod(tex, vec2(0.625, 0.5), 0.0); })";
  sim::RunOptions options = Frame(2, 2);
  sim::Image image;
  image.width = 2;
  image.height = 1;
  image.levels = {{0, 0, 0, 1, 1, 1, 1, 1}};
  image.sampler.filter = sim::Sampler::Filter::kLinear;
  image.sampler.address = sim::Sampler::Address::kClampToEdge;
  options.images = {image};
  const auto r = MustRun(glsl, options);
  EXPECT_EQ(Pixel(At(r, 0), 0, 0, 0), 0.75);
}

TEST(SimFragment, QuadVotesSpanTheQuad) {
  // SPV_KHR_quad_control: p = (x mod 2 < 1) holds in the left column of
  // every quad, so QuadAll is false and QuadAny true for all four invocations.
  const char* spvasm = R"(OpCapability Shader
OpCapability QuadControlKHR
OpExtension "SPV_KHR_quad_control"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %coord %out
OpExecutionMode %main OriginUpperLeft
OpDecorate %coord BuiltIn FragCoord
OpDecorate %out Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%float = OpTypeFloat 32
%v2 = OpTypeVector %float 2
%v4 = OpTypeVector %float 4
%p_in = OpTypePointer Input %v4
%p_out = OpTypePointer Output %v2
%coord = OpVariable %p_in Input
%out = OpVariable %p_out Output
%one = OpConstant %float 1
%zero = OpConstant %float 0
%two = OpConstant %float 2
%main = OpFunction %void None %fn
%entry = OpLabel
%c = OpLoad %v4 %coord
%cx = OpCompositeExtract %float %c 0
%x = OpFMod %float %cx %two
%p = OpFOrdLessThan %bool %x %one
%all = OpGroupNonUniformQuadAllKHR %bool %p
%any = OpGroupNonUniformQuadAnyKHR %bool %p
%a = OpSelect %float %all %one %zero
%b = OpSelect %float %any %one %zero
%v = OpCompositeConstruct %v2 %a %b
OpStore %out %v
OpReturn
OpFunctionEnd
)";
  Expected<sim::RunResult> r = RunBinary(MustLoad("quad.spvasm", spvasm), {}, Frame(4, 2));
  ASSERT_TRUE(r.ok()) << r.error().message;
  for (uint32_t y = 0; y < 2; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      EXPECT_EQ(Pixel(At(*r, 0), x, y, 0), 0.0);
      EXPECT_EQ(Pixel(At(*r, 0), x, y, 1), 1.0);
    }
  }
}

TEST(SimFragment, FrameErrorsNameTheProblem) {
  sim::RunOptions options = Frame(0, 4);
  Expected<sim::RunResult> r = RunBinary(
      MustLoad("test.frag",
               "#version 450\nlayout(location=0) out vec4 o; void main() { o = vec4(1); }"),
      {}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("1..4096"), std::string::npos) << r.error().message;
  options = Frame(2, 2);
  options.frame.coverage = {1, 1};
  r = RunBinary(
      MustLoad("test.frag",
               "#version 450\nlayout(location=0) out vec4 o; void main() { o = vec4(1); }"),
      {}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("coverage mask has 2 entries"), std::string::npos)
      << r.error().message;
}

}  // namespace
}  // namespace test
}  // namespace spirv_conv
