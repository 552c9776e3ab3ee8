// shadow_pcf_cascades.frag -- CLEAN: cascaded shadow maps with a fixed PCF
// kernel.
// The cascade is chosen per pixel, but it only selects the array layer (no
// branch around sampling); the depth-compare texture() calls (implicit LOD:
// sampler2DArrayShadow has no textureLod) run in two loops with constant
// trip counts that never diverge, so control flow is uniform. No finding.
#version 450

layout(location = 0) in vec3 inWorldPos;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in float inViewDepth;

layout(location = 0) out vec4 outShadow;

layout(set = 0, binding = 0) uniform sampler2DArrayShadow cascadeMaps;

layout(set = 1, binding = 0, std140) uniform Cascades {
    mat4  worldToShadow[4];
    vec4  splitDepths;    // view-space far distance of each cascade
    vec4  texelSize;      // xy = 1 / map size
    float normalBias;
} cascades;

void main()
{
    int cascade = int(dot(vec4(greaterThan(vec4(inViewDepth), cascades.splitDepths)), vec4(1.0)));
    cascade = min(cascade, 3);
    vec3 biased = inWorldPos + normalize(inNormal) * cascades.normalBias;
    vec4 shadowPos = cascades.worldToShadow[cascade] * vec4(biased, 1.0);
    vec3 coord = shadowPos.xyz / shadowPos.w;

    float lit = 0.0;
    for (int y = -1; y <= 1; ++y) {
        for (int x = -1; x <= 1; ++x) {
            vec2 offset = vec2(x, y) * cascades.texelSize.xy;
            lit += texture(cascadeMaps, vec4(coord.xy + offset, float(cascade), coord.z));
        }
    }
    outShadow = vec4(lit / 9.0);
}
