// subgroup_rejoin_in_branch.comp -- per-tile light binning where the
// subgroup operations come after an inner branch has rejoined, still inside
// an outer per-invocation branch: the bug subgroup-op-after-rejoin is for.
//
// Verdicts (docs/rules/subgroup-op-after-rejoin.md):
// - In `if (light.w > 0.0)` (per invocation), `if (dist > light.w)` splits
//   the invocations again (one side does an atomic) and rejoins before
//   subgroupAdd(). SPIR-V 2.2.2:
//   "the only reconvergence conditions are those described in the
//   definition of uniform control flow", which reconverges at a merge only
//   "if control flow is uniform upon entry" -- and it was not. Nothing
//   promises that the invocations of the outer branch run subgroupAdd()
//   together: a warning.
// - Before it, an inner if/else that only computes a value (a select written
//   as branches: glslang keeps it a branch at -O0, spirv-opt -O makes it an
//   OpSelect) is not counted as a rejoin: the subgroupMin() after it is a
//   note, as inside any divergent if.
// - In a second `if (light.w > 0.0)`, the subgroupMax() after a loop whose
//   trip count differs per invocation: invocations leave the loop on
//   different iterations and rejoin after it, with the same lack of
//   promise: a warning.
// - After the outer ifs control flow is uniform again (they were entered in
//   uniform control flow and every invocation leaves them through their
//   merge): no finding.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Lights {
    vec4 lights[];       // xyz = position, w = radius (0: disabled)
};
layout(set = 0, binding = 1, std430) buffer Stats {
    uint culled;
    uint tileCounts[];
};
layout(push_constant) uniform Tile {
    vec4 center;
} tile;

void main()
{
    uint id = gl_GlobalInvocationID.x;
    vec4 light = lights[id];
    float dist = distance(light.xyz, tile.center.xyz);
    uint inTile = 0u;
    if (light.w > 0.0) {
        float weight;
        if (dist < tile.center.w) {
            weight = 1.0;
        } else {
            weight = tile.center.w / dist;
        }
        float minWeight = subgroupMin(weight);                            // EXPECT: subgroup-op-divergent-cf note EXPECT-NOT: subgroup-op-after-rejoin
        if (dist > light.w) {
            atomicAdd(culled, 1u);
        } else {
            inTile = 1u;
        }
        uint tileLights = subgroupAdd(inTile);                            // EXPECT: subgroup-op-after-rejoin warning
        tileCounts[id] = tileLights + uint(minWeight);
    }
    if (light.w > 0.0) {
        uint steps = 0u;
        for (float r = light.w; r > 1.0; r *= 0.5) {
            steps++;
        }
        uint deepest = subgroupMax(steps);                                // EXPECT: subgroup-op-after-rejoin warning
        tileCounts[id] += deepest;
    }
    uint lit = subgroupAdd(inTile);                                       // EXPECT-NOT: subgroup-op-divergent-cf, subgroup-op-after-rejoin
    if (gl_LocalInvocationIndex == 0u) {
        tileCounts[gl_WorkGroupID.x] = lit;
    }
}
