#version 450
// Nested if/else on per-invocation conditions, short-circuit && and ||
// (glslang makes branches of them), a ternary, and an early return that
// leaves some invocations' second result at its initial value. Per
// invocation only: model-independent.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Out { uint r[]; } outp;

uint side = 0u;

bool probe(uint v) {
    side += 1u;          // counts how often short-circuiting evaluated it
    return (v & 4u) != 0u;
}

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint v = 0u;
    if ((g & 1u) != 0u) {
        if ((g & 2u) != 0u) {
            v = 1u;
        } else if (g > 40u) {
            v = 2u;
        } else {
            v = 3u;
        }
    } else {
        v = (g % 3u == 0u) ? 4u : 5u;
        if (g > 10u && probe(g)) {
            v += 10u;
        }
        if (g < 20u || probe(g + 1u)) {
            v += 100u;
        }
    }
    outp.r[g * 2u] = v * 1000u + side;
    if (g % 7u == 3u) {
        return;
    }
    outp.r[g * 2u + 1u] = v ^ g;
}
