// detail_normal_blend.frag -- PBR surface with a detail normal map blended in
// where the painted per-vertex mask is non-zero.
// Derivatives in a divergent `if`: `inDetailMask` is a smooth varying, so the
// branch on it can split a quad; texture() inside needs implicit derivatives
// (warning) and the dFdx/dFdy of the tangent frame are explicit (error). The
// textureGrad() with gradients taken at the top level is the fix (no
// finding); the branch on the UBO flag is uniform, so its texture() is fine.
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inWorldPos;
layout(location = 2) in vec3 inNormal;
layout(location = 3) in float inDetailMask;

layout(location = 0) out vec4 outNormalRoughness;

layout(set = 0, binding = 0) uniform sampler2D normalMap;
layout(set = 0, binding = 1) uniform sampler2D detailNormalMap;
layout(set = 0, binding = 2) uniform sampler2D roughnessMap;
layout(set = 0, binding = 3) uniform sampler2D wetnessMap;

layout(set = 1, binding = 0, std140) uniform Material {
    vec2  detailTiling;
    float detailStrength;
    int   useWetness;
    float wetnessTiling;
} material;

vec3 unpackNormal(vec4 texel)
{
    vec3 n = texel.xyz * 2.0 - 1.0;
    return normalize(n);
}

void main()
{
    vec2 uv = inUV;
    vec2 dUVdx = dFdx(uv);                                                // EXPECT-NOT: derivative-divergent-cf
    vec2 dUVdy = dFdy(uv);                                                // EXPECT-NOT: derivative-divergent-cf
    vec3 n = unpackNormal(texture(normalMap, uv));                        // EXPECT-NOT: derivative-divergent-cf
    float roughness = texture(roughnessMap, uv).g;                        // EXPECT-NOT: derivative-divergent-cf

    if (inDetailMask > 0.01) {
        vec2 detailUV = uv * material.detailTiling;
        vec3 detail = unpackNormal(texture(detailNormalMap, detailUV));   // EXPECT: derivative-divergent-cf warning
        vec3 dPdx = dFdx(inWorldPos);                                     // EXPECT: derivative-divergent-cf error
        vec3 dPdy = dFdy(inWorldPos);                                     // EXPECT: derivative-divergent-cf error
        vec3 T = normalize(dPdx * dUVdy.y - dPdy * dUVdx.y);
        vec3 B = cross(normalize(inNormal), T);
        vec3 perturbed = normalize(n + material.detailStrength * inDetailMask * (T * detail.x + B * detail.y));
        float detailRough = textureGrad(roughnessMap, detailUV, dUVdx * material.detailTiling, dUVdy * material.detailTiling).g; // EXPECT-NOT: derivative-divergent-cf
        n = perturbed;
        roughness = mix(roughness, detailRough, inDetailMask);
    }

    if (material.useWetness != 0) {
        float wet = texture(wetnessMap, uv * material.wetnessTiling).r;  // EXPECT-NOT: derivative-divergent-cf
        roughness *= 1.0 - 0.8 * wet;
    }

    outNormalRoughness = vec4(n * 0.5 + 0.5, roughness);
}
