// water_caustics_helper_return.frag -- underwater caustics, computed in a
// helper that returns early for pixels above the water plane.
// Inside applyCaustics() the early `return` depends on the pixel's world
// height, so the texture() calls after it (in the helper) are in non-uniform
// control flow. The return only leaves the helper: every invocation comes
// back from the call, so control flow in main() is uniform again and the
// texture() after the call is fine (so is the one before the return).
#version 450

layout(location = 0) in vec3 inWorldPos;
layout(location = 1) in vec2 inUV;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D albedoTex;
layout(set = 0, binding = 1) uniform sampler2D causticsTex;
layout(set = 0, binding = 2) uniform sampler2D foamTex;
layout(set = 0, binding = 3) uniform sampler2D wetnessTex;

layout(set = 1, binding = 0, std140) uniform Water {
    float height;
    float time;
    float causticScale;
    float causticStrength;
} water;

vec3 applyCaustics(vec3 color, vec3 worldPos)
{
    float foam = texture(foamTex, worldPos.xz * 0.1).r;                   // EXPECT-NOT: derivative-divergent-cf
    if (worldPos.y > water.height) {
        return color + foam * 0.05;
    }
    vec2 uv = worldPos.xz * water.causticScale;
    float c0 = texture(causticsTex, uv + vec2(water.time * 0.03, 0.0)).r;  // EXPECT: derivative-divergent-cf warning
    float c1 = texture(causticsTex, uv * 1.3 - vec2(0.0, water.time * 0.02)).r; // EXPECT: derivative-divergent-cf warning
    float depthFade = clamp((water.height - worldPos.y) * 0.5, 0.0, 1.0);
    return color * (1.0 + water.causticStrength * min(c0, c1) * depthFade);
}

void main()
{
    vec3 albedo = texture(albedoTex, inUV).rgb;                           // EXPECT-NOT: derivative-divergent-cf
    vec3 lit = applyCaustics(albedo, inWorldPos);
    float wet = texture(wetnessTex, inUV * 2.0).r;                        // EXPECT-NOT: derivative-divergent-cf
    outColor = vec4(lit * (1.0 - 0.3 * wet), 1.0);
}
