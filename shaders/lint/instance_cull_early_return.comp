// instance_cull_early_return.comp -- GPU instance culling that appends the
// visible instances to an indirect draw list with one atomic per subgroup.
// Culled instances `return` early (a per-invocation frustum test), so the
// subgroup operations after the return run with only the visible
// invocations active -- divergent control flow. The visible invocations all
// took the same path to them ("Invocations will continue to execute the
// same dynamic instances as long as they follow the same control-flow
// path", SPIR-V 2.2.2), so subgroupAdd(), subgroupExclusiveAdd() and
// subgroupElect() count exactly the visible ones, as the append wants:
// notes (subgroup-op-divergent-cf). subgroupBroadcastFirst() comes after
// `if (subgroupElect())` rejoins in that divergent control flow: the
// elect-then-atomic idiom, not counted as a rejoin, so a note too. The
// subgroupAll() before the return is in uniform control flow.
// instance_cull_ballot.comp keeps every invocation active instead.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 64) in;

struct Instance {
    vec4 boundingSphere;   // xyz = centre (world), w = radius
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
    bool inRange = id < frustum.instanceCount;
    bool allInRange = subgroupAll(inRange);                               // EXPECT-NOT: subgroup-op-divergent-cf
    Instance inst = instances[min(id, frustum.instanceCount - 1u)];
    bool visible = inRange;
    for (int p = 0; p < 6; ++p) {
        visible = visible && dot(frustum.planes[p].xyz, inst.boundingSphere.xyz) + frustum.planes[p].w > -inst.boundingSphere.w;
    }
    if (!visible) {
        return;
    }
    uint visibleCount = subgroupAdd(1u);                                  // EXPECT: subgroup-op-divergent-cf note
    uint slotInSubgroup = subgroupExclusiveAdd(1u);                       // EXPECT: subgroup-op-divergent-cf note
    uint base = 0u;
    if (subgroupElect()) {                                                // EXPECT: subgroup-op-divergent-cf note
        base = atomicAdd(drawCount, visibleCount);
    }
    base = subgroupBroadcastFirst(base);                                  // EXPECT: subgroup-op-divergent-cf note EXPECT-NOT: subgroup-op-after-rejoin
    uint slot = base + slotInSubgroup;
    draws[slot] = DrawCommand(inst.indexCount, 1u, inst.firstIndex, 0, allInRange ? id : min(id, frustum.instanceCount - 1u));
}
