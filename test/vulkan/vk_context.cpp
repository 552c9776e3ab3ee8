// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "vk_context.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "features.h"

namespace vk_runner {
namespace {

std::string VersionString(uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
         std::to_string(VK_API_VERSION_MINOR(version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(version));
}

// The names of the set bits of |mask|, from a table in bit order.
std::vector<std::string> BitNames(uint32_t mask,
                                  std::initializer_list<std::pair<uint32_t, const char*>> table) {
  std::vector<std::string> names;
  for (const auto& [bit, name] : table) {
    if (mask & bit) names.emplace_back(name);
  }
  return names;
}

bool HasExtension(VkPhysicalDevice device, const char* name) {
  uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr) != VK_SUCCESS) {
    return false;
  }
  std::vector<VkExtensionProperties> extensions(count);
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data()) !=
      VK_SUCCESS) {
    return false;
  }
  for (const VkExtensionProperties& extension : extensions) {
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  }
  return false;
}

}  // namespace

// The message names the function only: the macro's argument text is the whole call.
VulkanError::VulkanError(const std::string& call, VkResult result)
    : std::runtime_error(call.substr(0, call.find('(')) + " failed: " + ResultName(result)) {}

const char* ResultName(VkResult result) {
  switch (result) {
#define VK_RUNNER_RESULT(name) \
  case name:                   \
    return #name;
    VK_RUNNER_RESULT(VK_SUCCESS)
    VK_RUNNER_RESULT(VK_NOT_READY)
    VK_RUNNER_RESULT(VK_TIMEOUT)
    VK_RUNNER_RESULT(VK_INCOMPLETE)
    VK_RUNNER_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    VK_RUNNER_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VK_RUNNER_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    VK_RUNNER_RESULT(VK_ERROR_DEVICE_LOST)
    VK_RUNNER_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    VK_RUNNER_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    VK_RUNNER_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    VK_RUNNER_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    VK_RUNNER_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    VK_RUNNER_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    VK_RUNNER_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VK_RUNNER_RESULT(VK_ERROR_FRAGMENTED_POOL)
    VK_RUNNER_RESULT(VK_ERROR_UNKNOWN)
    VK_RUNNER_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    VK_RUNNER_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    VK_RUNNER_RESULT(VK_ERROR_FRAGMENTATION)
    VK_RUNNER_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef VK_RUNNER_RESULT
    default:
      break;
  }
  return "VkResult (unnamed)";
}

Context::Context(const std::string& device_filter, const std::vector<std::string>& features,
                 uint32_t timeout_ms)
    : timeout_ns_(uint64_t{timeout_ms} * 1000000) {
  // The destructor does not run for a constructor that throws; release what
  // was created so far (LeakSanitizer would report the loader's allocations).
  try {
    CreateInstance();
    PickPhysicalDevice(device_filter);
    CreateDevice(features);
  } catch (...) {
    Release();
    throw;
  }
}

Context::~Context() { Release(); }

void Context::Release() {
  if (device_ != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device_);
    for (auto it = deferred_.rbegin(); it != deferred_.rend(); ++it) (*it)();
    deferred_.clear();
    if (command_pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_, command_pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (instance_ != VK_NULL_HANDLE) {
    vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
}

void Context::CreateInstance() {
  uint32_t loader_version = VK_API_VERSION_1_0;
  // vkEnumerateInstanceVersion is exported by 1.1+ loaders only, hence the lookup.
  auto enumerate_version = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
  if (enumerate_version) enumerate_version(&loader_version);
  if (loader_version < VK_API_VERSION_1_1) {
    throw NoDevice("the Vulkan loader supports only Vulkan " + VersionString(loader_version));
  }
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vk_runner";
  // The highest version the runner knows; each device then runs at its own.
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo create{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  create.pApplicationInfo = &app;
  VkResult result = vkCreateInstance(&create, nullptr, &instance_);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER || result == VK_ERROR_INITIALIZATION_FAILED) {
    instance_ = VK_NULL_HANDLE;
    throw NoDevice(std::string("vkCreateInstance: ") + ResultName(result) +
                   " (no Vulkan driver installed?)");
  }
  VK_RUNNER_CHECK(result);
}

void Context::PickPhysicalDevice(const std::string& device_filter) {
  uint32_t count = 0;
  VK_RUNNER_CHECK(vkEnumeratePhysicalDevices(instance_, &count, nullptr));
  std::vector<VkPhysicalDevice> devices(count);
  VK_RUNNER_CHECK(vkEnumeratePhysicalDevices(instance_, &count, devices.data()));
  devices.resize(count);
  std::string seen;
  for (VkPhysicalDevice device : devices) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(device, &properties);
    seen += std::string(seen.empty() ? "" : ", ") + properties.deviceName + " (Vulkan " +
            VersionString(properties.apiVersion) + ")";
    if (properties.apiVersion < VK_API_VERSION_1_1) continue;
    if (!device_filter.empty() &&
        std::string(properties.deviceName).find(device_filter) == std::string::npos) {
      continue;
    }
    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &family_count, families.data());
    for (uint32_t family = 0; family < family_count; ++family) {
      const VkQueueFlags needed = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
      if ((families[family].queueFlags & needed) == needed) {
        physical_device_ = device;
        device_api_version_ = properties.apiVersion;
        queue_family_ = family;
        info_.name = properties.deviceName;
        info_.api_version = VersionString(properties.apiVersion);
        return;
      }
    }
  }
  const char* what =
      count ? "no Vulkan 1.1 device with a graphics+compute queue" : "no Vulkan physical device";
  throw NoDevice(what +
                 (device_filter.empty() ? "" : " whose name contains '" + device_filter + "'") +
                 (seen.empty() ? "" : " (found: " + seen + ")"));
}

void Context::CreateDevice(const std::vector<std::string>& features) {
  // What the device has: the 1.2 structure exists from Vulkan 1.2 or with the extension.
  const bool indexing_core = device_api_version_ >= VK_API_VERSION_1_2;
  const bool indexing_ext =
      !indexing_core && HasExtension(physical_device_, VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME);
  FeatureSet supported;
  VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  if (indexing_core || indexing_ext) features2.pNext = &supported.descriptor_indexing;
  vkGetPhysicalDeviceFeatures2(physical_device_, &features2);
  supported.core = features2.features;

  FeatureSet enabled;
  bool any_indexing = false;
  for (const std::string& name : features) {
    if (!FeatureMember(supported, name)) {
      throw VulkanError("feature " + name + " is not supported by " + info_.name);
    }
    FeatureMember(enabled, name) = VK_TRUE;
    FeatureGroup group = FeatureGroup::kCore;
    LookUpFeature(name, &group);
    any_indexing = any_indexing || group == FeatureGroup::kDescriptorIndexing;
    info_.features_enabled.push_back(name);
  }

  std::vector<const char*> extensions;
  if (any_indexing && indexing_ext) {
    extensions.push_back(VK_KHR_MAINTENANCE3_EXTENSION_NAME);  // required by the EXT
    extensions.push_back(VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME);
  }

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = queue_family_;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo create{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  create.queueCreateInfoCount = 1;
  create.pQueueCreateInfos = &queue;
  create.pEnabledFeatures = &enabled.core;
  create.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create.ppEnabledExtensionNames = extensions.data();
  // Chained only when asked for, so a job without indexing features runs on a
  // device created exactly as an application unaware of them would create it.
  if (any_indexing) create.pNext = &enabled.descriptor_indexing;
  VK_RUNNER_CHECK(vkCreateDevice(physical_device_, &create, nullptr, &device_));
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.queueFamilyIndex = queue_family_;
  VK_RUNNER_CHECK(vkCreateCommandPool(device_, &pool, nullptr, &command_pool_));

  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);

  VkPhysicalDeviceSubgroupProperties subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  if (indexing_core) subgroup.pNext = &driver;  // core in 1.2
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(physical_device_, &properties);
  info_.subgroup_size = subgroup.subgroupSize;
  info_.subgroup_stages = BitNames(subgroup.supportedStages,
                                   {{VK_SHADER_STAGE_VERTEX_BIT, "vertex"},
                                    {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, "tess_control"},
                                    {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, "tess_eval"},
                                    {VK_SHADER_STAGE_GEOMETRY_BIT, "geometry"},
                                    {VK_SHADER_STAGE_FRAGMENT_BIT, "fragment"},
                                    {VK_SHADER_STAGE_COMPUTE_BIT, "compute"}});
  info_.subgroup_operations = BitNames(
      subgroup.supportedOperations, {{VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
                                     {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
                                     {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
                                     {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
                                     {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
                                     {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
                                     {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
                                     {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"}});
  info_.driver = indexing_core ? std::string(driver.driverName) + ": " + driver.driverInfo
                               : std::string("(driver properties need Vulkan 1.2)");
}

void Context::Defer(std::function<void()> destroy) { deferred_.push_back(std::move(destroy)); }

VkDeviceMemory Context::Allocate(const VkMemoryRequirements& requirements,
                                 VkMemoryPropertyFlags wanted, VkMemoryPropertyFlags required) {
  // First a type with everything wanted, then any with what is required.
  uint32_t type = UINT32_MAX;
  for (VkMemoryPropertyFlags flags : {wanted | required, required}) {
    for (uint32_t i = 0; i < memory_properties_.memoryTypeCount && type == UINT32_MAX; ++i) {
      if ((requirements.memoryTypeBits & (1u << i)) &&
          (memory_properties_.memoryTypes[i].propertyFlags & flags) == flags) {
        type = i;
      }
    }
  }
  if (type == UINT32_MAX) throw VulkanError("no memory type for a resource");
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VK_RUNNER_CHECK(vkAllocateMemory(device_, &allocate, nullptr, &memory));
  Defer([this, memory] { vkFreeMemory(device_, memory, nullptr); });
  return memory;
}

VkShaderModule Context::CreateShaderModule(const uint32_t* words, size_t word_count) {
  VkShaderModuleCreateInfo create{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  create.codeSize = word_count * sizeof(uint32_t);
  create.pCode = words;
  VkShaderModule module = VK_NULL_HANDLE;
  VK_RUNNER_CHECK(vkCreateShaderModule(device_, &create, nullptr, &module));
  Defer([this, module] { vkDestroyShaderModule(device_, module, nullptr); });
  return module;
}

void Context::Submit(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = command_pool_;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  VK_RUNNER_CHECK(vkAllocateCommandBuffers(device_, &allocate, &command_buffer));
  // Freed with the pool when the context goes away.
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_RUNNER_CHECK(vkBeginCommandBuffer(command_buffer, &begin));
  record(command_buffer);
  VK_RUNNER_CHECK(vkEndCommandBuffer(command_buffer));

  VkFenceCreateInfo fence_create{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  VK_RUNNER_CHECK(vkCreateFence(device_, &fence_create, nullptr, &fence));
  Defer([this, fence] { vkDestroyFence(device_, fence, nullptr); });
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &command_buffer;
  VK_RUNNER_CHECK(vkQueueSubmit(queue_, 1, &submit, fence));
  VkResult result = vkWaitForFences(device_, 1, &fence, VK_TRUE, timeout_ns_);
  if (result == VK_TIMEOUT) {
    std::fprintf(stderr,
                 "vk_runner: error: the GPU work did not finish within %llu ms (a shader that "
                 "never terminates?)\n",
                 static_cast<unsigned long long>(timeout_ns_ / 1000000));
    std::fflush(stderr);
    std::_Exit(1);
  }
  VK_RUNNER_CHECK(result);
}

}  // namespace vk_runner
