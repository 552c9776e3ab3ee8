// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// What the tests of the descriptor lowerings (waterfall, descriptor-switch)
// share: a fragment-shader module with descriptor arrays of every kind to
// put a function body into, running a pass on it (the input and the output
// validated with spirv-val), the second run that must change nothing, and
// questions about the result's structure.

#ifndef TEST_PASSES_LOWERING_TEST_UTIL_H_
#define TEST_PASSES_LOWERING_TEST_UTIL_H_

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "passes/descriptor_accesses.h"
#include "source/opt/ir_context.h"
#include "source/opt/struct_cfg_analysis.h"
#include "spirv_conv/emit.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/nonuniform_passes.h"
#include "spirv_conv/validate.h"
#include "test/file_check.h"
#include "test/test_util.h"

namespace spirv_conv {
namespace test {

using spvtools::opt::BasicBlock;
using spvtools::opt::Instruction;
using spvtools::opt::IRContext;
using spvtools::opt::Pass;

// A SPIR-V 1.3 fragment shader (Vulkan 1.1) with, for the function bodies
// the tests add after it (%main first):
//   tex       sampler2D[4]          images     texture2D[3]   samplers  sampler[2]
//   shadows   sampler2DShadow[2]    layers     sampler2DArray[2]
//   bindless  sampler2D[]           ubos       Ubo { vec4 }[8]
//   ssbos     Ssbo { uint count; uint data[16]; }[4]          params    Params { int }
//   idx, idx2 flat int inputs (divergent), uv vec2, uvw vec4 inputs, color vec4 output
// and the usual types, pointer types and constants (%int_0 ... %float_0_5,
// %v4float_0), and the function types %fn_sample_at (vec4(int, vec2)) and
// %fn_sample_from (vec4(sampler2D pointer, vec2)). OpCapability, OpExtension,
// OpName and OpDecorate lines in |functions| go to their sections.
std::string FragmentModule(const std::string& functions, const std::string& version = "1.3");

// The result of one pass run.
struct PassRun {
  spv_target_env env = SPV_ENV_UNIVERSAL_1_0;
  std::unique_ptr<IRContext> context;
  Pass::Status status = Pass::Status::Failure;
  std::string messages;         // what the pass reported through its consumer
  ChangeLog log;                // NonUniformPassOptions::log
  std::vector<uint32_t> words;  // the module after the pass
  std::string disassembly;      // of |words|, for failure messages
};

// Assembles and validates |assembly|, runs |pass_name| on it with |options|
// (whose log is replaced by PassRun::log), and validates the result unless
// the pass failed.
PassRun RunPass(const std::string& pass_name, const std::string& assembly,
                NonUniformPassOptions options = {});
PassRun RunPass(const std::string& pass_name, const SpirvBinary& binary,
                NonUniformPassOptions options = {});

// RunPass on |assembly| with its ids named (WithOpNames), then FileCheck
// of the result's disassembly against the CHECK lines of |assembly|, as
// SPIRV-Tools' SinglePassRunAndMatch: an id of the input reads as it is
// written there, an id the pass made as its number (match it with a
// FileCheck variable, `[[var:%\w+]]`). Each string of |implicit_check_not|
// may appear only in lines a CHECK matches.
PassRun RunPassAndMatch(const std::string& pass_name, const std::string& assembly,
                        const std::vector<std::string>& implicit_check_not = {},
                        NonUniformPassOptions options = {});

// shaders/passes/|name| compiled by glslang (Vulkan 1.2, as `spirv-conv`
// compiles GLSL).
SpirvBinary PassShader(const std::string& name);

// Runs |pass_name| again on |run|'s result: it must report
// SuccessWithoutChange and leave the module as it was.
void ExpectIdempotent(const std::string& pass_name, const PassRun& run,
                      const NonUniformPassOptions& options = {});

// The instructions with |opcode| in the function bodies, in module order.
std::vector<Instruction*> FindAll(IRContext& context, spv::Op opcode);
size_t Count(IRContext& context, spv::Op opcode);
// The one with |opcode| (the test fails unless there is exactly one).
Instruction* FindOne(IRContext& context, spv::Op opcode);
// The definition of the id named |name| by OpName, or null.
Instruction* Named(IRContext& context, const std::string& name);

BasicBlock* BlockOf(IRContext& context, const Instruction* inst);
// The header of the innermost loop around |inst|, or 0.
uint32_t LoopOf(IRContext& context, const Instruction* inst);
bool HasCapability(IRContext& context, spv::Capability capability);
// Whether some value of image, sampler or sampled-image type is an OpPhi.
bool HasOpaquePhi(IRContext& context);
// The widest level of a descriptor-array index, over every access of the
// module, as the uniformity analysis sees it (what the lint's
// nonuniform-missing-decoration compares with subgroup).
Uniformity WidestIndexLevel(IRContext& context);

// Function bodies for FragmentModule that both lowering passes are tested
// on (each test file asserts its own pass's rewrite of them).

// A separate texture array and sampler array, both indexed by varying
// indices (%idx, %idx2), combined and sampled with an implicit LOD.
inline constexpr char kSeparateImageAndSamplerMain[] = R"(
OpName %i "i"
OpName %j "j"
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%j = OpLoad %int %idx2
%c = OpLoad %v2float %uv
%ip = OpAccessChain %ptr_image %images %i
%img = OpLoad %image %ip
%sp = OpAccessChain %ptr_sampler %samplers %j
%smp = OpLoad %sampler %sp
%si = OpSampledImage %sampled %img %smp
%r = OpImageSampleImplicitLod %v4float %si %c
OpStore %color %r
OpReturn
OpFunctionEnd
)";

// main passes the varying %idx to `sample`, whose parameter %k indexes %tex
// for an implicit-LOD sample.
inline constexpr char kIndexThroughParameterMain[] = R"(OpName %sample "sample"
OpName %k "k"
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%r = OpFunctionCall %v4float %sample %i %c
OpStore %color %r
OpReturn
OpFunctionEnd
%sample = OpFunction %v4float None %fn_sample_at
%k = OpFunctionParameter %int
%x = OpFunctionParameter %v2float
%body = OpLabel
%p = OpAccessChain %ptr_sampled %tex %k
%t = OpLoad %sampled %p
%s = OpImageSampleImplicitLod %v4float %t %x
OpReturnValue %s
OpFunctionEnd
)";

// An implicit-LOD sample from the runtime array %bindless with a varying index.
inline constexpr char kRuntimeArrayMain[] = R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %int %idx
%c = OpLoad %v2float %uv
%p = OpAccessChain %ptr_sampled %bindless %i
%t = OpLoad %sampled %p
%r = OpImageSampleImplicitLod %v4float %t %c
OpStore %color %r
OpReturn
OpFunctionEnd
)";

// The definition of |id| in |run|'s module.
inline spvtools::opt::Instruction* Def(const PassRun& run, uint32_t id) {
  return run.context->get_def_use_mgr()->GetDef(id);
}

// The definition of in-operand |in| of |inst|.
inline spvtools::opt::Instruction* Operand(const PassRun& run,
                                           const spvtools::opt::Instruction* inst, uint32_t in) {
  return Def(run, inst->GetSingleWordInOperand(in));
}

}  // namespace test
}  // namespace spirv_conv

#endif  // TEST_PASSES_LOWERING_TEST_UTIL_H_
