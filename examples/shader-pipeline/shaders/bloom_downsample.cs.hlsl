// Bloom downsample: each thread averages BLOOM_TAPS texels into groupshared
// memory; the group barrier is reached by every thread, the bright-pass test
// only guards the store.
#include "color.hlsli"

Texture2D<float4> source : register(t0);
RWTexture2D<float4> target : register(u0);
SamplerState linearClamp : register(s0);

cbuffer Bloom : register(b0) {
    float2 texelSize;
    float threshold;
};

groupshared float4 tile[64];

[numthreads(8, 8, 1)]
void main(uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
    float2 uv = (float2(dtid.xy) + 0.5) * texelSize * 2.0;
    float4 sum = 0;
    for (int i = 0; i < BLOOM_TAPS; ++i) {
        sum += source.SampleLevel(linearClamp, uv + texelSize * float2(i & 1, i >> 1), 0);
    }
    tile[gi] = sum / BLOOM_TAPS;
    GroupMemoryBarrierWithGroupSync();
    float4 c = tile[gi];
    if (luminance(c.rgb) > threshold) {
        target[dtid.xy] = c;
    }
}
