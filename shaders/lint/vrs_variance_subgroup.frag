// vrs_variance_subgroup.frag -- luminance variance estimate for a shading-
// rate image, with subgroup reductions in a fragment shader.
// The subgroup reductions at the top level run in uniform control flow
// (every invocation of the subgroup is active; no finding). Inside
// `if (luma > params.brightThreshold)` -- a per-pixel texel -- subgroupMax()
// and subgroupBallot() only see the bright pixels, the invocations that took
// the branch: notes (a ballot inside an if is how they are counted).
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(location = 0) in vec2 inUV;

layout(location = 0) out vec4 outRateHint;

layout(set = 0, binding = 0) uniform sampler2D sceneColor;

layout(push_constant) uniform Params {
    float brightThreshold;
    float varianceScale;
} params;

void main()
{
    vec3 c = textureLod(sceneColor, inUV, 0.0).rgb;
    float luma = dot(c, vec3(0.2126, 0.7152, 0.0722));
    float mean = subgroupAdd(luma) / float(gl_SubgroupSize);             // EXPECT-NOT: subgroup-op-divergent-cf
    float meanSq = subgroupAdd(luma * luma) / float(gl_SubgroupSize);    // EXPECT-NOT: subgroup-op-divergent-cf
    float variance = max(meanSq - mean * mean, 0.0);
    float peak = 0.0;
    uint brightCount = 0u;
    if (luma > params.brightThreshold) {
        peak = subgroupMax(luma);                                         // EXPECT: subgroup-op-divergent-cf note
        uvec4 bright = subgroupBallot(true);                              // EXPECT: subgroup-op-divergent-cf note
        brightCount = bitCount(bright.x) + bitCount(bright.y);
    }
    outRateHint = vec4(variance * params.varianceScale, peak, float(brightCount), 1.0);
}
