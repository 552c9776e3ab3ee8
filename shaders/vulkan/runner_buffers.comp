// runner_buffers.comp -- vk_runner's own test (test/vulkan/runner_test.py,
// "buffers"): u32, i32 and f32 buffer data, an array of uniform buffers, push
// constants, descriptor sets with a gap (sets 0 and 2) and the subgroup size
// reach the shader as the job describes them, and the storage buffers come
// back with what the shader wrote and the job's zero padding.
#version 450
#extension GL_KHR_shader_subgroup_basic : require

layout(local_size_x = 4) in;

layout(set = 0, binding = 0) readonly buffer Words { uint words[]; };
layout(set = 0, binding = 1) readonly buffer Ints { int ints[]; };
layout(set = 0, binding = 2) readonly buffer Floats { float floats[]; };
layout(set = 0, binding = 3) uniform Ubo { uvec4 v; } ubos[2];
layout(set = 2, binding = 0) buffer Out { uint values[]; } outs[2];
layout(push_constant) uniform Push {
  uint add;
  float scale;
};

void main() {
  uint i = gl_GlobalInvocationID.x;  // 0..7 with two workgroups
  outs[0].values[i] = words[i] + add;
  outs[0].values[8u + i] = floatBitsToUint(floats[i] * scale);
  outs[1].values[i] = uint(ints[i] + 100);
  outs[1].values[8u + i] = ubos[0].v[i % 4u] + ubos[1].v[i % 4u];
  if (i == 0u) outs[1].values[16] = gl_SubgroupSize;
}
