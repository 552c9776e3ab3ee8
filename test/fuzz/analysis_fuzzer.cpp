// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Fuzz target for the analysis and the passes on *valid* modules (docs/fuzzing.md):
// the loaders' fuzzers stop where validation does, but the crashes users
// meet are in the analysis of modules spirv-val accepts. Each input is a
// SPIR-V binary; one spirv-val rejects is dropped. On the others:
//  - the uniformity analysis, with the level and the explanation of every
//    value and every block (the explanations are the lint's notes);
//  - the lint with every rule, rendered as text, JSON and SARIF;
//  - each transform of `spirv-conv opt` on its own: --fix-nonuniform,
//    --strip-nonuniform, --waterfall, --structurize, --reconverge,
//    --fast-forward-loops.
// A transform may refuse a module with a documented error (an analysis it
// cannot do, exit 2); an output the validator rejects (exit 3) or an
// internal error (exit 4) is a bug, and so aborts.
//
// The custom mutator keeps most mutants valid: it rewires one id operand to
// another value of the same type, swaps the targets of a conditional
// branch, or changes a constant's literal, and only sometimes falls back to
// libFuzzer's byte mutations.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "spirv-tools/libspirv.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/lint.h"
#include "spirv_conv/load.h"
#include "spirv_conv/pipeline.h"
#include "spirv_conv/report.h"
#include "spirv_conv/uniformity.h"
#include "spirv_conv/validate.h"

#ifdef SPIRV_CONV_LIBFUZZER
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);
#endif

namespace {

using namespace spirv_conv;

[[noreturn]] void Bug(const std::string& what) {
  std::fprintf(stderr, "analysis_fuzzer: %s\n", what.c_str());
  std::abort();
}

// A transform's error is fine when it is a documented refusal of this
// input; invalid output and internal errors are bugs.
void CheckOutcome(const char* pass, const Error* error) {
  if (error == nullptr) return;
  if (error->code == ExitCode::kInvalidOutput || error->code == ExitCode::kInternalError ||
      error->message.empty()) {
    Bug(std::string(pass) + ": " + error->message);
  }
}

void Analyse(const SpirvBinary& binary) {
  Expected<std::unique_ptr<spvtools::opt::IRContext>> context = BuildIrContext(binary);
  if (!context) Bug("a valid module does not load: " + context.error().message);
  Expected<std::unique_ptr<UniformityInfo>> info = UniformityInfo::Compute(context->get());
  if (!info) {
    CheckOutcome("uniformity", &info.error());
    return;
  }
  (*context)->module()->ForEachInst([&](const spvtools::opt::Instruction* inst) {
    const uint32_t id = inst->result_id();
    if (id == 0) return;
    (void)(*info)->ValueLevel(id);
    (void)(*info)->ExplainValue(id);
    if (inst->opcode() == spv::Op::OpLabel) {
      (void)(*info)->ControlFlowLevel(id);
      (void)(*info)->ExplainControlFlow(id);
      (void)(*info)->Joins(id);
    }
  });
  FileFindings file;
  file.file = binary.name;
  file.findings = Lint(**context, **info, LintOptions());
  const std::vector<FileFindings> files = {file};
  (void)RenderText(files);
  (void)RenderJson(files);
  (void)RenderSarif(files);
}

void Transform(const SpirvBinary& binary) {
  for (const char* pass : {"fix-nonuniform", "strip-nonuniform", "waterfall", "structurize",
                           "reconverge", "fast-forward-loops"}) {
    PipelineOptions options;
    options.passes = {pass};
    // The transform wherever its preconditions hold, not only where it pays.
    options.fast_forward.policy = FastForwardPolicy::kEverywhere;
    Expected<std::vector<uint32_t>> out = RunPipeline(binary, options);
    CheckOutcome(pass, out ? nullptr : &out.error());
  }
}

}  // namespace

// --- The mutator (libFuzzer builds only) ------------------------------------

#ifdef SPIRV_CONV_LIBFUZZER
namespace {

// What the mutator needs of a module: the word offset of every id operand
// (not result ids or types), of each conditional branch and each scalar
// constant's literal, and the type of every id.
struct ModuleShape {
  std::vector<uint32_t> id_operands;         // word offsets
  std::vector<uint32_t> branch_conditional;  // word offsets of the instructions
  std::vector<uint32_t> constant_literals;   // word offsets
  std::unordered_map<uint32_t, uint32_t> type_of;
  std::unordered_map<uint32_t, std::vector<uint32_t>> ids_of_type;
};

// Parses |words| (a whole module); false if SPIRV-Tools cannot.
bool Shape(const std::vector<uint32_t>& words, ModuleShape* shape) {
  struct Parse {
    const uint32_t* base;
    ModuleShape* shape;
  } parse{words.data(), shape};
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  const spv_result_t result = spvBinaryParse(
      context, &parse, words.data(), words.size(), nullptr,
      [](void* user, const spv_parsed_instruction_t* inst) -> spv_result_t {
        auto* p = static_cast<Parse*>(user);
        ModuleShape& s = *p->shape;
        const uint32_t at = static_cast<uint32_t>(inst->words - p->base);
        if (inst->type_id != 0 && inst->result_id != 0) {
          s.type_of[inst->result_id] = inst->type_id;
          s.ids_of_type[inst->type_id].push_back(inst->result_id);
        }
        const auto opcode = static_cast<spv::Op>(inst->opcode);
        if (opcode == spv::Op::OpBranchConditional) s.branch_conditional.push_back(at);
        if (opcode == spv::Op::OpConstant && inst->num_words == 4)
          s.constant_literals.push_back(at + 3);
        // Data operands of instructions with a result type: rewiring one
        // keeps the module well typed when the new value has the same type.
        const bool data = inst->type_id != 0 || opcode == spv::Op::OpStore ||
                          opcode == spv::Op::OpBranchConditional ||
                          opcode == spv::Op::OpReturnValue;
        if (!data) return SPV_SUCCESS;
        for (uint16_t i = 0; i < inst->num_operands; ++i) {
          const spv_parsed_operand_t& operand = inst->operands[i];
          if (operand.type == SPV_OPERAND_TYPE_ID) s.id_operands.push_back(at + operand.offset);
        }
        return SPV_SUCCESS;
      },
      nullptr);
  spvContextDestroy(context);
  return result == SPV_SUCCESS;
}

// One structure-aware mutation of |words| in place; false if none applies.
bool MutateWords(std::vector<uint32_t>& words, std::mt19937& rng) {
  ModuleShape shape;
  if (words.size() < 5 || !Shape(words, &shape)) return false;
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  switch (pick(4)) {
    case 0:
    case 1: {  // rewire an id operand to another value of its type
      if (shape.id_operands.empty()) return false;
      const uint32_t at = shape.id_operands[pick(shape.id_operands.size())];
      auto type = shape.type_of.find(words[at]);
      if (type == shape.type_of.end()) return false;
      const std::vector<uint32_t>& candidates = shape.ids_of_type[type->second];
      words[at] = candidates[pick(candidates.size())];
      return true;
    }
    case 2: {  // swap a conditional branch's targets
      if (shape.branch_conditional.empty()) return false;
      const uint32_t at = shape.branch_conditional[pick(shape.branch_conditional.size())];
      std::swap(words[at + 2], words[at + 3]);
      return true;
    }
    default: {  // a constant's literal: small values and edge cases
      if (shape.constant_literals.empty()) return false;
      const uint32_t at = shape.constant_literals[pick(shape.constant_literals.size())];
      static constexpr uint32_t kValues[] = {
          0,  1,  2,  3,          4,          7,          8,          31,
          32, 63, 64, 0x7fffffff, 0x80000000, 0xffffffff, 0x3f800000, 0xbf800000};
      words[at] = pick(2) == 0 ? kValues[pick(sizeof(kValues) / sizeof(kValues[0]))]
                               : words[at] + static_cast<uint32_t>(pick(5)) - 2;
      return true;
    }
  }
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  std::mt19937 rng(seed);
  // Mostly structure-aware; a byte mutation now and then reaches shapes
  // rewiring cannot (and keeps the loaders' paths covered).
  if (size % 4 == 0 && size >= 20 && rng() % 8 != 0) {
    std::vector<uint32_t> words(size / 4);
    std::memcpy(words.data(), data, size);
    for (int tries = 0; tries < 4; ++tries) {
      if (MutateWords(words, rng)) {
        std::memcpy(data, words.data(), size);
        return size;
      }
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
#endif  // SPIRV_CONV_LIBFUZZER

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  Expected<SpirvBinary> binary = LoadSpirvFromBytes("fuzz.spv", bytes, LoadOptions());
  if (!binary) return 0;
  if (!ValidateSpirv(binary->words, binary->target_env, ValidatorFlags(), binary->name,
                     ExitCode::kBadInput)) {
    return 0;
  }
  Analyse(*binary);
  Transform(*binary);
  return 0;
}
