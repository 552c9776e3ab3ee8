// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "resources.h"

#include <algorithm>
#include <cstring>

namespace vk_runner {
namespace {

uint32_t LevelSize(uint32_t size, uint32_t level) { return std::max(1u, size >> level); }

// Buffer <-> image copy regions, one per level, packed back to back in the buffer.
std::vector<VkBufferImageCopy> LevelRegions(const Image& image, VkDeviceSize* total_bytes) {
  std::vector<VkBufferImageCopy> regions;
  VkDeviceSize offset = 0;
  for (uint32_t level = 0; level < image.levels; ++level) {
    VkBufferImageCopy region{};
    region.bufferOffset = offset;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
    region.imageExtent = {LevelSize(image.width, level), LevelSize(image.height, level), 1};
    regions.push_back(region);
    offset += VkDeviceSize{region.imageExtent.width} * region.imageExtent.height * 4;
  }
  *total_bytes = offset;
  return regions;
}

Image MakeImage(Context& context, uint32_t width, uint32_t height, uint32_t levels, VkFormat format,
                VkImageUsageFlags usage) {
  VkDevice device = context.device();
  Image image;
  image.format = format;
  image.width = width;
  image.height = height;
  image.levels = levels;
  VkImageCreateInfo create{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  create.imageType = VK_IMAGE_TYPE_2D;
  create.format = format;
  create.extent = {width, height, 1};
  create.mipLevels = levels;
  create.arrayLayers = 1;
  create.samples = VK_SAMPLE_COUNT_1_BIT;
  create.tiling = VK_IMAGE_TILING_OPTIMAL;
  create.usage = usage;
  create.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  create.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VK_RUNNER_CHECK(vkCreateImage(device, &create, nullptr, &image.image));
  VkImage handle = image.image;
  context.Defer([device, handle] { vkDestroyImage(device, handle, nullptr); });
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(device, handle, &requirements);
  VkDeviceMemory memory = context.Allocate(requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
  VK_RUNNER_CHECK(vkBindImageMemory(device, handle, memory, 0));

  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = handle;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = format;
  view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
  VK_RUNNER_CHECK(vkCreateImageView(device, &view, nullptr, &image.view));
  VkImageView view_handle = image.view;
  context.Defer([device, view_handle] { vkDestroyImageView(device, view_handle, nullptr); });
  return image;
}

}  // namespace

HostBuffer CreateHostBuffer(Context& context, VkDeviceSize size, VkBufferUsageFlags usage) {
  VkDevice device = context.device();
  VkBufferCreateInfo create{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  create.size = size;
  create.usage = usage;
  create.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  HostBuffer result;
  result.size = size;
  VK_RUNNER_CHECK(vkCreateBuffer(device, &create, nullptr, &result.buffer));
  VkBuffer buffer = result.buffer;
  context.Defer([device, buffer] { vkDestroyBuffer(device, buffer, nullptr); });
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, buffer, &requirements);
  // Registered after the buffer, so freed before it is destroyed: harmless.
  VkDeviceMemory memory = context.Allocate(
      requirements, 0, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  VK_RUNNER_CHECK(vkBindBufferMemory(device, buffer, memory, 0));
  VK_RUNNER_CHECK(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &result.mapped));
  return result;
}

VkFormat ToVkFormat(ImageFormat format) {
  return format == ImageFormat::kRgba8 ? VK_FORMAT_R8G8B8A8_UNORM : VK_FORMAT_R32_SFLOAT;
}

Image CreateImage(Context& context, const ImageDesc& desc, VkImageUsageFlags usage,
                  VkImageLayout layout) {
  Image image =
      MakeImage(context, desc.width, desc.height, static_cast<uint32_t>(desc.levels.size()),
                ToVkFormat(desc.format), usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  VkDeviceSize bytes = 0;
  std::vector<VkBufferImageCopy> regions = LevelRegions(image, &bytes);
  HostBuffer staging = CreateHostBuffer(context, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  for (size_t level = 0; level < desc.levels.size(); ++level) {
    std::memcpy(static_cast<char*>(staging.mapped) + regions[level].bufferOffset,
                desc.levels[level].data(), desc.levels[level].size());
  }
  context.Submit([&](VkCommandBuffer command_buffer) {
    RecordTransition(command_buffer, image, VK_IMAGE_LAYOUT_UNDEFINED,
                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdCopyBufferToImage(command_buffer, staging.buffer, image.image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           static_cast<uint32_t>(regions.size()), regions.data());
    // Later uses are shader reads and writes of any stage.
    RecordTransition(command_buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, layout,
                     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                     VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  });
  return image;
}

Image CreateEmptyImage(Context& context, uint32_t width, uint32_t height, VkFormat format,
                       VkImageUsageFlags usage) {
  return MakeImage(context, width, height, 1, format, usage);
}

void RecordTransition(VkCommandBuffer command_buffer, const Image& image, VkImageLayout from,
                      VkImageLayout to, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                      VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image.image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, image.levels, 0, 1};
  vkCmdPipelineBarrier(command_buffer, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1,
                       &barrier);
}

std::vector<std::vector<uint8_t>> ReadImage(Context& context, const Image& image,
                                            VkImageLayout layout, VkPipelineStageFlags src_stage,
                                            VkAccessFlags src_access) {
  VkDeviceSize bytes = 0;
  std::vector<VkBufferImageCopy> regions = LevelRegions(image, &bytes);
  HostBuffer readback = CreateHostBuffer(context, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  context.Submit([&](VkCommandBuffer command_buffer) {
    RecordTransition(command_buffer, image, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, src_stage,
                     src_access, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    vkCmdCopyImageToBuffer(command_buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           readback.buffer, static_cast<uint32_t>(regions.size()), regions.data());
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(command_buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                         0, 1, &to_host, 0, nullptr, 0, nullptr);
  });
  std::vector<std::vector<uint8_t>> levels;
  for (const VkBufferImageCopy& region : regions) {
    const auto* begin = static_cast<const uint8_t*>(readback.mapped) + region.bufferOffset;
    levels.emplace_back(begin,
                        begin + size_t{region.imageExtent.width} * region.imageExtent.height * 4);
  }
  return levels;
}

VkSampler CreateSampler(Context& context, const SamplerDesc& desc) {
  VkSamplerCreateInfo create{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  create.magFilter = create.minFilter = desc.linear_filter ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  create.mipmapMode =
      desc.linear_mipmap ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  create.addressModeU = create.addressModeV = create.addressModeW =
      desc.clamp ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE : VK_SAMPLER_ADDRESS_MODE_REPEAT;
  create.maxLod = VK_LOD_CLAMP_NONE;
  VkSampler sampler = VK_NULL_HANDLE;
  VK_RUNNER_CHECK(vkCreateSampler(context.device(), &create, nullptr, &sampler));
  VkDevice device = context.device();
  context.Defer([device, sampler] { vkDestroySampler(device, sampler, nullptr); });
  return sampler;
}

}  // namespace vk_runner
