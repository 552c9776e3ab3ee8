#version 450
// switch statements: per-invocation selectors, fall-through, default in the
// middle, a nested switch, a switch inside a loop with break (leaves the
// switch) and continue (next iteration). Per invocation: model-independent.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std430) buffer Out { uint r[]; } outp;

uint classify(uint x) {
    uint v = 0u;
    switch (x % 6u) {
    case 0u:
        v += 1u;
    case 1u:                 // 0 falls through into 1
        v += 10u;
        break;
    default:
        v += 100u;
        break;
    case 4u:
        switch (x / 6u % 3u) {
        case 0u: v += 1000u; break;
        case 2u: v += 2000u;
        default: v += 3000u;
        }
        break;
    case 5u:
        return 7u;
    }
    return v;
}

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint acc = 0u;
    for (uint i = 0u; i < 8u; i++) {
        switch ((g + i) & 3u) {
        case 0u:
            acc += 1u;
            break;
        case 1u:
            continue;
        case 2u:
            acc *= 3u;
        default:
            acc += i;
        }
        acc ^= i << 4;
    }
    outp.r[g * 2u] = classify(g);
    outp.r[g * 2u + 1u] = acc;
}
