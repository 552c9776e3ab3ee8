// alpha_cutout.frag -- foliage with alpha testing. A per-draw debug switch
// can hide the whole draw; then the alpha test discards per pixel, and the
// shader goes on to compute an anti-aliased edge with derivatives and to
// sample an occlusion map.
//
// Uniformity claims (EXPECT markers: docs/shader-verdicts.md):
//  - `discard` ends the invocation (OpKill). After `if (c) discard;` only the
//    invocations that did not discard go on.
//  - `if (pc.hideDraw != 0) discard;` is a UNIFORM branch (push constant):
//    either every invocation of the draw discards or none does, so the code
//    after it still runs in UNIFORM control flow.
//  - `if (albedo.a < pc.alphaCutoff) discard;` depends on the texel: a
//    DIVERGENT branch. The invocations of a quad that survive it go on
//    without the discarded ones, so everything after it -- the fwidth() and
//    the occlusion texture() -- runs in DIVERGENT control flow (their
//    derivatives are undefined: a real bug, kept on purpose; the fix is to
//    take the derivatives before the discard, as `uvFootprint` does).
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inNormal;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D albedoTex;
layout(set = 0, binding = 1) uniform sampler2D occlusionTex;

layout(push_constant) uniform CutoutParams {
    float alphaCutoff;
    int   hideDraw;
    vec3  lightDir;
} pc;

void main()
{
    if (pc.hideDraw != 0) discard;                            // EXPECT: branch uniform

    vec4  albedo      = texture(albedoTex, inUV);             // EXPECT: cf uniform
    float uvFootprint = length(fwidth(inUV));                 // EXPECT: cf uniform

    if (albedo.a < pc.alphaCutoff) discard;                   // EXPECT: branch divergent

    float edgeWidth = fwidth(albedo.a);                       // EXPECT: cf divergent
    float occlusion = texture(occlusionTex, inUV).r;          // EXPECT: cf divergent

    float coverage = clamp((albedo.a - pc.alphaCutoff) / max(edgeWidth, 1e-4) + 0.5, 0.0, 1.0);
    float ndotl    = max(dot(normalize(inNormal), -pc.lightDir), 0.0);
    outColor = vec4(albedo.rgb * (0.2 + ndotl) * occlusion, coverage * (1.0 - uvFootprint));
}
