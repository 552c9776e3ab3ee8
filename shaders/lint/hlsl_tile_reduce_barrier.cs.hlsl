// hlsl_tile_reduce_barrier.cs.hlsl -- a tile reduction in groupshared
// memory. The tree loop's trip count is the same for every thread, so its
// GroupMemoryBarrierWithGroupSync is in uniform control flow. The early
// "skip empty tiles" path tests a value each thread read from its own
// texel, and syncs inside: threads whose texel is empty never reach that
// barrier.
RWStructuredBuffer<float> results : register(u0);
Texture2D<float> depth : register(t0);

groupshared float tile[64];

[numthreads(64, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex) {
    float d = depth.Load(int3(gid.x * 8 + (gi & 7), gid.y * 8 + (gi >> 3), 0));
    tile[gi] = d;
    if (d > 0.0) {
        tile[gi] = d * 2.0;
        GroupMemoryBarrierWithGroupSync(); // EXPECT: barrier-divergent-cf
    }
    GroupMemoryBarrierWithGroupSync(); // EXPECT-NOT: barrier-divergent-cf
    for (uint stride = 32; stride > 0; stride >>= 1) {
        if (gi < stride) {
            tile[gi] = max(tile[gi], tile[gi + stride]);
        }
        GroupMemoryBarrierWithGroupSync(); // EXPECT-NOT: barrier-divergent-cf
    }
    if (gi == 0) {
        results[gid.y * 1024 + gid.x] = tile[0];
    }
}
