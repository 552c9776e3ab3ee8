// meshlet_prefix_helper.comp -- meshlet triangle compaction: surviving
// triangles are packed with a subgroup prefix sum written as a helper.
// packedOffset() runs a subgroupExclusiveAdd() and subgroupAdd() at its top
// level; it is called from inside `if (survives)`, a per-triangle test, so
// they cover only the surviving invocations, which the helper does not know:
// subgroup-op-divergent-call warnings at -O0. spirv-opt -O inlines the
// helper into the branch, where they are plain operations inside a
// divergent if: subgroup-op-divergent-cf notes. In main(), `if (offset ==
// 0u)` picks the invocation that does the atomic -- the first active one,
// but the lint only recognises subgroupElect() and subgroupBroadcastFirst(x)
// == x as such tests -- and rejoins inside `if (survives)`, where nothing
// promises that the invocations run together again: the
// subgroupBroadcastFirst() of the base after it is a subgroup-op-after-rejoin
// warning. (subgroupElect() there would make it the elect-then-atomic idiom.)
// subgroupMax() at the top level is fine.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 32) in;

layout(set = 0, binding = 0, std430) readonly buffer Triangles {
    uvec4 triangles[];   // xyz = vertex indices, w = meshlet id
};
layout(set = 0, binding = 1, std430) readonly buffer Positions {
    vec4 clipPositions[];
};
layout(set = 0, binding = 2, std430) writeonly buffer Packed {
    uvec4 packedTriangles[];
};
layout(set = 0, binding = 3, std430) buffer Counts {
    uint packedCount;
    uint maxMeshlet;
};

uint packedOffset(uint count, out uint total)
{
    total = subgroupAdd(count);                                           // EXPECT-O0: subgroup-op-divergent-call warning EXPECT-O: subgroup-op-divergent-cf note
    return subgroupExclusiveAdd(count);                                   // EXPECT-O0: subgroup-op-divergent-call warning EXPECT-O: subgroup-op-divergent-cf note
}

void main()
{
    uint id = gl_GlobalInvocationID.x;
    uvec4 tri = triangles[id];
    uint meshlet = subgroupMax(tri.w);                                    // EXPECT-NOT: subgroup-op-divergent-cf
    vec4 a = clipPositions[tri.x];
    vec4 b = clipPositions[tri.y];
    vec4 c = clipPositions[tri.z];
    vec2 e0 = b.xy / b.w - a.xy / a.w;
    vec2 e1 = c.xy / c.w - a.xy / a.w;
    bool survives = e0.x * e1.y - e0.y * e1.x > 0.0 && a.w > 0.0 && b.w > 0.0 && c.w > 0.0;
    if (survives) {
        uint total;
        uint offset = packedOffset(1u, total);
        uint base = 0u;
        if (offset == 0u) {
            base = atomicAdd(packedCount, total);
        }
        base = subgroupBroadcastFirst(base);                              // EXPECT: subgroup-op-after-rejoin warning
        packedTriangles[base + offset] = tri;
    }
    if (gl_SubgroupInvocationID == 0u) {
        atomicMax(maxMeshlet, meshlet);
    }
}
