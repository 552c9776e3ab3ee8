// hlsl_bindless_material.ps.hlsl -- bindless forward material in HLSL: the
// material index arrives as a nointerpolation (flat) attribute, constant per
// primitive but not across the primitives one wave may shade, so every
// descriptor-array access it selects needs NonUniformResourceIndex. The
// albedo fetch wraps the index (glslang's HLSL front end, through spirv-conv,
// decorates it NonUniform as DXC does); the normal-map fetch forgets to.
// The shadow map index comes from a constant buffer: uniform, nothing needed.
struct Material {
    uint albedo;
    uint normal;
    float roughness;
    float pad;
};

StructuredBuffer<Material> materials : register(t0, space0);
Texture2D textures[] : register(t0, space1);
Texture2D shadowMaps[4] : register(t1, space0);
SamplerState linearSampler : register(s0, space0);

cbuffer Frame : register(b0, space0) {
    uint shadowIndex;
    float3 lightDir;
};

struct PSInput {
    float4 position : SV_Position;
    float2 uv : TEXCOORD0;
    float3 normal : NORMAL;
    nointerpolation uint materialId : MATERIAL;
};

float4 main(PSInput input) : SV_Target {
    Material m = materials[input.materialId];
    float4 albedo = textures[NonUniformResourceIndex(m.albedo)].Sample(linearSampler, input.uv); // EXPECT-NOT: nonuniform-missing-decoration
    float3 n = textures[m.normal].Sample(linearSampler, input.uv).xyz; // EXPECT: nonuniform-missing-decoration
    float shadow = shadowMaps[shadowIndex].Sample(linearSampler, input.uv).r; // EXPECT-NOT: nonuniform-missing-decoration
    float ndotl = saturate(dot(normalize(input.normal + n), lightDir));
    return albedo * ndotl * shadow;
}
