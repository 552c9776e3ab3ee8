// subgroup_helper_divergent_call.comp -- a helper that computes a subgroup
// prefix sum, written for the whole subgroup, called from inside a
// per-invocation branch; and helpers called the way they are written for.
//
// Verdicts (docs/rules/subgroup-op-divergent-call.md):
// - rankInSubgroup() holds its subgroup operations at its top level: they
//   run with the invocations that called it together. It is called inside
//   `if (visible)`, so its subgroupExclusiveAdd() and subgroupAdd() cover only
//   the visible invocations, which the helper does not know: at -O0 a
//   subgroup-op-divergent-call warning. spirv-opt -O inlines the helper into
//   that branch, and the operations are then simply inside a divergent if:
//   the lint reports what it sees, a subgroup-op-divergent-cf note
//   (EXPECT-O0 / EXPECT-O below).
// - groupMax() is only called in uniform control flow: no finding.
// - countIf() puts its own subgroupAdd() inside its own divergent if and is
//   called in uniform control flow: the operation sees the invocations that
//   took that if together, as the helper says: a note at -O0 and after -O.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Boxes {
    vec4 boxes[];
};
layout(set = 0, binding = 1, std430) buffer Out {
    uint ranks[];
};

uint rankInSubgroup(out uint total)
{
    total = subgroupAdd(1u);                                              // EXPECT-O0: subgroup-op-divergent-call warning EXPECT-O: subgroup-op-divergent-cf note
    return subgroupExclusiveAdd(1u);                                      // EXPECT-O0: subgroup-op-divergent-call warning EXPECT-O: subgroup-op-divergent-cf note
}

float groupMax(float v)
{
    return subgroupMax(v);                                                // EXPECT-NOT: subgroup-op-divergent-cf, subgroup-op-divergent-call
}

uint countIf(float v)
{
    uint n = 0u;
    if (v > 0.5) {
        n = subgroupAdd(1u);                                              // EXPECT: subgroup-op-divergent-cf note EXPECT-NOT: subgroup-op-divergent-call
    }
    return n;
}

void main()
{
    uint id = gl_GlobalInvocationID.x;
    vec4 box = boxes[id];
    bool visible = box.w > 0.0;
    if (visible) {
        uint total;
        uint rank = rankInSubgroup(total);
        ranks[id] = rank + total;
    }
    float largest = groupMax(box.w);
    uint bright = countIf(box.w);
    ranks[id + 64u] = uint(largest) + bright;
}
