// frontier_search_break.comp -- BFS frontier expansion: each invocation
// scans its node's edge list for the first unvisited neighbour.
// The scan loop stops with `break` at a per-invocation edge: a loop with a
// divergent exit, so the barrier() inside it is not reached by the whole
// workgroup (a finding). Every invocation leaves the loop through that
// break or the loop condition and arrives at the code after it: control flow
// reconverges after the loop, and the barrier() there is fine.
#version 450

#define GROUP_SIZE 64

layout(local_size_x = GROUP_SIZE) in;

layout(set = 0, binding = 0, std430) readonly buffer Graph {
    uint edgeOffsets[];
};
layout(set = 0, binding = 1, std430) readonly buffer Edges {
    uint edges[];
};
layout(set = 0, binding = 2, std430) buffer Visited {
    uint visited[];
};
layout(set = 0, binding = 3, std430) writeonly buffer NextFrontier {
    uint nextFrontier[];
};

layout(push_constant) uniform Search {
    uint maxDegree;
} search;

shared uint claimed[GROUP_SIZE];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint node = gl_GlobalInvocationID.x;
    uint begin = edgeOffsets[node];
    uint end = edgeOffsets[node + 1u];
    uint found = 0xffffffffu;
    claimed[lid] = found;
    for (uint i = 0u; i < search.maxDegree; ++i) {
        uint e = begin + i;
        if (e >= end) {
            break;
        }
        uint neighbour = edges[e];
        claimed[lid] = neighbour;
        barrier();                                                        // EXPECT: barrier-divergent-cf
        if (atomicExchange(visited[neighbour], 1u) == 0u) {
            found = neighbour;
            break;
        }
    }
    barrier();                                                            // EXPECT-NOT: barrier-divergent-cf
    nextFrontier[node] = found != 0xffffffffu ? found : claimed[(lid + 1u) % GROUP_SIZE];
}
