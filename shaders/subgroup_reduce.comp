// subgroup_reduce.comp -- two-level float sum reduction. Each invocation
// accumulates a grid-stride slice of the input, subgroups reduce with
// subgroupAdd, subgroup partials meet in shared memory, and subgroup 0
// reduces those and writes one partial sum per workgroup.
// REQUIRES: glslangValidator --target-env vulkan1.1 (or newer); subgroup
// ops need SPIR-V 1.3. Assumes gl_NumSubgroups <= gl_SubgroupSize, i.e.
// subgroup size >= 16 for 256 invocations (true on all desktop GPUs).
//
// Uniformity claims:
//  - pc.count, gl_NumWorkGroups, `stride` are UNIFORM (whole dispatch);
//    gl_WorkGroupID, gl_NumSubgroups are uniform within a workgroup.
//  - gl_SubgroupID is uniform within a subgroup but DIVERGENT across the
//    workgroup; gl_SubgroupInvocationID and `gid` are DIVERGENT.
//  - The grid-stride loop has a DIVERGENT trip count/exit (depends on gid);
//    control reconverges after the loop, so the first subgroupAdd executes
//    in UNIFORM control flow with all invocations active.
//  - `if (subgroupElect())` is DIVERGENT (one lane per subgroup).
//  - barrier() is at top level: UNIFORM control flow, correct.
//  - `if (gl_SubgroupID == 0u)` is divergent at workgroup scope but uniform
//    at subgroup scope, so the subgroupAdd inside it sees a full subgroup.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#define GROUP_SIZE 256
#define MAX_SUBGROUPS 64   // GROUP_SIZE / smallest possible subgroup size (4)

layout(local_size_x = GROUP_SIZE, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer InputData {
    float inputValues[];
};

layout(set = 0, binding = 1, std430) writeonly buffer PartialSums {
    float partialSums[];   // one entry per workgroup
};

layout(push_constant) uniform ReduceParams {
    uint count;
} pc;

shared float subgroupSums[MAX_SUBGROUPS];

void main()
{
    uint gid    = gl_GlobalInvocationID.x;
    uint stride = gl_NumWorkGroups.x * GROUP_SIZE;

    // Grid-stride accumulation: divergent trip count.
    float sum = 0.0;
    for (uint i = gid; i < pc.count; i += stride) {  // EXPECT: branch divergent
        sum += inputValues[i];
    }

    // Level 1: reduce within each subgroup (all lanes active again).
    float subgroupTotal = subgroupAdd(sum);  // EXPECT: cf uniform
    if (subgroupElect()) {  // EXPECT: branch divergent, cf uniform
        subgroupSums[gl_SubgroupID] = subgroupTotal;
    }

    barrier();  // EXPECT: cf uniform

    // Level 2: the first subgroup reduces the per-subgroup totals.
    if (gl_SubgroupID == 0u) {  // EXPECT: branch subgroup
        float v = 0.0;
        if (gl_SubgroupInvocationID < gl_NumSubgroups) {  // EXPECT: branch divergent
            v = subgroupSums[gl_SubgroupInvocationID];
        }
        float groupTotal = subgroupAdd(v);  // EXPECT: cf subgroup
        if (subgroupElect()) {  // EXPECT: branch divergent, cf subgroup
            partialSums[gl_WorkGroupID.x] = groupTotal;
        }
    }
}
