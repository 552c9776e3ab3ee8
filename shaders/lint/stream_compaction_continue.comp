// stream_compaction_continue.comp -- chunked stream compaction: the
// workgroup walks a fixed number of chunks and compacts the live elements
// of each through shared memory.
// The chunk loop's trip count is a push constant (uniform), but `continue`
// for dead elements skips the rest of the iteration for some invocations:
// the two barrier()s after the continue are reached by part of the
// workgroup -- findings. The barrier() at the top of the body (before the continue) and
// the one after the loop are reached by everyone: fine.
#version 450

#define GROUP_SIZE 128

layout(local_size_x = GROUP_SIZE) in;

layout(set = 0, binding = 0, std430) readonly buffer Input {
    vec4 elements[];
};
layout(set = 0, binding = 1, std430) writeonly buffer Output {
    vec4 compacted[];
};
layout(set = 0, binding = 2, std430) buffer Counter {
    uint outputCount;
};

layout(push_constant) uniform Compaction {
    uint chunksPerGroup;
    float threshold;
} pc;

shared uint chunkCount;
shared uint chunkBase;

void main()
{
    uint lid = gl_LocalInvocationID.x;
    for (uint chunk = 0u; chunk < pc.chunksPerGroup; ++chunk) {
        if (lid == 0u) {
            chunkCount = 0u;
        }
        barrier();                                                        // EXPECT-NOT: barrier-divergent-cf
        uint index = (gl_WorkGroupID.x * pc.chunksPerGroup + chunk) * GROUP_SIZE + lid;
        vec4 e = elements[index];
        if (e.w < pc.threshold) {
            continue;
        }
        uint local = atomicAdd(chunkCount, 1u);
        barrier();                                                        // EXPECT: barrier-divergent-cf
        if (local == 0u) {
            chunkBase = atomicAdd(outputCount, chunkCount);
        }
        barrier();                                                        // EXPECT: barrier-divergent-cf
        compacted[chunkBase + local] = e;
    }
    barrier();                                                            // EXPECT-NOT: barrier-divergent-cf
}
