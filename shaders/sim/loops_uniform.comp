#version 450
// Loops whose trip counts and exits are the same for every invocation (read
// from a buffer, so not folded): for, while and do-while, nested, with
// uniform break and continue. Model-independent: no subgroup operation.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint n[4]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uint r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint acc = g;
    for (uint i = 0u; i < inp.n[0]; i++) {
        acc = acc * 31u + i;
        if (i == inp.n[1]) {
            continue;
        }
        for (uint j = 0u; j < inp.n[1]; j++) {
            acc ^= acc >> 3;
            if (j == 2u) {
                break;
            }
        }
    }
    uint k = 0u;
    while (k < inp.n[2]) {
        acc += k * k;
        k += 2u;
    }
    uint m = 0u;
    do {
        acc = (acc << 1) | (acc >> 31);
        m++;
    } while (m < inp.n[3]);
    outp.r[g * 2u] = acc;
    outp.r[g * 2u + 1u] = k + m;
}
