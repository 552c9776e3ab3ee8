// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Device profiles: built-in, from `vulkaninfo --json`, from a profile file.

#include "spirv_conv/device_profile.h"

#include <cstdio>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "spirv_conv/nonuniform_passes.h"

namespace spirv_conv {
namespace {

std::string DataPath(const std::string& name) {
  return std::string(SPIRV_CONV_TEST_DATA_DIR) + "/" + name;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(DeviceProfileTest, LavapipeFromVulkanInfoMatchesTheMeasuredFacts) {
  // known-traps.md: dynamic indexing of uniform and storage buffer arrays
  // only, no non-uniform indexing of anything.
  Expected<DeviceProfile> device =
      LoadDeviceProfile(DataPath("devices/lavapipe-22.3.6.vulkaninfo.json"));
  ASSERT_TRUE(device.ok()) << device.error().message;
  EXPECT_EQ(device->name, "llvmpipe (LLVM 15.0.6, 256 bits)");
  EXPECT_EQ(device->ClassesWith(ArrayIndexing::kNonUniform).count(), 0u);
  DescriptorClassSet dynamic;
  dynamic.set(Bit(DescriptorClass::kUniformBuffer)).set(Bit(DescriptorClass::kStorageBuffer));
  EXPECT_EQ(device->ClassesWith(ArrayIndexing::kDynamic), dynamic);
  // The built-in profile says the same.
  EXPECT_EQ(BuiltinDeviceProfile("lavapipe")->indexing, device->indexing);
}

TEST(DeviceProfileTest, LoweringPerClassFollowsTheProfile) {
  const DeviceProfile lavapipe = *BuiltinDeviceProfile("lavapipe");
  std::vector<std::string> names;
  for (const auto& pass : LowerNonUniformPasses(lavapipe, {})) names.push_back(pass->name());
  EXPECT_EQ(names, (std::vector<std::string>{"descriptor-switch", "waterfall"}));
  names.clear();
  for (const auto& pass : LowerNonUniformPasses(*BuiltinDeviceProfile("desktop"), {})) {
    names.push_back(pass->name());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"fix-nonuniform"}));
}

TEST(DeviceProfileTest, ProfileFile) {
  const std::string path = WriteTemp("gpu.json", R"({"spirv-conv-device-profile": 1,
    "name": "my-gpu", "indexing": {"sampled-image": "dynamic", "storage-buffer": "non-uniform"}})");
  Expected<DeviceProfile> device = LoadDeviceProfile(path);
  ASSERT_TRUE(device.ok()) << device.error().message;
  EXPECT_EQ(device->name, "my-gpu");
  EXPECT_EQ(device->Indexing(DescriptorClass::kSampledImage), ArrayIndexing::kDynamic);
  EXPECT_EQ(device->Indexing(DescriptorClass::kStorageBuffer), ArrayIndexing::kNonUniform);
  // Classes it does not name: constant indices only.
  EXPECT_EQ(device->Indexing(DescriptorClass::kUniformBuffer), ArrayIndexing::kConstant);
}

TEST(DeviceProfileTest, ErrorsNameTheFileAndTheProblem) {
  struct Case {
    std::string text;
    std::string message;
  };
  const Case cases[] = {
      {"{not json", "not valid JSON"},
      // A number too large for a double: nlohmann throws out_of_range, not
      // parse_error (found by device_profile_fuzzer).
      {"[1111111e11111111111]", "not valid JSON"},
      {"[1]", "expected a JSON object"},
      {R"({"capabilities": {}})", "no capabilities.device.features"},
      {R"({"spirv-conv-device-profile": 2})", "version"},
      {R"({"spirv-conv-device-profile": 1, "indexing": {"texture": "dynamic"}})",
       "unknown descriptor class \"texture\""},
      {R"({"spirv-conv-device-profile": 1, "indexing": {"sampled-image": "yes"}})",
       "expected \"constant\", \"dynamic\" or \"non-uniform\""},
  };
  int n = 0;
  for (const Case& c : cases) {
    const std::string path = WriteTemp("bad" + std::to_string(n++) + ".json", c.text);
    Expected<DeviceProfile> device = LoadDeviceProfile(path);
    ASSERT_FALSE(device.ok()) << c.text;
    EXPECT_EQ(device.error().code, ExitCode::kBadInput);
    EXPECT_NE(device.error().message.find(path), std::string::npos) << device.error().message;
    EXPECT_NE(device.error().message.find(c.message), std::string::npos) << device.error().message;
  }
  Expected<DeviceProfile> missing = LoadDeviceProfile("no-such-gpu");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("built-in profiles: lavapipe, desktop"),
            std::string::npos);
}

}  // namespace
}  // namespace spirv_conv
