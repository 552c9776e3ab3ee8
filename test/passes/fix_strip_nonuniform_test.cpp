// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// fix-nonuniform and strip-nonuniform on glslang-compiled shaders. The
// expectation of fix-nonuniform is what a correct hand-written
// `nonuniformEXT` shader carries: glslang's own decorations on the values
// that select and access the descriptor (not on the index expression, which
// the Vulkan rule does not ask for), plus those glslang forgets
// (OpSampledImage, #1826; the access in a callee, known-traps.md).

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "source/opt/build_module.h"
#include "source/opt/ir_context.h"
#include "spirv_conv/nonuniform_passes.h"
#include "spirv_conv/pipeline.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace test {
namespace {

using spvtools::opt::Instruction;

SpirvBinary Compile(const std::string& glsl, spv_target_env env = SPV_ENV_VULKAN_1_2) {
  LoadOptions options;
  options.target_env = env;
  Expected<SpirvBinary> binary = LoadSpirvFromBytes("test.frag", glsl, options);
  EXPECT_TRUE(binary.ok()) << (binary.ok() ? "" : binary.error().message);
  return binary.ok() ? std::move(binary).value() : SpirvBinary();
}

struct PassRun {
  std::vector<uint32_t> words;
  ChangeLog log;
};

PassRun RunPasses(const SpirvBinary& binary, std::vector<std::string> passes) {
  PipelineOptions options;
  options.passes = std::move(passes);
  PassRun run;
  Expected<std::vector<uint32_t>> words = RunPipeline(binary, options, &run.log);
  EXPECT_TRUE(words.ok()) << (words.ok() ? "" : words.error().message);
  if (words.ok()) run.words = std::move(words).value();
  return run;
}

SpirvBinary Rebinary(const SpirvBinary& original, std::vector<uint32_t> words) {
  SpirvBinary binary = original;
  binary.words = std::move(words);
  return binary;
}

// Each NonUniform-decorated value as "<opcode> <root>", where <root> is the
// OpName of the variable its first operands lead back to. A value that is
// not a pointer or a handle (an index expression, data loaded from a buffer,
// arithmetic on it) is "<opcode> data:<root>" ("data:-" when it leads to no
// variable).
std::multiset<std::string> DecoratedValues(const std::vector<uint32_t>& words) {
  std::unique_ptr<spvtools::opt::IRContext> context =
      spvtools::BuildModule(SPV_ENV_UNIVERSAL_1_6, nullptr, words.data(), words.size());
  EXPECT_NE(context, nullptr);
  std::multiset<std::string> result;
  if (context == nullptr) return result;
  std::map<uint32_t, std::string> names;
  for (const Instruction& name : context->module()->debugs2()) {
    if (name.opcode() == spv::Op::OpName) {
      names[name.GetSingleWordInOperand(0)] = name.GetInOperand(1).AsString();
    }
  }
  auto* defs = context->get_def_use_mgr();
  for (const Instruction& annotation : context->module()->annotations()) {
    if (annotation.opcode() != spv::Op::OpDecorate ||
        spv::Decoration(annotation.GetSingleWordInOperand(1)) != spv::Decoration::NonUniform) {
      continue;
    }
    const Instruction* value = defs->GetDef(annotation.GetSingleWordInOperand(0));
    std::string root = "-";
    for (const Instruction* inst = value; inst != nullptr;) {
      if (inst->opcode() == spv::Op::OpVariable) {
        root = names[inst->result_id()];
        break;
      }
      if (inst->NumInOperands() == 0 || inst->opcode() == spv::Op::OpFunctionParameter) break;
      const spvtools::opt::Operand& first = inst->GetInOperand(0);
      if (first.type != SPV_OPERAND_TYPE_ID) break;
      inst = defs->GetDef(first.words[0]);
    }
    const spv::Op type = defs->GetDef(value->type_id())->opcode();
    const bool handle = type == spv::Op::OpTypePointer || type == spv::Op::OpTypeImage ||
                        type == spv::Op::OpTypeSampler || type == spv::Op::OpTypeSampledImage;
    result.insert(std::string("Op") + spvOpcodeString(value->opcode()) + " " +
                  (handle ? "" : "data:") + root);
  }
  return result;
}

// Drops the values that are not pointers or handles.
std::multiset<std::string> DescriptorValuesOnly(std::multiset<std::string> values) {
  for (auto it = values.begin(); it != values.end();) {
    it = it->find(" data:") != std::string::npos ? values.erase(it) : std::next(it);
  }
  return values;
}

// One shader, with or without nonuniformEXT on every descriptor index.
std::string Bindless(bool qualified) {
  const std::string q = qualified ? "nonuniformEXT" : "";
  return R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint material;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D albedo[];
layout(set = 0, binding = 1) uniform texture2D detail[16];
layout(set = 0, binding = 2) uniform sampler linearSampler;
layout(set = 0, binding = 3) buffer Materials { vec4 tint; uint counter; } materials[];
layout(set = 0, binding = 4) uniform Params { vec4 scale; } params[8];
layout(set = 0, binding = 5, r32ui) uniform uimage2D counters[4];
layout(push_constant) uniform PC { uint sky; } pc;
void main() {
  uint i = material;
  vec4 c = texture(albedo[)" +
         q + R"((i)], uv);
  c *= texture(sampler2D(detail[)" +
         q + R"((i & 15u)], linearSampler), uv);
  c *= materials[)" +
         q + R"((i)].tint * params[)" + q + R"((i % 8u)].scale;
  atomicAdd(materials[)" +
         q + R"((i)].counter, 1u);
  imageAtomicAdd(counters[)" +
         q + R"((i & 3u)], ivec2(0), 1u);
  c += texture(albedo[pc.sky], uv);  // uniform: never decorated
  color = c;
}
)";
}

TEST(FixNonUniformTest, DecoratesWhatAHandWrittenNonUniformShaderNeeds) {
  const SpirvBinary plain = Compile(Bindless(false));
  const SpirvBinary qualified = Compile(Bindless(true));
  const PassRun fixed = RunPasses(plain, {"fix-nonuniform"});

  std::multiset<std::string> expected = DescriptorValuesOnly(DecoratedValues(qualified.words));
  // glslang #1826: the sampled image made from a non-uniform texture.
  expected.insert("OpSampledImage detail");
  // glslang 12 also leaves the pointer of atomicAdd(materials[nonuniformEXT(i)]
  // .counter, 1) undecorated (it decorates the index only).
  expected.insert("OpAccessChain materials");
  EXPECT_EQ(DecoratedValues(fixed.words), expected);

  // And the set, reasoned from the Vulkan rule, so the comparison above
  // cannot pass by glslang changing too: an access chain and a load (of the
  // handle) per image access, the sampled image of the separate texture, an
  // access chain per buffer access (two into `materials`: the read and the
  // atomic), the texel pointer of the image atomic.
  const std::multiset<std::string> reasoned = {
      "OpAccessChain albedo",    "OpLoad albedo",
      "OpAccessChain detail",    "OpLoad detail",
      "OpSampledImage detail",   "OpAccessChain materials",
      "OpAccessChain materials", "OpAccessChain params",
      "OpAccessChain counters",  "OpImageTexelPointer counters"};
  EXPECT_EQ(DecoratedValues(fixed.words), reasoned);
}

TEST(FixNonUniformTest, AddsCapabilitiesAndTheExtensionBeforeSpirv15) {
  // No runtime arrays and no nonuniform qualifier: glslang declares nothing
  // of descriptor indexing, at SPIR-V 1.0.
  const SpirvBinary plain = Compile(R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint material;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D albedo[4];
layout(set = 0, binding = 1) buffer B { vec4 v; } buffers[4];
void main() { color = texture(albedo[material], uv) + buffers[material].v; }
)",
                                    SPV_ENV_VULKAN_1_0);
  const PassRun fixed = RunPasses(plain, {"fix-nonuniform"});
  std::set<std::string> added;
  for (const PassChange& change : fixed.log) {
    if (change.action != "decorate") added.insert(change.action + " " + change.detail);
  }
  EXPECT_EQ(added, (std::set<std::string>{"add-capability ShaderNonUniform",
                                          "add-capability SampledImageArrayNonUniformIndexing",
                                          "add-capability StorageBufferArrayNonUniformIndexing",
                                          "add-extension SPV_EXT_descriptor_indexing"}));
}

TEST(FixNonUniformTest, IndexThroughAParameterDecoratesTheCalleesAccess) {
  // glslang decorates only the argument when nonuniformEXT is written at
  // the call; the access in the callee needs it.
  const SpirvBinary plain = Compile(R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint material;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D albedo[];
vec4 fetch(uint i) { return texture(albedo[i], uv); }
void main() { color = fetch(material); }
)");
  const PassRun fixed = RunPasses(plain, {"fix-nonuniform"});
  EXPECT_EQ(DecoratedValues(fixed.words),
            (std::multiset<std::string>{"OpAccessChain albedo", "OpLoad albedo"}));
}

TEST(FixNonUniformTest, WholeArrayPassedToAFunctionThatIndexesIt) {
  // glslang passes the array variable itself to the call; the descriptor is
  // selected in the callee, through the parameter: the access chain and the
  // loaded sampler there are decorated, the parameter (the whole array) not.
  const SpirvBinary plain = Compile(R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint material;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D albedo[4];
vec4 fetch(sampler2D t[4], uint i) { return texture(t[i], uv); }
void main() { color = fetch(albedo, material); }
)");
  const PassRun fixed = RunPasses(plain, {"fix-nonuniform"});
  EXPECT_EQ(DecoratedValues(fixed.words),
            (std::multiset<std::string>{"OpAccessChain -", "OpLoad -"}));
}

TEST(FixNonUniformTest, IsIdempotentAndLeavesUniformAccessesAlone) {
  const SpirvBinary plain = Compile(Bindless(false));
  const PassRun once = RunPasses(plain, {"fix-nonuniform"});
  const PassRun twice = RunPasses(Rebinary(plain, once.words), {"fix-nonuniform"});
  EXPECT_TRUE(twice.log.empty());
  EXPECT_EQ(twice.words, once.words);

  const SpirvBinary uniform = Compile(R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D albedo[4];
layout(push_constant) uniform PC { uint sky; } pc;
void main() { color = texture(albedo[pc.sky], uv); }
)");
  const PassRun untouched = RunPasses(uniform, {"fix-nonuniform"});
  EXPECT_TRUE(untouched.log.empty());
}

TEST(StripNonUniformTest, RemovesDecorationsOfUniformIndicesOnly) {
  const SpirvBinary shader = Compile(R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint material;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D albedo[];
layout(set = 0, binding = 1) uniform sampler2D sky[4];
layout(push_constant) uniform PC { uint sky; } pc;
void main() {
  color = texture(albedo[nonuniformEXT(material)], uv)
        + texture(sky[nonuniformEXT(pc.sky)], uv);
}
)");
  const PassRun stripped = RunPasses(shader, {"strip-nonuniform"});
  // What stays is the non-uniform access and its index expression; the
  // access through sky[] and the uniform index expression (from pc) lose it.
  std::multiset<std::string> kept;
  for (const std::string& value : DecoratedValues(shader.words)) {
    if (value.find(" sky") == std::string::npos && value.find("data:pc") == std::string::npos) {
      kept.insert(value);
    }
  }
  EXPECT_EQ(DecoratedValues(stripped.words), kept);
  EXPECT_EQ(kept, (std::multiset<std::string>{"OpAccessChain albedo", "OpLoad albedo",
                                              "OpCopyObject data:material"}));

  const PassRun again = RunPasses(Rebinary(shader, stripped.words), {"strip-nonuniform"});
  EXPECT_TRUE(again.log.empty());
}

TEST(StripNonUniformTest, DropsCapabilitiesNothingNeeds) {
  const SpirvBinary shader = Compile(R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D sky[4];
layout(push_constant) uniform PC { uint sky; } pc;
void main() { color = texture(sky[nonuniformEXT(pc.sky)], uv); }
)");
  const PassRun stripped = RunPasses(shader, {"strip-nonuniform"});
  EXPECT_TRUE(DecoratedValues(stripped.words).empty());
  std::set<std::string> removed;
  for (const PassChange& change : stripped.log) {
    if (change.action == "remove-capability") removed.insert(change.detail);
  }
  // glslang declares both for `nonuniformEXT` indexing of a sampler array;
  // with no NonUniform left, neither is needed.
  EXPECT_EQ(removed,
            (std::set<std::string>{"ShaderNonUniform", "SampledImageArrayNonUniformIndexing"}));
}

}  // namespace
}  // namespace test
}  // namespace spirv_conv
