#version 450
#extension GL_KHR_shader_subgroup_quad : require
// Quad operations in a compute shader (quads are lanes 4k..4k+3): broadcast
// of each quad index, swaps horizontal/vertical/diagonal, on uint and vec2.
// Uniform control flow with full subgroups: model-independent.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uint r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint u = inp.v[g];
    uint o = g * 8u;
    outp.r[o + 0u] = subgroupQuadBroadcast(u, 0u);
    outp.r[o + 1u] = subgroupQuadBroadcast(u, 1u);
    outp.r[o + 2u] = subgroupQuadBroadcast(u, 2u);
    outp.r[o + 3u] = subgroupQuadBroadcast(u, 3u);
    outp.r[o + 4u] = subgroupQuadSwapHorizontal(u);
    outp.r[o + 5u] = subgroupQuadSwapVertical(u);
    outp.r[o + 6u] = subgroupQuadSwapDiagonal(u);
    vec2 f = subgroupQuadSwapHorizontal(vec2(float(u & 1023u), float(g)));
    outp.r[o + 7u] = floatBitsToUint(f.x + f.y * 1024.0);
}
