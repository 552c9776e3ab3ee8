#version 450
// workgroup_ticket_loop.comp -- a workgroup-wide counter in shared memory,
// advanced by one invocation per round, and a flag that is read and reset in
// the same barrier interval.
// Expectations: in the loop, 'counter' is read between the barrier at the
// top and the one before the store, so no invocation writes it while the
// others read it: 'v' is uniform and the barrier under the branch on it is
// legal. 'flag' is read and then written by invocation 5 with no barrier in
// between: invocation 5 may store before another invocation reads, so 'seen'
// may differ and the barrier under the branch on it is an error.
layout(local_size_x = 64) in;
shared uint counter;
shared uint flag;
layout(set = 0, binding = 0) buffer Out { uint data[]; } o;
void main() {
    if (gl_LocalInvocationIndex == 0u) {
        counter = 0u;
        flag = 7u;
    }
    for (uint i = 0u; i < 4u; ++i) {
        barrier();
        uint v = counter;
        if (v > 2u) {
            barrier();                       // EXPECT-NOT: barrier-divergent-cf
        }
        barrier();
        if (gl_LocalInvocationIndex == 0u) {
            counter = v + 1u;
        }
    }
    barrier();
    uint seen = flag;
    if (gl_LocalInvocationIndex == 5u) {
        flag = 0u;
    }
    if (seen == 7u) {
        barrier();                           // EXPECT: barrier-divergent-cf
    }
    o.data[gl_LocalInvocationIndex] = seen;
}
