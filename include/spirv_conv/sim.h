// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The SIMT simulator (docs/simulator.md): executes a GLCompute entry point of a
// Shader module, a Fragment entry point over a rectangle of pixels in 2x2 quads
// (helper invocations, derivatives, sampled images), or a Kernel entry point of
// an OpenCL module (physical addressing, parameters as buffers) over workgroups
// split into subgroups, whose invocations run as
// tangles (sets of invocations executing the same dynamic instance) under one
// of three reconvergence models. The oracle of the transforms' tests.

#ifndef INCLUDE_SPIRV_CONV_SIM_H_
#define INCLUDE_SPIRV_CONV_SIM_H_

#include <algorithm>
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

// A sampler's state (VkSamplerCreateInfo's filters and address mode, the same
// for every coordinate; no LOD clamp, bias or anisotropy). Depth comparisons
// (OpImageSampleDref*) pass when the reference is <= the texel
// (VK_COMPARE_OP_LESS_OR_EQUAL).
struct Sampler {
  enum class Filter : uint8_t { kNearest, kLinear };
  enum class Address : uint8_t { kRepeat, kClampToEdge };
  Filter filter = Filter::kNearest;  // magnification and minification
  Filter mipmap = Filter::kNearest;
  Address address = Address::kRepeat;
};

// The contents of one image descriptor (an image, a sampler, or both): set,
// binding and array element as for buffers. Texels are RGBA values as floats
// (integer images: the integers), rows top first, then layers or depth slices,
// one vector per mip level (level l is max(1, width >> l) wide).
struct Image {
  enum class Format : uint8_t { kRgba8, kR32f, kRgba32i };
  enum class Shape : uint8_t { k2D, k3D, kCube };
  uint32_t set = 0, binding = 0, element = 0;
  uint32_t width = 0, height = 0;
  Shape shape = Shape::k2D;
  bool arrayed = false;
  uint32_t layers = 1;  // array layers (a cube: 6 faces per layer), or a 3D image's depth
  Format format = Format::kRgba8;
  std::vector<std::vector<float>> levels;  // 4 values per texel
  Sampler sampler;                         // combined image samplers and samplers
  // The layers (or depth slices) of |level|.
  uint32_t LayersAt(uint32_t level) const {
    return shape == Shape::k3D ? std::max(1u, layers >> level) : layers;
  }
};

// The default texture of an image no input gives: 64x64 (3D: 16x16x16) RGBA8
// with its full mip chain, level 0 a black and white checkerboard of 4x4-texel
// squares (3D: cubes of 4), each further level the box average of the one above;
// arrays have 4 layers, cubes 6 faces, alike; integer images hold 0 and 1
// (docs/simulator.md, "Fragment shaders").
Image DefaultImage(uint32_t set, uint32_t binding, uint32_t element,
                   Image::Shape shape = Image::Shape::k2D, bool arrayed = false,
                   bool integer = false);

// What a Fragment entry point runs over (docs/simulator.md, "Fragment shaders").
struct Frame {
  uint32_t width = 16, height = 16;  // pixels; 1..4096 each
  // Per pixel (rows top first) 0 = not covered; empty = every pixel covered.
  // An uncovered pixel of a quad with a covered one runs as a helper invocation.
  std::vector<uint8_t> coverage;
  // vk_runner's full-screen triangle is clockwise in framebuffer coordinates,
  // so back-facing under VK_FRONT_FACE_COUNTER_CLOCKWISE: gl_FrontFacing false.
  bool front_facing = false;
  // An interpolated input (a Location of the entry point's interface). Per
  // component either a plane, value = a + b*x + c*y at the pixel centre
  // (x + 0.5, y + 0.5), or a value per pixel (rows top first); flat integer
  // inputs take a, rounded toward zero, or their per-pixel values as integers.
  struct Input {
    uint32_t location = 0;
    std::array<std::array<double, 3>, 4> plane{};  // [component] {a, b, c}
    std::array<std::vector<double>, 4> per_pixel;  // [component]; empty: the plane
  };
  std::vector<Input> inputs;  // a location not listed takes the default (docs/simulator.md)
};

struct RunOptions {
  std::array<uint32_t, 3> workgroups{1, 1, 1};
  uint32_t subgroup_size = 8;  // a power of two in [4, 128]
  Model model = Model::kMaximal;
  uint64_t seed = 0;                       // adversarial: the order tangles run in
  uint64_t max_instructions = 1ull << 32;  // issued, over the whole dispatch; then an error
  std::vector<Image> images;  // image and sampler descriptors; missing ones: DefaultImage
  Frame frame;                // Fragment entry points
};

// Per basic block: how often a tangle issued one of its instructions, and
// how many lanes were active over those issues.
struct BlockStats {
  std::string function;
  uint32_t block = 0;  // the OpLabel id
  uint64_t issued = 0;
  uint64_t active_lanes = 0;
  uint64_t entries = 0;  // lanes active at its first instruction: invocations that entered it
  uint64_t visits = 0;   // issues of its first instruction: tangles that entered it
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
  bool fragment = false;               // the counts below are for Fragment entry points
  // Fragment entry points: invocations that started as helpers (uncovered pixels
  // of covered quads), that ended by OpKill / OpTerminateInvocation, and that
  // were demoted by OpDemoteToHelperInvocation.
  uint64_t helper_invocations = 0, terminated = 0, demoted = 0;
  // Derivatives (explicit, or implicit in sampling) executed without all four
  // invocations of the quad: their value is undefined (counted here, per
  // instruction; docs/simulator.md says what value the simulator gives).
  struct UndefinedDerivative {
    std::string function;
    uint32_t block = 0;   // the OpLabel id
    uint32_t result = 0;  // the instruction's result id
    std::string opcode;   // "DPdx", "ImageSampleImplicitLod", ...
    uint64_t count = 0;   // invocations that got an undefined value
  };
  std::vector<UndefinedDerivative> undefined_derivatives;
  double SimtEfficiency() const;
};

// The final value of a fragment output (one Location, or the depth) per pixel,
// rows top first; pixels no invocation wrote (not covered, terminated, helpers)
// keep 0.
struct Attachment {
  int32_t location = 0;  // -1: FragDepth
  uint32_t width = 0, height = 0;
  uint32_t components = 0;  // of the output variable (1..4)
  enum class Kind : uint8_t { kFloat, kInt, kUint } kind = Kind::kFloat;
  std::vector<double> values;    // width * height * components
  std::vector<uint8_t> written;  // per pixel: an invocation finished there and wrote it
};

struct RunResult {
  std::vector<Buffer> buffers;          // every storage-buffer descriptor, after the dispatch
  std::vector<Image> images;            // every storage-image descriptor, after the dispatch
  std::vector<Attachment> attachments;  // Fragment entry points, by location
  Stats stats;
};

// A decoded module, ready to run any number of times.
class Program;

// Decodes the GLCompute, Fragment or Kernel entry point |entry| (empty: the only one) of |context|.
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
  bool image = false;    // a sampled or storage image (or combined image sampler)
  bool sampler = false;  // a sampler (or combined image sampler)
};
std::vector<ResourceInfo> Resources(const Program& program);
// True when the program's entry point is a Fragment shader.
bool IsFragment(const Program& program);
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

// vk_runner jobs (test/vulkan/README.md, "Job format"): "mode": "compute" (one
// dispatch) or "render" (the module is the fragment shader of a full-screen
// triangle: every pixel covered, no interpolated inputs), with storage_buffer /
// uniform_buffer / sampled_image / sampler / combined_image_sampler /
// storage_image bindings and push constants. Other keys are kBadInput errors
// naming them.
struct JobBinding {
  uint32_t set = 0, binding = 0;
  enum class Type : uint8_t {
    kStorageBuffer,
    kUniformBuffer,
    kSampledImage,
    kSampler,
    kCombinedImageSampler,
    kStorageImage
  } type = Type::kStorageBuffer;
  bool storage = true;                         // a storage buffer
  std::vector<std::vector<uint8_t>> elements;  // buffers
  std::vector<Image> images;                   // images and samplers
};
struct Job {
  std::string spv_path;  // resolved against the job file's folder
  std::string entry = "main";
  bool render = false;
  std::array<uint32_t, 3> groups{1, 1, 1};
  uint32_t width = 0, height = 0;  // render
  std::array<double, 4> clear{0, 0, 0, 0};
  std::vector<Frame::Input> inputs;  // render: interpolated inputs as planes
  std::string framebuffer_file;      // render: also written here (*.ppm: PPM, else raw RGBA8)
  bool framebuffer_json = true;
  std::vector<JobBinding> bindings;
  std::vector<uint8_t> push_constants;
  bool has_push_constants = false;
};
Expected<Job> LoadJob(const std::string& path);
// The buffers a job binds, as Run takes them.
std::vector<Buffer> JobBuffers(const Job& job);
// The images and samplers a job binds, and for render jobs its frame.
void ApplyJob(const Job& job, RunOptions* options);
// vk_runner's result JSON: {"device": {...}, "buffers": [{"set", "binding", "element",
// "u32"}], "images": [...], "framebuffer": {...}, "attachments": [...]}, buffers and
// storage images in the job's order (unchanged ones too), the framebuffer (render jobs:
// location 0 as RGBA8 unorm, the clear colour where no invocation wrote), a fragment
// shader's attachments (AttachmentJson); |stats| is added as "stats" when not null.
std::string JobResultJson(const Job& job, const RunResult& result, const RunOptions& options,
                          const Stats* stats);
// A render job's framebuffer as RGBA8 bytes, rows top first.
std::vector<uint8_t> Framebuffer(const Job& job, const RunResult& result);

// {"location", "width", "height", "components", "f32"|"i32"|"u32": [...], "written": [...]}.
std::string AttachmentJson(const Attachment& attachment);

// A .json file {"<key>": [numbers]}: the list.
Expected<std::vector<double>> LoadNumberList(const std::string& path, const std::string& key);
// An interpolated input file (*.json): {"plane": [[a, b, c], ...]} or
// {"per_pixel": [[...], ...]}, one entry per component (at most 4).
Expected<Frame::Input> LoadInputFile(const std::string& path);

// One image file (*.json): an element of a job's image binding, {"width", "height",
// "format", "levels": [...], "sampler": {...}} (test/vulkan/README.md).
Expected<Image> LoadImageFile(const std::string& path);

// One buffer file: raw bytes, or (*.json) {"u32"|"i32"|"f32": [...], "size": bytes} as
// one element of a job's buffer binding.
Expected<std::vector<uint8_t>> LoadBufferFile(const std::string& path);
// {"u32": [...]} of |bytes| (zero-padded to whole words).
std::string BufferJson(const std::vector<uint8_t>& bytes);

}  // namespace sim
}  // namespace spirv_conv

#endif  // INCLUDE_SPIRV_CONV_SIM_H_
