// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Fuzz target for the module loader. Built three times: as binary_load_fuzzer
// (input read as a SPIR-V binary), assembly_load_fuzzer (as assembly) and
// hlsl_load_fuzzer (as an HLSL pixel shader).
// Whatever the input, loading must end in a value or an Error, never a crash;
// every module the validator accepts must survive the IR round trip word for
// word; the --skip-validation path must not crash either.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "spirv_conv/emit.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/load.h"
#include "spirv_conv/pipeline.h"
#include "spirv_conv/validate.h"

#ifndef SPIRV_CONV_FUZZ_INPUT_NAME
#error "SPIRV_CONV_FUZZ_INPUT_NAME names the input kind (fuzz.spv, fuzz.spvasm, fuzz.ps.hlsl)"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace spirv_conv;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  Expected<SpirvBinary> binary =
      LoadSpirvFromBytes(SPIRV_CONV_FUZZ_INPUT_NAME, bytes, LoadOptions());
  if (!binary) {
    if (binary.error().code != ExitCode::kBadInput || binary.error().message.empty()) std::abort();
    return 0;
  }
  (void)Disassemble(binary->words, binary->target_env, DisassembleOptions(), binary->name);

  Status valid = ValidateSpirv(binary->words, binary->target_env, ValidatorFlags(), binary->name,
                               ExitCode::kBadInput);
  if (valid) {
    Expected<std::vector<uint32_t>> output = RunPipeline(*binary, PipelineOptions());
    // A valid module round-trips through the IR unchanged (no passes yet).
    if (!output || *output != binary->words) std::abort();
  } else {
    // opt --skip-validation: the IR loader sees the invalid module. Any
    // outcome but a crash is fine: what comes out has passed the output gate.
    PipelineOptions skip;
    skip.skip_input_validation = true;
    (void)RunPipeline(*binary, skip);
  }
  return 0;
}
