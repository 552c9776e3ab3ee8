// scan_block_sums.comp -- second level of a two-level prefix scan: the first
// `pc.sumGroups` workgroups scan the per-block sums, the others only add the
// scanned offsets to their block.
// `if (gl_WorkGroupID.x < pc.sumGroups)` is decided once per workgroup
// (gl_WorkGroupID and push constants are uniform in a compute invocation
// group): the barrier() and the subgroup operations inside it run in
// uniform control flow, no finding. The partial-sum buffer array is indexed
// by gl_WorkGroupID.y (uniform): no NonUniform needed. The subgroup rank
// of the in-range elements, under `if (gid < pc.valueCount)` (divergent in
// the last workgroup), ranks the invocations that took that branch: a note.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_nonuniform_qualifier : require

#define GROUP_SIZE 256

layout(local_size_x = GROUP_SIZE) in;

layout(set = 0, binding = 0, std430) buffer BlockSums {
    uint sums[];
} blockSums[2];   // one per scan level in flight
layout(set = 0, binding = 1, std430) buffer Values {
    uint values[];
};

layout(set = 0, binding = 2, std430) writeonly buffer Ranks {
    uint ranks[];
};

layout(push_constant) uniform Scan {
    uint sumGroups;
    uint valueCount;
} pc;

shared uint subgroupTotals[GROUP_SIZE / 4];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint level = gl_WorkGroupID.y;
    if (gl_WorkGroupID.x < pc.sumGroups) {
        uint index = gl_WorkGroupID.x * GROUP_SIZE + lid;
        uint v = blockSums[level].sums[index];                            // EXPECT-NOT: nonuniform-missing-decoration
        uint inclusive = subgroupInclusiveAdd(v);                         // EXPECT-NOT: subgroup-op-divergent-cf
        if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) {
            subgroupTotals[gl_SubgroupID] = inclusive;
        }
        barrier();                                                        // EXPECT-NOT: barrier-divergent-cf
        uint offset = 0u;
        for (uint s = 0u; s < gl_SubgroupID; ++s) {
            offset += subgroupTotals[s];
        }
        blockSums[level].sums[index] = offset + inclusive - v;           // EXPECT-NOT: nonuniform-missing-decoration
    } else {
        uint block = gl_WorkGroupID.x - pc.sumGroups;
        uint base = blockSums[level].sums[block];                         // EXPECT-NOT: nonuniform-missing-decoration
        values[block * GROUP_SIZE + lid] += base;
    }
    uint gid = gl_GlobalInvocationID.x;
    if (gid < pc.valueCount) {
        uint rank = subgroupExclusiveAdd(1u);                             // EXPECT: subgroup-op-divergent-cf note
        ranks[gid] = rank;
    }
}
