// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Fuzz target for the device-profile reader (`spirv-conv opt --device FILE`):
// any bytes end in a profile or in a kBadInput error naming the file, never
// a crash or an escaping exception.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "spirv_conv/device_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace spirv_conv;
  const std::string text(reinterpret_cast<const char*>(data), size);
  Expected<DeviceProfile> profile = ParseDeviceProfile(text, "fuzz.json");
  if (!profile) {
    if (profile.error().code != ExitCode::kBadInput ||
        profile.error().message.find("fuzz.json") == std::string::npos) {
      std::abort();
    }
  }
  return 0;
}
