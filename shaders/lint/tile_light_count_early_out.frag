// tile_light_count_early_out.frag -- a forward+ shader that skips lighting
// when a ballot says few invocations of the subgroup see any light, then
// samples a texture and takes a derivative.
// The ballot's bit count is the same in every invocation that takes part in
// it, but helper invocations need not take part (Vulkan, "Helper
// Invocations"): a quad's helpers may count differently and return while its
// other invocations go on, so the texture() and dFdx() after the early
// return run without their whole quad. The simulator shows it
// (docs/execution-agreement.md, glsl_gen.py seed 164); derivative-divergent-cf
// reports it.
#version 450
#extension GL_KHR_shader_subgroup_ballot : require

layout(location = 0) in vec2 uv;
layout(location = 1) in float lightMask;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D albedo;

void main()
{
    uint lit = subgroupBallotBitCount(subgroupBallot(lightMask > 0.5));
    if (lit < 4u) {
        outColor = vec4(0.0);
        return;
    }
    vec4 base = texture(albedo, uv);     // EXPECT: derivative-divergent-cf warning
    float edge = dFdx(lightMask);        // EXPECT: derivative-divergent-cf error
    outColor = base * edge;
}
