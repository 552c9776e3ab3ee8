// blur_halo_barrier.comp -- separable Gaussian blur that caches a row of
// texels plus a halo in shared memory.
// The halo loads are done by the first invocations only, and the barrier()
// was put inside that `if (lid < 2 * RADIUS)`: a divergent condition on
// gl_LocalInvocationID, so only some invocations of the workgroup reach that
// barrier -- a finding. The barrier() after the if and the one guarded by
// the push-constant flag are reached by the whole workgroup: fine.
#version 450

#define GROUP_SIZE 128
#define RADIUS 8

layout(local_size_x = GROUP_SIZE) in;

layout(set = 0, binding = 0) uniform sampler2D srcImage;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dstImage;

layout(push_constant) uniform Blur {
    ivec2 size;
    int   vertical;
    int   clampHalo;
    float weights[RADIUS + 1];
} blur;

shared vec4 row[GROUP_SIZE + 2 * RADIUS];

ivec2 texelAt(int along, int across)
{
    return blur.vertical != 0 ? ivec2(across, along) : ivec2(along, across);
}

void main()
{
    int lid = int(gl_LocalInvocationID.x);
    int along = int(gl_WorkGroupID.x) * GROUP_SIZE + lid;
    int across = int(gl_WorkGroupID.y);
    int limit = (blur.vertical != 0 ? blur.size.y : blur.size.x) - 1;

    row[lid + RADIUS] = texelFetch(srcImage, texelAt(clamp(along, 0, limit), across), 0);
    if (lid < 2 * RADIUS) {
        int haloAlong = lid < RADIUS ? along - RADIUS : along + GROUP_SIZE - RADIUS;
        int slot = lid < RADIUS ? lid : lid + GROUP_SIZE;
        row[slot] = texelFetch(srcImage, texelAt(clamp(haloAlong, 0, limit), across), 0);
        barrier();                                                        // EXPECT: barrier-divergent-cf
    }
    barrier();                                                            // EXPECT-NOT: barrier-divergent-cf

    if (blur.clampHalo != 0) {
        if (lid == 0 && along - RADIUS < 0) {
            for (int i = 0; i < RADIUS; ++i) {
                row[i] = row[RADIUS];
            }
        }
        barrier();                                                        // EXPECT-NOT: barrier-divergent-cf
    }

    vec4 sum = row[lid + RADIUS] * blur.weights[0];
    for (int i = 1; i <= RADIUS; ++i) {
        sum += (row[lid + RADIUS - i] + row[lid + RADIUS + i]) * blur.weights[i];
    }
    if (along <= limit) {
        imageStore(dstImage, texelAt(along, across), sum);
    }
}
