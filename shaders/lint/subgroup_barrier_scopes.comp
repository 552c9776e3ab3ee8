// subgroup_barrier_scopes.comp -- wave-level scratch exchange in a particle
// neighbour search: control barriers of subgroup and workgroup scope.
// subgroupBarrier() (execution scope Subgroup) needs control flow uniform
// across the subgroup: under `if (gl_SubgroupInvocationID < 16u)` it is not
// (a finding), under `if (gl_SubgroupID == 0u)` it is (every invocation of a
// subgroup has the same gl_SubgroupID). A workgroup barrier() under that same
// subgroup-uniform branch is reached by one subgroup only (the 256-wide
// workgroup has at least two subgroups, whose size is at most 128): a
// finding. memoryBarrierShared() is a memory barrier, not a control barrier:
// no finding even in divergent control flow.
#version 450
#extension GL_KHR_shader_subgroup_basic : require

#define GROUP_SIZE 256

layout(local_size_x = GROUP_SIZE) in;

layout(set = 0, binding = 0, std430) readonly buffer Positions {
    vec4 positions[];
};
layout(set = 0, binding = 1, std430) writeonly buffer Neighbours {
    uint neighbourCount[];
};

shared vec4 scratch[GROUP_SIZE];
shared uint firstSubgroupTotal;

void main()
{
    uint lid = gl_LocalInvocationIndex;
    uint gid = gl_GlobalInvocationID.x;
    vec4 p = positions[gid];
    scratch[lid] = p;
    barrier();                                                            // EXPECT-NOT: barrier-divergent-cf

    uint count = 0u;
    uint lane = gl_SubgroupInvocationID;
    uint base = lid - lane;
    if (lane < 16u) {
        scratch[lid].w = p.w * 2.0;
        memoryBarrierShared();                                            // EXPECT-NOT: barrier-divergent-cf
        subgroupBarrier();                                                // EXPECT: barrier-divergent-cf
    }
    if (gl_SubgroupID == 0u) {
        scratch[lid].w += 1.0;
        subgroupBarrier();                                                // EXPECT-NOT: barrier-divergent-cf
        for (uint i = 0u; i < gl_SubgroupSize; ++i) {
            count += distance(scratch[base + i].xyz, p.xyz) < p.w ? 1u : 0u;
        }
        firstSubgroupTotal = count;
        barrier();                                                        // EXPECT: barrier-divergent-cf
    }
    neighbourCount[gid] = count;
}
