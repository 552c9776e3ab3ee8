#version 450
// Function-scope and private arrays with dynamic indices, array copies,
// a bubble sort of 8 values per invocation, and a struct holding an array.
// Per invocation only: model-independent.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std430) buffer Out { uint r[]; } outp;

struct Bag { uint items[4]; uint n; };

uint table[16];

void main() {
    uint g = gl_GlobalInvocationID.x;
    for (uint i = 0u; i < 16u; i++) {
        table[i] = (i * 7u + g) % 16u;
    }
    uint v[8];
    for (uint i = 0u; i < 8u; i++) {
        v[i] = table[(g + i * 3u) % 16u] * 3u + i;
    }
    uint w[8] = v;
    for (uint i = 0u; i < 8u; i++) {
        for (uint j = 0u; j + 1u < 8u - i; j++) {
            if (w[j] > w[j + 1u]) {
                uint t = w[j];
                w[j] = w[j + 1u];
                w[j + 1u] = t;
            }
        }
    }
    Bag b;
    b.n = 0u;
    for (uint i = 0u; i < 8u; i += 2u) {
        b.items[b.n++] = v[i] ^ w[i];
    }
    Bag copy = b;
    copy.items[g % 4u] = 0xABCDu;
    for (uint i = 0u; i < 8u; i++) {
        outp.r[g * 14u + i] = w[i];
    }
    for (uint i = 0u; i < 4u; i++) {
        outp.r[g * 14u + 8u + i] = copy.items[i] + b.items[i];
    }
    outp.r[g * 14u + 12u] = table[g % 16u];
    outp.r[g * 14u + 13u] = v[g % 8u];
}
