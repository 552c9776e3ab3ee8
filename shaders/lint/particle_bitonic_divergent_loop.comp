// particle_bitonic_divergent_loop.comp -- per-bucket sort of particle keys
// in shared memory, where each invocation iterates over its own bucket size.
// The sort loop's trip count comes from a per-invocation value (the bucket
// occupancy read from a storage buffer at the invocation's own index), so
// invocations leave the loop on different iterations and the barrier()
// inside it is not reached by the whole workgroup: a finding. The barrier()
// after the loop (all invocations have left it) and the one before it are
// fine.
#version 450

#define GROUP_SIZE 64

layout(local_size_x = GROUP_SIZE) in;

layout(set = 0, binding = 0, std430) buffer Keys {
    uint keys[];
};
layout(set = 0, binding = 1, std430) readonly buffer Buckets {
    uint bucketSize[];
};

shared uint localKeys[GROUP_SIZE];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint gid = gl_GlobalInvocationID.x;
    localKeys[lid] = keys[gid];
    barrier();                                                            // EXPECT-NOT: barrier-divergent-cf

    uint passes = min(bucketSize[gid], uint(GROUP_SIZE));
    for (uint round = 0u; round < passes; ++round) {
        uint partner = lid ^ 1u ^ (round & 1u);
        uint a = localKeys[lid];
        uint b = localKeys[min(partner, uint(GROUP_SIZE - 1))];
        bool keepMin = (lid < partner) == ((round & 2u) == 0u);
        barrier();                                                        // EXPECT: barrier-divergent-cf
        localKeys[lid] = keepMin ? min(a, b) : max(a, b);
        barrier();                                                        // EXPECT: barrier-divergent-cf
    }
    barrier();                                                            // EXPECT-NOT: barrier-divergent-cf
    keys[gid] = localKeys[lid];
}
