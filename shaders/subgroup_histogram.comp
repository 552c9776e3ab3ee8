// subgroup_histogram.comp -- 64-bin histogram of radix digits. Invocations
// aggregate equal bins per subgroup (ballot + elect), accumulate into shared
// memory, and the first 64 invocations flush the shared bins to the global
// histogram.
// REQUIRES: Vulkan 1.1 (SPIR-V 1.3) for the subgroup operations.
//
// Uniformity claims (EXPECT markers: docs/shader-verdicts.md):
//  - In compute the invocation group is the workgroup: `pc` and
//    gl_WorkGroupID are UNIFORM; gl_LocalInvocationID, gl_GlobalInvocationID
//    and everything derived from them are DIVERGENT; gl_SubgroupID is equal
//    within a subgroup only (SUBGROUP).
//  - Every barrier() is reached by the whole workgroup: UNIFORM control flow.
//    The one inside `if (gl_WorkGroupID.x < pc.clearGroups)` too, because
//    that condition is the same for every invocation of a workgroup.
//  - The subgroup operations at the top level run in UNIFORM control flow;
//    the ballot bit count inside `if (subgroupElect())` (one invocation per
//    subgroup) and the subgroupAdd() inside `if (lid < BIN_COUNT)` run in
//    DIVERGENT control flow (the latter still reduces correctly over the
//    active invocations: not a bug, but not uniform either); the
//    subgroupBroadcastFirst() inside `if (gl_SubgroupID == 0u)` runs in
//    SUBGROUP control flow (whole subgroups take that branch).
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#define GROUP_SIZE 128
#define BIN_COUNT 64

layout(local_size_x = GROUP_SIZE, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer Keys {
    uint keys[];
};

layout(set = 0, binding = 1, std430) buffer Histogram {
    uint bins[];
};

layout(set = 0, binding = 2, std430) writeonly buffer Stats {
    uvec2 groupStats[];   // per workgroup: x = non-empty bins, y = first shared bin left over
};

layout(push_constant) uniform HistogramParams {
    uint count;
    uint shift;
    uint clearGroups;   // workgroups that also clear their shared bins
} pc;

shared uint localBins[BIN_COUNT];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint gid = gl_GlobalInvocationID.x;

    if (lid < BIN_COUNT) {                                                // EXPECT: branch divergent
        localBins[lid] = 0u;
    }
    barrier();                                                            // EXPECT: cf uniform

    bool valid = gid < pc.count;
    uint bin = 0u;
    if (gid < pc.count) {                                                 // EXPECT: branch divergent
        bin = (keys[gid] >> pc.shift) % BIN_COUNT;
    }

    // Ballot + elect: the invocations holding the first invocation's bin
    // add to it with a single atomic.
    uint  leaderBin = subgroupBroadcastFirst(bin);                        // EXPECT: cf uniform
    uvec4 sameBin   = subgroupBallot(valid && bin == leaderBin);          // EXPECT: cf uniform
    if (subgroupElect()) {                                                // EXPECT: branch divergent, cf uniform
        atomicAdd(localBins[leaderBin], subgroupBallotBitCount(sameBin)); // EXPECT: cf divergent
    }
    if (valid && bin != leaderBin) {
        atomicAdd(localBins[bin], 1u);
    }
    barrier();                                                            // EXPECT: cf uniform

    // Flush: the first BIN_COUNT invocations own one bin each.
    if (lid < BIN_COUNT) {                                                // EXPECT: branch divergent
        uint n = localBins[lid];
        uint used = subgroupAdd(n != 0u ? 1u : 0u);                       // EXPECT: cf divergent
        if (n != 0u) {
            atomicAdd(bins[lid], n);
        }
        if (lid == 0u) {                                                  // EXPECT: branch divergent
            groupStats[gl_WorkGroupID.x].x = used;
        }
    }

    if (gl_WorkGroupID.x < pc.clearGroups) {                              // EXPECT: branch uniform
        barrier();                                                        // EXPECT: cf uniform
        if (lid < BIN_COUNT) {
            localBins[lid] = 0u;
        }
    }

    barrier();                                                            // EXPECT: cf uniform

    // The first subgroup reports what is left in the first shared bin.
    if (gl_SubgroupID == 0u) {                                            // EXPECT: branch subgroup
        uint leftover = subgroupBroadcastFirst(localBins[lid % BIN_COUNT]); // EXPECT: cf subgroup
        if (subgroupElect()) {                                            // EXPECT: branch divergent
            groupStats[gl_WorkGroupID.x].y = leftover;
        }
    }
}
