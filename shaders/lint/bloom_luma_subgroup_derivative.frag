// bloom_luma_subgroup_derivative.frag -- a bloom threshold that averages
// luminance over the subgroup and then takes its screen-space derivative to
// soften the threshold's edge.
// Vulkan does not say whether helper invocations take part in subgroup
// operations other than quad operations, so the helpers of a quad may hold
// another (or an undefined) subgroupAdd result, and the fwidth() that
// differences it against them is garbage: subgroup-op-helper-invocations at
// the subgroupAdd. The subgroupMax that only feeds the output is fine, and
// so is the fwidth() of the plain luminance.
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(location = 0) in vec2 inUV;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D sceneColor;

layout(push_constant) uniform Bloom {
    float threshold;
    float knee;
} bloom;

void main()
{
    vec3 c = texture(sceneColor, inUV).rgb;
    float luma = dot(c, vec3(0.2126, 0.7152, 0.0722));
    float mean = subgroupAdd(luma) / float(gl_SubgroupSize);              // EXPECT: subgroup-op-helper-invocations warning
    float peak = subgroupMax(luma);                                        // EXPECT-NOT: subgroup-op-helper-invocations
    float soft = bloom.knee * fwidth(mean);
    float edge = fwidth(luma);                                             // EXPECT-NOT: derivative-divergent-cf
    float w = smoothstep(bloom.threshold - soft, bloom.threshold + soft, luma);
    outColor = vec4(c * w, peak + edge);
}
