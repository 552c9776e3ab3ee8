// subgroup_elect_atomic_in_branch.comp -- stream compaction: the invocations
// with a non-zero key append their id to a list, one atomic per subgroup.
// The whole append sits inside `if (key != 0u)`, a per-invocation test.
//
// Verdicts (docs/rules/subgroup-op-divergent-cf.md, subgroup-op-after-rejoin.md):
// - subgroupAdd(), subgroupElect() and subgroupExclusiveAdd() run inside the
//   divergent if: SPIR-V 2.2.2, "Invocations will continue to execute the
//   same dynamic instances as long as they follow the same control-flow
//   path", so they run with the invocations that took the branch together --
//   what an append wants. Notes (subgroup-op-divergent-cf).
// - subgroupBroadcastFirst(base) comes after `if (subgroupElect())` rejoins,
//   still inside the outer divergent if. SPIR-V promises reconvergence at a
//   merge only when control flow was uniform on entry, so by the letter the
//   elected invocation need not be back with the others; but this is the
//   elect-then-atomic idiom (compilers emit it themselves), which the lint
//   recognises: a note, not a subgroup-op-after-rejoin warning.
// - The subgroupExclusiveAdd() after it is the same: a note.
// - subgroupAdd() after the outer if: every invocation leaves it through its
//   merge and it was entered in uniform control flow, so control flow is
//   uniform again ("reconverges to be uniform at that merge block"): no finding.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Keys {
    uint keys[];
};
layout(set = 0, binding = 1, std430) buffer List {
    uint listCount;
    uint appended;
    uint list[];
};

void main()
{
    uint id = gl_GlobalInvocationID.x;
    uint key = keys[id];
    if (key != 0u) {
        uint count = subgroupAdd(1u);                                     // EXPECT: subgroup-op-divergent-cf note
        uint base = 0u;
        if (subgroupElect()) {                                            // EXPECT: subgroup-op-divergent-cf note
            base = atomicAdd(listCount, count);
        }
        base = subgroupBroadcastFirst(base);                              // EXPECT: subgroup-op-divergent-cf note EXPECT-NOT: subgroup-op-after-rejoin
        uint slot = base + subgroupExclusiveAdd(1u);                      // EXPECT: subgroup-op-divergent-cf note EXPECT-NOT: subgroup-op-after-rejoin
        list[slot] = id;
    }
    uint groupTotal = subgroupAdd(key != 0u ? 1u : 0u);                   // EXPECT-NOT: subgroup-op-divergent-cf
    if (gl_LocalInvocationIndex == 0u) {
        atomicAdd(appended, groupTotal);
    }
}
