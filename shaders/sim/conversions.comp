#version 450
// Conversions between int, uint, float and bool, and half-float packing of
// values exactly representable in 16 bits. Float-to-integer conversion
// truncates (exact); integer-to-float conversion of values below 2^24 is
// exact. Model-independent: per invocation, no subgroup operation.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std430) readonly buffer In { int i[32]; float f[32]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uint r[]; } outp;

const uint N = 12u;

void main() {
    uint g = gl_GlobalInvocationID.x;
    int i = inp.i[g];
    float f = inp.f[g];
    uint o = g * N;
    outp.r[o + 0u] = floatBitsToUint(float(i));
    outp.r[o + 1u] = floatBitsToUint(float(uint(i) & 0xFFFFFFu));
    outp.r[o + 2u] = uint(int(f));
    outp.r[o + 3u] = uint(abs(f));
    outp.r[o + 4u] = uint(bool(i)) + uint(bool(f)) * 2u;
    outp.r[o + 5u] = floatBitsToUint(float(bool(i & 1)));
    outp.r[o + 6u] = uint(i);
    outp.r[o + 7u] = uint(int(uint(i) >> 3));
    outp.r[o + 8u] = packHalf2x16(vec2(f, float(i & 1023)));
    vec2 h = unpackHalf2x16(packHalf2x16(vec2(f * 0.5, -f)));
    outp.r[o + 9u] = floatBitsToUint(h.x);
    outp.r[o + 10u] = floatBitsToUint(h.y);
    outp.r[o + 11u] = uint(ivec2(vec2(f, -f)).y) ^ uint(uvec2(abs(vec2(f * 2.0, 1.5))).x);
}
