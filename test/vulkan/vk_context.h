// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// The Vulkan instance, device and queue vk_runner works with, the errors it
// reports, and the few helpers every part of it needs (memory, one-shot
// command buffers, deferred destruction).

#ifndef SPIRV_CONV_TEST_VULKAN_VK_CONTEXT_H_
#define SPIRV_CONV_TEST_VULKAN_VK_CONTEXT_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vk_runner {

// A failed Vulkan call (exit 1).
class VulkanError : public std::runtime_error {
 public:
  VulkanError(const std::string& call, VkResult result);
  explicit VulkanError(const std::string& message) : std::runtime_error(message) {}
};

// No usable Vulkan implementation on this machine (exit 77, a skipped test).
class NoDevice : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

const char* ResultName(VkResult result);

// Throws VulkanError naming the call (its source text) when it does not return VK_SUCCESS.
#define VK_RUNNER_CHECK(call)                                   \
  do {                                                          \
    VkResult vk_runner_result_ = (call);                        \
    if (vk_runner_result_ != VK_SUCCESS) {                      \
      throw ::vk_runner::VulkanError(#call, vk_runner_result_); \
    }                                                           \
  } while (0)

struct DeviceInfo {
  std::string name;
  std::string api_version;  // "1.3.230"
  std::string driver;       // driver name and info, e.g. "llvmpipe: Mesa 22.3.6 (LLVM 15.0.6)"
  uint32_t subgroup_size = 0;
  std::vector<std::string> subgroup_stages;      // "compute", "fragment", ...
  std::vector<std::string> subgroup_operations;  // "basic", "vote", ...
  std::vector<std::string> features_enabled;
};

class Context {
 public:
  // Picks the first Vulkan 1.1 device whose name contains |device_filter|
  // (any when empty) and enables exactly |features|. Throws NoDevice when
  // there is none, VulkanError when a feature is unsupported.
  Context(const std::string& device_filter, const std::vector<std::string>& features,
          uint32_t timeout_ms);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkDevice device() const { return device_; }
  const DeviceInfo& info() const { return info_; }

  // Runs |destroy| when the context goes away (in reverse order of
  // registration, after the device is idle, before it is destroyed).
  void Defer(std::function<void()> destroy);

  // Allocates memory for |requirements| preferring |wanted| properties
  // (falling back to any type that fits); freed with the context.
  VkDeviceMemory Allocate(const VkMemoryRequirements& requirements, VkMemoryPropertyFlags wanted,
                          VkMemoryPropertyFlags required);

  VkShaderModule CreateShaderModule(const uint32_t* words, size_t word_count);

  // Records with |record| into a fresh command buffer, submits it and waits.
  // A submission that does not finish within the timeout ends the process
  // (exit 1): the device cannot be torn down while it still runs.
  void Submit(const std::function<void(VkCommandBuffer)>& record);

 private:
  void CreateInstance();
  void PickPhysicalDevice(const std::string& device_filter);
  void CreateDevice(const std::vector<std::string>& features);
  // Destroys every Vulkan object; also used when the constructor fails.
  void Release();

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  uint32_t device_api_version_ = 0;
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  uint64_t timeout_ns_ = 0;
  DeviceInfo info_;
  std::vector<std::function<void()>> deferred_;
};

}  // namespace vk_runner

#endif  // SPIRV_CONV_TEST_VULKAN_VK_CONTEXT_H_
