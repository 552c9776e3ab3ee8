// parallax_shadow.frag -- parallax occlusion mapping followed by a
// self-shadowing march towards the light. Both marches take the same step
// count from the material UBO.
//
// Uniformity claims (EXPECT markers: docs/shader-verdicts.md):
//  - `material` (UBO) is UNIFORM; the view/light vectors and uv are
//    DIVERGENT.
//  - The view march `for (i < material.steps)` breaks when the ray dips
//    under the height field: a DIVERGENT exit. Its `for` condition is a
//    UNIFORM decision (invocations still inside agree on i); the blocks of
//    the loop run in DIVERGENT control flow from the second iteration on
//    (its textureLod() needs no derivatives: nothing to report there).
//  - After that loop every invocation continues together: the shadow march
//    below starts in UNIFORM control flow. Its bound is the same UBO value,
//    read-only memory at a constant address, so its condition is a UNIFORM
//    decision, and its `break` depends only on the counter and the UBO: a
//    UNIFORM exit. The texture() and dFdx() in it run in UNIFORM control
//    flow (in every build).
//  - spirv-opt -O keeps ONE load of `material.steps`, the one in the first
//    loop's header, and reuses it in the second loop and in the `if` below.
//    A use of that load after the first loop's divergent exit must not
//    become temporally divergent: a load from a UBO at a constant address
//    reads the same value in every iteration (the analysis treats such
//    loads as cycle-invariant; before that, these lines were wrong at -O).
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inViewTS;    // tangent-space view vector
layout(location = 2) in vec3 inLightTS;   // tangent-space light vector

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D heightMap;
layout(set = 0, binding = 1) uniform sampler2D albedoMap;

layout(set = 1, binding = 0, std140) uniform MaterialParams {
    float heightScale;
    float layerDepth;    // 1.0 / steps, precomputed on the CPU
    int   steps;
    int   shadowSteps;   // <= steps
    float shadowSoftness;
} material;

void main()
{
    float stepSize = material.layerDepth;
    vec2  uvStep   = inViewTS.xy / max(inViewTS.z, 0.05) * material.heightScale * stepSize;

    // View march: divergent exit.
    vec2  uv    = inUV;
    float layer = 1.0;
    for (int i = 0; i < material.steps; ++i) {                          // EXPECT: branch uniform
        float h = textureLod(heightMap, uv, 0.0).r;
        if (h >= layer) {                                               // EXPECT: branch divergent
            break;
        }
        uv    -= uvStep;
        layer -= stepSize;
    }

    // Shadow march: uniform trip count, uniform exit.
    vec2  lightStep = inLightTS.xy * material.heightScale * stepSize;
    float shadow    = 1.0;
    for (int i = 0; i < material.steps; ++i) {                          // EXPECT: branch uniform
        if (i >= material.shadowSteps) break;                           // EXPECT: branch uniform
        vec2  p  = uv + lightStep * float(i + 1);
        float h  = texture(heightMap, p).r;                             // EXPECT: cf uniform
        float dh = abs(dFdx(h)) + abs(dFdy(h));                         // EXPECT: cf uniform
        shadow = min(shadow, 1.0 - clamp((h - layer) * material.shadowSoftness - dh, 0.0, 1.0));
    }

    vec4 albedo = texture(albedoMap, uv);                               // EXPECT: cf uniform
    if (material.steps > 32) {                                          // EXPECT: branch uniform
        albedo.rgb *= 0.5 + 0.5 * shadow;
    } else {
        albedo.rgb *= shadow;
    }
    outColor = albedo;
}
