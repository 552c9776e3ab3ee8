#version 450
// workgroup_last_group_flag.comp -- the "last workgroup" idiom of reduction
// libraries: one invocation takes a ticket with an atomic, publishes it in
// shared memory, and after a barrier the whole workgroup branches on it.
// Expectations: barrier() is executed by the whole workgroup in uniform
// control flow and makes the store to 'flag' visible to every invocation;
// between that barrier and the next one no invocation writes 'flag', so every
// invocation reads the same value (whatever was stored, by one writer or an
// atomic): the branch is uniform and the barrier inside it is legal.
layout(local_size_x = 64) in;
shared uint flag;
layout(set = 0, binding = 0) buffer B { uint counter; uint data[]; } b;
void main() {
    if (gl_LocalInvocationIndex == 0u) {
        flag = atomicAdd(b.counter, 1u);
    }
    barrier();
    if (flag == 3u) {
        b.data[gl_LocalInvocationIndex] = 1u;
        barrier();                           // EXPECT-NOT: barrier-divergent-cf
    }
}
