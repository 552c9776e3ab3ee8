#version 450
// Atomics whose outcome does not depend on the order invocations run in.
// Storage buffer (4 workgroups of 64 share it): add, min, max, and, or, xor
// (signed and unsigned) leave order-independent final values; atomicAdd's
// returned values, used as slot indices, mark every slot 0..255 exactly once.
// Shared memory (per workgroup): atomicExchange's returned values are marked
// in a seen table and atomicCompSwap lets exactly one invocation per cell
// win; which invocation survives or wins depends on the order, so only
// order-independent summaries of these reach the output (after a barrier).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Counters {
    uint add;
    uint minv;
    uint maxv;
    uint andv;
    uint orv;
    uint xorv;
    int smin;
    int smax;
    uint next;
    uint summary[4];
} c;
layout(set = 0, binding = 1, std430) buffer Slots { uint slot[]; } slots;   // 256 words

shared uint s_xchg;
shared uint s_seen[65];
shared uint s_cas[8];
shared uint s_wins;
shared uint s_ok;
shared uint s_hist[8];

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    s_seen[l + 1u] = 0u;
    if (l == 0u) {
        s_xchg = 0u;
        s_seen[0] = 0u;
        s_wins = 0u;
        s_ok = 0u;
    }
    if (l < 8u) {
        s_cas[l] = 0u;
        s_hist[l] = 0u;
    }
    barrier();
    uint h = g * 2654435761u;
    atomicAdd(c.add, g);
    atomicMin(c.minv, h | 1u);
    atomicMax(c.maxv, h >> 1);
    atomicAnd(c.andv, ~(1u << (g & 31u)) | (h & 1u));
    atomicOr(c.orv, 1u << (h >> 27));
    atomicXor(c.xorv, h);
    atomicMin(c.smin, int(h));
    atomicMax(c.smax, int(h ^ 0x55555555u));
    uint mine = atomicAdd(c.next, 1u);
    atomicAdd(slots.slot[mine], 1u);
    uint previous = atomicExchange(s_xchg, l + 1u);
    atomicAdd(s_seen[previous], 1u);
    if (atomicCompSwap(s_cas[l % 8u], 0u, l + 1u) == 0u) {
        atomicAdd(s_wins, 1u);
    }
    atomicAdd(s_hist[h >> 29], 1u);
    barrier();
    // The survivor of the exchanges was never returned; everybody else once.
    uint survivor = s_xchg;
    bool ok = s_seen[l + 1u] == (l + 1u == survivor ? 0u : 1u);
    // The winner of a cell holds its own id + 1, which is congruent to the cell.
    ok = ok && s_cas[l % 8u] % 8u == (l + 1u) % 8u && s_seen[0] == 1u;
    atomicAdd(s_ok, ok ? 1u : 0u);
    barrier();
    if (l == 0u) {
        c.summary[gl_WorkGroupID.x] = s_ok * 1000000u + s_wins * 1000u + s_hist[0] + s_hist[7] * 64u;
    }
}
