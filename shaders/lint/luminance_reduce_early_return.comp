// luminance_reduce_early_return.comp -- log-luminance reduction for auto
// exposure, with the classic out-of-range early return.
// `if (gid >= pc.pixelCount) return;` is divergent in the last workgroup:
// invocations that returned never reach the barriers, so every barrier()
// after it (also the one in the uniform halving loop) is in control flow
// that is not uniform across the workgroup -- undefined behaviour. The
// subgroupAdd() after the return sees only the invocations that did not
// return, which took the same path to it: a note.
// The fixed shader is luminance_reduce_guarded.comp.
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
    if (gid >= pc.pixelCount) {
        return;
    }
    float v = logLum[gid];
    float subgroupSum = subgroupAdd(v);                                   // EXPECT: subgroup-op-divergent-cf note
    sums[lid] = v;
    barrier();                                                            // EXPECT: barrier-divergent-cf
    for (uint s = GROUP_SIZE / 2u; s > 0u; s >>= 1u) {
        if (lid < s) {
            sums[lid] += sums[lid + s];
        }
        barrier();                                                        // EXPECT: barrier-divergent-cf
    }
    if (lid == 0u) {
        partialSums[gl_WorkGroupID.x] = sums[0] + 0.0 * subgroupSum;
    }
}
