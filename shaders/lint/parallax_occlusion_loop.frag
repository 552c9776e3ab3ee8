// parallax_occlusion_loop.frag -- parallax occlusion mapping whose ray march
// stops at the first height-field hit.
// The `break` depends on the sampled height (per pixel), so the loop has a
// divergent exit: once one invocation of a quad has left, the others iterate
// alone, and every implicit-LOD texture() and dFdx() inside the loop body is
// a finding -- also the ones before the break, which run in the later
// iterations too. The textureGrad() with gradients taken before the loop is
// the fix. After the loop all invocations have left it through its one exit
// and control flow is uniform again (Vulkan: control flow reconverges after
// a loop every invocation leaves), so the texture() after it is fine.
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inViewTS;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D heightMap;
layout(set = 0, binding = 1) uniform sampler2D albedoMap;
layout(set = 0, binding = 2) uniform sampler2D aoMap;

layout(set = 1, binding = 0, std140) uniform Parallax {
    float heightScale;
    int   maxSteps;
} parallax;

void main()
{
    vec3 view = normalize(inViewTS);
    vec2 dx = dFdx(inUV);                                                 // EXPECT-NOT: derivative-divergent-cf
    vec2 dy = dFdy(inUV);                                                 // EXPECT-NOT: derivative-divergent-cf
    float layerDepth = 1.0 / float(max(parallax.maxSteps, 1));
    vec2 delta = view.xy / max(view.z, 0.1) * parallax.heightScale * layerDepth;

    vec2 uv = inUV;
    float depth = 0.0;
    float footprint = 0.0;
    for (int i = 0; i < parallax.maxSteps; ++i) {
        float h = 1.0 - texture(heightMap, uv).r;                         // EXPECT: derivative-divergent-cf warning
        float hGrad = 1.0 - textureGrad(heightMap, uv, dx, dy).r;        // EXPECT-NOT: derivative-divergent-cf
        if (depth >= min(h, hGrad)) {
            break;
        }
        footprint += length(dFdx(uv));                                    // EXPECT: derivative-divergent-cf error
        uv -= delta;
        depth += layerDepth;
    }

    vec3 albedo = texture(albedoMap, uv).rgb;                             // EXPECT-NOT: derivative-divergent-cf
    float ao = texture(aoMap, inUV).r;                                    // EXPECT-NOT: derivative-divergent-cf
    outColor = vec4(albedo * ao * (1.0 - clamp(footprint, 0.0, 0.5)), 1.0);
}
