// foliage_alpha_test.frag -- alpha-tested foliage with a normal map sampled
// after the cutout.
// `discard` on a per-pixel alpha compiles to OpKill: after it some
// invocations of a quad are gone, so control flow is no longer uniform across
// the quad and the implicit-LOD texture() and fwidth() after it are findings;
// the samples before the discard and the textureLod() after it are fine.
// The derivative findings after the discard are derivative-after-discard's:
// the discard alone leaves the quads incomplete, and `demote`
// (GL_EXT_demote_to_helper_invocation) would keep them complete.
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec3 inTangent;

layout(location = 0) out vec4 outAlbedo;
layout(location = 1) out vec4 outNormal;

layout(set = 0, binding = 0) uniform sampler2D albedoMap;
layout(set = 0, binding = 1) uniform sampler2D normalMap;
layout(set = 0, binding = 2) uniform sampler2D translucencyMap;

layout(set = 1, binding = 0, std140) uniform FoliageParams {
    float alphaCutoff;
    float translucency;
    vec2  windOffset;
} foliage;

void main()
{
    vec2 uv = inUV + foliage.windOffset;
    vec4 albedo = texture(albedoMap, uv);                                 // EXPECT-NOT: derivative-divergent-cf
    float sharpAlpha = (albedo.a - foliage.alphaCutoff) / max(fwidth(albedo.a), 1e-4) + 0.5; // EXPECT-NOT: derivative-divergent-cf

    if (sharpAlpha < 0.5) {
        discard;
    }

    vec3 tn = texture(normalMap, uv).xyz * 2.0 - 1.0;                     // EXPECT: derivative-after-discard warning
    float edge = fwidth(sharpAlpha);                                      // EXPECT: derivative-after-discard error
    float thickness = textureLod(translucencyMap, uv, 0.0).r;             // EXPECT-NOT: derivative-divergent-cf

    vec3 N = normalize(inNormal);
    vec3 T = normalize(inTangent);
    vec3 B = cross(N, T);
    vec3 n = normalize(T * tn.x + B * tn.y + N * tn.z);

    outAlbedo = vec4(albedo.rgb, thickness * foliage.translucency);
    outNormal = vec4(n * 0.5 + 0.5, clamp(edge, 0.0, 1.0));
}
