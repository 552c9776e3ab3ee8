// histogram_tile_helpers.comp -- 2D tile histogram whose shared-memory
// phases are wrapped in helper functions.
// flushBins() holds a barrier() and is called only from inside
// `if (gl_LocalInvocationIndex < BINS)`, a divergent branch: the barrier in
// the helper is reached by part of the workgroup -- the finding is on the
// helper's line. clearBins() is called at the top level and from a block
// guarded by a push-constant flag: its barrier is fine.
#version 450

#define BINS 64

layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0) uniform sampler2D lumaTex;
layout(set = 0, binding = 1, std430) buffer Histogram {
    uint histogram[];
};

layout(push_constant) uniform Params {
    ivec2 size;
    float minLogLum;
    float rcpLogLumRange;
    uint  twoPasses;
} params;

shared uint bins[BINS];

void clearBins(uint lid)
{
    if (lid < BINS) {
        bins[lid] = 0u;
    }
    barrier();                                                            // EXPECT-NOT: barrier-divergent-cf
}

void flushBins(uint lid)
{
    barrier();                                                            // EXPECT: barrier-divergent-cf
    atomicAdd(histogram[lid], bins[lid]);
}

uint binOf(ivec2 pixel)
{
    float l = texelFetch(lumaTex, pixel, 0).r;
    if (l < 1e-5) {
        return 0u;
    }
    float t = clamp((log2(l) - params.minLogLum) * params.rcpLogLumRange, 0.0, 1.0);
    return uint(t * float(BINS - 2)) + 1u;
}

void main()
{
    uint lid = gl_LocalInvocationIndex;
    clearBins(lid);
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    if (all(lessThan(pixel, params.size))) {
        atomicAdd(bins[binOf(pixel)], 1u);
    }
    barrier();
    if (lid < BINS) {
        flushBins(lid);
    }
    if (params.twoPasses != 0u) {
        clearBins(lid);
    }
}
