// G-buffer pass of a bindless renderer: the material comes from a flat
// per-primitive index, so its textures are selected with
// NonUniformResourceIndex; the environment map index is uniform.
struct Material {
    uint albedo;
    uint normal;
};

StructuredBuffer<Material> materials : register(t0, space0);
Texture2D textures[] : register(t0, space1);
SamplerState anisotropic : register(s0, space0);

struct PSInput {
    float4 position : SV_Position;
    float2 uv : TEXCOORD0;
    nointerpolation uint material : MATERIAL;
};

struct GBuffer {
    float4 albedo : SV_Target0;
    float4 normal : SV_Target1;
};

GBuffer main(PSInput input) {
    Material m = materials[input.material];
    GBuffer output;
    output.albedo = textures[NonUniformResourceIndex(m.albedo)].Sample(anisotropic, input.uv);
    output.normal = textures[NonUniformResourceIndex(m.normal)].Sample(anisotropic, input.uv);
    return output;
}
