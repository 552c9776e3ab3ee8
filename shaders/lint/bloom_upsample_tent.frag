// bloom_upsample_tent.frag -- CLEAN: bloom up-sampling pass with a 3x3 tent
// filter and a lens-dirt texture.
// Straight-line code: every sample runs in uniform control flow, the
// per-pixel weighting uses select-style arithmetic, not branches. No finding.
#version 450

layout(location = 0) in vec2 inUV;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D lowerMip;
layout(set = 0, binding = 1) uniform sampler2D currentMip;
layout(set = 0, binding = 2) uniform sampler2D lensDirt;

layout(push_constant) uniform Upsample {
    vec2  texelSize;
    float radius;
    float dirtIntensity;
} up;

void main()
{
    vec2 d = up.texelSize * up.radius;
    vec3 sum = texture(lowerMip, inUV).rgb * 4.0;
    sum += texture(lowerMip, inUV + vec2(-d.x, 0.0)).rgb * 2.0;
    sum += texture(lowerMip, inUV + vec2(d.x, 0.0)).rgb * 2.0;
    sum += texture(lowerMip, inUV + vec2(0.0, -d.y)).rgb * 2.0;
    sum += texture(lowerMip, inUV + vec2(0.0, d.y)).rgb * 2.0;
    sum += texture(lowerMip, inUV + vec2(-d.x, -d.y)).rgb;
    sum += texture(lowerMip, inUV + vec2(d.x, -d.y)).rgb;
    sum += texture(lowerMip, inUV + vec2(-d.x, d.y)).rgb;
    sum += texture(lowerMip, inUV + vec2(d.x, d.y)).rgb;
    vec3 bloom = sum / 16.0;
    vec3 dirt = texture(lensDirt, inUV).rgb * up.dirtIntensity;
    float lum = max(dot(bloom, vec3(0.2126, 0.7152, 0.0722)), 0.0);
    vec3 current = texture(currentMip, inUV).rgb;
    outColor = vec4(current + bloom * (1.0 + dirt * step(0.02, lum)), 1.0);
}
