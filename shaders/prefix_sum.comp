// prefix_sum.comp -- work-efficient (Blelloch) exclusive prefix sum of one
// 256-element block per workgroup (128 invocations, 2 elements each).
// The per-block total is written to blockSums[] for a second-level scan.
//
// Uniformity claims:
//  - pc.count is UNIFORM; gl_WorkGroupID is uniform within the workgroup.
//  - `lid`, `ai`, `bi`, `gA`, `gB` are DIVERGENT (invocation ids).
//  - `if (gA < pc.count)` / `if (gB < pc.count)` guard ONLY global loads and
//    stores: DIVERGENT branches; no barrier is inside them.
//  - Up-sweep and down-sweep loops: trip count is a compile-time constant
//    (log2(BLOCK_SIZE)), exit condition depends only on `d`: UNIFORM.
//    Every barrier() sits directly in those loop bodies or at top level, i.e.
//    in UNIFORM control flow: correct.
//  - `if (lid < d)` inside the loops: DIVERGENT (d is uniform, lid is not).
//  - `if (lid == 0)` (clear root / write block sum): DIVERGENT.
#version 450

#define GROUP_SIZE 128
#define BLOCK_SIZE (2 * GROUP_SIZE)

layout(local_size_x = GROUP_SIZE, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer InputBuffer {
    uint values[];
} src;

layout(set = 0, binding = 1, std430) writeonly buffer OutputBuffer {
    uint prefix[];
} dst;

layout(set = 0, binding = 2, std430) writeonly buffer BlockSumBuffer {
    uint blockSums[];
};

layout(push_constant) uniform ScanParams {
    uint count; // number of valid elements in src.values
} pc;

shared uint temp[BLOCK_SIZE];

void main()
{
    uint lid  = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * BLOCK_SIZE;
    uint ai   = lid;
    uint bi   = lid + GROUP_SIZE;
    uint gA   = base + ai;
    uint gB   = base + bi;

    // Guarded loads (divergent); out-of-range slots are padded with 0.
    temp[ai] = 0u;
    temp[bi] = 0u;
    if (gA < pc.count) temp[ai] = src.values[gA];  // EXPECT: branch divergent
    if (gB < pc.count) temp[bi] = src.values[gB];  // EXPECT: branch divergent

    // Up-sweep (reduce) phase.
    uint offset = 1u;
    for (uint d = BLOCK_SIZE >> 1; d > 0u; d >>= 1) {  // EXPECT: branch uniform
        barrier();  // EXPECT: cf uniform
        if (lid < d) {  // EXPECT: branch divergent
            uint i = offset * (2u * lid + 1u) - 1u;
            uint j = offset * (2u * lid + 2u) - 1u;
            temp[j] += temp[i];
        }
        offset <<= 1;
    }

    // Save block total and clear the root.
    barrier();  // EXPECT: cf uniform
    if (lid == 0u) {  // EXPECT: branch divergent
        blockSums[gl_WorkGroupID.x] = temp[BLOCK_SIZE - 1];
        temp[BLOCK_SIZE - 1] = 0u;
    }

    // Down-sweep phase.
    for (uint d = 1u; d < BLOCK_SIZE; d <<= 1) {  // EXPECT: branch uniform
        offset >>= 1;
        barrier();  // EXPECT: cf uniform
        if (lid < d) {  // EXPECT: branch divergent
            uint i = offset * (2u * lid + 1u) - 1u;
            uint j = offset * (2u * lid + 2u) - 1u;
            uint t  = temp[i];
            temp[i] = temp[j];
            temp[j] += t;
        }
    }
    barrier();  // EXPECT: cf uniform

    // Guarded stores (divergent).
    if (gA < pc.count) dst.prefix[gA] = temp[ai];  // EXPECT: branch divergent
    if (gB < pc.count) dst.prefix[gB] = temp[bi];  // EXPECT: branch divergent
}
