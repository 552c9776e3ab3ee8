#version 450
// workgroup_last_group_spd_helpers.comp -- the "last workgroup" exit of a
// single-pass downsampler written with helpers, as AMD's SPD (ffx_spd.h)
// does: the barrier sits in sync(), the ticket is read in readCounter(), and
// exitWorkgroup() calls both.
// Expectations: sync() executes a workgroup barrier on every path and writes
// no shared memory, so its call ends an interval like the barrier itself.
// The interval around readCounter()'s load starts at that call (in the
// caller) and runs, through readCounter()'s and exitWorkgroup()'s returns,
// into main up to the next barrier; nobody writes 'counter' on the way, so
// the load is uniform, exitWorkgroup() returns the same value everywhere and
// the barrier after the early return is legal, at -O0 as after inlining.
// dropTicket() has the same shape but main writes 'counter' after its call
// and before the next barrier: invocation 0 may overwrite the ticket while
// others still read it, and the barrier under the value is an error. (It
// reads through a helper of its own: a load is separated for all calls of
// its function or none, so a readCounter() call here would make the first
// read divergent too.)
// publishMode() stores before its barrier, which belongs to the interval
// before the call: 'mode' read after the call is uniform. publishLate()
// stores after its barrier, inside the interval that goes on in main: the
// read of 'late' races with it. maybeSync() executes its barrier only when
// the push constant says so: its call ends no interval, and invocation 0's
// store to 'gate' before it may race with the read after it.
layout(local_size_x = 64) in;
shared uint counter;
shared uint mode;
shared uint late;
shared uint gate;
layout(push_constant) uniform P { uint n; } pc;
layout(set = 0, binding = 0) buffer B { uint global_counter; uint data[]; } b;
void sync() { barrier(); }
uint readCounter() { return counter; }
bool exitWorkgroup() {
    if (gl_LocalInvocationIndex == 0u) counter = atomicAdd(b.global_counter, 1u);
    sync();
    return readCounter() != gl_NumWorkGroups.x - 1u;
}
uint readTicket() { return counter; }
uint dropTicket() {
    sync();
    return readTicket();
}
void publishMode() {
    if (gl_LocalInvocationIndex == 0u) mode = b.data[0];
    barrier();
}
void publishLate() {
    barrier();
    if (gl_LocalInvocationIndex == 0u) late = b.data[1];
}
void maybeSync(uint n) {
    if (n > 0u) barrier();
}
void main() {
    if (gl_LocalInvocationIndex == 0u) gate = b.data[2];
    maybeSync(pc.n);
    if (gate == 1u) {
        barrier();                           // EXPECT: barrier-divergent-cf error
    }
    publishMode();
    if (mode == 2u) {
        barrier();                           // EXPECT-NOT: barrier-divergent-cf
    }
    publishLate();
    if (late == 2u) {
        barrier();                           // EXPECT: barrier-divergent-cf error
    }
    if (exitWorkgroup()) return;
    b.data[gl_LocalInvocationIndex] = 1u;
    barrier();                               // EXPECT-NOT: barrier-divergent-cf
    uint t = dropTicket();
    if (gl_LocalInvocationIndex == 0u) counter = 0u;
    if (t == 7u) {
        barrier();                           // EXPECT: barrier-divergent-cf error
    }
    b.data[gl_LocalInvocationIndex] = t;
}
