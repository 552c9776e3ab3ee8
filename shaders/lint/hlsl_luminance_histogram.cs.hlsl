// hlsl_luminance_histogram.cs.hlsl -- CLEAN: an auto-exposure histogram.
// Every barrier is reached by the whole group (the bin clear and the merge
// are guarded by per-thread tests, the barriers are not), the wave-level
// pre-sum runs in uniform control flow before any branch, and the source
// image is picked from a descriptor array by a constant-buffer index.
Texture2D<float4> frames[2] : register(t0);
RWStructuredBuffer<uint> histogram : register(u0);

cbuffer Exposure : register(b0) {
    uint frameIndex;
    uint2 size;
    float minLogLum;
    float invLogLumRange;
};

groupshared uint bins[256];

[numthreads(16, 16, 1)]
void main(uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
    bins[gi] = 0;
    GroupMemoryBarrierWithGroupSync();
    float3 c = frames[frameIndex].Load(int3(min(dtid.xy, size - 1), 0)).rgb;
    float lum = dot(c, float3(0.2126, 0.7152, 0.0722));
    uint bin = lum < 0.005 ? 0 : uint(saturate((log2(lum) - minLogLum) * invLogLumRange) * 254.0 + 1.0);
    uint inside = all(dtid.xy < size) ? 1 : 0;
    uint waveCount = WaveActiveSum(inside);
    if (inside != 0) {
        InterlockedAdd(bins[bin], 1);
    }
    GroupMemoryBarrierWithGroupSync();
    if (WaveIsFirstLane()) {
        InterlockedAdd(histogram[255], waveCount);
    }
    InterlockedAdd(histogram[gi], bins[gi]);
}
