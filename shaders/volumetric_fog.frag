// volumetric_fog.frag -- ray-marched fog volume composited over the scene.
// A noise pre-pass with a uniform trip count, then a density march that
// stops early once the fog is opaque.
//
// Uniformity claims (the EXPECT markers are checked by
// test/shaders/verdict_test.py, see docs/shader-verdicts.md):
//  - `pc` (push constants) is UNIFORM for the whole draw. Both loop counters
//    live in Function variables at -O0; the bound is `pc.marchSteps`, so both
//    `for` conditions are UNIFORM decisions: the invocations still inside a
//    loop have done the same number of iterations and hold the same `i`.
//  - `if (i >= pc.octaves) break;` leaves the noise loop in every invocation
//    on the same iteration: a UNIFORM exit, so the texture() in that loop
//    runs in UNIFORM control flow.
//  - `if (opacity >= pc.opacityLimit) break;` depends on per-pixel density:
//    a DIVERGENT exit. From the second iteration on, only the invocations
//    that have not broken out run the loop body, so every block of that loop
//    -- the texture() before the break included -- runs in DIVERGENT control
//    flow (derivatives there are undefined: a real bug, kept on purpose).
//  - After the march loop every invocation has left it and control
//    reconverges at its merge: the fwidth() and texture() there are in
//    UNIFORM control flow, even though `opacity` itself is divergent.
#version 450

layout(location = 0) in vec3 inRayDir;   // smooth: per pixel
layout(location = 1) in vec2 inUV;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler3D densityVolume;
layout(set = 0, binding = 1) uniform sampler2D noiseTex;
layout(set = 0, binding = 2) uniform sampler2D sceneColor;

layout(push_constant) uniform FogParams {
    int   marchSteps;
    int   octaves;
    float stepLength;
    float opacityLimit;
    float noiseScale;
    vec3  fogColor;
} pc;

void main()
{
    // Noise pre-pass: uniform trip count, uniform early exit.
    float noise = 0.0;
    for (int i = 0; i < pc.marchSteps; ++i) {                           // EXPECT: branch uniform
        if (i >= pc.octaves) break;                                     // EXPECT: branch uniform
        noise += texture(noiseTex, inUV * pc.noiseScale * float(i + 1)).r; // EXPECT: cf uniform
    }

    // Density march: divergent early exit.
    float opacity = 0.0;
    vec3  pos     = vec3(inUV, noise * 0.1);
    for (int i = 0; i < pc.marchSteps; ++i) {                           // EXPECT: branch uniform
        float density = texture(densityVolume, pos).r;                  // EXPECT: cf divergent
        opacity += density * pc.stepLength;
        if (opacity >= pc.opacityLimit) {                               // EXPECT: branch divergent
            break;
        }
        pos += inRayDir * pc.stepLength;
    }

    // Reconverged.
    float edge  = fwidth(opacity);                                      // EXPECT: cf uniform
    vec4  scene = texture(sceneColor, inUV);                            // EXPECT: cf uniform
    float fog   = clamp(opacity - edge, 0.0, 1.0);
    outColor = vec4(mix(scene.rgb, pc.fogColor, fog), 1.0);
}
