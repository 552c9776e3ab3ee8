// sphere_trace_loop_return.frag -- signed-distance-field impostor: sphere
// tracing that writes the hit colour and returns from inside the loop.
// The `return` inside the loop depends on the per-pixel distance: invocations
// leave main() from inside the loop, so they never reach the code after it --
// control flow after the loop is not uniform (unlike after a `break`), and
// the texture() and fwidth() there are findings. The texture() inside the
// loop before the hit test runs in the loop with divergent exits: a finding
// too. textureLod() inside the loop is fine.
#version 450

layout(location = 0) in vec3 inRayOrigin;
layout(location = 1) in vec3 inRayDir;
layout(location = 2) in vec2 inUV;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler3D sdfVolume;
layout(set = 0, binding = 1) uniform sampler2D materialRamp;
layout(set = 0, binding = 2) uniform sampler2D missGlow;
layout(set = 0, binding = 3) uniform sampler2D detailNoise;

layout(set = 1, binding = 0, std140) uniform Impostor {
    vec4  boundsMin;
    vec4  boundsSize;
    int   maxSteps;
    float hitEpsilon;
    float glowScale;
} impostor;

void main()
{
    vec3 dir = normalize(inRayDir);
    vec3 p = inRayOrigin;
    for (int i = 0; i < impostor.maxSteps; ++i) {
        vec3 uvw = (p - impostor.boundsMin.xyz) / impostor.boundsSize.xyz;
        float d = textureLod(sdfVolume, uvw, 0.0).r;                      // EXPECT-NOT: derivative-divergent-cf
        float detail = texture(detailNoise, uvw.xy * 8.0).r;              // EXPECT: derivative-divergent-cf warning
        if (d + 0.01 * detail < impostor.hitEpsilon) {
            outColor = vec4(textureLod(materialRamp, vec2(uvw.y, 0.5), 0.0).rgb, 1.0); // EXPECT-NOT: derivative-divergent-cf
            return;
        }
        p += dir * d;
    }
    vec3 glow = texture(missGlow, inUV).rgb;                              // EXPECT: derivative-divergent-cf warning
    float edge = fwidth(length(p - inRayOrigin));                         // EXPECT: derivative-divergent-cf error
    outColor = vec4(glow * impostor.glowScale, clamp(1.0 - edge, 0.0, 1.0));
}
