// nonuniform_buffers.comp -- buffer and storage-image accesses the descriptor lowerings
// rewrite (test/passes/*_pass_test.cpp): uniform-buffer reads, a storage-buffer store,
// atomic and length, an access in a loop whose index changes per iteration, an index
// passed to a helper function, storage-image load/store/size, an image atomic and a
// texel-buffer fetch -- all with per-invocation indices.
#version 450
#extension GL_EXT_nonuniform_qualifier : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform Ubo { uvec4 words[4]; } ubos[8];
layout(set = 0, binding = 1) buffer Ssbo { uint count; uint data[]; } ssbos[4];
layout(set = 0, binding = 2) buffer Indices { uint indices[]; };
layout(set = 0, binding = 3, r32ui) uniform uimage2D counters[4];
layout(set = 0, binding = 4, rgba8) uniform image2D outputs[3];
layout(set = 0, binding = 5) uniform samplerBuffer texels[2];

uint word(uint which, uint j) { return ubos[nonuniformEXT(which)].words[j].x; }

void main() {
  uint id = gl_LocalInvocationIndex;
  uint i = indices[id];
  uint r = ubos[nonuniformEXT(i & 7u)].words[id & 3u].y + ubos[nonuniformEXT(i & 7u)].words[0].z;
  ssbos[nonuniformEXT(i & 3u)].data[id] = r;
  uint old = atomicAdd(ssbos[nonuniformEXT(i & 3u)].count, 1u);
  for (uint k = 0u; k < (id & 3u); ++k) {
    r += ubos[nonuniformEXT((i + k) & 7u)].words[k].w;
  }
  r += word(i & 7u, 1u);
  r += uint(ssbos[nonuniformEXT(i & 3u)].data.length());
  r += imageAtomicAdd(counters[nonuniformEXT(i & 3u)], ivec2(id, 0), 1u);
  vec4 t = texelFetch(texels[nonuniformEXT(i & 1u)], int(id));
  vec4 previous = imageLoad(outputs[nonuniformEXT(i % 3u)], ivec2(id, 1));
  imageStore(outputs[nonuniformEXT(i % 3u)], ivec2(id, 0), t + previous);
  r += uint(imageSize(outputs[nonuniformEXT(i % 3u)]).x);
  indices[id] = r + old;
}
