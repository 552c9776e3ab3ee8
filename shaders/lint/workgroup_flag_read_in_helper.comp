#version 450
// workgroup_flag_read_in_helper.comp -- a helper reads a shared flag right
// after a barrier and returns it; the caller then overwrites the flag from
// one invocation before any further barrier.
// Expectations: the interval that starts at readFlag's barrier does not end
// at its return: it goes on in main until the next barrier, and invocation 0
// writes 'flag' there. Invocation 0 may store 5 before another invocation
// has loaded the 1, so 'v' can differ between invocations and the barrier
// under 'v == 1u' may be reached by only part of the workgroup: an error at
// -O0 (helper) as after inlining. readStable's load is followed by a second
// barrier inside the helper, so no write can race with it: 'w' is uniform
// and the barrier under it is legal.
layout(local_size_x = 64) in;
shared uint flag;
layout(set = 0, binding = 0) buffer B { uint data[]; } b;
uint readFlag() {
    barrier();
    return flag;
}
uint readStable() {
    barrier();
    uint f = flag;
    barrier();
    return f;
}
void main() {
    if (gl_LocalInvocationIndex == 0u) flag = 1u;
    uint w = readStable();
    if (w == 1u) {
        barrier();                           // EXPECT-NOT: barrier-divergent-cf
    }
    uint v = readFlag();
    if (gl_LocalInvocationIndex == 0u) flag = 5u;
    if (v == 1u) {
        barrier();                           // EXPECT: barrier-divergent-cf error
    }
    b.data[gl_LocalInvocationIndex] = v + w;
}
