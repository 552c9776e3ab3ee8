#version 450
// clustered_lights_scalarized.frag -- Godot 4's clustered light loop, with
// the "scalarization" of its bounds and masks: each pixel's range of light
// words is widened to the subgroup's (subgroupMin / subgroupMax under
// subgroupBroadcastFirst), each word's mask is merged over the subgroup
// (subgroupOr under subgroupBroadcastFirst), and every pixel skips the
// lights that are not its own. All of it after a `discard` and a divergent
// branch that rejoins.
// Expectations (docs/rules/subgroup-op-divergent-cf.md, "Set-agnostic
// operations"): nothing promises which invocations run these operations
// together after the rejoin (SPIR-V 2.2.2), but every set that contains the
// invocation gives it a correct loop: the min is at most its own start, the
// max at least its own end, the merged mask holds its own bits, and the
// loop skips the rest. An idempotent reduction under subgroupBroadcastFirst
// is written for any set: no subgroup-op-after-rejoin. A sum has no such
// property (a partial sum is a different number): subgroupAdd() under
// subgroupBroadcastFirst after the rejoin is still a warning, and so is a
// min whose result is used as it is, and the elect that adds them up (a
// partial set elects one invocation of its own).
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(location = 0) in vec3 pos;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0, std430) readonly buffer Lights {
    uvec2 range[64];
    uint mask[256];
    vec4 color[8192];
} lights;
layout(set = 0, binding = 1, std430) buffer Stats { uint shaded; } stats;
void main() {
    if (pos.z > 1.0) discard;
    float fog = 1.0;
    if (pos.x < 0.0) fog = 0.5;
    uvec2 r = lights.range[uint(pos.y) & 63u];
    uint from = subgroupBroadcastFirst(subgroupMin(r.x));   // EXPECT-NOT: subgroup-op-after-rejoin, subgroup-op-divergent-cf
    uint to = subgroupBroadcastFirst(subgroupMax(r.y));     // EXPECT-NOT: subgroup-op-after-rejoin, subgroup-op-divergent-cf
    vec4 c = vec4(0.0);
    for (uint i = from; i < to; i++) {
        uint own = (i >= r.x && i < r.y) ? lights.mask[i] : 0u;
        uint merged = subgroupBroadcastFirst(subgroupOr(own));  // EXPECT-NOT: subgroup-op-after-rejoin, subgroup-op-divergent-cf
        while (merged != 0u) {
            uint bit = findMSB(merged);
            merged &= ~(1u << bit);
            if ((own & (1u << bit)) == 0u) continue;
            c += lights.color[32u * i + bit];
        }
    }
    uint total = subgroupBroadcastFirst(subgroupAdd(to - from));  // EXPECT: subgroup-op-after-rejoin warning
    uint lowest = subgroupMin(r.x);                                // EXPECT: subgroup-op-after-rejoin warning
    if (subgroupElect()) atomicAdd(stats.shaded, total + lowest);   // EXPECT: subgroup-op-after-rejoin warning
    o = c * fog;
}
