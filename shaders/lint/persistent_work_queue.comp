// persistent_work_queue.comp -- persistent-threads ray binning: each
// invocation pops work items from a global queue until it is empty.
// The loop exits when an invocation's own atomicAdd() returns an index past
// the end: a divergent exit, so in later iterations only some invocations
// are active -- the subgroupBallot() and subgroupOr() in the loop body run
// with the invocations still popping work, which took the same path there
// (no branch rejoins inside the loop): notes (subgroup-op-divergent-cf).
// All invocations leave the loop and meet after it: the subgroupAdd() there
// runs in reconverged, uniform control flow, and so does the subgroupAdd()
// after the divergent if/else that precedes the loop.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 64) in;

struct Ray {
    vec4 originTMin;
    vec4 directionTMax;
};

layout(set = 0, binding = 0, std430) readonly buffer Rays {
    Ray rays[];
};
layout(set = 0, binding = 1, std430) buffer Queue {
    uint head;
    uint rayCount;
    uint binCounts[8];
};
layout(set = 0, binding = 2, std430) writeonly buffer Stats {
    uint processedPerGroup[];
};

uint directionBin(vec3 d)
{
    return (d.x > 0.0 ? 1u : 0u) | (d.y > 0.0 ? 2u : 0u) | (d.z > 0.0 ? 4u : 0u);
}

void main()
{
    uint warmup;
    if (gl_LocalInvocationID.x % 2u == 0u) {
        warmup = 1u;
    } else {
        warmup = 0u;
    }
    uint warmupTotal = subgroupAdd(warmup);                               // EXPECT-NOT: subgroup-op-divergent-cf

    uint processed = 0u;
    uint binsSeen = 0u;
    while (true) {
        uint item = atomicAdd(head, 1u);
        if (item >= rayCount) {
            break;
        }
        uint bin = directionBin(rays[item].directionTMax.xyz);
        uvec4 sameBin = subgroupBallot(bin == 0u);                        // EXPECT: subgroup-op-divergent-cf note
        binsSeen = subgroupOr(binsSeen | (1u << bin));                    // EXPECT: subgroup-op-divergent-cf note
        atomicAdd(binCounts[bin], 1u);
        processed += 1u + 0u * sameBin.x;
    }
    uint groupProcessed = subgroupAdd(processed);                         // EXPECT-NOT: subgroup-op-divergent-cf
    if (gl_LocalInvocationID.x == 0u) {
        processedPerGroup[gl_WorkGroupID.x] = groupProcessed + warmupTotal + binsSeen;
    }
}
