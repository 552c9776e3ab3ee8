// luminance_reduce_guarded.comp -- CLEAN: the fixed luminance reduction.
// Out-of-range invocations load 0 instead of returning, so every invocation
// of the workgroup reaches every barrier(): the halving loop's trip count is
// a constant, and the `if (lid < s)` inside it holds no barrier. The
// subgroupAdd() runs at the top level, and the final write is guarded by a
// divergent if that holds no subgroup op or barrier. No finding.
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require

#define GROUP_SIZE 256

layout(local_size_x = GROUP_SIZE) in;

layout(set = 0, binding = 0, std430) readonly buffer Luminance {
    float logLum[];
};
layout(set = 0, binding = 1, std430) buffer Partial {
    float partialSums[];
};

layout(push_constant) uniform Reduce {
    uint pixelCount;
} pc;

shared float sums[GROUP_SIZE];

void main()
{
    uint lid = gl_LocalInvocationIndex;
    uint gid = gl_GlobalInvocationID.x;
    float v = gid < pc.pixelCount ? logLum[min(gid, pc.pixelCount - 1u)] : 0.0;
    float subgroupSum = subgroupAdd(v);                                   // EXPECT-NOT: subgroup-op-divergent-cf
    sums[lid] = v;
    barrier();
    for (uint s = GROUP_SIZE / 2u; s > 0u; s >>= 1u) {
        if (lid < s) {
            sums[lid] += sums[lid + s];
        }
        barrier();                                                        // EXPECT-NOT: barrier-divergent-cf
    }
    if (lid == 0u) {
        partialSums[gl_WorkGroupID.x] = sums[0] + 0.0 * subgroupSum;
    }
}
