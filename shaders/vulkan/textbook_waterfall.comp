// textbook_waterfall.comp -- the waterfall loop written by hand in GLSL, the
// lavapipe trap of issue 5 (test/vulkan/nonuniform_driver_test.py, case
// textbook_waterfall; ../shared/reference/known-traps.md, "Lavapipe").
// Every iteration serves the invocations whose index equals the subgroup's
// first active index u; u is subgroup-uniform, so ubos[u] needs only dynamic
// indexing. Correct GLSL either way -- but lavapipe 22.3 gives every
// invocation of a subgroup the value of the LAST iteration when the loaded
// value leaves the loop (by default, r used after it). Compiled with
// -DWRITE_IN_BRANCH the result is stored inside the branch instead, which
// lavapipe runs correctly: the form a waterfall lowering must produce.
#version 450
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 64) in;

// The buffers of ubo_array.comp: buffer k holds 1000 * (k + 1) + j.
layout(set = 0, binding = 0) uniform Ubo { uvec4 words[4]; } ubos[8];
layout(set = 0, binding = 1) readonly buffer Indices { uint indices[]; };
layout(set = 0, binding = 2) writeonly buffer Results { uint results[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint k = indices[i];
#ifdef WRITE_IN_BRANCH
  for (;;) {
    uint u = subgroupBroadcastFirst(k);
    if (u == k) {
      results[i] = ubos[u].words[i % 4u].x;
      break;
    }
  }
#else
  uint r;
  for (;;) {
    uint u = subgroupBroadcastFirst(k);
    if (u == k) {
      r = ubos[u].words[i % 4u].x;
      break;
    }
  }
  results[i] = r;
#endif
}
