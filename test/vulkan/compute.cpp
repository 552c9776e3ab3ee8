// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0

#include "run.h"

namespace vk_runner {

void RunCompute(Context& context, const Job& job, const std::vector<uint32_t>& spirv,
                const Descriptors& descriptors) {
  VkDevice device = context.device();
  VkComputePipelineCreateInfo create{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  create.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  create.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  create.stage.module = context.CreateShaderModule(spirv.data(), spirv.size());
  create.stage.pName = job.entry.c_str();
  create.layout = descriptors.pipeline_layout();
  VkPipeline pipeline = VK_NULL_HANDLE;
  VK_RUNNER_CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &create, nullptr, &pipeline));
  context.Defer([device, pipeline] { vkDestroyPipeline(device, pipeline, nullptr); });

  context.Submit([&](VkCommandBuffer command_buffer) {
    vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    descriptors.RecordBind(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE);
    vkCmdDispatch(command_buffer, job.groups[0], job.groups[1], job.groups[2]);
    descriptors.RecordShaderWritesBarrier(command_buffer);
  });
}

}  // namespace vk_runner
