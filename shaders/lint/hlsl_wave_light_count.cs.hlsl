// hlsl_wave_light_count.cs.hlsl -- per-thread light culling that counts
// the visible lights of the wave. Each thread tests its own light, so the
// if is divergent; the WaveActiveSum after it runs once the paths have
// rejoined, with the whole wave, and sums every thread's flag. Inside the
// per-thread loop, the second count follows an inner if (kept a branch by
// its atomic) that rejoined while the loop, left on different iterations,
// still runs divergently: only the threads still looping take part.
StructuredBuffer<float4> lights : register(t0);
RWStructuredBuffer<uint> counts : register(u0);

cbuffer Culling : register(b0) {
    float4 frustum;
    uint lightCount;
};

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    float4 light = lights[dtid.x % lightCount];
    uint visible = 0;
    if (dot(light.xyz, frustum.xyz) < light.w) {
        visible = 1;
    }
    uint total = WaveActiveSum(visible); // EXPECT-NOT: subgroup-op-after-rejoin
    uint steps = 0;
    for (uint i = 0; i < (dtid.x & 7); ++i) {
        uint hit = 0;
        if (lights[i].w > light.w) {
            hit = 1;
            InterlockedAdd(counts[0], 1);
        }
        steps += WaveActiveSum(hit); // EXPECT: subgroup-op-after-rejoin warning
    }
    if (WaveIsFirstLane()) {
        counts[dtid.x / 64] = total + steps;
    }
}
