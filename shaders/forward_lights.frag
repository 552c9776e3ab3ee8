// forward_lights.frag -- forward shading of thin two-sided surfaces (leaves,
// cloth) under a list of directional lights with projected cookies.
//
// Uniformity claims (EXPECT markers: docs/shader-verdicts.md):
//  - `lights` (UBO) is UNIFORM, the light loop has a UNIFORM bound and the
//    light index `i` is uniform, so `L = lights.dirIntensity[i]` is UNIFORM
//    when it is assigned at the top of each iteration.
//  - `if (L.w <= 0.0) continue;` reads L right after that assignment: a
//    UNIFORM branch, and the cookie texture() after it runs in UNIFORM
//    control flow.
//  - Two-sided lighting flips L where the surface faces away from the light:
//    `if (dot(N, L.xyz) < 0.0) L.xyz = -L.xyz;` is DIVERGENT, and L is
//    divergent after it -- but only until the next iteration assigns L anew.
//  - glslang -O0 keeps L in a Function variable, reads L.w through an
//    OpAccessChain and writes L.xyz component by component through access
//    chains; spirv-opt -O turns L into SSA values. The verdicts must not
//    depend on that: the assignment from the UBO is a new definition of all
//    of L, so the `continue` test reads that uniform value whatever the flip
//    of the previous iteration left in L (the analysis's virtual SSA form of
//    such variables: whole stores define, component stores update, each load
//    reads the definition that reaches it; docs/uniformity.md, Memory).
#version 450

#define MAX_LIGHTS 16

layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec3 inWorldPos;
layout(location = 2) in vec2 inUV;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D albedoTex;
layout(set = 0, binding = 1) uniform sampler2DArray cookieTex;

layout(set = 1, binding = 0, std140) uniform LightList {
    vec4 dirIntensity[MAX_LIGHTS];   // xyz = direction to the light, w = intensity
    vec4 cookieScale[MAX_LIGHTS];    // xy = world-to-cookie scale
    int  count;
    float translucency;
} lights;

void main()
{
    vec3 N      = normalize(inNormal);
    vec3 albedo = texture(albedoTex, inUV).rgb;                          // EXPECT: cf uniform
    vec3 color  = vec3(0.0);

    for (int i = 0; i < min(lights.count, MAX_LIGHTS); ++i) {            // EXPECT: branch uniform
        vec4 L = lights.dirIntensity[i];
        if (L.w <= 0.0) continue;                                        // EXPECT: branch uniform
        vec2 cookieUV = inWorldPos.xz * lights.cookieScale[i].xy;
        vec3 cookie = texture(cookieTex, vec3(cookieUV, float(i))).rgb;  // EXPECT: cf uniform

        float transmit = 1.0;
        if (dot(N, L.xyz) < 0.0) {                                       // EXPECT: branch divergent
            L.xyz = -L.xyz;
            transmit = lights.translucency;
        }
        color += albedo * cookie * max(dot(N, L.xyz), 0.0) * L.w * transmit;
    }

    outColor = vec4(color, 1.0);
}
