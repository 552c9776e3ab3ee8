// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// vk_runner JOB.json [-o RESULT.json] [--device NAME]
//
// Runs one SPIR-V module on a real Vulkan driver (the tests use lavapipe) as
// a compute dispatch or a full-screen fragment shader, with the descriptors
// the job describes, and prints (or writes) what it produced as JSON:
// test/vulkan/README.md. Exit codes: 0 ok, 1 Vulkan error, 2 bad job or
// usage, 77 no Vulkan device (a skipped test for CTest).

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "descriptors.h"
#include "interface.h"
#include "job.h"
#include "run.h"
#include "vk_context.h"

namespace vk_runner {
namespace {

constexpr int kExitVulkanError = 1;
constexpr int kExitBadJob = 2;
constexpr int kExitSkip = 77;

struct Arguments {
  std::string job;
  std::string output;  // empty: stdout
  std::string device;  // substring of the device name; empty: the first device
};

const char kUsage[] =
    "usage: vk_runner JOB.json [-o RESULT.json] [--device NAME]\n"
    "  Runs the job's SPIR-V module on a Vulkan device and prints the storage buffers,\n"
    "  storage images and (render mode) the framebuffer as JSON (test/vulkan/README.md).\n"
    "  --device NAME  use the first device whose name contains NAME\n"
    "Exit codes: 0 ok, 1 Vulkan error, 2 bad job or usage, 77 no Vulkan device.\n";

bool ParseArguments(int argc, char** argv, Arguments* arguments) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "-o" || arg == "--device") && i + 1 < argc) {
      (arg == "-o" ? arguments->output : arguments->device) = argv[++i];
    } else if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (!arg.empty() && arg[0] != '-' && arguments->job.empty()) {
      arguments->job = arg;
    } else {
      return false;
    }
  }
  return !arguments->job.empty();
}

// .ppm: binary PPM (RGB, alpha dropped); anything else: raw RGBA8 rows, top first.
void WriteFramebufferFile(const std::string& path, const std::vector<uint8_t>& pixels,
                          uint32_t width, uint32_t height) {
  std::ofstream out(path, std::ios::binary);
  const bool ppm = path.size() >= 4 && path.compare(path.size() - 4, 4, ".ppm") == 0;
  if (ppm) {
    out << "P6\n" << width << " " << height << "\n255\n";
    for (size_t i = 0; i < pixels.size(); i += 4) {
      out.write(reinterpret_cast<const char*>(&pixels[i]), 3);
    }
  } else {
    out.write(reinterpret_cast<const char*>(pixels.data()),
              static_cast<std::streamsize>(pixels.size()));
  }
  out.close();
  if (!out) throw std::runtime_error("cannot write the framebuffer file '" + path + "'");
}

nlohmann::json DeviceJson(const DeviceInfo& info) {
  return {{"name", info.name},
          {"api_version", info.api_version},
          {"driver", info.driver},
          {"subgroup_size", info.subgroup_size},
          {"subgroup_stages", info.subgroup_stages},
          {"subgroup_operations", info.subgroup_operations},
          {"features_enabled", info.features_enabled}};
}

nlohmann::json Run(const Arguments& arguments) {
  // Everything about the job is checked before the first Vulkan call.
  const Job job = LoadJob(arguments.job);
  const std::vector<uint32_t> spirv = LoadSpirv(job.spv_path);
  const std::vector<uint32_t> vertex_spirv =
      job.vertex_spv_path.empty() ? std::vector<uint32_t>() : LoadSpirv(job.vertex_spv_path);
  CheckInterface(spirv, vertex_spirv, job);

  Context context(arguments.device, job.features, job.timeout_ms);
  const bool compute = job.mode == Mode::kCompute;
  Descriptors descriptors(context, job,
                          compute ? VK_SHADER_STAGE_COMPUTE_BIT : VK_SHADER_STAGE_FRAGMENT_BIT);
  nlohmann::json result = {{"device", DeviceJson(context.info())}};
  if (compute) {
    RunCompute(context, job, spirv, descriptors);
  } else {
    std::vector<uint8_t> pixels = RunRender(context, job, spirv, vertex_spirv, descriptors);
    nlohmann::json framebuffer = {{"width", job.width}, {"height", job.height}};
    if (!job.framebuffer_file.empty()) {
      WriteFramebufferFile(job.framebuffer_file, pixels, job.width, job.height);
      framebuffer["file"] = job.framebuffer_file;
    }
    if (job.framebuffer_json) framebuffer["rgba8"] = pixels;
    result["framebuffer"] = std::move(framebuffer);
  }
  result["buffers"] = descriptors.ReadStorageBuffers();
  result["images"] = descriptors.ReadStorageImages();
  return result;
}

int Main(int argc, char** argv) {
  Arguments arguments;
  if (!ParseArguments(argc, argv, &arguments)) {
    std::cerr << kUsage;
    return kExitBadJob;
  }
  nlohmann::json result;
  try {
    result = Run(arguments);
  } catch (const JobError& e) {
    std::cerr << "vk_runner: bad job: " << e.what() << "\n";
    return kExitBadJob;
  } catch (const NoDevice& e) {
    // Loud, because a skipped driver test is easy to overlook.
    std::cerr << "vk_runner: SKIP: no Vulkan device: " << e.what() << "\n";
    return kExitSkip;
  } catch (const std::exception& e) {  // VulkanError and the rest
    std::cerr << "vk_runner: error: " << e.what() << "\n";
    return kExitVulkanError;
  }

  const std::string text = result.dump() + "\n";
  if (arguments.output.empty()) {
    std::cout << text;
    std::cout.flush();
    return std::cout ? 0 : kExitVulkanError;
  }
  std::ofstream out(arguments.output, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "vk_runner: error: cannot write '" << arguments.output << "'\n";
    return kExitVulkanError;
  }
  return 0;
}

}  // namespace
}  // namespace vk_runner

int main(int argc, char** argv) { return vk_runner::Main(argc, argv); }
