#version 450
// Push constants (a uint, an ivec2, a float, a uvec4 at std430 offsets 0, 8,
// 16, 32) steering per-invocation arithmetic. Model-independent: per
// invocation, no subgroup operation.
layout(local_size_x = 32) in;
layout(push_constant, std430) uniform PC {
    uint count;
    ivec2 delta;
    float scale;
    uvec4 mask;
} pc;
layout(set = 0, binding = 0, std430) buffer Out { uint r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint v = g < pc.count ? g * uint(pc.delta.x) : uint(pc.delta.y);
    outp.r[g * 3u + 0u] = v & pc.mask[g % 4u];
    outp.r[g * 3u + 1u] = floatBitsToUint(float(g) * pc.scale);
    outp.r[g * 3u + 2u] = uint(pc.delta.x + pc.delta.y) ^ pc.mask.w;
}
