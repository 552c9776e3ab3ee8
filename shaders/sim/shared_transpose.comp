#version 450
// An 8x8 tile transpose through shared memory (local size 8x8, 2x3 tiles of
// a 16x24 matrix) with one barrier, and a second pass that rotates the tile
// in place using memoryBarrierShared + barrier. Every invocation writes its
// own element. Model-independent.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint m[]; } inp;    // 24 rows of 16
layout(set = 0, binding = 1, std430) buffer Out { uint t[]; } outp;          // 16 rows of 24
layout(set = 0, binding = 2, std430) buffer Rot { uint t[]; } rot;

shared uint tile[8][9];

void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    uvec2 base = gl_WorkGroupID.xy * 8u;
    tile[l.y][l.x] = inp.m[(base.y + l.y) * 16u + base.x + l.x];
    barrier();
    uint v = tile[l.x][l.y];
    outp.t[(base.x + l.y) * 24u + base.y + l.x] = v;
    barrier();
    tile[l.y][l.x] = v + 1u;
    memoryBarrierShared();
    barrier();
    rot.t[gl_LocalInvocationIndex + 64u * (gl_WorkGroupID.y * 2u + gl_WorkGroupID.x)] =
        tile[7u - l.x][l.y];
}
