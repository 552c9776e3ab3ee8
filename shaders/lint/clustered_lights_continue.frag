// clustered_lights_continue.frag -- forward+ shading of the spot lights of a
// UBO light list, skipping lights that do not reach the pixel.
// The loop bound is uniform and the loop has no divergent exit, but
// `continue` on the per-pixel attenuation skips the rest of one iteration
// for some invocations: the gobo texture() after it is a finding. At the
// next iteration all invocations are back at the loop header (the continue
// target is reached by every path of the body), so the IES-profile texture()
// at the top of the body and the texture() after the loop are fine.
#version 450

#define MAX_SPOTS 32

layout(location = 0) in vec3 inWorldPos;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUV;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D albedoTex;
layout(set = 0, binding = 1) uniform sampler2DArray goboTex;
layout(set = 0, binding = 2) uniform sampler2D iesProfiles;
layout(set = 0, binding = 3) uniform sampler2D lightmapTex;

struct SpotLight {
    vec4 positionRange;   // xyz = position, w = range
    vec4 directionAngle;  // xyz = direction, w = cos(outer angle)
    vec4 color;           // rgb = colour, a = gobo layer
    vec4 goboScale;       // xy = world-to-gobo scale, z = IES row
};

layout(set = 1, binding = 0, std140) uniform SpotLights {
    SpotLight spots[MAX_SPOTS];
    int count;
} lights;

void main()
{
    vec3 N = normalize(inNormal);
    vec3 albedo = texture(albedoTex, inUV).rgb;
    vec3 color = vec3(0.0);
    for (int i = 0; i < min(lights.count, MAX_SPOTS); ++i) {
        SpotLight s = lights.spots[i];
        float ies = texture(iesProfiles, vec2(0.5, s.goboScale.z)).r;     // EXPECT-NOT: derivative-divergent-cf
        vec3 toLight = s.positionRange.xyz - inWorldPos;
        float dist = length(toLight);
        float cosAngle = dot(-toLight / dist, s.directionAngle.xyz);
        float attenuation = clamp(1.0 - dist / s.positionRange.w, 0.0, 1.0) *
                            smoothstep(s.directionAngle.w, 1.0, cosAngle);
        if (attenuation <= 0.0) {
            continue;
        }
        vec2 goboUV = inWorldPos.xz * s.goboScale.xy;
        vec3 gobo = texture(goboTex, vec3(goboUV, s.color.a)).rgb;        // EXPECT: derivative-divergent-cf warning
        color += albedo * gobo * s.color.rgb * ies * attenuation * max(dot(N, toLight / dist), 0.0);
    }
    vec3 baked = texture(lightmapTex, inUV).rgb;                          // EXPECT-NOT: derivative-divergent-cf
    outColor = vec4(color + albedo * baked, 1.0);
}
