#version 450
// Loops whose trip counts differ per invocation: Collatz steps of g + 1,
// a search loop left by a divergent break, a loop with a divergent continue
// and a nested loop bounded by the outer counter. Every value is per
// invocation, so the result does not depend on how the subgroup
// reconverges. Model-independent.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Out { uint r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint x = g + 1u;
    uint steps = 0u;
    while (x != 1u) {
        x = (x & 1u) != 0u ? 3u * x + 1u : x >> 1;
        steps++;
    }
    uint found = 0xFFFFFFFFu;
    for (uint i = 0u; i < 100u; i++) {
        if ((i * i) % 13u == g % 13u && i > g % 5u) {
            found = i;
            break;
        }
    }
    uint odd = 0u;
    for (uint i = 0u; i < g % 17u; i++) {
        if ((i & 1u) == 0u) {
            continue;
        }
        odd += i;
        for (uint j = 0u; j < i; j++) {
            odd ^= j << (i & 7u);
        }
    }
    outp.r[g * 3u] = steps;
    outp.r[g * 3u + 1u] = found;
    outp.r[g * 3u + 2u] = odd;
}
