// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include <cstdint>
#include <iterator>

#include "fullscreen_vert.h"  // kFullScreenVert, generated from fullscreen.vert
#include "run.h"

namespace vk_runner {
namespace {

constexpr VkFormat kTargetFormat = VK_FORMAT_R8G8B8A8_UNORM;

VkRenderPass CreateRenderPass(Context& context) {
  VkAttachmentDescription attachment{};
  attachment.format = kTargetFormat;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  VkAttachmentReference color{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color;
  VkRenderPassCreateInfo create{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  create.attachmentCount = 1;
  create.pAttachments = &attachment;
  create.subpassCount = 1;
  create.pSubpasses = &subpass;
  VkDevice device = context.device();
  VkRenderPass render_pass = VK_NULL_HANDLE;
  VK_RUNNER_CHECK(vkCreateRenderPass(device, &create, nullptr, &render_pass));
  context.Defer([device, render_pass] { vkDestroyRenderPass(device, render_pass, nullptr); });
  return render_pass;
}

VkPipeline CreatePipeline(Context& context, const Job& job, const std::vector<uint32_t>& spirv,
                          const std::vector<uint32_t>& vertex_spirv, VkPipelineLayout layout,
                          VkRenderPass render_pass) {
  VkPipelineShaderStageCreateInfo stages[2]{};
  stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vertex_spirv.empty()
                         ? context.CreateShaderModule(kFullScreenVert, std::size(kFullScreenVert))
                         : context.CreateShaderModule(vertex_spirv.data(), vertex_spirv.size());
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = context.CreateShaderModule(spirv.data(), spirv.size());
  stages[1].pName = job.entry.c_str();

  VkPipelineVertexInputStateCreateInfo vertex_input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, static_cast<float>(job.width), static_cast<float>(job.height), 0, 1};
  VkRect2D scissor{{0, 0}, {job.width, job.height}};
  VkPipelineViewportStateCreateInfo viewport_state{
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport_state.viewportCount = 1;
  viewport_state.pViewports = &viewport;
  viewport_state.scissorCount = 1;
  viewport_state.pScissors = &scissor;
  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                    VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;

  VkGraphicsPipelineCreateInfo create{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  create.stageCount = 2;
  create.pStages = stages;
  create.pVertexInputState = &vertex_input;
  create.pInputAssemblyState = &assembly;
  create.pViewportState = &viewport_state;
  create.pRasterizationState = &raster;
  create.pMultisampleState = &multisample;
  create.pColorBlendState = &blend;
  create.layout = layout;
  create.renderPass = render_pass;
  VkDevice device = context.device();
  VkPipeline pipeline = VK_NULL_HANDLE;
  VK_RUNNER_CHECK(
      vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &create, nullptr, &pipeline));
  context.Defer([device, pipeline] { vkDestroyPipeline(device, pipeline, nullptr); });
  return pipeline;
}

}  // namespace

std::vector<uint8_t> RunRender(Context& context, const Job& job, const std::vector<uint32_t>& spirv,
                               const std::vector<uint32_t>& vertex_spirv,
                               const Descriptors& descriptors) {
  VkDevice device = context.device();
  Image target =
      CreateEmptyImage(context, job.width, job.height, kTargetFormat,
                       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  VkRenderPass render_pass = CreateRenderPass(context);
  VkPipeline pipeline =
      CreatePipeline(context, job, spirv, vertex_spirv, descriptors.pipeline_layout(), render_pass);

  VkFramebufferCreateInfo framebuffer_create{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  framebuffer_create.renderPass = render_pass;
  framebuffer_create.attachmentCount = 1;
  framebuffer_create.pAttachments = &target.view;
  framebuffer_create.width = job.width;
  framebuffer_create.height = job.height;
  framebuffer_create.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VK_RUNNER_CHECK(vkCreateFramebuffer(device, &framebuffer_create, nullptr, &framebuffer));
  context.Defer([device, framebuffer] { vkDestroyFramebuffer(device, framebuffer, nullptr); });

  context.Submit([&](VkCommandBuffer command_buffer) {
    VkClearValue clear{};
    for (int i = 0; i < 4; ++i) clear.color.float32[i] = job.clear[i];
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = render_pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, {job.width, job.height}};
    begin.clearValueCount = 1;
    begin.pClearValues = &clear;
    vkCmdBeginRenderPass(command_buffer, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    descriptors.RecordBind(command_buffer, VK_PIPELINE_BIND_POINT_GRAPHICS);
    vkCmdDraw(command_buffer, 3, 1, 0, 0);
    vkCmdEndRenderPass(command_buffer);
    descriptors.RecordShaderWritesBarrier(command_buffer);
  });
  return ReadImage(context, target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                   VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                   VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT)
      .front();
}

}  // namespace vk_runner
