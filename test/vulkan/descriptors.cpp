// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "descriptors.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace vk_runner {
namespace {

VkDescriptorType ToVkType(DescriptorType type) {
  switch (type) {
    case DescriptorType::kStorageBuffer:
      return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    case DescriptorType::kUniformBuffer:
      return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    case DescriptorType::kSampledImage:
      return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    case DescriptorType::kSampler:
      return VK_DESCRIPTOR_TYPE_SAMPLER;
    case DescriptorType::kCombinedImageSampler:
      return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case DescriptorType::kStorageImage:
      return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  }
  return VK_DESCRIPTOR_TYPE_MAX_ENUM;
}

VkPipelineStageFlags PipelineStage(VkShaderStageFlags stage) {
  return stage == VK_SHADER_STAGE_COMPUTE_BIT ? VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
                                              : VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
}

}  // namespace

Descriptors::Descriptors(Context& context, const Job& job, VkShaderStageFlags stage)
    : context_(context), job_(job), stage_(stage) {
  VkDevice device = context.device();
  uint32_t set_count = 0;
  for (const Binding& binding : job.bindings) set_count = std::max(set_count, binding.set + 1);

  // One layout per set number up to the highest used; sets the job leaves
  // out get empty layouts, as pipeline layouts cannot have holes.
  std::vector<std::vector<VkDescriptorSetLayoutBinding>> layout_bindings(set_count);
  std::map<VkDescriptorType, uint32_t> pool_counts;
  for (const Binding& binding : job.bindings) {
    const auto count = static_cast<uint32_t>(binding.elements.size());
    layout_bindings[binding.set].push_back(
        {binding.binding, ToVkType(binding.type), count, stage, nullptr});
    pool_counts[ToVkType(binding.type)] += count;
  }
  std::vector<VkDescriptorSetLayout> set_layouts;
  for (const auto& bindings : layout_bindings) {
    VkDescriptorSetLayoutCreateInfo create{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    create.bindingCount = static_cast<uint32_t>(bindings.size());
    create.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    VK_RUNNER_CHECK(vkCreateDescriptorSetLayout(device, &create, nullptr, &layout));
    context.Defer([device, layout] { vkDestroyDescriptorSetLayout(device, layout, nullptr); });
    set_layouts.push_back(layout);
  }

  VkPipelineLayoutCreateInfo layout_create{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_create.setLayoutCount = set_count;
  layout_create.pSetLayouts = set_layouts.data();
  VkPushConstantRange push_range{stage, 0, static_cast<uint32_t>(job.push_constants.size() * 4)};
  if (!job.push_constants.empty()) {
    layout_create.pushConstantRangeCount = 1;
    layout_create.pPushConstantRanges = &push_range;
  }
  VK_RUNNER_CHECK(vkCreatePipelineLayout(device, &layout_create, nullptr, &pipeline_layout_));
  VkPipelineLayout pipeline_layout = pipeline_layout_;
  context.Defer(
      [device, pipeline_layout] { vkDestroyPipelineLayout(device, pipeline_layout, nullptr); });
  if (set_count == 0) return;

  std::vector<VkDescriptorPoolSize> pool_sizes;
  for (const auto& [type, count] : pool_counts) pool_sizes.push_back({type, count});
  VkDescriptorPoolCreateInfo pool_create{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_create.maxSets = set_count;
  pool_create.poolSizeCount = static_cast<uint32_t>(pool_sizes.size());
  pool_create.pPoolSizes = pool_sizes.data();
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VK_RUNNER_CHECK(vkCreateDescriptorPool(device, &pool_create, nullptr, &pool));
  context.Defer([device, pool] { vkDestroyDescriptorPool(device, pool, nullptr); });
  VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate.descriptorPool = pool;
  allocate.descriptorSetCount = set_count;
  allocate.pSetLayouts = set_layouts.data();
  sets_.resize(set_count);
  VK_RUNNER_CHECK(vkAllocateDescriptorSets(device, &allocate, sets_.data()));

  for (const Binding& binding : job.bindings) {
    std::vector<VkDescriptorBufferInfo> buffer_infos;
    std::vector<VkDescriptorImageInfo> image_infos;
    for (uint32_t i = 0; i < binding.elements.size(); ++i) {
      const Element& element = binding.elements[i];
      switch (binding.type) {
        case DescriptorType::kStorageBuffer:
        case DescriptorType::kUniformBuffer: {
          const bool storage = binding.type == DescriptorType::kStorageBuffer;
          HostBuffer buffer = CreateHostBuffer(
              context, element.words.size() * 4,
              storage ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
          std::memcpy(buffer.mapped, element.words.data(), element.words.size() * 4);
          buffer_infos.push_back({buffer.buffer, 0, VK_WHOLE_SIZE});
          if (storage) storage_buffers_.push_back({binding.set, binding.binding, i, buffer});
          break;
        }
        case DescriptorType::kSampler:
          image_infos.push_back(
              {CreateSampler(context, element.sampler), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED});
          break;
        case DescriptorType::kSampledImage:
        case DescriptorType::kCombinedImageSampler: {
          const VkImageLayout layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
          Image image = CreateImage(context, element.image, VK_IMAGE_USAGE_SAMPLED_BIT, layout);
          VkSampler sampler = binding.type == DescriptorType::kCombinedImageSampler
                                  ? CreateSampler(context, element.sampler)
                                  : VK_NULL_HANDLE;
          image_infos.push_back({sampler, image.view, layout});
          break;
        }
        case DescriptorType::kStorageImage: {
          Image image = CreateImage(context, element.image,
                                    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                    VK_IMAGE_LAYOUT_GENERAL);
          image_infos.push_back({VK_NULL_HANDLE, image.view, VK_IMAGE_LAYOUT_GENERAL});
          storage_images_.push_back({binding.set, binding.binding, i, element.image.format, image});
          break;
        }
      }
    }
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = sets_[binding.set];
    write.dstBinding = binding.binding;
    write.descriptorCount = static_cast<uint32_t>(binding.elements.size());
    write.descriptorType = ToVkType(binding.type);
    write.pBufferInfo = buffer_infos.empty() ? nullptr : buffer_infos.data();
    write.pImageInfo = image_infos.empty() ? nullptr : image_infos.data();
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
  }
}

void Descriptors::RecordBind(VkCommandBuffer command_buffer, VkPipelineBindPoint bind_point) const {
  if (!sets_.empty()) {
    vkCmdBindDescriptorSets(command_buffer, bind_point, pipeline_layout_, 0,
                            static_cast<uint32_t>(sets_.size()), sets_.data(), 0, nullptr);
  }
  if (!job_.push_constants.empty()) {
    vkCmdPushConstants(command_buffer, pipeline_layout_, stage_, 0,
                       static_cast<uint32_t>(job_.push_constants.size() * 4),
                       job_.push_constants.data());
  }
}

void Descriptors::RecordShaderWritesBarrier(VkCommandBuffer command_buffer) const {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(command_buffer, PipelineStage(stage_),
                       VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier,
                       0, nullptr, 0, nullptr);
}

nlohmann::json Descriptors::ReadStorageBuffers() const {
  nlohmann::json buffers = nlohmann::json::array();
  for (const StorageBuffer& storage : storage_buffers_) {
    const auto* words = static_cast<const uint32_t*>(storage.buffer.mapped);
    buffers.push_back({{"set", storage.set},
                       {"binding", storage.binding},
                       {"element", storage.element},
                       {"u32", std::vector<uint32_t>(words, words + storage.buffer.size / 4)}});
  }
  return buffers;
}

nlohmann::json Descriptors::ReadStorageImages() {
  nlohmann::json images = nlohmann::json::array();
  for (const StorageImage& storage : storage_images_) {
    std::vector<uint8_t> bytes = ReadImage(context_, storage.image, VK_IMAGE_LAYOUT_GENERAL,
                                           PipelineStage(stage_), VK_ACCESS_SHADER_WRITE_BIT)
                                     .front();
    nlohmann::json image = {{"set", storage.set},
                            {"binding", storage.binding},
                            {"element", storage.element},
                            {"width", storage.image.width},
                            {"height", storage.image.height}};
    if (storage.format == ImageFormat::kRgba8) {
      image["format"] = "rgba8";
      image["u8"] = bytes;
    } else {
      std::vector<float> texels(bytes.size() / 4);
      std::memcpy(texels.data(), bytes.data(), bytes.size());
      image["format"] = "r32f";
      image["f32"] = texels;
    }
    images.push_back(std::move(image));
  }
  return images;
}

}  // namespace vk_runner
