#version 450
// Issue 39 class 4: glslang's ballot tests branch on the sum of the five
// subgroup masks equalling a ballot of `true`. With every invocation active
// that holds only for invocation 0 of a 32-wide subgroup; in a 64-wide one
// launched with invocation 0 inactive (Vulkan allows it without full
// subgroups, and this is not SPIR-V 1.6), invocation 32's sum is (0xFFFFFFFE,
// 0xFFFFFFFF, 0, 0), the ballot, so it passes and reads invocation 0. The
// read of invocation 1 fails in a 32-wide subgroup with every invocation
// active: invocation 0 passes and invocation 1 does not. Each warning names
// that witness before the chain to the masks.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { float v[]; } b;
void main() {
    uvec4 sum = gl_SubgroupEqMask + gl_SubgroupGeMask + gl_SubgroupGtMask + gl_SubgroupLeMask + gl_SubgroupLtMask;
    float x = b.v[gl_LocalInvocationIndex];
    if (sum == subgroupBallot(true)) {
        b.v[gl_LocalInvocationIndex] = subgroupBroadcast(x, 0u) + subgroupBroadcast(x, 1u);
    }
}
// EXPECT-OUTPUT: spirv-conv lint -g, exit 0
// lane_mask_witness.comp:18: warning: OpGroupNonUniformBroadcast reads another invocation's value in control flow that is not uniform within the subgroup: that invocation may be inactive, and the result is then undefined [subgroup-op-inactive-invocation]
//    18 |         b.v[gl_LocalInvocationIndex] = subgroupBroadcast(x, 0u) + subgroupBroadcast(x, 1u);
//       |         ^
// lane_mask_witness.comp:18: note: at subgroup size 64, with invocation 0 inactive, invocation 32 can execute it and reads invocation 0 (unless full subgroups are enabled, a subgroup may be launched with any of its invocations inactive)
// lane_mask_witness.comp:17: note: control flow depends on a condition computed from 'sum'
//    17 |     if (sum == subgroupBallot(true)) {
//       |     ^
// lane_mask_witness.comp:15: note: 'sum' is computed from 'gl_SubgroupEqMask'
//    15 |     uvec4 sum = gl_SubgroupEqMask + gl_SubgroupGeMask + gl_SubgroupGtMask + gl_SubgroupLeMask + gl_SubgroupLtMask;
//       |     ^
// lane_mask_witness.comp:15: note: 'gl_SubgroupEqMask' is the built-in SubgroupEqMask, which varies per invocation
// lane_mask_witness.comp:18: warning: OpGroupNonUniformBroadcast reads another invocation's value in control flow that is not uniform within the subgroup: that invocation may be inactive, and the result is then undefined [subgroup-op-inactive-invocation]
//    18 |         b.v[gl_LocalInvocationIndex] = subgroupBroadcast(x, 0u) + subgroupBroadcast(x, 1u);
//       |         ^
// lane_mask_witness.comp:17: note: at subgroup size 32, invocation 0 can execute it while invocation 1, which it reads, takes the other side of this branch
//    17 |     if (sum == subgroupBallot(true)) {
//       |     ^
// lane_mask_witness.comp:17: note: control flow depends on a condition computed from 'sum'
// lane_mask_witness.comp:15: note: 'sum' is computed from 'gl_SubgroupEqMask'
//    15 |     uvec4 sum = gl_SubgroupEqMask + gl_SubgroupGeMask + gl_SubgroupGtMask + gl_SubgroupLeMask + gl_SubgroupLtMask;
//       |     ^
// lane_mask_witness.comp:15: note: 'gl_SubgroupEqMask' is the built-in SubgroupEqMask, which varies per invocation
// 0 errors, 2 warnings and 0 notes in 1 file
// EXPECT-OUTPUT: spirv-conv lint -g, after spirv-opt -O, exit 0
// lane_mask_witness.comp:18: warning: OpGroupNonUniformBroadcast reads another invocation's value in control flow that is not uniform within the subgroup: that invocation may be inactive, and the result is then undefined [subgroup-op-inactive-invocation]
//    18 |         b.v[gl_LocalInvocationIndex] = subgroupBroadcast(x, 0u) + subgroupBroadcast(x, 1u);
//       |         ^
// lane_mask_witness.comp:18: note: at subgroup size 64, with invocation 0 inactive, invocation 32 can execute it and reads invocation 0 (unless full subgroups are enabled, a subgroup may be launched with any of its invocations inactive)
// lane_mask_witness.comp:17: note: control flow depends on a condition computed from 'gl_SubgroupEqMask'
//    17 |     if (sum == subgroupBallot(true)) {
//       |     ^
// lane_mask_witness.comp:15: note: 'gl_SubgroupEqMask' is the built-in SubgroupEqMask, which varies per invocation
//    15 |     uvec4 sum = gl_SubgroupEqMask + gl_SubgroupGeMask + gl_SubgroupGtMask + gl_SubgroupLeMask + gl_SubgroupLtMask;
//       |     ^
// lane_mask_witness.comp:18: warning: OpGroupNonUniformBroadcast reads another invocation's value in control flow that is not uniform within the subgroup: that invocation may be inactive, and the result is then undefined [subgroup-op-inactive-invocation]
//    18 |         b.v[gl_LocalInvocationIndex] = subgroupBroadcast(x, 0u) + subgroupBroadcast(x, 1u);
//       |         ^
// lane_mask_witness.comp:17: note: at subgroup size 32, invocation 0 can execute it while invocation 1, which it reads, takes the other side of this branch
//    17 |     if (sum == subgroupBallot(true)) {
//       |     ^
// lane_mask_witness.comp:17: note: control flow depends on a condition computed from 'gl_SubgroupEqMask'
// lane_mask_witness.comp:15: note: 'gl_SubgroupEqMask' is the built-in SubgroupEqMask, which varies per invocation
//    15 |     uvec4 sum = gl_SubgroupEqMask + gl_SubgroupGeMask + gl_SubgroupGtMask + gl_SubgroupLeMask + gl_SubgroupLtMask;
//       |     ^
// 0 errors, 2 warnings and 0 notes in 1 file
