#version 450
// Float arithmetic whose results IEEE 754 and Vulkan fix to the bit: add,
// subtract, multiply (correctly rounded in Vulkan), floor/ceil/trunc/fract/
// roundEven/abs/sign/min/max/clamp/step (exact), scaling by powers of two,
// and bit casts. No division, sqrt, fma or transcendental (their last bits
// may differ by driver). Inputs are normal numbers; no NaN, no -0.0 in
// min/max. Model-independent: per invocation, no subgroup operation.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec2 v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uint r[]; } outp;

const uint N = 20u;

void put(uint k, float x) {
    outp.r[gl_GlobalInvocationID.x * N + k] = floatBitsToUint(x);
}

void main() {
    vec2 v = inp.v[gl_GlobalInvocationID.x];
    float a = v.x;
    float b = v.y;
    put(0u, a + b);
    put(1u, a - b);
    put(2u, a * b);
    put(3u, a * 0.25 + b * 8.0);
    put(4u, floor(a));
    put(5u, ceil(a));
    put(6u, trunc(b));
    put(7u, fract(a));
    put(8u, roundEven(a * 2.0));
    put(9u, abs(b));
    put(10u, sign(b));
    put(11u, min(a, b));
    put(12u, max(a, b));
    put(13u, clamp(a, -2.5, 3.75));
    put(14u, step(b, a));
    put(15u, -a);
    put(16u, float(a < b) + float(a <= b) * 2.0 + float(a == b) * 4.0 + float(a != b) * 8.0);
    put(17u, uintBitsToFloat(floatBitsToUint(a) ^ 0x80000000u));
    put(18u, intBitsToFloat(floatBitsToInt(b) + 1));
    precise float t = a * 3.0 - b;  // NoContraction: never fused into an fma
    put(19u, t * 0.5);
}
