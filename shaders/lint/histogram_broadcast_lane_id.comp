// histogram_broadcast_lane_id.comp -- a subgroup histogram pass that shares
// one bin count per lane: the author meant a shuffle but wrote a broadcast.
// subgroupBroadcast's Id must be dynamically uniform within the subgroup
// (VUID-RuntimeSpirv-subgroupBroadcastDynamicId-06276, SPIR-V 1.5+): with
// the lane's own index & 31 the result is undefined. The broadcast from the
// lane a push constant names and the subgroupShuffle (whose Id may vary) are
// fine.
#version 450
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer Bins {
    uint counts[];
} bins;

layout(push_constant) uniform Pass {
    uint leaderLane;
    uint binOffset;
} pass;

void main()
{
    uint lane = gl_SubgroupInvocationID;
    uint mine = bins.counts[gl_GlobalInvocationID.x];
    uint wrong = subgroupBroadcast(mine, (lane + 1u) & 31u);              // EXPECT: subgroup-op-nonuniform-operand error
    uint leader = subgroupBroadcast(mine, pass.leaderLane);               // EXPECT-NOT: subgroup-op-nonuniform-operand
    uint right = subgroupShuffle(mine, (lane + 1u) & 31u);                // EXPECT-NOT: subgroup-op-nonuniform-operand
    bins.counts[pass.binOffset + gl_GlobalInvocationID.x] = wrong + leader + right;
}
