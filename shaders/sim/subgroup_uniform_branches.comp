#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Subgroup operations in divergent control flow where the result still does
// not depend on the reconvergence model:
//  - inside ifs and a switch whose selector is gl_SubgroupID (the same for
//    every invocation of a subgroup: the whole subgroup takes one side);
//  - in a loop whose trip count is subgroup-uniform (gl_SubgroupID + 1);
//  - after an if/else on a per-invocation condition, at its merge block:
//    control flow that was uniform on entry to a selection and leaves it
//    through the merge block is uniform again there (SPIR-V's uniform
//    control flow rule; no reconvergence model may keep it split);
//  - a per-invocation loop whose results stay per invocation, then a
//    reduction after it (all invocations left through the merge block).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uint r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint u = inp.v[g];
    uint o = g * 6u;
    uint a = 0u;
    if ((gl_SubgroupID & 1u) == 0u) {
        a = subgroupAdd(u);
    } else {
        a = subgroupMax(u) + subgroupBallotBitCount(subgroupBallot(u > 500u)) * 65536u;
    }
    outp.r[o + 0u] = a;
    uint b = 0u;
    switch (gl_SubgroupID % 3u) {
    case 0u:
        b = subgroupBroadcastFirst(u);
        break;
    case 1u:
        b = subgroupInclusiveAdd(u);
        break;
    default:
        b = subgroupBroadcast(u, 7u) ^ subgroupExclusiveAdd(g);
        break;
    }
    outp.r[o + 1u] = b;
    uint c = 0u;
    for (uint i = 0u; i <= gl_SubgroupID; i++) {
        c += subgroupAdd(u >> i);
    }
    outp.r[o + 2u] = c;
    uint d;
    if ((u & 1u) != 0u) {
        d = u * 3u;
    } else {
        d = u >> 1;
    }
    outp.r[o + 3u] = subgroupAdd(d);
    uint e = 0u;
    for (uint i = 0u; i < u % 5u; i++) {
        e += i + g;
    }
    outp.r[o + 4u] = subgroupInclusiveAdd(e);
    uint f = 0u;
    if (gl_WorkGroupID.x == 1u) {
        f = subgroupMin(u) + uint(subgroupElect());
    }
    outp.r[o + 5u] = f;
}
