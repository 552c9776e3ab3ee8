// subgroup_shuffle_in_branch.comp -- a butterfly reduction and lane reads
// that name the invocation they read, inside and outside a per-invocation
// branch.
//
// Verdicts (docs/rules/subgroup-op-inactive-invocation.md):
// - subgroupShuffleXor(), subgroupBroadcast(v, 0) and
//   subgroupQuadSwapHorizontal() inside `if (v > threshold)`: the invocation
//   they read may not have taken the branch. SPIR-V, OpGroupNonUniformShuffle:
//   "The resulting value is undefined if Id is an inactive invocation" (the
//   same for Broadcast's Id and for the partner of a quad swap): warnings.
// - subgroupBroadcastFirst() in the same branch reads the first *active*
//   invocation, which is always there: the note of any operation in a
//   divergent if (subgroup-op-divergent-cf), not this rule.
// - The same shuffle at the top level, where every invocation is active: no
//   finding.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_quad : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer Values {
    float values[];
};
layout(push_constant) uniform Params {
    float threshold;
} params;

void main()
{
    uint id = gl_GlobalInvocationID.x;
    float v = values[id];
    float pair = v + subgroupShuffleXor(v, 1u);                           // EXPECT-NOT: subgroup-op-inactive-invocation, subgroup-op-divergent-cf
    if (v > params.threshold) {
        float neighbour = subgroupShuffleXor(v, 1u);                      // EXPECT: subgroup-op-inactive-invocation warning
        float lane0 = subgroupBroadcast(v, 0u);                           // EXPECT: subgroup-op-inactive-invocation warning
        float across = subgroupQuadSwapHorizontal(v);                     // EXPECT: subgroup-op-inactive-invocation warning
        float first = subgroupBroadcastFirst(v);                          // EXPECT: subgroup-op-divergent-cf note EXPECT-NOT: subgroup-op-inactive-invocation
        values[id] = neighbour + lane0 + across + first;
    }
    values[id + 64u] = pair;
}
