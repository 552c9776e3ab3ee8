// tonemap_auto_exposure.frag -- CLEAN: final tonemap with auto exposure read
// from a 1x1 average-luminance texture and an optional colour-grading LUT.
// texelFetch at a constant coordinate of a sampled image reads the same
// value in every invocation, so `if (avgLum > grading.lutThreshold)` is a
// uniform branch (as is the push-constant one): the texture() calls inside
// run in uniform control flow. No finding.
#version 450

layout(location = 0) in vec2 inUV;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D hdrScene;
layout(set = 0, binding = 1) uniform sampler2D averageLuminance;   // 1x1
layout(set = 0, binding = 2) uniform sampler3D gradingLut;
layout(set = 0, binding = 3) uniform sampler2D bloomTex;
layout(set = 0, binding = 4) uniform sampler2D vignetteTex;

layout(set = 1, binding = 0, std140) uniform Grading {
    float keyValue;
    float lutThreshold;
    float lutStrength;
    float bloomStrength;
} grading;

layout(push_constant) uniform Post {
    int enableVignette;
} post;

vec3 acesFilm(vec3 x)
{
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

void main()
{
    vec3 hdr = texture(hdrScene, inUV).rgb;
    float avgLum = texelFetch(averageLuminance, ivec2(0, 0), 0).r;
    float exposure = grading.keyValue / max(avgLum, 1e-4);
    vec3 color = hdr * exposure + texture(bloomTex, inUV).rgb * grading.bloomStrength;
    color = acesFilm(color);

    if (avgLum > grading.lutThreshold) {
        vec3 graded = texture(gradingLut, color * (31.0 / 32.0) + 0.5 / 32.0).rgb; // EXPECT-NOT: derivative-divergent-cf
        color = mix(color, graded, grading.lutStrength);
    }
    if (post.enableVignette != 0) {
        color *= texture(vignetteTex, inUV).r;                            // EXPECT-NOT: derivative-divergent-cf
    }
    outColor = vec4(color, dot(color, vec3(0.299, 0.587, 0.114)));
}
