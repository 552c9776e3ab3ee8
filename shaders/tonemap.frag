// tonemap.frag -- full-screen tone-mapping pass (drawn as a full-screen
// triangle). Samples the HDR scene colour, applies exposure, an optional
// bloom add, one of several tone curves selected by a UBO field, and gamma.
//
// Uniformity claims:
//  - All `params` members are UNIFORM (UBO, same for the whole draw).
//  - `inUV`, `hdr`, `color`, the outputs are DIVERGENT (per-pixel).
//  - `if (params.bloomStrength > 0.0)` is a UNIFORM branch; the implicit-LOD
//    texture() inside it is therefore in uniform control flow: NOT a bug.
//  - `switch (params.operatorMode)` is a UNIFORM branch.
//  - Both texture() calls use implicit LOD in uniform control flow: correct.
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D hdrColor;
layout(set = 0, binding = 1) uniform sampler2D bloomColor;

layout(set = 0, binding = 2, std140) uniform TonemapParams {
    float exposure;       // linear exposure multiplier
    float bloomStrength;  // 0 disables bloom
    float whitePoint;     // Reinhard-extended white point
    float gamma;          // display gamma, usually 2.2
    int   operatorMode;   // 0 = linear clamp, 1 = Reinhard, 2 = Reinhard ext, 3 = ACES
} params;

const int MODE_LINEAR     = 0;
const int MODE_REINHARD   = 1;
const int MODE_REINHARD_X = 2;
const int MODE_ACES       = 3;

float luminance(vec3 c) { return dot(c, vec3(0.2126, 0.7152, 0.0722)); }

// Narkowicz 2015 ACES filmic approximation.
vec3 acesFilm(vec3 x)
{
    const float a = 2.51, b = 0.03, c = 2.43, d = 0.59, e = 0.14;
    return clamp((x * (a * x + b)) / (x * (c * x + d) + e), 0.0, 1.0);
}

vec3 reinhardExtended(vec3 c, float white)
{
    float l    = luminance(c);
    float lOut = l * (1.0 + l / (white * white)) / (1.0 + l);
    return c * (lOut / max(l, 1e-5));
}

void main()
{
    vec3 hdr = texture(hdrColor, inUV).rgb;  // EXPECT: cf uniform

    if (params.bloomStrength > 0.0) {  // EXPECT: branch uniform
        hdr += params.bloomStrength * texture(bloomColor, inUV).rgb;  // EXPECT: cf uniform
    }

    vec3 color = hdr * params.exposure;

    switch (params.operatorMode) {  // EXPECT: branch uniform
    case MODE_REINHARD:
        color = color / (1.0 + color);
        break;
    case MODE_REINHARD_X:
        color = reinhardExtended(color, max(params.whitePoint, 1e-3));
        break;
    case MODE_ACES:
        color = acesFilm(color);
        break;
    default: // MODE_LINEAR
        color = clamp(color, 0.0, 1.0);
        break;
    }

    color = pow(color, vec3(1.0 / max(params.gamma, 1e-3)));
    outColor = vec4(color, 1.0);
}
