// deferred_sky_early_out.frag -- full-screen deferred resolve that writes the
// sky colour and returns early for background pixels.
// The early `return` depends on the depth texel of each pixel: invocations of
// a quad may leave main() while the others go on, so the implicit-LOD
// texture() and the dFdx() after it are in non-uniform control flow. The
// texelFetch()es (no LOD from derivatives) and the sky texture() before the
// return are fine.
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inViewRay;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D depthBuffer;
layout(set = 0, binding = 1) uniform sampler2D gbufferAlbedo;
layout(set = 0, binding = 2) uniform sampler2D gbufferNormal;
layout(set = 0, binding = 3) uniform samplerCube skyCube;
layout(set = 0, binding = 4) uniform sampler2D ssaoTex;

layout(set = 1, binding = 0, std140) uniform Frame {
    vec4 sunDirection;
    vec4 sunColor;
    vec4 ambient;
    float skyIntensity;
} frame;

void main()
{
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    float depth = texelFetch(depthBuffer, pixel, 0).r;                    // EXPECT-NOT: derivative-divergent-cf
    vec3 sky = texture(skyCube, normalize(inViewRay)).rgb;                // EXPECT-NOT: derivative-divergent-cf

    if (depth >= 1.0) {
        outColor = vec4(sky * frame.skyIntensity, 1.0);
        return;
    }

    vec3 albedo = texelFetch(gbufferAlbedo, pixel, 0).rgb;                // EXPECT-NOT: derivative-divergent-cf
    vec3 N = normalize(texelFetch(gbufferNormal, pixel, 0).xyz * 2.0 - 1.0);
    float ao = texture(ssaoTex, inUV).r;                                  // EXPECT: derivative-divergent-cf warning
    float depthSlope = abs(dFdx(depth));                                  // EXPECT: derivative-divergent-cf error

    float ndotl = max(dot(N, normalize(frame.sunDirection.xyz)), 0.0);
    vec3 color = albedo * (frame.ambient.rgb * ao + frame.sunColor.rgb * ndotl);
    color *= 1.0 - clamp(depthSlope * 50.0, 0.0, 0.2);
    outColor = vec4(color, 1.0);
}
