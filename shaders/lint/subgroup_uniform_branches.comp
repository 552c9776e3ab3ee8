// subgroup_uniform_branches.comp -- CLEAN: clustered light assignment that
// branches on subgroup-uniform and workgroup-uniform values before using
// subgroup operations.
// `if (subgroupAny(...))` at the top level and `if (gl_SubgroupID == 0u)`
// are decided once per subgroup (whole subgroups take them), the
// push-constant test once per dispatch: the subgroup operations inside them
// run with the whole subgroup active. The divergent `if` at the end holds
// only plain code. No finding.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 128) in;

layout(set = 0, binding = 0, std430) readonly buffer ClusterBounds {
    vec4 clusterMinMax[];   // 2 per cluster
};
layout(set = 0, binding = 1, std430) readonly buffer LightSpheres {
    vec4 lightSpheres[];
};
layout(set = 0, binding = 2, std430) writeonly buffer ClusterMasks {
    uint clusterMasks[];
};
layout(set = 0, binding = 3, std430) writeonly buffer GroupStats {
    uint groupStats[];
};

layout(push_constant) uniform Assign {
    uint lightCount;   // at most 32
    uint collectStats;
} pc;

void main()
{
    uint cluster = gl_GlobalInvocationID.x;
    vec3 bmin = clusterMinMax[2u * cluster].xyz;
    vec3 bmax = clusterMinMax[2u * cluster + 1u].xyz;
    uint mask = 0u;
    for (uint l = 0u; l < min(pc.lightCount, 32u); ++l) {
        vec4 s = lightSpheres[l];
        vec3 closest = clamp(s.xyz, bmin, bmax);
        if (dot(closest - s.xyz, closest - s.xyz) <= s.w * s.w) {
            mask |= 1u << l;
        }
    }

    uint subgroupMask = 0u;
    if (subgroupAny(mask != 0u)) {
        subgroupMask = subgroupOr(mask);                                  // EXPECT-NOT: subgroup-op-divergent-cf
    }
    uint firstSubgroupLights = 0u;
    if (gl_SubgroupID == 0u) {
        firstSubgroupLights = subgroupBroadcastFirst(bitCount(subgroupMask)); // EXPECT-NOT: subgroup-op-divergent-cf
    }
    if (pc.collectStats != 0u) {
        uint lit = subgroupAdd(mask != 0u ? 1u : 0u);                     // EXPECT-NOT: subgroup-op-divergent-cf
        if (subgroupElect()) {
            groupStats[gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID] = lit + firstSubgroupLights;
        }
    }
    if (mask != 0u) {
        clusterMasks[cluster] = mask | (subgroupMask & 0u);
    }
}
