// compute_mip_resolve_quads.comp -- compute-shader material resolve that
// samples with implicit LOD through NV compute-shader derivatives (2x2 quads
// of invocations, derivative_group_quadsNV).
// The derivative group is the 2x2 quad of local invocations. The texture()
// and dFdx() at the top level run in uniform control flow (no finding); the
// texture() and dFdy() inside `if (coverage > 0.5)`, a per-invocation value
// read from a storage image, are in non-uniform control flow: findings.
#version 450
#extension GL_NV_compute_shader_derivatives : require

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(derivative_group_quadsNV) in;

layout(set = 0, binding = 0) uniform sampler2D albedoTex;
layout(set = 0, binding = 1) uniform sampler2D detailTex;
layout(set = 0, binding = 2, rg16f) uniform readonly image2D uvBuffer;
layout(set = 0, binding = 3, r8) uniform readonly image2D coverageBuffer;
layout(set = 0, binding = 4, rgba8) uniform writeonly image2D outColor;

void main()
{
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = imageLoad(uvBuffer, pixel).xy;
    vec4 color = texture(albedoTex, uv);                                  // EXPECT-NOT: derivative-divergent-cf
    float footprint = length(dFdx(uv));                                   // EXPECT-NOT: derivative-divergent-cf
    float coverage = imageLoad(coverageBuffer, pixel).r;
    if (coverage > 0.5) {
        vec4 detail = texture(detailTex, uv * 8.0);                       // EXPECT: derivative-divergent-cf warning
        float fade = 1.0 - clamp(length(dFdy(uv)) * 64.0, 0.0, 1.0);      // EXPECT: derivative-divergent-cf error
        color.rgb *= mix(vec3(1.0), detail.rgb * 2.0, fade);
    }
    imageStore(outColor, pixel, vec4(color.rgb, clamp(footprint * 16.0, 0.0, 1.0)));
}
