// dissolve_loop_discard.frag -- dissolve effect: several noise octaves, each
// of which may discard the pixel.
// The `discard` (OpKill) inside the octave loop depends on per-pixel noise:
// killed invocations never reach the code after the loop, so the texture()
// and dFdx() after it are in non-uniform control flow. The loop body's
// textureLod() is fine; its texture() before the test is a finding (the
// loop has a divergent exit through the discard). The albedo texture()
// before the loop is fine.
// The derivative findings after the discard are derivative-after-discard's:
// the discard alone leaves the quads incomplete, and `demote`
// (GL_EXT_demote_to_helper_invocation) would keep them complete.
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inWorldPos;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D albedoTex;
layout(set = 0, binding = 1) uniform sampler2D noiseTex;
layout(set = 0, binding = 2) uniform sampler2D edgeRamp;
layout(set = 0, binding = 3) uniform sampler2D scorchTex;

layout(push_constant) uniform Dissolve {
    float progress;
    float edgeWidth;
    int   octaves;
} dissolve;

void main()
{
    vec4 albedo = texture(albedoTex, inUV);                               // EXPECT-NOT: derivative-divergent-cf
    float amplitude = 0.5;
    float noise = 0.0;
    vec2 p = inWorldPos.xz * 0.25;
    for (int o = 0; o < dissolve.octaves; ++o) {
        noise += amplitude * textureLod(noiseTex, p, 0.0).r;              // EXPECT-NOT: derivative-divergent-cf
        float warp = texture(noiseTex, p.yx * 0.5).g;                     // EXPECT: derivative-after-discard warning
        if (noise + warp * 0.05 < dissolve.progress * (1.0 - amplitude)) {
            discard;
        }
        p *= 2.03;
        amplitude *= 0.5;
    }
    float edge = clamp((noise - dissolve.progress) / dissolve.edgeWidth, 0.0, 1.0);
    vec3 glow = texture(edgeRamp, vec2(edge, 0.5)).rgb;                  // EXPECT: derivative-after-discard warning
    float scorch = texture(scorchTex, inUV * 3.0).r;                      // EXPECT: derivative-after-discard warning
    scorch *= abs(dFdx(noise));                                           // EXPECT: derivative-after-discard error
    outColor = vec4(mix(glow, albedo.rgb, edge) * (1.0 - scorch), albedo.a);
}
