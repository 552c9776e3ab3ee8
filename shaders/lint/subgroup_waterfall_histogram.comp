// subgroup_waterfall_histogram.comp -- a histogram where each subgroup adds
// its weights per key with one atomic per distinct key: a waterfall loop.
// Every pass takes the key of the first active invocation
// (subgroupBroadcastFirst); the invocations holding that key add their
// weights (subgroupAdd), one of them does the atomic (subgroupElect), and
// they leave the loop; the others go around again.
//
// Verdicts (docs/rules/subgroup-op-divergent-cf.md):
// - The loop is left on a per-invocation condition (`done`), so from the
//   second pass on only part of the subgroup runs it: every operation in it
//   is in divergent control flow, on purpose. On the way back to the top of
//   the loop the paths of `if (first == key)` rejoin; the loop is entered
//   in uniform control flow, but nothing promises reconvergence at a merge
//   inside divergent control flow. This is the waterfall idiom, though:
//   `subgroupBroadcastFirst(x) == x` (and subgroupElect()) tests the first
//   active invocation, and the lint does not count those rejoins
//   (subgroup-op-after-rejoin.md, "What is not a rejoin"). So subgroupAdd()
//   and subgroupElect() are notes: they cover the invocations holding the
//   key among those present, which the note names.
// - subgroupBroadcastFirst(key), compared with key, is set-agnostic
//   (subgroup-op-divergent-cf.md, "Set-agnostic operations"): it picks the
//   key of one of whichever invocations are present, and the loop serves
//   that key and goes around for the rest, correct for any set: no finding.
// - subgroupAdd() after the loop: the loop was entered in uniform control
//   flow and every invocation leaves it through its merge, so control flow
//   is uniform there again: no finding.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

#define BINS 64u

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Samples {
    uvec2 samples[];     // x = key, y = weight
};
layout(set = 0, binding = 1, std430) buffer Histogram {
    uint passes;
    uint bins[BINS];
};

void main()
{
    uvec2 s = samples[gl_GlobalInvocationID.x];
    uint key = s.x % BINS;
    bool done = false;
    while (!done) {
        uint first = subgroupBroadcastFirst(key);                         // EXPECT-NOT: subgroup-op-divergent-cf, subgroup-op-after-rejoin
        if (first == key) {
            uint sum = subgroupAdd(s.y);                                  // EXPECT: subgroup-op-divergent-cf note EXPECT-NOT: subgroup-op-after-rejoin
            if (subgroupElect()) {                                        // EXPECT: subgroup-op-divergent-cf note EXPECT-NOT: subgroup-op-after-rejoin
                atomicAdd(bins[first], sum);
            }
            done = true;
        }
    }
    uint invocations = subgroupAdd(1u);                                   // EXPECT-NOT: subgroup-op-divergent-cf, subgroup-op-after-rejoin
    if (subgroupElect()) {
        atomicAdd(passes, invocations);
    }
}
