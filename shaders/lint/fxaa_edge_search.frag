// fxaa_edge_search.frag -- CLEAN: FXAA-style anti-aliasing with an early
// exit and an edge search loop.
// The shader branches per pixel (early return for low-contrast pixels, a
// search loop with a divergent `break`, a divergent choice of direction),
// but every read is textureLod (explicit LOD) and there is no derivative,
// barrier or subgroup operation: divergence alone is no finding.
#version 450

layout(location = 0) in vec2 inUV;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D sceneTex;

layout(push_constant) uniform Fxaa {
    vec2  rcpFrame;
    float edgeThreshold;
    int   searchSteps;
} fxaa;

float luma(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }

void main()
{
    vec3 center = textureLod(sceneTex, inUV, 0.0).rgb;
    float lumaM = luma(center);
    float lumaN = luma(textureLod(sceneTex, inUV + vec2(0.0, -fxaa.rcpFrame.y), 0.0).rgb);
    float lumaS = luma(textureLod(sceneTex, inUV + vec2(0.0, fxaa.rcpFrame.y), 0.0).rgb);
    float lumaW = luma(textureLod(sceneTex, inUV + vec2(-fxaa.rcpFrame.x, 0.0), 0.0).rgb);
    float lumaE = luma(textureLod(sceneTex, inUV + vec2(fxaa.rcpFrame.x, 0.0), 0.0).rgb);
    float range = max(max(max(lumaN, lumaS), max(lumaW, lumaE)), lumaM) -
                  min(min(min(lumaN, lumaS), min(lumaW, lumaE)), lumaM);
    if (range < fxaa.edgeThreshold) {
        outColor = vec4(center, 1.0);
        return;
    }

    bool horizontal = abs(lumaN + lumaS - 2.0 * lumaM) >= abs(lumaW + lumaE - 2.0 * lumaM);
    vec2 stepDir = horizontal ? vec2(fxaa.rcpFrame.x, 0.0) : vec2(0.0, fxaa.rcpFrame.y);
    vec2 normal = horizontal ? vec2(0.0, fxaa.rcpFrame.y) : vec2(fxaa.rcpFrame.x, 0.0);
    float edgeLuma = 0.5 * (lumaM + (horizontal ? lumaN : lumaW));

    float searched = 0.0;
    for (int i = 1; i <= fxaa.searchSteps; ++i) {
        vec2 p = inUV + 0.5 * normal + stepDir * float(i);
        if (abs(luma(textureLod(sceneTex, p, 0.0).rgb) - edgeLuma) > 0.25 * range) {
            break;
        }
        searched = float(i);
    }
    float blend = 0.5 - searched / float(2 * max(fxaa.searchSteps, 1));
    vec3 neighbour = textureLod(sceneTex, inUV + normal * blend, 0.0).rgb;
    outColor = vec4(mix(center, neighbour, 0.5), 1.0);
}
