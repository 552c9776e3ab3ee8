#version 450
// Function calls: return values, several returns in one function, in, out
// and inout parameters (glslang copies them through Function variables),
// struct and array arguments and results, calls in loops and in divergent
// branches. Per invocation only: model-independent.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std430) buffer Out { uint r[]; } outp;

struct Pair { uint a; uint b; };

uint gcd(uint a, uint b) {
    while (b != 0u) {
        uint t = a % b;
        a = b;
        b = t;
    }
    return a;
}

uint firstDivisor(uint n) {
    if (n < 2u) {
        return 0u;
    }
    for (uint d = 2u; d * d <= n; d++) {
        if (n % d == 0u) {
            return d;
        }
    }
    return n;
}

void split(uint v, out uint hi, inout uint count) {
    hi = v >> 4;
    count += v & 15u;
}

Pair swapped(Pair p) {
    return Pair(p.b, p.a + 1u);
}

uint sum(uint values[4]) {
    uint s = 0u;
    for (int i = 0; i < 4; i++) {
        s += values[i] * uint(i + 1);
    }
    return s;
}

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint count = 1u;
    uint hi;
    split(g * 37u, hi, count);
    Pair p = swapped(Pair(g, gcd(g + 12u, 18u)));
    uint arr[4] = uint[4](g, hi, count, p.a);
    uint f = 0u;
    if ((g & 3u) != 0u) {
        f = firstDivisor(g * 7u + 3u);
    }
    outp.r[g * 4u + 0u] = hi * 100u + count;
    outp.r[g * 4u + 1u] = p.a * 1000u + p.b;
    outp.r[g * 4u + 2u] = sum(arr);
    outp.r[g * 4u + 3u] = f;
}
