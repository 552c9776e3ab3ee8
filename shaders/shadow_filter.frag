// shadow_filter.frag -- cascaded shadow lookup with a Poisson PCF kernel,
// a projected light cookie, and a mip-level debug view.
//
// Uniformity claims (EXPECT markers: docs/shader-verdicts.md):
//  - `shadow` (UBO) is UNIFORM: tap count, cascade count, debug mode.
//  - The cascade loop and the PCF loop have UNIFORM bounds (UBO; counters in
//    Function variables at -O0): their `for` conditions decide UNIFORMLY.
//  - The cascade loop's `if (...) continue;` skips cascades by the pixel's
//    depth: a DIVERGENT branch. A continue ends only the current iteration:
//    every invocation reaches the loop's continue block, so the next
//    iteration starts in UNIFORM control flow again: the dither texture()
//    before the continue runs in UNIFORM control flow, the shadow-map sample
//    after it in DIVERGENT control flow.
//  - The PCF loop's `continue` on a UBO flag is UNIFORM: the Dref sample
//    (OpImageSampleDrefImplicitLod) after it stays in UNIFORM control flow.
//  - textureQueryLod() and textureProj() at the top level: UNIFORM.
//  - `if (gl_FragCoord.x < shadow.splitX)` (split-screen debug) is DIVERGENT.
#version 450

#define MAX_TAPS 16
#define MAX_CASCADES 4

layout(location = 0) in vec3 inWorldPos;
layout(location = 1) in vec4 inCookieCoord;   // projective light-cookie coordinate
layout(location = 2) in float inViewDepth;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2DArrayShadow shadowMap;
layout(set = 0, binding = 1) uniform sampler2D cookieTex;
layout(set = 0, binding = 2) uniform sampler2D ditherTex;

layout(set = 1, binding = 0, std140) uniform ShadowParams {
    mat4  cascadeMatrix[MAX_CASCADES];
    vec4  cascadeSplits;          // view-depth end of each cascade
    vec4  poisson[MAX_TAPS];      // xy = offset
    int   cascadeCount;
    int   tapCount;
    int   skipOddTaps;
    float filterRadius;
    float splitX;
} shadow;

void main()
{
    float lit = 0.0;
    float weight = 0.0;
    for (int c = 0; c < shadow.cascadeCount; ++c) {                      // EXPECT: branch uniform
        float dither = texture(ditherTex, inWorldPos.xz).r;              // EXPECT: cf uniform
        if (inViewDepth > shadow.cascadeSplits[c] + dither) continue;    // EXPECT: branch divergent
        vec4 coord = shadow.cascadeMatrix[c] * vec4(inWorldPos, 1.0);
        float s = texture(shadowMap, vec4(coord.xy, float(c), coord.z)); // EXPECT: cf divergent
        lit += s;
        weight += 1.0;
    }

    vec4 coord0 = shadow.cascadeMatrix[0] * vec4(inWorldPos, 1.0);
    float pcf = 0.0;
    for (int t = 0; t < shadow.tapCount; ++t) {                          // EXPECT: branch uniform
        if (shadow.skipOddTaps != 0 && (t & 1) == 1) continue;           // EXPECT: branch uniform
        vec2 offset = shadow.poisson[t].xy * shadow.filterRadius;
        pcf += texture(shadowMap, vec4(coord0.xy + offset, 0.0, coord0.z)); // EXPECT: cf uniform
    }
    pcf /= float(max(shadow.tapCount, 1));

    vec2  lod    = textureQueryLod(cookieTex, inCookieCoord.xy);         // EXPECT: cf uniform
    vec3  cookie = textureProj(cookieTex, inCookieCoord).rgb;            // EXPECT: cf uniform

    vec3 color = cookie * mix(pcf, lit / max(weight, 1.0), 0.5);
    if (gl_FragCoord.x < shadow.splitX) {                                // EXPECT: branch divergent
        color = vec3(lod.x / 8.0);
    }
    outColor = vec4(color, 1.0);
}
