#version 450
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
// Shuffles in uniform control flow (all invocations of full subgroups
// active, so model-independent): shuffle by a computed index, xor
// butterflies, up and down. An up/down shuffle reading beyond the subgroup
// has an undefined value, so those lanes' results are replaced by a
// sentinel with a select (not a branch).
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uint r[]; } outp;

const uint N = 8u;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint lane = gl_SubgroupInvocationID;
    uint u = inp.v[g];
    uint o = g * N;
    outp.r[o + 0u] = subgroupShuffle(u, (lane * 3u + 1u) % gl_SubgroupSize);
    outp.r[o + 1u] = subgroupShuffleXor(u, 1u);
    outp.r[o + 2u] = subgroupShuffleXor(u, 6u);
    uint up = subgroupShuffleUp(u, 2u);
    outp.r[o + 3u] = lane >= 2u ? up : 0xDEADu;
    uint down = subgroupShuffleDown(u, 3u);
    outp.r[o + 4u] = lane + 3u < gl_SubgroupSize ? down : 0xBEEFu;
    float f = float(u & 255u) * 0.5;
    outp.r[o + 5u] = floatBitsToUint(subgroupShuffleXor(f, 3u));
    uvec2 pair = subgroupShuffle(uvec2(u, g), gl_SubgroupSize - 1u - lane);
    outp.r[o + 6u] = pair.x ^ pair.y;
    uint sum = u;
    for (uint m = 1u; m < gl_SubgroupSize; m <<= 1) {
        sum += subgroupShuffleXor(sum, m);
    }
    outp.r[o + 7u] = sum;
}
