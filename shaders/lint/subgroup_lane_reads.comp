// subgroup_lane_reads.comp -- lane reads under branches on the invocation's
// own subgroup id and on the active set.
//
// Verdicts (docs/rules/subgroup-op-inactive-invocation.md, "Reads the lint
// evaluates"):
// - Under `lane == 0u` only invocation 0 runs: subgroupBroadcast(v, 0u)
//   reads the reader itself, defined whatever else is active, and the
//   shuffle by `lane` under `lane < 8u` likewise (no finding). The read of
//   invocation 1 there is undefined: invocation 1 fails `lane == 0u`, so
//   it is not active in the branch (SPIR-V, OpGroupNonUniformBroadcast:
//   "undefined if Id is an inactive invocation"): a warning.
// - `subgroupBallot(true) == gl_SubgroupGeMask` holds for invocation i
//   only when the active invocations are exactly i and those above it.
//   Invocation 0 passes when every invocation is active and reads itself,
//   but invocation 1 passes when invocation 0 alone is inactive, which
//   Vulkan allows without full subgroups ("some subgroups may be
//   dispatched with inactive invocations", SubgroupLocalInvocationId; this
//   is SPIR-V 1.3), and it then reads an inactive invocation: a warning.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer Values {
    float values[];
};

void main()
{
    uint id = gl_GlobalInvocationID.x;
    uint lane = gl_SubgroupInvocationID;
    float v = values[id];
    float r = 0.0;
    if (lane == 0u) {
        r += subgroupBroadcast(v, 0u);                                   // EXPECT-NOT: subgroup-op-inactive-invocation, subgroup-op-divergent-cf
        r += 2.0 * subgroupBroadcast(v, 1u);                             // EXPECT: subgroup-op-inactive-invocation warning
    }
    if (lane < 8u) {
        r += subgroupShuffle(v, lane);                                   // EXPECT-NOT: subgroup-op-inactive-invocation, subgroup-op-divergent-cf
    }
    uvec4 present = subgroupBallot(true);
    if (present == gl_SubgroupGeMask) {
        r += 3.0 * subgroupBroadcast(v, 0u);                             // EXPECT: subgroup-op-inactive-invocation warning
    }
    values[id] = r;
}
