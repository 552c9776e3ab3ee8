// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// HLSL through glslang's HLSL front end, with the options a DXC user types:
// the stage from the target profile (-T ps_6_0), the entry point (-E), and
// NonUniformResourceIndex, which glslang 12 does not know, as NonUniform.

#include <algorithm>
#include <map>
#include <regex>

#include "glslang/Include/intermediate.h"
#include "glslang/MachineIndependent/localintermediate.h"
#include "io/glslang_frontend.h"
#include "source/opt/build_module.h"
#include "source/opt/ir_context.h"
#include "spirv-tools/optimizer.hpp"
#include "spirv_conv/target_env.h"

namespace spirv_conv {
namespace io {
namespace {

// The GLSL stage name of |profile| ("ps_6_0" -> "frag"), or an error.
Expected<std::string> StageFromProfile(const std::string& name, const std::string& profile) {
  static const std::regex kProfile("([a-z]+)_([0-9]+)_([0-9]+|x)");
  std::smatch match;
  if (!std::regex_match(profile, match, kProfile)) {
    return MakeError(ExitCode::kBadInput, name,
                     "'" + profile +
                         "' is not a target profile: -T takes DXC's form, e.g. ps_6_0, vs_6_0, "
                         "cs_6_0 (stage vs, hs, ds, gs, ps, cs, ms, as)");
  }
  if (match[1] == "lib") {
    return MakeError(ExitCode::kBadInput, name,
                     "library profiles (" + profile +
                         ": ray tracing, work graphs) are not supported by glslang's HLSL front "
                         "end; compile with DXC (-spirv) and pass the .spv");
  }
  const std::string stage = HlslStageOfProfilePrefix(match[1]);
  if (stage.empty()) {
    return MakeError(ExitCode::kBadInput, name,
                     "unknown stage '" + match[1].str() + "' in target profile '" + profile +
                         "' (vs, hs, ds, gs, ps, cs, ms, as)");
  }
  return stage;
}

// The stage of the shader: -T, else --stage, else the file name.
Expected<std::string> HlslStage(const std::string& name, const ShaderSourceOptions& options) {
  if (!options.profile.empty()) {
    Expected<std::string> stage = StageFromProfile(name, options.profile);
    if (stage && !options.stage.empty() && options.stage != *stage) {
      return MakeError(ExitCode::kBadInput, name,
                       "--stage " + options.stage + " contradicts -T " + options.profile);
    }
    return stage;
  }
  if (!options.stage.empty()) return options.stage;
  const std::string stage = HlslStageFromFileName(name);
  if (stage.empty()) {
    return MakeError(ExitCode::kBadInput, name,
                     "the shader stage is unknown: pass -T (ps_6_0, vs_6_0, cs_6_0, ...) or "
                     "name the file after its stage (blur.cs.hlsl)");
  }
  return stage;
}

// The HLSL side of NonUniformResourceIndex: an identity function whose calls
// the tree rewrite below turns into nonuniform-qualified expressions.
// glslang names a call by the function's mangled signature, "NonUniformResourceIndex(u1;".
constexpr char kNonUniformResourceIndexCall[] = "NonUniformResourceIndex(";
constexpr char kNonUniformPreamble[] =
    "uint NonUniformResourceIndex(uint index) { return index; }\n";

bool IsNonUniformMarker(TIntermNode* node) {
  glslang::TIntermAggregate* call = node == nullptr ? nullptr : node->getAsAggregate();
  return call != nullptr && call->getOp() == glslang::EOpFunctionCall &&
         call->getName().rfind(kNonUniformResourceIndexCall, 0) == 0 &&
         call->getSequence().size() == 1 && call->getSequence()[0]->getAsTyped() != nullptr;
}

bool IsNonUniform(TIntermNode* node) {
  glslang::TIntermTyped* typed = node == nullptr ? nullptr : node->getAsTyped();
  return typed != nullptr && typed->getQualifier().isNonUniform();
}

// The operators whose result is nonuniform when an operand is, after
// GL_EXT_nonuniform_qualifier: the operators of GLSL 4.60 section 5.1 except
// assignments and the sequence, component and matrix selection, indexing.
bool PropagatesNonUniform(glslang::TOperator op) {
  switch (op) {
    case glslang::EOpPostIncrement:
    case glslang::EOpPostDecrement:
    case glslang::EOpPreIncrement:
    case glslang::EOpPreDecrement:
    case glslang::EOpNegative:
    case glslang::EOpLogicalNot:
    case glslang::EOpVectorLogicalNot:
    case glslang::EOpBitwiseNot:
    case glslang::EOpAdd:
    case glslang::EOpSub:
    case glslang::EOpMul:
    case glslang::EOpDiv:
    case glslang::EOpMod:
    case glslang::EOpRightShift:
    case glslang::EOpLeftShift:
    case glslang::EOpAnd:
    case glslang::EOpInclusiveOr:
    case glslang::EOpExclusiveOr:
    case glslang::EOpEqual:
    case glslang::EOpNotEqual:
    case glslang::EOpLessThan:
    case glslang::EOpGreaterThan:
    case glslang::EOpLessThanEqual:
    case glslang::EOpGreaterThanEqual:
    case glslang::EOpVectorTimesScalar:
    case glslang::EOpVectorTimesMatrix:
    case glslang::EOpMatrixTimesVector:
    case glslang::EOpMatrixTimesScalar:
    case glslang::EOpLogicalOr:
    case glslang::EOpLogicalXor:
    case glslang::EOpLogicalAnd:
    case glslang::EOpIndexDirect:
    case glslang::EOpIndexIndirect:
    case glslang::EOpIndexDirectStruct:
    case glslang::EOpVectorSwizzle:
      return true;
    default:
      return false;
  }
}

void MarkNonUniform(glslang::TIntermTyped* node) {
  node->getWritableType().getQualifier().nonUniform = true;
}

// Replaces each call of the marker by its argument, qualified nonuniform, and
// carries the qualifier up the expression as glslang's GLSL front end does
// for nonuniformEXT (GL_EXT_nonuniform_qualifier: operators, component
// selection, indexing), and further to the sampler a method call constructs
// from a texture and a SamplerState, which GLSL would write as
// sampler2D(textures[nonuniformEXT(i)], s). Post-order, so operands are final
// before their parent looks at them.
class NonUniformRewrite : public glslang::TIntermTraverser {
 public:
  NonUniformRewrite() : glslang::TIntermTraverser(false, false, true) {}

  bool visitBinary(glslang::TVisit, glslang::TIntermBinary* node) override {
    if (IsNonUniformMarker(node->getLeft())) node->setLeft(Unwrap(node->getLeft()));
    if (IsNonUniformMarker(node->getRight())) node->setRight(Unwrap(node->getRight()));
    if ((IsNonUniform(node->getLeft()) || IsNonUniform(node->getRight())) &&
        PropagatesNonUniform(node->getOp())) {
      MarkNonUniform(node);
    }
    return true;
  }

  bool visitUnary(glslang::TVisit, glslang::TIntermUnary* node) override {
    if (IsNonUniformMarker(node->getOperand())) node->setOperand(Unwrap(node->getOperand()));
    if (IsNonUniform(node->getOperand()) && PropagatesNonUniform(node->getOp())) {
      MarkNonUniform(node);
    }
    return true;
  }

  bool visitAggregate(glslang::TVisit, glslang::TIntermAggregate* node) override {
    bool any_nonuniform = false;
    for (TIntermNode*& child : node->getSequence()) {
      if (IsNonUniformMarker(child)) child = Unwrap(child);
      any_nonuniform = any_nonuniform || IsNonUniform(child);
    }
    if (any_nonuniform && node->getOp() == glslang::EOpConstructTextureSampler) {
      MarkNonUniform(node);
    }
    return true;
  }

  int rewritten() const { return rewritten_; }

 private:
  glslang::TIntermTyped* Unwrap(TIntermNode* call) {
    glslang::TIntermTyped* argument = call->getAsAggregate()->getSequence()[0]->getAsTyped();
    MarkNonUniform(argument);
    ++rewritten_;
    return argument;
  }

  int rewritten_ = 0;
};

// HLSL that DXC compiles and glslang 12's HLSL front end does not: the
// identifier glslang reports, and what it is.
const std::map<std::string, std::string>& UnsupportedConstructs() {
  static const std::map<std::string, std::string> kConstructs = {
      {"template", "templates (HLSL 2021)"},
      {"select", "select() (HLSL 2021)"},
      {"ResourceDescriptorHeap", "ResourceDescriptorHeap (Shader Model 6.6)"},
      {"SamplerDescriptorHeap", "SamplerDescriptorHeap (Shader Model 6.6)"},
      {"IsHelperLane", "IsHelperLane (Shader Model 6.6)"},
      {"QuadAny", "QuadAny (Shader Model 6.7)"},
      {"QuadAll", "QuadAll (Shader Model 6.7)"},
      {"WaveMatch", "WaveMatch (Shader Model 6.5)"},
      {"WaveMultiPrefixSum", "WaveMultiPrefixSum (Shader Model 6.5)"},
      {"WaveMultiPrefixProduct", "WaveMultiPrefixProduct (Shader Model 6.5)"},
      {"WaveMultiPrefixCountBits", "WaveMultiPrefixCountBits (Shader Model 6.5)"},
      {"WaveMultiPrefixBitAnd", "WaveMultiPrefixBitAnd (Shader Model 6.5)"},
      {"WaveMultiPrefixBitOr", "WaveMultiPrefixBitOr (Shader Model 6.5)"},
      {"WaveMultiPrefixBitXor", "WaveMultiPrefixBitXor (Shader Model 6.5)"},
      {"RaytracingAccelerationStructure", "ray tracing (DXR)"},
      {"RayQuery", "inline ray tracing (RayQuery, Shader Model 6.5)"},
      {"TraceRay", "ray tracing (DXR)"},
      {"DispatchMesh", "DispatchMesh (amplification shaders)"},
      {"SetMeshOutputCounts", "mesh shader outputs (SetMeshOutputCounts)"},
      {"dot4add_u8packed", "packed dot products (Shader Model 6.4)"},
      {"dot4add_i8packed", "packed dot products (Shader Model 6.4)"},
      {"pack_u8", "pack/unpack intrinsics (Shader Model 6.6)"},
      {"unpack_u8u32", "pack/unpack intrinsics (Shader Model 6.6)"},
      {"GetAttributeAtVertex", "GetAttributeAtVertex (Shader Model 6.1 barycentrics)"},
      {"Barrier", "Barrier() (Shader Model 6.8)"},
  };
  return kConstructs;
}

// The lines of |source| glslang's |message| points at ("a.hlsl:4: ..." and
// "a.hlsl(4): error at column 32, ..."), in order, each once.
std::vector<int> MessageLines(const std::string& message, const std::string& name) {
  std::vector<int> lines;
  const std::regex kPlace(std::regex_replace(name, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                          R"((?::|\()([0-9]+))");
  for (std::sregex_iterator it(message.begin(), message.end(), kPlace), end; it != end; ++it) {
    const int line = std::stoi((*it)[1].str());
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
  }
  return lines;
}

// A sentence naming the first construct of UnsupportedConstructs() that
// glslang's |message| quotes ("'WaveMatch' : no matching ...") or that the
// source lines it points at use (a type glslang fails to parse is only
// "'declaration' : Expected"), or "".
std::string UnsupportedConstructNote(const std::string& message, const std::string& name,
                                     const std::string& source) {
  std::vector<std::string> lines(1);
  for (char c : source) {
    if (c == '\n') {
      lines.emplace_back();
    } else {
      lines.back() += c;
    }
  }
  std::string suspects = message;
  for (int line : MessageLines(message, name)) {
    if (line >= 1 && line <= static_cast<int>(lines.size())) suspects += "\n" + lines[line - 1];
  }
  static const std::regex kIdentifier("[A-Za-z_][A-Za-z0-9_]*");
  for (std::sregex_iterator it(suspects.begin(), suspects.end(), kIdentifier), end; it != end;
       ++it) {
    const auto construct = UnsupportedConstructs().find(it->str());
    if (construct != UnsupportedConstructs().end()) {
      return "\n  glslang's HLSL front end, which spirv-conv compiles HLSL with, does not "
             "support " +
             construct->second + "; compile with DXC (-spirv) and pass the .spv";
    }
  }
  return "";
}

// Drops the operands of OpEntryPoint that name no instruction. Dead-function
// elimination leaves them behind when it deletes the only users of global
// variables glslang listed in a SPIR-V 1.4+ interface, and aggressive DCE
// then dereferences the missing definition (glslang's test
// hlsl.structbuffer.fn.frag).
std::optional<std::string> DropUndefinedInterfaceIds(spv_target_env env,
                                                     std::vector<uint32_t>* words) {
  std::unique_ptr<spvtools::opt::IRContext> context =
      spvtools::BuildModule(env, nullptr, words->data(), words->size());
  if (context == nullptr) return std::string("the generated module does not parse");
  bool changed = false;
  for (spvtools::opt::Instruction& entry : context->module()->entry_points()) {
    for (uint32_t operand = entry.NumInOperands(); operand-- > 3;) {
      if (context->get_def_use_mgr()->GetDef(entry.GetSingleWordInOperand(operand)) == nullptr) {
        entry.RemoveInOperand(operand);
        changed = true;
      }
    }
  }
  if (changed) {
    words->clear();
    context->module()->ToBinary(words, false);
  }
  return std::nullopt;
}

// Runs |register_passes| on |words| in place; spirv-val checks the result later.
std::optional<std::string> RunPasses(spv_target_env env, std::vector<uint32_t>* words,
                                     const std::function<void(spvtools::Optimizer&)>& passes) {
  spvtools::Optimizer optimizer(env);
  std::string message;
  optimizer.SetMessageConsumer(
      [&message](spv_message_level_t level, const char*, const spv_position_t&, const char* text) {
        if (level <= SPV_MSG_ERROR && message.empty()) message = text;
      });
  passes(optimizer);
  spvtools::OptimizerOptions run_options;
  run_options.set_run_validator(false);
  std::vector<uint32_t> result;
  if (!optimizer.Run(words->data(), words->size(), &result, run_options)) {
    return message.empty() ? std::string("spirv-opt's legalization passes failed") : message;
  }
  *words = std::move(result);
  return std::nullopt;
}

// glslang's legalization of HLSL (the pass list of its SpirvToolsTransform):
// inlining, and opaque values (textures, samplers, buffers) forwarded out of
// the local variables and parameters HLSL lets them pass through. Without it
// most HLSL is not valid Vulkan SPIR-V; DXC legalizes as well. Run here, not
// inside glslang, to repair the interface between its two halves.
std::optional<std::string> Legalize(spv_target_env env, std::vector<uint32_t>* words) {
  if (auto failure = RunPasses(env, words, [](spvtools::Optimizer& o) {
        o.RegisterPass(spvtools::CreateWrapOpKillPass())
            .RegisterPass(spvtools::CreateDeadBranchElimPass())
            .RegisterPass(spvtools::CreateMergeReturnPass())
            .RegisterPass(spvtools::CreateInlineExhaustivePass())
            .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
      })) {
    return failure;
  }
  if (auto failure = DropUndefinedInterfaceIds(env, words)) return failure;
  return RunPasses(env, words, [](spvtools::Optimizer& o) {
    o.RegisterPass(spvtools::CreateScalarReplacementPass())
        .RegisterPass(spvtools::CreateLocalAccessChainConvertPass())
        .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
        .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
        .RegisterPass(spvtools::CreateSimplificationPass())
        .RegisterPass(spvtools::CreateAggressiveDCEPass())
        .RegisterPass(spvtools::CreateVectorDCEPass())
        .RegisterPass(spvtools::CreateDeadInsertElimPass())
        .RegisterPass(spvtools::CreateAggressiveDCEPass())
        .RegisterPass(spvtools::CreateDeadBranchElimPass())
        .RegisterPass(spvtools::CreateBlockMergePass())
        .RegisterPass(spvtools::CreateLocalMultiStoreElimPass())
        .RegisterPass(spvtools::CreateIfConversionPass())
        .RegisterPass(spvtools::CreateSimplificationPass())
        .RegisterPass(spvtools::CreateAggressiveDCEPass())
        .RegisterPass(spvtools::CreateVectorDCEPass())
        .RegisterPass(spvtools::CreateDeadInsertElimPass())
        .RegisterPass(spvtools::CreateInterpolateFixupPass())
        .RegisterPass(spvtools::CreateAggressiveDCEPass())
        .RegisterPass(spvtools::CreateCFGCleanupPass());
  });
}

}  // namespace

Expected<CompiledSource> WordsFromHlsl(const std::string& name, const std::string& source,
                                       spv_target_env env, const ShaderSourceOptions& options) {
  Expected<std::string> stage_name = HlslStage(name, options);
  if (!stage_name) return stage_name.error();
  const std::optional<EShLanguage> stage = GlslangStageFromName(*stage_name);
  if (!stage) {
    return MakeError(ExitCode::kBadInput, name, "unknown shader stage '" + *stage_name + "'");
  }
  GlslangJob job;
  job.language = glslang::EShSourceHlsl;
  job.stage = *stage;
  job.entry_point = options.entry_point.empty() ? "main" : options.entry_point;
  job.preamble = kNonUniformPreamble;
  // Storage buffers as the StorageBuffer class from SPIR-V 1.3 on, as
  // glslang's GLSL front end does: its HLSL one writes BufferBlock, which
  // SPIR-V 1.4 removed, for every version (spirv-val rejects the module).
  const bool storage_buffer_class = SpirvVersionWordOf(env) >= 0x00010300u;
  const std::string entry_point = job.entry_point;
  job.rewrite = [storage_buffer_class,
                 entry_point](glslang::TIntermediate& tree) -> std::optional<std::string> {
    // glslang wraps a missing -E function in an empty entry point; the parser
    // counts the entry functions it found.
    if (tree.getNumEntryPoints() == 0) {
      return "no entry point function '" + entry_point +
             "': pass -E with the name of the shader's entry function";
    }
    if (storage_buffer_class) tree.setUseStorageBuffer();
    if (tree.getTreeRoot() == nullptr) return std::nullopt;
    NonUniformRewrite rewrite;
    tree.getTreeRoot()->traverse(&rewrite);
    return std::nullopt;
  };
  job.legalize = [env](std::vector<uint32_t>* words) { return Legalize(env, words); };
  Expected<CompiledSource> compiled = CompileWithGlslang(name, source, env, options, job);
  if (!compiled) {
    Error error = compiled.error();
    error.message += UnsupportedConstructNote(error.message, name, source);
    return error;
  }
  return compiled;
}

}  // namespace io
}  // namespace spirv_conv
