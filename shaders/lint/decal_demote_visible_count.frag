// decal_demote_visible_count.frag -- a projected decal that demotes the
// fragments outside its box and counts the visible ones per subgroup for a
// coverage statistic (one atomic per subgroup).
// After `demote` the demoted invocations are helpers, and whether helpers
// take part in a subgroup ballot is not defined (Vulkan; SPV_KHR_quad_control
// pairs RequireFullQuadsKHR with MaximallyReconvergesKHR to define it): the
// ballot after the demote may or may not count them. The ballot under
// `!helperInvocationEXT()` leaves them out explicitly, and the texture()
// after the demote is fine (demote keeps the quad complete).
#version 450
#extension GL_EXT_demote_to_helper_invocation : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(location = 0) in vec3 inBoxPos;
layout(location = 1) in vec2 inUV;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D decalTex;
layout(set = 0, binding = 1, std430) buffer Coverage {
    uint visibleFragments;
    uint ballots;
} coverage;

void main()
{
    if (any(greaterThan(abs(inBoxPos), vec3(0.5)))) {
        demote;
    }
    vec4 decal = texture(decalTex, inUV);                                   // EXPECT-NOT: derivative-divergent-cf, derivative-after-discard
    uvec4 all_lanes = subgroupBallot(true);                                 // EXPECT: subgroup-op-helper-invocations warning
    if (!helperInvocationEXT()) {
        uvec4 visible = subgroupBallot(true);                               // EXPECT-NOT: subgroup-op-helper-invocations, subgroup-op-divergent-cf
        if (subgroupElect()) {                                              // EXPECT-NOT: subgroup-op-helper-invocations, subgroup-op-divergent-cf
            atomicAdd(coverage.visibleFragments, subgroupBallotBitCount(visible));
            atomicAdd(coverage.ballots, subgroupBallotBitCount(all_lanes));
        }
    }
    outColor = decal;
}
