#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// Subgroup reductions and inclusive/exclusive scans (add, mul, min, max,
// and, or, xor) on uint, int and float, in uniform control flow: every
// invocation of the full subgroups (local size 64 is a multiple of 8) is
// active, so the result is defined by the subgroup alone, whatever the
// reconvergence model. Float values are small integers, so every partial
// sum is exact in any order.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uint r[]; } outp;

const uint N = 20u;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint u = inp.v[g];
    int s = int(u) - 1000;
    float f = float(u % 64u) - 20.0;
    uint o = g * N;
    outp.r[o + 0u] = subgroupAdd(u);
    outp.r[o + 1u] = subgroupMul(u % 7u + 1u);
    outp.r[o + 2u] = subgroupMin(u);
    outp.r[o + 3u] = subgroupMax(u);
    outp.r[o + 4u] = subgroupAnd(u);
    outp.r[o + 5u] = subgroupOr(u);
    outp.r[o + 6u] = subgroupXor(u);
    outp.r[o + 7u] = uint(subgroupMin(s));
    outp.r[o + 8u] = uint(subgroupMax(s));
    outp.r[o + 9u] = uint(subgroupAdd(s));
    outp.r[o + 10u] = floatBitsToUint(subgroupAdd(f));
    outp.r[o + 11u] = floatBitsToUint(subgroupMin(f)) ^ floatBitsToUint(subgroupMax(f));
    outp.r[o + 12u] = subgroupInclusiveAdd(u);
    outp.r[o + 13u] = subgroupExclusiveAdd(u);
    outp.r[o + 14u] = subgroupInclusiveMin(u) ^ subgroupExclusiveMax(u);
    outp.r[o + 15u] = subgroupInclusiveOr(u) + subgroupExclusiveXor(u);
    outp.r[o + 16u] = subgroupExclusiveAnd(u) + subgroupInclusiveMul(u % 3u + 1u);
    outp.r[o + 17u] = uint(subgroupInclusiveMin(s) + subgroupExclusiveAdd(s));
    outp.r[o + 18u] = floatBitsToUint(subgroupInclusiveAdd(f) + subgroupExclusiveAdd(f * 2.0));
    outp.r[o + 19u] = floatBitsToUint(subgroupExclusiveMin(f)) + floatBitsToUint(subgroupInclusiveMax(f));
}
