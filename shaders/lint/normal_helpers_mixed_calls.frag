// normal_helpers_mixed_calls.frag -- screen-space tangent frame helpers
// shared between the base layer and an optional clear-coat layer.
// cotangentFrame() is called at the top level and from the divergent
// clear-coat branch (coverage from a texture), so its dFdx/dFdy run in
// non-uniform control flow in one of its calls: findings on its lines.
// baseRoughness() is only called at the top level: its texture() is fine.
#version 450

layout(location = 0) in vec3 inWorldPos;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUV;

layout(location = 0) out vec4 outNormal;
layout(location = 1) out vec4 outCoat;

layout(set = 0, binding = 0) uniform sampler2D normalMap;
layout(set = 0, binding = 1) uniform sampler2D roughnessMap;
layout(set = 0, binding = 2) uniform sampler2D coatMaskMap;
layout(set = 0, binding = 3) uniform sampler2D coatNormalMap;

mat3 cotangentFrame(vec3 N, vec3 p, vec2 uv)
{
    vec3 dp1 = dFdx(p);                                                   // EXPECT: derivative-divergent-cf error
    vec3 dp2 = dFdy(p);                                                   // EXPECT: derivative-divergent-cf error
    vec2 duv1 = dFdx(uv);                                                 // EXPECT: derivative-divergent-cf error
    vec2 duv2 = dFdy(uv);                                                 // EXPECT: derivative-divergent-cf error
    vec3 dp2perp = cross(dp2, N);
    vec3 dp1perp = cross(N, dp1);
    vec3 T = dp2perp * duv1.x + dp1perp * duv2.x;
    vec3 B = dp2perp * duv1.y + dp1perp * duv2.y;
    float invmax = inversesqrt(max(dot(T, T), dot(B, B)));
    return mat3(T * invmax, B * invmax, N);
}

float baseRoughness(vec2 uv)
{
    return texture(roughnessMap, uv).g;                                   // EXPECT-NOT: derivative-divergent-cf
}

void main()
{
    vec3 N = normalize(inNormal);
    mat3 TBN = cotangentFrame(N, inWorldPos, inUV);
    vec3 n = normalize(TBN * (texture(normalMap, inUV).xyz * 2.0 - 1.0)); // EXPECT-NOT: derivative-divergent-cf
    float roughness = baseRoughness(inUV);

    vec4 coat = vec4(0.0);
    float coatMask = texture(coatMaskMap, inUV).r;                        // EXPECT-NOT: derivative-divergent-cf
    if (coatMask > 0.0) {
        mat3 coatTBN = cotangentFrame(N, inWorldPos, inUV * 4.0);
        vec3 cn = normalize(coatTBN * (textureLod(coatNormalMap, inUV * 4.0, 0.0).xyz * 2.0 - 1.0));
        coat = vec4(cn * 0.5 + 0.5, coatMask);
    }

    outNormal = vec4(n * 0.5 + 0.5, roughness);
    outCoat = coat;
}
