// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "test/passes/lowering_test_util.h"

#include <sstream>
#include <utility>

#include "source/opcode.h"
#include "source/opt/type_manager.h"

namespace spirv_conv {
namespace test {

namespace {

constexpr char kFragmentCapabilities[] = R"(OpCapability Shader
OpCapability RuntimeDescriptorArray
)";
constexpr char kFragmentExtensions[] = R"(OpExtension "SPV_EXT_descriptor_indexing"
OpExtension "SPV_KHR_storage_buffer_storage_class"
)";
constexpr char kFragmentHeader[] = R"(%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %idx %idx2 %uv %uvw %color
OpExecutionMode %main OriginUpperLeft
OpName %main "main"
OpName %idx "idx"
OpName %idx2 "idx2"
OpName %uv "uv"
OpName %uvw "uvw"
OpName %color "color"
OpName %tex "tex"
OpName %images "images"
OpName %samplers "samplers"
OpName %shadows "shadows"
OpName %layers "layers"
OpName %ubos "ubos"
OpName %ssbos "ssbos"
OpName %bindless "bindless"
OpName %params "params"
)";
constexpr char kFragmentAnnotationsAndTypes[] = R"(OpDecorate %idx Flat
OpDecorate %idx Location 0
OpDecorate %idx2 Flat
OpDecorate %idx2 Location 1
OpDecorate %uv Location 2
OpDecorate %uvw Location 3
OpDecorate %color Location 0
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 0
OpDecorate %images DescriptorSet 0
OpDecorate %images Binding 1
OpDecorate %samplers DescriptorSet 0
OpDecorate %samplers Binding 2
OpDecorate %shadows DescriptorSet 0
OpDecorate %shadows Binding 3
OpDecorate %layers DescriptorSet 0
OpDecorate %layers Binding 4
OpDecorate %Ubo Block
OpMemberDecorate %Ubo 0 Offset 0
OpDecorate %ubos DescriptorSet 0
OpDecorate %ubos Binding 5
OpDecorate %uint_16_arr ArrayStride 4
OpDecorate %Ssbo Block
OpMemberDecorate %Ssbo 0 Offset 0
OpMemberDecorate %Ssbo 1 Offset 4
OpDecorate %ssbos DescriptorSet 0
OpDecorate %ssbos Binding 6
OpDecorate %bindless DescriptorSet 0
OpDecorate %bindless Binding 7
OpDecorate %Params Block
OpMemberDecorate %Params 0 Offset 0
OpDecorate %params DescriptorSet 1
OpDecorate %params Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%v2int = OpTypeVector %int 2
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_2 = OpConstant %int 2
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_8 = OpConstant %uint 8
%uint_16 = OpConstant %uint 16
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%float_0_5 = OpConstant %float 0.5
%v4float_0 = OpConstantNull %v4float
%v2int_1 = OpConstantComposite %v2int %int_1 %int_1
%image = OpTypeImage %float 2D 0 0 0 1 Unknown
%sampled = OpTypeSampledImage %image
%sampler = OpTypeSampler
%shadow_image = OpTypeImage %float 2D 1 0 0 1 Unknown
%shadow_sampled = OpTypeSampledImage %shadow_image
%layer_image = OpTypeImage %float 2D 0 1 0 1 Unknown
%layer_sampled = OpTypeSampledImage %layer_image
%tex_arr = OpTypeArray %sampled %uint_4
%images_arr = OpTypeArray %image %uint_3
%samplers_arr = OpTypeArray %sampler %uint_2
%shadows_arr = OpTypeArray %shadow_sampled %uint_2
%layers_arr = OpTypeArray %layer_sampled %uint_2
%bindless_arr = OpTypeRuntimeArray %sampled
%Ubo = OpTypeStruct %v4float
%ubos_arr = OpTypeArray %Ubo %uint_8
%uint_16_arr = OpTypeArray %uint %uint_16
%Ssbo = OpTypeStruct %uint %uint_16_arr
%ssbos_arr = OpTypeArray %Ssbo %uint_4
%Params = OpTypeStruct %int
%ptr_tex_arr = OpTypePointer UniformConstant %tex_arr
%ptr_images_arr = OpTypePointer UniformConstant %images_arr
%ptr_samplers_arr = OpTypePointer UniformConstant %samplers_arr
%ptr_shadows_arr = OpTypePointer UniformConstant %shadows_arr
%ptr_layers_arr = OpTypePointer UniformConstant %layers_arr
%ptr_bindless_arr = OpTypePointer UniformConstant %bindless_arr
%ptr_sampled = OpTypePointer UniformConstant %sampled
%ptr_image = OpTypePointer UniformConstant %image
%ptr_sampler = OpTypePointer UniformConstant %sampler
%ptr_shadow_sampled = OpTypePointer UniformConstant %shadow_sampled
%ptr_layer_sampled = OpTypePointer UniformConstant %layer_sampled
%ptr_ubos_arr = OpTypePointer Uniform %ubos_arr
%ptr_Uniform_v4float = OpTypePointer Uniform %v4float
%ptr_ssbos_arr = OpTypePointer StorageBuffer %ssbos_arr
%ptr_StorageBuffer_uint = OpTypePointer StorageBuffer %uint
%ptr_params = OpTypePointer Uniform %Params
%ptr_Uniform_int = OpTypePointer Uniform %int
%ptr_Input_int = OpTypePointer Input %int
%ptr_Input_v2float = OpTypePointer Input %v2float
%ptr_Input_v4float = OpTypePointer Input %v4float
%ptr_Output_v4float = OpTypePointer Output %v4float
%tex = OpVariable %ptr_tex_arr UniformConstant
%images = OpVariable %ptr_images_arr UniformConstant
%samplers = OpVariable %ptr_samplers_arr UniformConstant
%shadows = OpVariable %ptr_shadows_arr UniformConstant
%layers = OpVariable %ptr_layers_arr UniformConstant
%bindless = OpVariable %ptr_bindless_arr UniformConstant
%ubos = OpVariable %ptr_ubos_arr Uniform
%ssbos = OpVariable %ptr_ssbos_arr StorageBuffer
%params = OpVariable %ptr_params Uniform
%idx = OpVariable %ptr_Input_int Input
%idx2 = OpVariable %ptr_Input_int Input
%uv = OpVariable %ptr_Input_v2float Input
%uvw = OpVariable %ptr_Input_v4float Input
%color = OpVariable %ptr_Output_v4float Output
%fn_sample_at = OpTypeFunction %v4float %int %v2float
%fn_sample_from = OpTypeFunction %v4float %ptr_sampled %v2float
)";

std::unique_ptr<NonUniformPass> MakePass(const std::string& name,
                                         const NonUniformPassOptions& options) {
  std::unique_ptr<NonUniformPass> pass = CreateNonUniformPass(name, options);
  EXPECT_NE(pass, nullptr) << "no pass " << name;
  return pass;
}

std::string DisassemblyOf(const std::vector<uint32_t>& words, spv_target_env env) {
  DisassembleOptions options;
  options.header = false;
  Expected<std::string> text = Disassemble(words, env, options, "test");
  return text.ok() ? text.value() : text.error().message;
}

}  // namespace

std::string FragmentModule(const std::string& functions, const std::string& version) {
  std::string capabilities = kFragmentCapabilities;
  std::string extensions = kFragmentExtensions;
  std::string names;
  std::string decorations;
  std::string body;
  std::istringstream lines(functions);
  for (std::string line; std::getline(lines, line);) {
    auto starts = [&](const char* prefix) { return line.rfind(prefix, 0) == 0; };
    std::string& section = starts("OpCapability ")  ? capabilities
                           : starts("OpExtension ") ? extensions
                           : starts("OpName ")      ? names
                           : starts("OpDecorate ")  ? decorations
                                                    : body;
    section += line + "\n";
  }
  return "; Version: " + version + "\n" + capabilities + extensions + kFragmentHeader + names +
         decorations + kFragmentAnnotationsAndTypes + body;
}

PassRun RunPass(const std::string& pass_name, const std::string& assembly,
                NonUniformPassOptions options) {
  return RunPass(pass_name, MustAssemble(assembly), std::move(options));
}

PassRun RunPassAndMatch(const std::string& pass_name, const std::string& assembly,
                        const std::vector<std::string>& implicit_check_not,
                        NonUniformPassOptions options) {
  PassRun run = RunPass(pass_name, WithOpNames(assembly), std::move(options));
  EXPECT_TRUE(FileCheck(assembly, run.disassembly, implicit_check_not));
  return run;
}

SpirvBinary PassShader(const std::string& name) {
  const std::string path = std::string(SPIRV_CONV_TEST_DATA_DIR) + "/../../shaders/passes/" + name;
  Expected<SpirvBinary> binary = LoadSpirv(path, {});
  EXPECT_TRUE(binary.ok()) << (binary.ok() ? "" : binary.error().message);
  return binary.ok() ? std::move(binary).value() : SpirvBinary();
}

PassRun RunPass(const std::string& pass_name, const SpirvBinary& binary,
                NonUniformPassOptions options) {
  PassRun run;
  run.env = binary.target_env;
  const Status valid =
      ValidateSpirv(binary.words, binary.target_env, {}, "input", ExitCode::kBadInput);
  EXPECT_TRUE(valid.ok()) << "the test's input is invalid: " << valid.error().message;
  auto context = BuildIrContext(binary);
  if (!context.ok()) {
    ADD_FAILURE() << context.error().message;
    return run;
  }
  run.context = std::move(context).value();
  options.log = &run.log;
  std::unique_ptr<NonUniformPass> pass = MakePass(pass_name, options);
  if (pass == nullptr) return run;
  pass->SetMessageConsumer([&run](spv_message_level_t, const char*, const spv_position_t&,
                                  const char* message) { run.messages += message; });
  run.status = pass->Run(run.context.get());
  run.words = EmitBinary(*run.context);
  run.disassembly = DisassemblyOf(run.words, run.env);
  if (run.status != Pass::Status::Failure) {
    const Status output = ValidateSpirv(run.words, run.env, {}, "output", ExitCode::kInvalidOutput);
    EXPECT_TRUE(output.ok()) << output.error().message << "\n" << run.disassembly;
  }
  return run;
}

void ExpectIdempotent(const std::string& pass_name, const PassRun& run,
                      const NonUniformPassOptions& options) {
  SpirvBinary binary;
  binary.target_env = run.env;
  binary.words = run.words;
  auto context = BuildIrContext(binary);
  ASSERT_TRUE(context.ok()) << context.error().message;
  std::unique_ptr<NonUniformPass> pass = MakePass(pass_name, options);
  ASSERT_NE(pass, nullptr);
  std::string messages;
  pass->SetMessageConsumer([&messages](spv_message_level_t, const char*, const spv_position_t&,
                                       const char* message) { messages += message; });
  const Pass::Status status = pass->Run(context.value().get());
  EXPECT_EQ(status, Pass::Status::SuccessWithoutChange)
      << "a second " << pass_name << " run changed the module again: " << messages << "\n"
      << DisassemblyOf(EmitBinary(*context.value()), run.env);
  EXPECT_EQ(EmitBinary(*context.value()), run.words);
}

std::vector<Instruction*> FindAll(IRContext& context, spv::Op opcode) {
  std::vector<Instruction*> found;
  for (spvtools::opt::Function& function : *context.module()) {
    function.ForEachInst([&](Instruction* inst) {
      if (inst->opcode() == opcode) found.push_back(inst);
    });
  }
  return found;
}

size_t Count(IRContext& context, spv::Op opcode) { return FindAll(context, opcode).size(); }

Instruction* FindOne(IRContext& context, spv::Op opcode) {
  const std::vector<Instruction*> found = FindAll(context, opcode);
  EXPECT_EQ(found.size(), 1u) << "instructions Op" << spvOpcodeString(opcode);
  return found.size() == 1 ? found[0] : nullptr;
}

Instruction* Named(IRContext& context, const std::string& name) {
  for (const Instruction& inst : context.module()->debugs2()) {
    if (inst.opcode() == spv::Op::OpName && inst.GetInOperand(1).AsString() == name) {
      return context.get_def_use_mgr()->GetDef(inst.GetSingleWordInOperand(0));
    }
  }
  return nullptr;
}

BasicBlock* BlockOf(IRContext& context, const Instruction* inst) {
  return context.get_instr_block(const_cast<Instruction*>(inst));
}

uint32_t LoopOf(IRContext& context, const Instruction* inst) {
  BasicBlock* block = BlockOf(context, inst);
  if (block == nullptr) return 0;
  if (block->GetLoopMergeInst() != nullptr) return block->id();
  return context.GetStructuredCFGAnalysis()->ContainingLoop(block->id());
}

bool HasCapability(IRContext& context, spv::Capability capability) {
  for (const Instruction& inst : context.module()->capabilities()) {
    if (static_cast<spv::Capability>(inst.GetSingleWordInOperand(0)) == capability) return true;
  }
  return false;
}

bool HasOpaquePhi(IRContext& context) {
  for (Instruction* phi : FindAll(context, spv::Op::OpPhi)) {
    const spv::Op type = context.get_def_use_mgr()->GetDef(phi->type_id())->opcode();
    if (type == spv::Op::OpTypeImage || type == spv::Op::OpTypeSampler ||
        type == spv::Op::OpTypeSampledImage) {
      return true;
    }
  }
  return false;
}

Uniformity WidestIndexLevel(IRContext& context) {
  auto found = passes::DescriptorAccesses::Compute(&context, {});
  EXPECT_TRUE(found.ok()) << (found.ok() ? "" : found.error().message);
  Uniformity widest = Uniformity::kUniform;
  if (!found.ok()) return widest;
  for (const analysis::ResourceOperand& resource : found.value()->accesses()) {
    widest = Join(widest, resource.index_level);
  }
  return widest;
}

}  // namespace test
}  // namespace spirv_conv
