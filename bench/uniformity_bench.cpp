// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// In-process timings for docs/performance.md, per input module:
//
//   load/NAME      LoadSpirvFromBytes + BuildIrContext (SPIRV-Tools' parser
//                  into the optimizer IR), from the bytes already in memory.
//   analysis/NAME  UniformityInfo::Compute on a freshly built context, so
//                  anything it builds lazily is counted, as a user pays it.
//   managers/NAME  SPIRV-Tools' def-use, decoration and constant managers on
//                  a fresh context: what the analysis saves by indexing ids
//                  itself (analysis/module_index.h), for comparison.
//   walk/NAME      one walk over every instruction of every function body,
//                  reading its opcode and each operand's first word: what
//                  reading the module once costs, for comparison.
//
// Context construction and destruction are excluded from the analysis timers
// (PauseTiming). Usage:
//
//   uniformity_bench --input NAME=FILE [--input NAME=FILE ...] [benchmark flags]
//
// bench/run.py generates the inputs and runs this with --benchmark_format=json.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/load.h"
#include "spirv_conv/uniformity.h"

namespace {

using spvtools::opt::IRContext;

struct Input {
  std::string name;
  std::string path;
  std::string bytes;
};

// Parses |input| into a fresh context; null (and |error| set) on failure.
std::unique_ptr<IRContext> Load(const Input& input, std::string* error) {
  spirv_conv::Expected<spirv_conv::SpirvBinary> binary =
      spirv_conv::LoadSpirvFromBytes(input.path, input.bytes, spirv_conv::LoadOptions{});
  if (!binary) {
    *error = binary.error().message;
    return nullptr;
  }
  spirv_conv::Expected<std::unique_ptr<IRContext>> context = spirv_conv::BuildIrContext(*binary);
  if (!context) {
    *error = context.error().message;
    return nullptr;
  }
  return std::move(context).value();
}

void BM_Load(benchmark::State& state, const Input* input) {
  std::unique_ptr<IRContext> context;
  for (auto _ : state) {
    std::string error;
    context = Load(*input, &error);
    if (!context) {
      state.SkipWithError(error.c_str());
      break;
    }
    benchmark::DoNotOptimize(context.get());
    state.PauseTiming();
    context.reset();
    state.ResumeTiming();
  }
  state.counters["bytes"] = static_cast<double>(input->bytes.size());
}

// Times |work(context)| on a freshly loaded IR context per iteration; the
// load and the context's destruction are not timed. |work| returns false
// (after SkipWithError) to stop.
template <typename Work>
void TimeOnFreshContext(benchmark::State& state, const Input* input, const Work& work) {
  for (auto _ : state) {
    state.PauseTiming();
    std::string error;
    std::unique_ptr<IRContext> context = Load(*input, &error);
    if (!context) {
      state.SkipWithError(error.c_str());
      break;
    }
    state.ResumeTiming();
    const bool go_on = work(context.get());
    state.PauseTiming();
    context.reset();
    state.ResumeTiming();
    if (!go_on) break;
  }
}

void BM_Analysis(benchmark::State& state, const Input* input) {
  TimeOnFreshContext(state, input, [&](IRContext* context) {
    auto info = spirv_conv::UniformityInfo::Compute(context);
    if (!info) {
      state.SkipWithError(info.error().message.c_str());
      return false;
    }
    benchmark::DoNotOptimize(info->get());
    state.PauseTiming();  // the result's destruction is not timed either
    info->reset();
    state.ResumeTiming();
    return true;
  });
}

void BM_Managers(benchmark::State& state, const Input* input) {
  TimeOnFreshContext(state, input, [](IRContext* context) {
    benchmark::DoNotOptimize(context->get_def_use_mgr());
    benchmark::DoNotOptimize(context->get_decoration_mgr());
    benchmark::DoNotOptimize(context->get_constant_mgr());
    return true;
  });
}

// A floor for any analysis that reads the module: one walk over every
// instruction of every function body (plain loops, no std::function),
// reading its opcode and the first word of each operand, as the model
// build must. Not a part of the analysis; for comparison.
void BM_Walk(benchmark::State& state, const Input* input) {
  TimeOnFreshContext(state, input, [](IRContext* context) {
    uint64_t sum = 0;
    for (const spvtools::opt::Function& function : *context->module()) {
      for (const spvtools::opt::BasicBlock& block : function) {
        for (const spvtools::opt::Instruction& inst : block) {
          sum += static_cast<uint32_t>(inst.opcode());
          for (uint32_t i = 0; i < inst.NumOperands(); ++i) sum += inst.GetOperand(i).words[0];
        }
      }
    }
    benchmark::DoNotOptimize(sum);
    return true;
  });
}

bool ReadFile(const std::string& path, std::string* bytes) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  std::ostringstream text;
  text << file.rdbuf();
  *bytes = text.str();
  return static_cast<bool>(file) || file.eof();
}

}  // namespace

int main(int argc, char** argv) {
  // Our own flags first; the rest goes to Google Benchmark.
  std::vector<Input> inputs;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string spec;
    if (arg == "--input" && i + 1 < argc) {
      spec = argv[++i];
    } else if (arg.rfind("--input=", 0) == 0) {
      spec = arg.substr(std::strlen("--input="));
    } else {
      rest.push_back(argv[i]);
      continue;
    }
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::fprintf(stderr, "uniformity_bench: --input wants NAME=FILE, got '%s'\n", spec.c_str());
      return 2;
    }
    Input input{spec.substr(0, eq), spec.substr(eq + 1), {}};
    if (!ReadFile(input.path, &input.bytes)) {
      std::fprintf(stderr, "uniformity_bench: cannot read '%s'\n", input.path.c_str());
      return 2;
    }
    inputs.push_back(std::move(input));
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: uniformity_bench --input NAME=FILE [...] [benchmark flags]\n");
    return 2;
  }
  for (const Input& input : inputs) {
    benchmark::RegisterBenchmark(("load/" + input.name).c_str(), BM_Load, &input)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("analysis/" + input.name).c_str(), BM_Analysis, &input)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("managers/" + input.name).c_str(), BM_Managers, &input)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("walk/" + input.name).c_str(), BM_Walk, &input)
        ->Unit(benchmark::kMillisecond);
  }
  int count = static_cast<int>(rest.size());
  benchmark::Initialize(&count, rest.data());
  if (benchmark::ReportUnrecognizedArguments(count, rest.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
