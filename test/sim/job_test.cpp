// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// vk_runner jobs in the simulator: the same job file, the same result shape.

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/sim_test_util.h"

namespace spirv_conv {
namespace test {
namespace {

class SimJob : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("spirv_conv_sim_job_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    const SpirvBinary binary = MustLoad("job.comp", R"(#version 450
layout(local_size_x = 4) in;
layout(push_constant) uniform P { uint add; };
layout(set = 0, binding = 0) uniform U { uint scale; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() { uint i = gl_GlobalInvocationID.x; o[i] = i * scale + add; }
)");
    std::ofstream(dir_ / "job.spv", std::ios::binary)
        .write(reinterpret_cast<const char*>(binary.words.data()),
               static_cast<std::streamsize>(binary.words.size() * 4));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string WriteJob(const std::string& text) {
    const std::string path = (dir_ / "job.json").string();
    std::ofstream(path) << text;
    return path;
  }

  std::filesystem::path dir_;
};

TEST_F(SimJob, RunsAComputeJobAndAnswersInVkRunnersFormat) {
  const std::string path = WriteJob(R"({"mode": "compute", "spv": "job.spv", "groups": [2, 1, 1],
    "push_constants": {"u32": [5]},
    "bindings": [{"set": 0, "binding": 0, "type": "uniform_buffer", "elements": [{"u32": [10]}]},
                 {"set": 0, "binding": 1, "type": "storage_buffer", "elements": [{"size": 40}]}]})");
  Expected<sim::Job> job = sim::LoadJob(path);
  ASSERT_TRUE(job.ok()) << job.error().message;
  EXPECT_EQ(job->spv_path, (dir_ / "job.spv").string());
  Expected<sim::RunResult> result =
      RunBinary(MustLoad(job->spv_path,
                         [&] {
                           std::ifstream in(job->spv_path, std::ios::binary);
                           return std::string(std::istreambuf_iterator<char>(in), {});
                         }()),
                sim::JobBuffers(*job), [&] {
                  sim::RunOptions o;
                  o.workgroups = job->groups;
                  return o;
                }());
  ASSERT_TRUE(result.ok()) << result.error().message;
  sim::RunOptions options;
  const nlohmann::json out =
      nlohmann::json::parse(sim::JobResultJson(*job, *result, options, nullptr));
  // 8 invocations: o[i] = 10 i + 5; the last two words stay zero. The uniform buffer is not listed.
  const nlohmann::json expected = nlohmann::json::parse(
      R"([{"set": 0, "binding": 1, "element": 0, "u32": [5, 15, 25, 35, 45, 55, 65, 75, 0, 0]}])");
  EXPECT_EQ(out["buffers"], expected);
  EXPECT_EQ(out["device"]["subgroup_size"], 8);
}

TEST_F(SimJob, RunsARenderJobWithATexture) {
  // x = 0, 1 sample level 1 of the texture (green 0.5: byte lround(127.5) =
  // 128); x = 2, 3 discard and keep the clear colour.
  const SpirvBinary frag = MustLoad("job.frag", R"(#version 450
layout(set = 0, binding = 3) uniform sampler2D tex;
layout(location = 0) out vec4 o;
void main() {
  if (gl_FragCoord.x > 2.0) discard;
  o = textureLod(tex, vec2(0.5), 1.0);
})");
  std::ofstream(dir_ / "frag.spv", std::ios::binary)
      .write(reinterpret_cast<const char*>(frag.words.data()),
             static_cast<std::streamsize>(frag.words.size() * 4));
  Expected<sim::Job> job = sim::LoadJob(WriteJob(R"({"mode": "render", "spv": "frag.spv",
    "width": 4, "height": 1, "clear": [0, 0, 1, 1],
    "bindings": [{"set": 0, "binding": 3, "type": "combined_image_sampler", "elements": [
      {"width": 4, "height": 4, "levels": [{"color": [1, 0, 0, 1]}, {"color": [0, 0.5, 0, 1]}]}]}]})"));
  ASSERT_TRUE(job.ok()) << job.error().message;
  sim::RunOptions options;
  sim::ApplyJob(*job, &options);
  Expected<sim::RunResult> result = RunBinary(frag, sim::JobBuffers(*job), options);
  ASSERT_TRUE(result.ok()) << result.error().message;
  const nlohmann::json out =
      nlohmann::json::parse(sim::JobResultJson(*job, *result, options, nullptr));
  const std::vector<int> expected = {0, 128, 0,   255, 0, 128, 0,   255,
                                     0, 0,   255, 255, 0, 0,   255, 255};
  EXPECT_EQ(out["framebuffer"]["rgba8"], nlohmann::json(expected));
  EXPECT_EQ(out["framebuffer"]["width"], 4);
}

TEST_F(SimJob, RejectsWhatItCannotRun) {
  Expected<sim::Job> mode = sim::LoadJob(WriteJob(R"({"mode": "graphics", "spv": "job.spv"})"));
  ASSERT_FALSE(mode.ok());
  EXPECT_NE(mode.error().message.find("expected \"compute\" or \"render\""), std::string::npos);
  Expected<sim::Job> render = sim::LoadJob(WriteJob(R"({"mode": "render", "spv": "job.spv"})"));
  ASSERT_FALSE(render.ok());
  EXPECT_NE(render.error().message.find("job.width: expected an integer in [1, 4096]"),
            std::string::npos)
      << render.error().message;
  Expected<sim::Job> image = sim::LoadJob(WriteJob(
      R"({"mode": "compute", "spv": "job.spv", "bindings": [{"set": 0, "binding": 0, "type": "storage_image", "elements": [{}]}]})"));
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.error().code, ExitCode::kBadInput);
  EXPECT_NE(image.error().message.find("elements[0]: width: expected an integer"),
            std::string::npos)
      << image.error().message;
  Expected<sim::Job> levels = sim::LoadJob(WriteJob(
      R"({"mode": "render", "spv": "job.spv", "width": 4, "height": 4, "bindings": [{"set": 0, "binding": 0, "type": "combined_image_sampler", "elements": [{"width": 2, "height": 2, "levels": [{"color": [1, 0, 0, 1]}, {"color": [0, 1, 0, 1]}, {"color": [0, 0, 1, 1]}]}]}]})"));
  ASSERT_FALSE(levels.ok());
  EXPECT_NE(levels.error().message.find("more than the full mip chain"), std::string::npos)
      << levels.error().message;
  Expected<sim::Job> typo =
      sim::LoadJob(WriteJob(R"({"mode": "compute", "spv": "job.spv", "grops": [1, 1, 1]})"));
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.error().message.find("unknown key \"grops\""), std::string::npos);
}

// vk_runner's limits (test/vulkan/README.md): 256 elements per binding, 256
// MiB of buffers per job; and an f32 a float cannot hold is an error, not a
// conversion with undefined behaviour.
TEST_F(SimJob, RejectsJobsBeyondTheLimits) {
  std::string elements;
  for (int i = 0; i < 257; ++i) elements += std::string(i ? "," : "") + "{}";
  auto binding = [](const std::string& list) {
    return R"({"mode": "compute", "spv": "job.spv", "bindings": [{"set": 0, "binding": 0,
               "type": "storage_buffer", "elements": [)" +
           list + "]}]}";
  };
  Expected<sim::Job> many = sim::LoadJob(WriteJob(binding(elements)));
  ASSERT_FALSE(many.ok());
  EXPECT_NE(many.error().message.find("at most 256"), std::string::npos);
  std::string big;
  for (int i = 0; i < 5; ++i) big += std::string(i ? "," : "") + R"({"size": 67108864})";
  Expected<sim::Job> huge = sim::LoadJob(WriteJob(binding(big)));
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().message.find("exceed 256 MiB"), std::string::npos);
  Expected<sim::Job> wide = sim::LoadJob(WriteJob(binding(R"({"f32": [1e300]})")));
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.error().message.find("f32: out of range"), std::string::npos);
}

}  // namespace
}  // namespace test
}  // namespace spirv_conv
