// ssbo_array.comp -- an array of storage buffers read, written and updated
// atomically through a per-invocation index (test/vulkan/
// nonuniform_driver_test.py, case ssbo_array).
// Through buffer k = indices[i], invocation i reads values[i % 64], writes
// value + 1 to its own slot written[i] (so every store is checkable and none
// races), and increments counter with atomicAdd, keeping the value it got.
// Afterwards: written[] of buffer k is non-zero exactly at the invocations
// that chose k, counter is how many chose k, and the old values those
// invocations got are 0 .. counter-1 in some order. The index is non-uniform
// (nonuniformEXT), so a device without shaderStorageBufferArrayNonUniformIndexing
// needs the lowered module (spirv-conv opt --waterfall).
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Data {
  uint values[64];  // buffer k: 100000 * (k + 1) + j
  uint counter;
  uint written[];
} datas[4];
layout(set = 0, binding = 1) readonly buffer Indices { uint indices[]; };
// results[2i] = the value read, results[2i + 1] = atomicAdd's old counter value.
layout(set = 0, binding = 2) writeonly buffer Results { uint results[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint k = indices[i];
  uint value = datas[nonuniformEXT(k)].values[i % 64u];
  datas[nonuniformEXT(k)].written[i] = value + 1u;
  uint old = atomicAdd(datas[nonuniformEXT(k)].counter, 1u);
  results[2u * i] = value;
  results[2u * i + 1u] = old;
}
