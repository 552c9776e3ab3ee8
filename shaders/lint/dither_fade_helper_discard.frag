// dither_fade_helper_discard.frag -- LOD cross-fade by screen-door dithering
// in a helper that may discard.
// ditherClip() discards per pixel (Bayer threshold from gl_FragCoord): an
// OpKill inside a function called from main(), so after the call some
// invocations of a quad are gone and the texture() and dFdy() in main() that
// follow it are findings. The texture() before the call, and the one inside
// the helper before its discard, are in uniform control flow.
// The derivative findings after the discard are derivative-after-discard's:
// the discard alone leaves the quads incomplete, and `demote`
// (GL_EXT_demote_to_helper_invocation) would keep them complete.
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inNormal;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D albedoTex;
layout(set = 0, binding = 1) uniform sampler2D noiseTex;
layout(set = 0, binding = 2) uniform sampler2D emissiveTex;

layout(push_constant) uniform ObjectConstants {
    float fade;        // LOD transition: 0 = invisible, 1 = opaque
    float noiseScale;
} object;

const float bayer4[16] = float[16](
     0.0,  8.0,  2.0, 10.0,
    12.0,  4.0, 14.0,  6.0,
     3.0, 11.0,  1.0,  9.0,
    15.0,  7.0, 13.0,  5.0);

void ditherClip(float fade, vec2 uv)
{
    ivec2 p = ivec2(gl_FragCoord.xy) & 3;
    float noise = texture(noiseTex, uv * object.noiseScale).r;            // EXPECT-NOT: derivative-divergent-cf
    float threshold = (bayer4[p.y * 4 + p.x] + 0.5) / 16.0;
    if (fade + 0.1 * (noise - 0.5) < threshold) {
        discard;
    }
}

void main()
{
    vec4 albedo = texture(albedoTex, inUV);                               // EXPECT-NOT: derivative-divergent-cf
    ditherClip(object.fade, inUV);
    vec3 emissive = texture(emissiveTex, inUV).rgb;                       // EXPECT: derivative-after-discard warning
    float shade = 0.5 + 0.5 * normalize(inNormal).y;
    float grain = abs(dFdy(shade));                                       // EXPECT: derivative-after-discard error
    outColor = vec4(albedo.rgb * (shade - grain) + emissive, 1.0);
}
