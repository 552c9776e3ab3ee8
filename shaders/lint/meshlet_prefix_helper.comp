// meshlet_prefix_helper.comp -- meshlet triangle compaction: surviving
// triangles are packed with a subgroup prefix sum written as a helper.
// packedOffset() runs a subgroupExclusiveAdd() and subgroupAdd(); it is
// called from inside `if (survives)`, a per-triangle test, so the subgroup
// operations in the helper run in divergent control flow: findings on the
// helper's lines, and the subgroupBroadcastFirst() of the base in the same
// branch of main() is one too. subgroupMax() at the top level is fine.
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
    total = subgroupAdd(count);                                           // EXPECT: subgroup-op-divergent-cf
    return subgroupExclusiveAdd(count);                                   // EXPECT: subgroup-op-divergent-cf
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
        base = subgroupBroadcastFirst(base);                              // EXPECT: subgroup-op-divergent-cf
        packedTriangles[base + offset] = tri;
    }
    if (gl_SubgroupInvocationID == 0u) {
        atomicMax(maxMeshlet, meshlet);
    }
}
