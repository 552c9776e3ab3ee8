// foliage_demote_a2c.frag -- CLEAN: alpha-tested foliage that demotes instead
// of discarding (GL_EXT_demote_to_helper_invocation).
// `demote` compiles to OpDemoteToHelperInvocation, which is not a terminator:
// a demoted invocation becomes a helper and keeps executing, so the quad
// stays complete and control flow after it is uniform -- the texture() and
// fwidth() after the per-pixel demote are well defined. No finding.
#version 450
#extension GL_EXT_demote_to_helper_invocation : require

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inNormal;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D albedoTex;
layout(set = 0, binding = 1) uniform sampler2D normalTex;
layout(set = 0, binding = 2) uniform sampler2D subsurfaceTex;

layout(set = 1, binding = 0, std140) uniform Foliage {
    float alphaCutoff;
    float subsurface;
    vec4  sunDirection;
} foliage;

void main()
{
    vec4 albedo = texture(albedoTex, inUV);
    if (albedo.a < foliage.alphaCutoff) {
        demote;
    }
    vec3 tn = texture(normalTex, inUV).xyz * 2.0 - 1.0;                   // EXPECT-NOT: derivative-divergent-cf
    float sss = texture(subsurfaceTex, inUV).r;
    float edge = fwidth(albedo.a);                                        // EXPECT-NOT: derivative-divergent-cf
    vec3 n = normalize(normalize(inNormal) + 0.5 * tn);
    float ndotl = max(dot(n, foliage.sunDirection.xyz), 0.0);
    float back = max(-dot(n, foliage.sunDirection.xyz), 0.0) * sss * foliage.subsurface;
    outColor = vec4(albedo.rgb * (ndotl + back), clamp(albedo.a / max(edge, 1e-3), 0.0, 1.0));
}
