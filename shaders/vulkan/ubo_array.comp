// ubo_array.comp -- an array of uniform buffers indexed with a per-invocation
// index read from a storage buffer (test/vulkan/nonuniform_driver_test.py,
// case ubo_array).
// Each invocation copies one word of the uniform buffer its index selects into
// its own output slot, so the output shows which buffer every invocation
// really read. The index is non-uniform (nonuniformEXT): on a device without
// shaderUniformBufferArrayNonUniformIndexing -- lavapipe -- the access must
// first be lowered (spirv-conv opt --waterfall); lavapipe run as is uses the
// index of the first invocation of each subgroup for the whole subgroup.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(local_size_x = 64) in;

// Buffer k holds words[j] = (1000 * (k + 1) + j) in every component.
layout(set = 0, binding = 0) uniform Ubo { uvec4 words[4]; } ubos[8];
layout(set = 0, binding = 1) readonly buffer Indices { uint indices[]; };
layout(set = 0, binding = 2) writeonly buffer Results { uint results[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint k = indices[i];
  results[i] = ubos[nonuniformEXT(k)].words[i % 4u].x;
}
