// terrain_layers.frag -- terrain splatting with helper functions. The base
// layer is sampled by a helper called at the top level; a detail helper is
// called only where the painted blend weight is large; a tint helper only
// when a per-draw flag is set; a quality switch is passed as an argument.
//
// Uniformity claims (EXPECT markers: docs/shader-verdicts.md):
//  - sampleBase() is called once, at main's top level: its texture() runs in
//    UNIFORM control flow.
//  - sampleDetail() is called only inside `if (inBlend > 0.25)`; inBlend is a
//    smooth varying, so that branch is DIVERGENT (even within a quad) and the
//    helper's implicit-LOD texture() runs in DIVERGENT control flow: a real
//    derivative bug, hidden behind a call.
//  - sampleTint() is called only inside `if (params.tintEnabled != 0)`, a
//    UNIFORM branch (UBO): its texture() runs in UNIFORM control flow.
//  - lodBias(quality) branches on its parameter; its only caller passes
//    `params.quality` (UBO), so that branch decides UNIFORMLY.
#version 450

layout(location = 0) in vec2  inUV;
layout(location = 1) in float inBlend;   // painted per-vertex blend weight

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D baseTex;
layout(set = 0, binding = 1) uniform sampler2D detailTex;
layout(set = 0, binding = 2) uniform sampler2D tintTex;

layout(set = 1, binding = 0, std140) uniform TerrainParams {
    float detailTiling;
    float tintStrength;
    int   tintEnabled;
    int   quality;
} params;

float lodBias(int quality)
{
    float bias = 0.0;
    if (quality > 1) {                                     // EXPECT: branch uniform (gone after -O: inlined into main and if-converted to an OpSelect)
        bias = -0.5;
    }
    return bias;
}

vec3 sampleBase(vec2 uv, float bias)
{
    return texture(baseTex, uv, bias).rgb;                 // EXPECT: cf uniform
}

vec3 sampleDetail(vec2 uv)
{
    return texture(detailTex, uv * params.detailTiling).rgb; // EXPECT: cf divergent
}

vec3 sampleTint(vec2 uv)
{
    return texture(tintTex, uv).rgb;                       // EXPECT: cf uniform
}

void main()
{
    float bias = lodBias(params.quality);
    vec3 color = sampleBase(inUV, bias);

    if (inBlend > 0.25) {                                  // EXPECT: branch divergent
        color = mix(color, sampleDetail(inUV), inBlend);
    }

    if (params.tintEnabled != 0) {                         // EXPECT: branch uniform
        color *= mix(vec3(1.0), sampleTint(inUV), params.tintStrength);
    }

    outColor = vec4(color, 1.0);
}
