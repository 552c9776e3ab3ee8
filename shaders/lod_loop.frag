// lod_loop.frag -- CLEAN shader (no bugs): multi-tap filter for a
// light-shaft / radial-blur composite. A loop whose trip count comes from a
// UBO accumulates implicit-LOD texture() samples.
//
// Uniformity claims:
//  - `blur` (UBO) is UNIFORM: sampleCount, offsets[], weights[].
//  - `tapCount = clamp(blur.sampleCount, 0, MAX_TAPS)` is UNIFORM; the loop
//    `for (int i = 0; i < tapCount; ++i)` has a UNIFORM trip count and a
//    uniform exit branch, with no break/continue/return inside.
//  - Every texture() call (implicit LOD) therefore executes in UNIFORM
//    control flow: derivatives are well-defined. Expected: no diagnostics.
//  - `inUV`, `accum`, `outColor` are DIVERGENT values (per-pixel), which is
//    fine: only control flow matters for implicit LOD.
#version 450

#define MAX_TAPS 16

layout(location = 0) in vec2 inUV;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D sceneColor;

layout(set = 0, binding = 1, std140) uniform BlurParams {
    vec4  offsets[MAX_TAPS];   // xy = uv offset per tap
    vec4  weights[MAX_TAPS];   // x  = weight per tap
    int   sampleCount;
    float intensity;
} blur;

void main()
{
    int  tapCount  = clamp(blur.sampleCount, 0, MAX_TAPS);
    vec4 accum     = vec4(0.0);
    float totalW   = 0.0;

    for (int i = 0; i < tapCount; ++i) {  // EXPECT: branch uniform
        vec2  tapUV = inUV + blur.offsets[i].xy;
        float w     = blur.weights[i].x;
        accum  += w * texture(sceneColor, tapUV);  // EXPECT: cf uniform
        totalW += w;
    }

    vec4 base = texture(sceneColor, inUV);  // EXPECT: cf uniform
    vec4 blurred = accum / max(totalW, 1e-5);
    outColor = mix(base, blurred, clamp(blur.intensity, 0.0, 1.0));
}
