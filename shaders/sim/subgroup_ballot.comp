#version 450
#extension GL_KHR_shader_subgroup_ballot : require
// Ballot and friends in uniform control flow (every invocation of the full
// subgroups active, so model-independent): subgroupBallot of a
// per-invocation condition, the bit counts, find LSB/MSB, bit extract,
// inverse ballot, broadcast of a constant lane and broadcast-first, elect,
// the gl_Subgroup*Mask built-ins, gl_SubgroupID and gl_NumSubgroups.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint v[]; } inp;
layout(set = 0, binding = 1, std430) buffer Out { uint r[]; } outp;

const uint N = 16u;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint u = inp.v[g];
    bool p = (u & 3u) != 0u;
    uvec4 b = subgroupBallot(p);
    uint o = g * N;
    outp.r[o + 0u] = b.x;
    outp.r[o + 1u] = b.y | b.z | b.w;
    outp.r[o + 2u] = subgroupBallotBitCount(b);
    outp.r[o + 3u] = subgroupBallotInclusiveBitCount(b);
    outp.r[o + 4u] = subgroupBallotExclusiveBitCount(b);
    outp.r[o + 5u] = subgroupBallotFindLSB(b | uvec4(0x80u, 0u, 0u, 0u));
    outp.r[o + 6u] = subgroupBallotFindMSB(b | uvec4(1u, 0u, 0u, 0u));
    outp.r[o + 7u] = uint(subgroupBallotBitExtract(b, (gl_SubgroupInvocationID + 3u) % gl_SubgroupSize));
    outp.r[o + 8u] = uint(subgroupInverseBallot(uvec4(0xA5u, 0u, 0u, 0u)));
    outp.r[o + 9u] = subgroupBroadcast(u, 5u);
    outp.r[o + 10u] = subgroupBroadcastFirst(u * 3u);
    outp.r[o + 11u] = uint(subgroupElect()) + gl_SubgroupInvocationID * 2u;
    outp.r[o + 12u] = gl_SubgroupEqMask.x | gl_SubgroupGeMask.x << 8 | gl_SubgroupGtMask.x << 16
                      | gl_SubgroupLeMask.x << 24;
    outp.r[o + 13u] = gl_SubgroupLtMask.x + gl_SubgroupGeMask.y + gl_SubgroupSize * 1000u;
    outp.r[o + 14u] = gl_SubgroupID * 100u + gl_NumSubgroups;
    outp.r[o + 15u] = subgroupBallotBitCount(subgroupBallot(true));
}
