// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The vk_runner job file (test/vulkan/README.md, "Job format"), parsed and
// checked completely before any Vulkan call, so a bad job is always exit 2.

#ifndef SPIRV_CONV_TEST_VULKAN_JOB_H_
#define SPIRV_CONV_TEST_VULKAN_JOB_H_

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace vk_runner {

// A job file that cannot be run as written.
class JobError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Mode { kCompute, kRender };

enum class DescriptorType {
  kStorageBuffer,
  kUniformBuffer,
  kSampledImage,
  kSampler,
  kCombinedImageSampler,
  kStorageImage,
};

const char* DescriptorTypeName(DescriptorType type);

enum class ImageFormat { kRgba8, kR32f };

// Bytes per texel of |format|.
uint32_t TexelSize(ImageFormat format);

struct ImageDesc {
  uint32_t width = 0;
  uint32_t height = 0;
  ImageFormat format = ImageFormat::kRgba8;
  // Texel bytes of each mip level, tightly packed rows, top row first.
  std::vector<std::vector<uint8_t>> levels;
};

struct SamplerDesc {
  bool linear_filter = false;  // mag/min filter
  bool linear_mipmap = false;  // mipmap mode
  bool clamp = false;          // clamp-to-edge instead of repeat
};

// One array element of a binding; which members matter depends on the type.
struct Element {
  std::vector<uint32_t> words;  // buffers: the initial contents, zero-padded to the size
  ImageDesc image;              // images
  SamplerDesc sampler;          // samplers
};

struct Binding {
  uint32_t set = 0;
  uint32_t binding = 0;
  DescriptorType type = DescriptorType::kStorageBuffer;
  std::vector<Element> elements;  // as many as the descriptor count
};

// render: an interpolated fragment-shader input, the plane a + b*x + c*y of
// each component at the pixel centre (x + 0.5, y + 0.5). vk_runner does not
// interpolate it itself: the job's vertex shader ("vertex_spv") writes these
// values; vk_runner checks them against the shaders' interfaces, and the
// simulator reads the same key (docs/simulator.md).
struct InputPlane {
  uint32_t location = 0;
  std::vector<std::array<float, 3>> plane;  // one [a, b, c] per component, 1 to 4
};

struct Job {
  Mode mode = Mode::kCompute;
  std::string spv_path;  // resolved against the job file's folder
  std::string entry = "main";
  std::array<uint32_t, 3> groups{1, 1, 1};  // compute
  uint32_t width = 0;                       // render
  uint32_t height = 0;
  std::array<float, 4> clear{0, 0, 0, 0};
  std::vector<std::string> features;
  std::vector<uint32_t> push_constants;
  std::vector<Binding> bindings;
  std::string vertex_spv_path;     // render: the vertex shader; empty for the built-in one
  std::vector<InputPlane> inputs;  // render: the fragment shader's interpolated inputs
  std::string framebuffer_file;    // render: .ppm (RGB) or raw RGBA8; empty for none
  bool framebuffer_json = true;    // render: put the pixels into the result JSON
  uint32_t timeout_ms = 30000;     // per queue submission
};

// Reads and checks |path|; throws JobError.
Job LoadJob(const std::string& path);

// The SPIR-V words of |path|; throws JobError when it is not a SPIR-V binary.
std::vector<uint32_t> LoadSpirv(const std::string& path);

}  // namespace vk_runner

#endif  // SPIRV_CONV_TEST_VULKAN_JOB_H_
