// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// Buffers and images: created, filled from a job's data, read back. Every
// object is destroyed with the Context.

#ifndef SPIRV_CONV_TEST_VULKAN_RESOURCES_H_
#define SPIRV_CONV_TEST_VULKAN_RESOURCES_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "job.h"
#include "vk_context.h"

namespace vk_runner {

// A buffer in host-visible, coherent memory, mapped for its whole life.
struct HostBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  void* mapped = nullptr;
};

HostBuffer CreateHostBuffer(Context& context, VkDeviceSize size, VkBufferUsageFlags usage);

struct Image {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;  // all levels
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t levels = 0;
};

VkFormat ToVkFormat(ImageFormat format);

// An optimally tiled 2D image with |desc|'s levels uploaded, left in |layout|.
Image CreateImage(Context& context, const ImageDesc& desc, VkImageUsageFlags usage,
                  VkImageLayout layout);

// An image without contents (render targets), in VK_IMAGE_LAYOUT_UNDEFINED.
Image CreateEmptyImage(Context& context, uint32_t width, uint32_t height, VkFormat format,
                       VkImageUsageFlags usage);

// Records a layout transition of all of |image|'s levels; the stage and access
// masks are those of the previous and the next use.
void RecordTransition(VkCommandBuffer command_buffer, const Image& image, VkImageLayout from,
                      VkImageLayout to, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                      VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

// The texel bytes of each level of |image| (4 bytes per texel, rows top first),
// which must be in |layout| and was last written at |src_stage| with |src_access|.
std::vector<std::vector<uint8_t>> ReadImage(Context& context, const Image& image,
                                            VkImageLayout layout, VkPipelineStageFlags src_stage,
                                            VkAccessFlags src_access);

VkSampler CreateSampler(Context& context, const SamplerDesc& desc);

}  // namespace vk_runner

#endif  // SPIRV_CONV_TEST_VULKAN_RESOURCES_H_
