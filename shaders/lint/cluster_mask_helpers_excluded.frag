// cluster_mask_helpers_excluded.frag -- a subgroup OR of per-pixel bits
// under `!gl_HelperInvocation`, as a clustered renderer merges the depth
// bits of its fragments before one atomic per subgroup.
//
// Verdicts (docs/rules/subgroup-op-divergent-cf.md, "Helper invocations
// left out"):
// - The subgroupOr and the subgroupElect inside `if (!gl_HelperInvocation)`
//   in otherwise uniform control flow: the branch decides the same for every
//   invocation that is not a helper, so all of those run them together, and
//   helpers only exist for derivatives (their writes are discarded): the
//   set is the one whose results count. No finding.
// - The subgroupOr under `!gl_HelperInvocation && uv.x > 0.5` covers only
//   the fragments that passed the per-pixel test too: the note of any
//   operation in a divergent branch.
// - A shuffle under `!gl_HelperInvocation` reads an invocation that may be
//   a helper, which did not take the branch: undefined (SPIR-V,
//   OpGroupNonUniformShuffle), a warning.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

layout(set = 0, binding = 0, std430) buffer ClusterBits {
    uint bits[];
};
layout(push_constant) uniform Params {
    uint slot;
} params;

void main()
{
    uint bit = 1u << (uint(gl_FragCoord.x) & 31u);
    if (!gl_HelperInvocation) {
        uint merged = subgroupOr(bit);                                  // EXPECT-NOT: subgroup-op-divergent-cf, subgroup-op-after-rejoin
        if (subgroupElect()) {                                          // EXPECT-NOT: subgroup-op-divergent-cf
            atomicOr(bits[params.slot], merged);
        }
    }
    if (!gl_HelperInvocation && uv.x > 0.5) {
        uint part = subgroupOr(bit);                                    // EXPECT: subgroup-op-divergent-cf note
        bits[params.slot + 1u] = part;
    }
    if (!gl_HelperInvocation) {
        uint other = subgroupShuffleXor(bit, 1u);                       // EXPECT: subgroup-op-inactive-invocation warning
        bits[params.slot + 2u] = other;
    }
    color = vec4(uv, 0.0, 1.0);
}
