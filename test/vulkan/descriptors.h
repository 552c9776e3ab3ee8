// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// A job's bindings turned into resources, descriptor sets and a pipeline
// layout, and the storage resources read back afterwards.

#ifndef SPIRV_CONV_TEST_VULKAN_DESCRIPTORS_H_
#define SPIRV_CONV_TEST_VULKAN_DESCRIPTORS_H_

#include <vulkan/vulkan.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "job.h"
#include "resources.h"
#include "vk_context.h"

namespace vk_runner {

class Descriptors {
 public:
  // Creates and fills every resource of |job| for shaders of |stage|.
  Descriptors(Context& context, const Job& job, VkShaderStageFlags stage);

  VkPipelineLayout pipeline_layout() const { return pipeline_layout_; }

  // Binds the sets and pushes the constants for |bind_point|.
  void RecordBind(VkCommandBuffer command_buffer, VkPipelineBindPoint bind_point) const;

  // Makes the shader stage's writes to storage resources visible to the host
  // and to the copies that read storage images.
  void RecordShaderWritesBarrier(VkCommandBuffer command_buffer) const;

  // Every storage buffer's contents as {"set", "binding", "element", "u32": [...]},
  // and every storage image's as {..., "width", "height", "format", "u8"|"f32": [...]}.
  nlohmann::json ReadStorageBuffers() const;
  nlohmann::json ReadStorageImages();

 private:
  struct StorageBuffer {
    uint32_t set, binding, element;
    HostBuffer buffer;
  };
  struct StorageImage {
    uint32_t set, binding, element;
    ImageFormat format;
    Image image;
  };

  Context& context_;
  const Job& job_;
  VkShaderStageFlags stage_;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets_;  // indexed by set number, 0..highest used
  std::vector<StorageBuffer> storage_buffers_;
  std::vector<StorageImage> storage_images_;
};

}  // namespace vk_runner

#endif  // SPIRV_CONV_TEST_VULKAN_DESCRIPTORS_H_
