#version 450
// Integer arithmetic and bit operations, one invocation per input pair.
// Model-independent: no subgroup operation, no shared state; every result
// is a 32-bit word whose value SPIR-V defines exactly (divisors are forced
// odd, so never 0; the signed operand is halved, so never INT_MIN / -1).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uvec2 v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uint r[]; } outp;

const uint N = 36u;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = inp.v[i].x;
    uint b = inp.v[i].y;
    int sa = int(a) >> 1;
    int sb = int(b);
    uint o = i * N;
    outp.r[o + 0u] = a + b;
    outp.r[o + 1u] = a - b;
    outp.r[o + 2u] = a * b;
    outp.r[o + 3u] = a / (b | 1u);
    outp.r[o + 4u] = a % (b | 1u);
    outp.r[o + 5u] = uint(sa / (sb | 1));
    // GLSL leaves % undefined for negative operands (lavapipe takes the
    // dividend's sign, SPIR-V's OpSMod the divisor's): non-negative only.
    outp.r[o + 6u] = uint((sa & 0x7fffffff) % ((sb & 0x7fffffff) | 1));
    outp.r[o + 7u] = a << (b & 31u);
    outp.r[o + 8u] = a >> (b & 31u);
    outp.r[o + 9u] = uint(sb >> int(a & 31u));
    outp.r[o + 10u] = a & b;
    outp.r[o + 11u] = a | b;
    outp.r[o + 12u] = a ^ b;
    outp.r[o + 13u] = ~a;
    outp.r[o + 14u] = uint(bitCount(a));
    outp.r[o + 15u] = uint(findLSB(a & b));
    outp.r[o + 16u] = uint(findMSB(sb));
    outp.r[o + 17u] = uint(findMSB(a >> (b & 31u)));
    outp.r[o + 18u] = bitfieldReverse(a);
    outp.r[o + 19u] = bitfieldExtract(a, int(b & 15u), int((b >> 4) & 15u));
    outp.r[o + 20u] = uint(bitfieldExtract(sb, int(a & 15u), int((a >> 4) & 15u) + 1));
    outp.r[o + 21u] = bitfieldInsert(a, b, int(b & 15u), int((b >> 8) & 15u));
    uint hi, lo;
    umulExtended(a, b, hi, lo);
    outp.r[o + 22u] = hi;
    outp.r[o + 23u] = lo;
    int shi, slo;
    imulExtended(sa, sb, shi, slo);
    outp.r[o + 24u] = uint(shi);
    outp.r[o + 25u] = uint(slo);
    uint carry;
    outp.r[o + 26u] = uaddCarry(a, b, carry);
    outp.r[o + 27u] = carry;
    uint borrow;
    outp.r[o + 28u] = usubBorrow(a, b, borrow);
    outp.r[o + 29u] = borrow;
    outp.r[o + 30u] = min(a, b) ^ max(a, b) * 3u;
    outp.r[o + 31u] = uint(min(sa, sb)) + uint(max(sa, sb)) * 5u;
    outp.r[o + 32u] = clamp(a, 1000u, 0x80000000u);
    outp.r[o + 33u] = uint(clamp(sb, -70000, 70000));
    outp.r[o + 34u] = uint(abs(sb)) + uint(sign(sb)) * 7u;
    outp.r[o + 35u] = uint(-sa) + uint(a < b) * 2u + uint(sa >= sb) * 4u + uint(a == b) * 8u;
}
