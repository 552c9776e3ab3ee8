// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The simulator benchmark (docs/simulator.md, "Performance"): simulated
// instructions per second on a large compute shader: a hash-and-accumulate
// loop with divergent branches, shared memory, barriers and subgroup
// reductions, 4 workgroups of 256 invocations. Counters: issued = tangle
// instruction issues per second, lanes = invocation-instructions per second.

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "source/opt/ir_context.h"
#include "spirv_conv/ir.h"
#include "spirv_conv/load.h"
#include "spirv_conv/sim.h"

namespace {

const char* kShader = R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
shared uint tile[256];
uint hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
void main() {
  uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
  uint acc = data[i];
  vec4 f = vec4(float(l), 1.0, 2.0, 3.0);
  for (uint k = 0; k < 64; ++k) {
    uint h = hash(acc + k);
    if ((h & 3u) == 0u) {
      acc += subgroupAdd(h & 0xFFu);
    } else if ((h & 3u) == 1u) {
      f = f * 0.5 + vec4(float(h & 15u));
      acc ^= uint(dot(f, vec4(1.0)));
    } else {
      for (uint j = 0; j < (h & 7u); ++j) acc = acc * 3u + j;
    }
    tile[l] = acc;
    barrier();
    acc += tile[(l + 1u) & 255u];
    barrier();
  }
  data[i] = acc + subgroupBallot(acc > 100u).x;
})";

void BM_Simulate(benchmark::State& state, spirv_conv::sim::Model model) {
  spirv_conv::Expected<spirv_conv::SpirvBinary> binary =
      spirv_conv::LoadSpirvFromBytes("bench.comp", kShader, spirv_conv::LoadOptions());
  if (!binary) {
    state.SkipWithError(binary.error().message.c_str());
    return;
  }
  auto context = spirv_conv::BuildIrContext(*binary);
  auto program = spirv_conv::sim::Compile(**context, "", "bench.comp");
  if (!program) {
    state.SkipWithError(program.error().message.c_str());
    return;
  }
  spirv_conv::sim::Buffer data;
  data.bytes.assign(4 * 1024 * 4, 1);
  spirv_conv::sim::RunOptions options;
  options.workgroups = {4, 1, 1};
  options.model = model;
  uint64_t issued = 0, lanes = 0;
  for (auto _ : state) {
    auto result = spirv_conv::sim::Run(**program, {data}, options);
    if (!result) {
      state.SkipWithError(result.error().message.c_str());
      return;
    }
    issued += result->stats.issued;
    lanes += result->stats.active_lanes;
    benchmark::DoNotOptimize(result->buffers);
  }
  state.counters["issued"] =
      benchmark::Counter(static_cast<double>(issued), benchmark::Counter::kIsRate);
  state.counters["lanes"] =
      benchmark::Counter(static_cast<double>(lanes), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(BM_Simulate, maximal, spirv_conv::sim::Model::kMaximal)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Simulate, ipdom, spirv_conv::sim::Model::kIpdom)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Simulate, adversarial, spirv_conv::sim::Model::kAdversarial)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
