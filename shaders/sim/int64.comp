#version 450
#extension GL_ARB_gpu_shader_int64 : require
// 64-bit integer arithmetic (the job enables shaderInt64): add with carry
// across words, multiply, shifts, signed division and the conversions to
// and from 32-bit halves. Model-independent: per invocation.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uvec2 v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uvec2 r[]; } outp;

const uint N = 8u;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint64_t a = packUint2x32(inp.v[2u * g]);
    uint64_t b = packUint2x32(inp.v[2u * g + 1u]);
    int64_t sa = int64_t(a) >> 2;
    int64_t sb = int64_t(b | 1ul);
    uint o = g * N;
    outp.r[o + 0u] = unpackUint2x32(a + b);
    outp.r[o + 1u] = unpackUint2x32(a * b);
    outp.r[o + 2u] = unpackUint2x32(a >> (b & 63ul));
    outp.r[o + 3u] = unpackUint2x32(uint64_t(sa >> int(b & 63ul)));
    outp.r[o + 4u] = unpackUint2x32(uint64_t(sa / sb));
    outp.r[o + 5u] = unpackUint2x32(a % (b | 1ul));
    outp.r[o + 6u] = unpackUint2x32(uint64_t(int(inp.v[g].x)) + uint64_t(inp.v[g].y));
    outp.r[o + 7u] = uvec2(uint(a < b) | uint(sa < sb) << 1, uint(a ^ b));
}
