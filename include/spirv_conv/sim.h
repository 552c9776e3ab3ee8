// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The SIMT simulator (docs/simulator.md): executes a GLCompute entry point of a
// Shader module or a Kernel entry point of an OpenCL module (physical addressing,
// parameters as buffers) over workgroups split into subgroups, whose invocations run as
// tangles (sets of invocations executing the same dynamic instance) under one
// of three reconvergence models. The oracle of the transforms' tests.

#ifndef INCLUDE_SPIRV_CONV_SIM_H_
#define INCLUDE_SPIRV_CONV_SIM_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "spirv_conv/status.h"

namespace spvtools {
namespace opt {
class IRContext;
}  // namespace opt
}  // namespace spvtools

namespace spirv_conv {
namespace sim {

// Where diverged invocations of a subgroup reconverge.
enum class Model {
  kMaximal,      // SPV_KHR_maximal_reconvergence: merge blocks, continue targets, after calls
  kIpdom,        // the immediate post-dominator of the divergent branch (any CFG)
  kAdversarial,  // only where subgroup-uniform control flow requires it; seeded order
};

const char* ModelName(Model model);
// "maximal", "ipdom" or "adversarial"; anything else is a kBadInput error.
Expected<Model> ParseModel(const std::string& name);

// The contents of one descriptor (one element of a binding) or of the push constants.
struct Buffer {
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t element = 0;
  bool push_constant = false;
  bool storage = true;  // false: a uniform buffer (not read back)
  std::vector<uint8_t> bytes;
};

struct RunOptions {
  std::array<uint32_t, 3> workgroups{1, 1, 1};
  uint32_t subgroup_size = 8;  // a power of two in [4, 128]
  Model model = Model::kMaximal;
  uint64_t seed = 0;                       // adversarial: the order tangles run in
  uint64_t max_instructions = 1ull << 32;  // issued, over the whole dispatch; then an error
};

// Per basic block: how often a tangle issued one of its instructions, and
// how many lanes were active over those issues.
struct BlockStats {
  std::string function;
  uint32_t block = 0;  // the OpLabel id
  uint64_t issued = 0;
  uint64_t active_lanes = 0;
};

struct Stats {
  std::string model;
  uint32_t subgroup_size = 0;
  std::array<uint32_t, 3> workgroups{1, 1, 1};
  std::array<uint32_t, 3> workgroup_size{1, 1, 1};
  uint64_t invocations = 0;
  uint64_t subgroups = 0;
  uint64_t issued = 0;        // instructions issued by tangles
  uint64_t active_lanes = 0;  // Σ active lanes over the issues (= invocation-instructions)
  std::vector<uint64_t> tangle_sizes;  // [n]: issues by a tangle of n lanes
  std::vector<BlockStats> blocks;      // blocks never executed are left out
  uint64_t barriers = 0;               // workgroup barriers released
  double SimtEfficiency() const;
};

struct RunResult {
  std::vector<Buffer> buffers;  // every storage-buffer descriptor, after the dispatch
  Stats stats;
};

// A decoded module, ready to run any number of times.
class Program;

// Decodes the GLCompute or Kernel entry point |entry| (empty: the only one) of |context|.
// Unsupported capabilities, addressing models and execution models are errors
// (kBadInput) naming them; unsupported instructions fail when executed.
Expected<std::shared_ptr<const Program>> Compile(spvtools::opt::IRContext& context,
                                                 const std::string& entry, const std::string& name);

// What the program declares, for callers that allocate its buffers. A Kernel's
// parameter i is set 0, binding i (kernel_argument): a CrossWorkgroup pointer is
// storage (read back), size 0, runtime_array; a UniformConstant pointer the same but
// not storage; a Workgroup pointer local_memory (the buffer's length sizes a
// zero-filled region per workgroup); a value (or byval aggregate) |size| bytes.
struct ResourceInfo {
  uint32_t set = 0, binding = 0;
  uint32_t count = 1;  // descriptors in the binding (0: a runtime array)
  bool push_constant = false;
  bool storage = false;
  uint32_t size = 0;  // bytes of the fixed part of one block
  bool runtime_array = false;
  bool kernel_argument = false;
  bool local_memory = false;
};
std::vector<ResourceInfo> Resources(const Program& program);
std::array<uint32_t, 3> LocalSize(const Program& program);

// Runs one dispatch. A buffer the program declares but |inputs| lacks is zero-filled
// with its block's fixed size (a kernel's pointer argument: empty). Errors: kBadInput for unusable
// inputs or unsupported instructions; kFindings for faults of the shader (out-of-bounds access, a
// divergent barrier, OpUnreachable, deadlock, the instruction limit).
Expected<RunResult> Run(const Program& program, const std::vector<Buffer>& inputs,
                        const RunOptions& options);

// The statistics as JSON (docs/simulator.md) or a short text summary.
std::string StatsJson(const Stats& stats);
std::string StatsText(const Stats& stats);

// vk_runner jobs (test/vulkan/README.md, "Job format"): "mode": "compute" with
// storage_buffer / uniform_buffer bindings and push constants. Other modes and
// binding types are kBadInput errors naming them.
struct JobBinding {
  uint32_t set = 0, binding = 0;
  bool storage = true;
  std::vector<std::vector<uint8_t>> elements;
};
struct Job {
  std::string spv_path;  // resolved against the job file's folder
  std::string entry = "main";
  std::array<uint32_t, 3> groups{1, 1, 1};
  std::vector<JobBinding> bindings;
  std::vector<uint8_t> push_constants;
  bool has_push_constants = false;
};
Expected<Job> LoadJob(const std::string& path);
// The buffers a job binds, as Run takes them.
std::vector<Buffer> JobBuffers(const Job& job);
// vk_runner's result JSON: {"device": {...}, "buffers": [{"set", "binding", "element",
// "u32"}], "images": []}, buffers in the job's order (unchanged ones too); |stats|
// is added as "stats" when not null.
std::string JobResultJson(const Job& job, const RunResult& result, const RunOptions& options,
                          const Stats* stats);

// One buffer file: raw bytes, or (*.json) {"u32"|"i32"|"f32": [...], "size": bytes} as
// one element of a job's buffer binding.
Expected<std::vector<uint8_t>> LoadBufferFile(const std::string& path);
// {"u32": [...]} of |bytes| (zero-padded to whole words).
std::string BufferJson(const std::vector<uint8_t>& bytes);

}  // namespace sim
}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_SIM_H_
