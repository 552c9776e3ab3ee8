// instance_cull_ballot.comp -- CLEAN: the fixed instance culling. Every
// invocation stays active until the append is done: the visibility ballot,
// its bit counts, subgroupElect() and subgroupBroadcastFirst() all run in
// uniform control flow (only the atomic and the final store are guarded by
// divergent ifs, and those hold no subgroup operation). No finding.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 64) in;

struct Instance {
    vec4 boundingSphere;
    uint meshIndex;
    uint firstIndex;
    uint indexCount;
    uint pad;
};

struct DrawCommand {
    uint indexCount;
    uint instanceCount;
    uint firstIndex;
    int  vertexOffset;
    uint firstInstance;
};

layout(set = 0, binding = 0, std430) readonly buffer Instances {
    Instance instances[];
};
layout(set = 0, binding = 1, std430) writeonly buffer Draws {
    DrawCommand draws[];
};
layout(set = 0, binding = 2, std430) buffer DrawCount {
    uint drawCount;
};

layout(set = 1, binding = 0, std140) uniform Frustum {
    vec4 planes[6];
    uint instanceCount;
} frustum;

void main()
{
    uint id = gl_GlobalInvocationID.x;
    Instance inst = instances[min(id, frustum.instanceCount - 1u)];
    bool visible = id < frustum.instanceCount;
    for (int p = 0; p < 6; ++p) {
        visible = visible && dot(frustum.planes[p].xyz, inst.boundingSphere.xyz) + frustum.planes[p].w > -inst.boundingSphere.w;
    }
    uvec4 ballot = subgroupBallot(visible);
    uint visibleCount = subgroupBallotBitCount(ballot);
    uint slotInSubgroup = subgroupBallotExclusiveBitCount(ballot);
    uint base = 0u;
    if (subgroupElect()) {                                                // EXPECT-NOT: subgroup-op-divergent-cf
        base = atomicAdd(drawCount, visibleCount);
    }
    base = subgroupBroadcastFirst(base);                                  // EXPECT-NOT: subgroup-op-divergent-cf
    if (visible) {
        draws[base + slotInSubgroup] = DrawCommand(inst.indexCount, 1u, inst.firstIndex, 0, id);
    }
}
