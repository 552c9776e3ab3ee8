// blur.comp -- separable Gaussian blur, one pass (horizontal when
// pc.direction == (1,0), vertical when pc.direction == (0,1)).
// Each workgroup blurs a 128-texel run along the blur axis: it loads the
// run plus a MAX_RADIUS apron on each side into shared memory, waits at a
// barrier, then reads the kernel taps from shared memory.
//
// Uniformity claims:
//  - pc.direction, pc.radius, pc.sigma (push constants), `radius`, and
//    imageSize(...) are uniform for the whole dispatch. gl_WorkGroupID is
//    uniform within a workgroup.
//  - `lid`, `along`, `pixel` are DIVERGENT (derived from gl_LocalInvocationID
//    / gl_GlobalInvocationID).
//  - `if (lid < MAX_RADIUS)` (apron load) is a DIVERGENT branch.
//  - barrier() is at function top level, in UNIFORM control flow (after the
//    divergent apron branch has reconverged). This is correct.
//  - Both kernel loops (`for (int i = -radius; i <= radius; ++i)`) have a
//    UNIFORM trip count (push constant) and uniform exit conditions.
//  - The final bounds check before imageStore is a DIVERGENT branch (only
//    the last workgroup in a row is partially out of bounds, but the
//    condition depends on the invocation id).
#version 450

#define GROUP_SIZE 128
#define MAX_RADIUS 32
#define TILE_SIZE (GROUP_SIZE + 2 * MAX_RADIUS)

layout(local_size_x = GROUP_SIZE, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, rgba16f) uniform readonly image2D srcImage;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dstImage;

layout(push_constant) uniform BlurParams {
    ivec2 direction;   // (1,0) horizontal pass, (0,1) vertical pass
    int   radius;      // kernel radius in texels, clamped to MAX_RADIUS
    float sigma;       // Gaussian standard deviation
} pc;

shared vec4 tile[TILE_SIZE];

ivec2 toPixel(int alongAxis, int acrossAxis)
{
    return pc.direction * alongAxis + pc.direction.yx * acrossAxis;
}

vec4 loadClamped(int alongAxis, int acrossAxis, ivec2 size)
{
    ivec2 p = clamp(toPixel(alongAxis, acrossAxis), ivec2(0), size - 1);
    return imageLoad(srcImage, p);
}

void main()
{
    ivec2 size   = imageSize(srcImage);
    int   lid    = int(gl_LocalInvocationID.x);
    int   base   = int(gl_WorkGroupID.x) * GROUP_SIZE;
    int   across = int(gl_WorkGroupID.y);
    int   along  = base + lid;

    // Centre texel: every invocation loads one.
    tile[lid + MAX_RADIUS] = loadClamped(along, across, size);

    // Apron: the first MAX_RADIUS invocations load both sides (divergent).
    if (lid < MAX_RADIUS) {  // EXPECT: branch divergent
        tile[lid] = loadClamped(base - MAX_RADIUS + lid, across, size);
        tile[lid + GROUP_SIZE + MAX_RADIUS] =
            loadClamped(base + GROUP_SIZE + lid, across, size);
    }

    // Uniform control flow: all invocations of the workgroup reach this.
    barrier();  // EXPECT: cf uniform

    int   radius   = clamp(pc.radius, 0, MAX_RADIUS);
    float twoSigma2 = 2.0 * max(pc.sigma * pc.sigma, 1e-4);

    // Normalisation factor: uniform trip count.
    float weightSum = 0.0;
    for (int i = -radius; i <= radius; ++i) {  // EXPECT: branch uniform
        weightSum += exp(-float(i * i) / twoSigma2);
    }

    // Convolution from shared memory: uniform trip count.
    vec4 acc = vec4(0.0);
    for (int i = -radius; i <= radius; ++i) {  // EXPECT: branch uniform
        float w = exp(-float(i * i) / twoSigma2);
        acc += w * tile[lid + MAX_RADIUS + i];
    }
    acc /= weightSum;

    ivec2 pixel = toPixel(along, across);
    if (all(lessThan(pixel, size))) {  // EXPECT: branch divergent
        imageStore(dstImage, pixel, acc);
    }
}
