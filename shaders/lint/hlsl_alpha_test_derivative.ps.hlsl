// hlsl_alpha_test_derivative.ps.hlsl -- a foliage pass that samples its
// detail layer only where the coverage mask is set. The mask is read per
// pixel, so the branch splits quads: the implicit-LOD Sample inside takes
// derivatives across pixels that did not run it, and so does the explicit
// ddx of the detail coordinate. The base colour is sampled before the
// branch, in uniform control flow.
Texture2D baseMap : register(t0);
Texture2D detailMap : register(t1);
Texture2D maskMap : register(t2);
SamplerState aniso : register(s0);

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    float4 color = baseMap.Sample(aniso, uv); // EXPECT-NOT: derivative-divergent-cf
    float mask = maskMap.Load(int3(pos.xy, 0)).r;
    if (mask > 0.5) {
        float2 detailUV = uv * 8.0;
        color.rgb *= detailMap.Sample(aniso, detailUV).rgb; // EXPECT: derivative-divergent-cf
        color.a *= saturate(abs(ddx(detailUV.x)) * 64.0); // EXPECT: derivative-divergent-cf
    }
    return color;
}
